// error: unknown variable `total` (the local is called `sum`)
procedure Sum(n: int) returns (sum: int)
  requires n >= 0;
{
  var i: int;
  i := 0;
  sum := 0;
  while (i < n) {
    total := sum + i;
    i := i + 1;
  }
}
