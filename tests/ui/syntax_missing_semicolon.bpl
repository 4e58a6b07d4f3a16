// error: expected `;` after the assignment `y := x + 1`
procedure Inc(x: int) returns (y: int)
  ensures y == x + 1;
{
  y := x + 1
}
