// error: `assert` needs a bool, found int
procedure NonZero(x: int)
  requires x != 0;
{
  assert x;
}
