// Bubble sort of the global array a[1..n]: each pass of the inner loop bubbles the
// largest element of a[1..i] up to position i.  Proved: the result is sorted and nothing
// outside a[1..n] changes; the permutation property is not stated.
// Paper: 5 branches; seedgen goals (--goals all): 6 (outer and inner loop body and exit,
// swap / no swap).

var a: [int]int;

procedure BubbleSort(n: int)
  requires n >= 0;
  modifies a;
  ensures (forall p, q: int :: 1 <= p && p <= q && q <= n ==> a[p] <= a[q]);
  ensures (forall k: int :: k < 1 || n < k ==> a[k] == old(a)[k]);
{
  var i, j, t: int;
  i := n;
  while (i > 1)
    invariant 0 <= i && i <= n;
    invariant (forall p, q: int :: i < p && p <= q && q <= n ==> a[p] <= a[q]);
    invariant (forall p, q: int :: 1 <= p && p <= i && i < q && q <= n ==> a[p] <= a[q]);
    invariant (forall k: int :: k < 1 || n < k ==> a[k] == old(a)[k]);
  {
    j := 1;
    while (j < i)
      invariant 1 <= j && j <= i && i <= n;
      invariant (forall p, q: int :: i < p && p <= q && q <= n ==> a[p] <= a[q]);
      invariant (forall p, q: int :: 1 <= p && p <= i && i < q && q <= n ==> a[p] <= a[q]);
      invariant (forall p: int :: 1 <= p && p <= j ==> a[p] <= a[j]);
      invariant (forall k: int :: k < 1 || n < k ==> a[k] == old(a)[k]);
    {
      if (a[j] > a[j + 1]) {
        t := a[j];
        a[j] := a[j + 1];
        a[j + 1] := t;
      }
      j := j + 1;
    }
    i := i - 1;
  }
}
