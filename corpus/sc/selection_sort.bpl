// Selection sort of the global array a[1..n]: for each position i, find the smallest
// element of a[i..n] and swap it into place.  Proved: the result is sorted and nothing
// outside a[1..n] changes; the permutation property is not stated.
// Paper: 5 branches; seedgen goals (--goals all): 6 (outer and inner loop body and exit,
// new minimum / not).

var a: [int]int;

procedure SelectionSort(n: int)
  requires n >= 1;
  modifies a;
  ensures (forall p, q: int :: 1 <= p && p <= q && q <= n ==> a[p] <= a[q]);
  ensures (forall k: int :: k < 1 || n < k ==> a[k] == old(a)[k]);
{
  var i, j, m, t: int;
  i := 1;
  while (i < n)
    invariant 1 <= i && i <= n;
    invariant (forall p, q: int :: 1 <= p && p <= q && q < i ==> a[p] <= a[q]);
    invariant (forall p, q: int :: 1 <= p && p < i && i <= q && q <= n ==> a[p] <= a[q]);
    invariant (forall k: int :: k < 1 || n < k ==> a[k] == old(a)[k]);
  {
    m := i;
    j := i + 1;
    while (j <= n)
      invariant i < j && j <= n + 1;
      invariant i <= m && m < j;
      invariant (forall k: int :: i <= k && k < j ==> a[m] <= a[k]);
    {
      if (a[j] < a[m]) {
        m := j;
      }
      j := j + 1;
    }
    t := a[i];
    a[i] := a[m];
    a[m] := t;
    i := i + 1;
  }
}
