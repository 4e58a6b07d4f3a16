// Sum and max (VSTTE 2010 problem 1): the sum and the maximum of an array a[1..n] of
// natural numbers, computed in one loop; the postcondition is the classic sum <= n * max.
// Paper: 4 branches; seedgen goals (--goals all): 4 (loop body, loop exit, then, else).

procedure SumAndMax(a: [int]int, n: int) returns (sum: int, max: int)
  requires n >= 0;
  requires (forall k: int :: 1 <= k && k <= n ==> a[k] >= 0);
  ensures (forall k: int :: 1 <= k && k <= n ==> a[k] <= max);
  ensures n == 0 ==> max == 0;
  ensures n > 0 ==> (exists k: int :: 1 <= k && k <= n && a[k] == max);
  ensures sum <= n * max;
{
  var i: int;
  sum := 0;
  max := 0;
  i := 1;
  while (i <= n)
    invariant 1 <= i && i <= n + 1;
    invariant max >= 0;
    invariant (forall k: int :: 1 <= k && k < i ==> a[k] <= max);
    invariant i == 1 ==> max == 0;
    invariant i > 1 ==> (exists k: int :: 1 <= k && k < i && a[k] == max);
    invariant sum <= (i - 1) * max;
  {
    if (a[i] > max) {
      max := a[i];
    }
    sum := sum + a[i];
    i := i + 1;
  }
}
