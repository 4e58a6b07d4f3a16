// error: `+` on a real and an integer (Boogie converts only with `real(e)`)
procedure Average(a: real, b: int) returns (m: real)
{
  m := (a + b) / 2.0;
}
