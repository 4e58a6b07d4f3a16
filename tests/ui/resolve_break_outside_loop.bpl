// error: `break` outside of any loop
procedure Early(x: int) returns (y: int)
{
  y := 0;
  if (x > 0) {
    y := x;
    break;
  }
}
