// error: the guard of `while` has type int, expected bool
procedure Drain(n: int) returns (k: int)
  requires n >= 0;
{
  k := n;
  while (k)
    invariant k >= 0;
  {
    k := k - 1;
  }
}
