procedure Cube(x: real) returns (y: real)
{
  y := x ** 3.0;
}
