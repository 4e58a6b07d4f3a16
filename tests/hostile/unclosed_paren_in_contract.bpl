procedure P(x: int)
  requires (x > 0 && (x < 10);
{
}
