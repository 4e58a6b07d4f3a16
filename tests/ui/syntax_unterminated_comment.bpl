// error: unterminated block comment (the `/*` below is never closed)
procedure P(x: int) returns (y: int)
{
  /* TODO: handle negative x
  y := x;
}
