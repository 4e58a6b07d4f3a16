// Insertion sort of the global array a[1..n]: each element in turn is swapped backward
// into the sorted prefix.  Proved: the result is sorted and nothing outside a[1..n]
// changes; the permutation property is not stated (Swap states exactly what it does).
// Paper: 5 branches; seedgen goals (--goals all): 5 (outer and inner loop body and exit,
// and the entry of the branch-free Swap).

var a: [int]int;

procedure InsertionSort(n: int)
  requires n >= 0;
  modifies a;
  ensures (forall p, q: int :: 1 <= p && p <= q && q <= n ==> a[p] <= a[q]);
  ensures (forall k: int :: k < 1 || n < k ==> a[k] == old(a)[k]);
{
  var i, j: int;
  i := 1;
  while (i <= n)
    invariant 1 <= i && i <= n + 1;
    invariant (forall p, q: int :: 1 <= p && p <= q && q < i ==> a[p] <= a[q]);
    invariant (forall k: int :: k < 1 || n < k ==> a[k] == old(a)[k]);
  {
    // Insert a[i] into the sorted prefix a[1..i-1]: a[1..i] is sorted except for the
    // element being inserted, at j, which is no larger than anything after it.
    j := i;
    while (j > 1 && a[j - 1] > a[j])
      invariant 1 <= j && j <= i && i <= n;
      invariant (forall p, q: int :: 1 <= p && p <= q && q <= i && p != j && q != j ==> a[p] <= a[q]);
      invariant (forall q: int :: j < q && q <= i ==> a[j] <= a[q]);
      invariant (forall k: int :: k < 1 || n < k ==> a[k] == old(a)[k]);
    {
      call Swap(j - 1, j);
      j := j - 1;
    }
    i := i + 1;
  }
}

// Exchange a[i] and a[j].
procedure Swap(i: int, j: int)
  modifies a;
  ensures a == old(a)[i := old(a)[j]][j := old(a)[i]];
{
  var t: int;
  t := a[i];
  a[i] := a[j];
  a[j] := t;
}
