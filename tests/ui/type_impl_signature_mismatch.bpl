// error: the implementation's parameter `x` has type bool, the procedure declares int
procedure Inc(x: int) returns (y: int);
  ensures y == x + 1;

implementation Inc(x: bool) returns (y: int)
{
  y := 1;
}
