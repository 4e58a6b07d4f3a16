// Max (the paper's "Max in array" class): the largest element of an array a[1..n],
// found by one pass over the array.
// Paper: 3 branches; seedgen goals (--goals all): 4 (loop body, loop exit, then, else).

procedure MaxInArray(a: [int]int, n: int) returns (max: int)
  requires n >= 1;
  ensures (forall k: int :: 1 <= k && k <= n ==> a[k] <= max);
  ensures (exists k: int :: 1 <= k && k <= n && a[k] == max);
{
  var i: int;
  max := a[1];
  i := 2;
  while (i <= n)
    invariant 2 <= i && i <= n + 1;
    invariant (forall k: int :: 1 <= k && k < i ==> a[k] <= max);
    invariant (exists k: int :: 1 <= k && k < i && a[k] == max);
  {
    if (a[i] > max) {
      max := a[i];
    }
    i := i + 1;
  }
}
