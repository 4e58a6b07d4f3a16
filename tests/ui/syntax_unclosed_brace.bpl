// error: unexpected end of file: the body of `Abs` is never closed (missing `}`)
procedure Abs(x: int) returns (y: int)
  ensures y >= 0;
{
  if (x < 0) {
    y := -x;
  } else {
    y := x;
  }
