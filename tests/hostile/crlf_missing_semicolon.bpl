procedure P(x: int)
{
  assert x > 0
}
