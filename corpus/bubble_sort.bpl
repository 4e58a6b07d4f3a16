// Nested loops: bubble sort of a global array a[0..n), each loop with its own
// invariants (the suffix a(i..n) is sorted and no smaller than the prefix; the inner
// loop bubbles the largest element of a[0..i] up to position i).

var a: [int]int;

procedure BubbleSort(n: int)
  requires n >= 0;
  modifies a;
  ensures (forall p, q: int :: 0 <= p && p <= q && q < n ==> a[p] <= a[q]);
{
  var i, j, t: int;
  i := n - 1;
  while (i > 0)
    invariant -1 <= i && i < n;
    invariant (forall p, q: int :: i < p && p <= q && q < n ==> a[p] <= a[q]);
    invariant (forall p, q: int :: 0 <= p && p <= i && i < q && q < n ==> a[p] <= a[q]);
  {
    j := 0;
    while (j < i)
      invariant 0 <= j && j <= i;
      invariant (forall p, q: int :: i < p && p <= q && q < n ==> a[p] <= a[q]);
      invariant (forall p, q: int :: 0 <= p && p <= i && i < q && q < n ==> a[p] <= a[q]);
      invariant (forall p: int :: 0 <= p && p <= j ==> a[p] <= a[j]);
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
