procedure Half(x: real) returns (y: real)
{
  y := x / 2.0;
}
