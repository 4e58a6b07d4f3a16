// error: type constructors with parameters (`type Set a;`, used as `Set int`) are not supported yet
type Set a;
function member(x: int, s: Set int): bool;

procedure Contains(s: Set int, x: int) returns (b: bool)
{
  b := member(x, s);
}
