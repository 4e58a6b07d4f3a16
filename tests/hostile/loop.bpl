procedure Count(n: int) returns (i: int)
  requires n >= 0;
  ensures i == n;
{
  i := 0;
  while (i < n)
    invariant 0 <= i && i <= n;
  {
    i := i + 1;
  }
}
