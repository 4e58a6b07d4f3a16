// error: a type constructor applied to the wrong number of arguments
type Set a;
function member(x: int, s: Set int): bool;

procedure Contains(s: Set, x: int) returns (b: bool)
{
  b := member(x, s);
}
