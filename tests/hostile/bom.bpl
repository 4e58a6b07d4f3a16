procedure P(x: int) returns (y: int)
{
  y := x;
}
