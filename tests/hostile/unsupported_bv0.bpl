procedure P(x: bv0) returns (y: bv0)
{
  y := x;
}
