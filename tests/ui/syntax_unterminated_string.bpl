// error: unterminated string literal in the attribute
procedure P(x: int)
{
  assert {:msg "x must be positive} x > 0;
}
