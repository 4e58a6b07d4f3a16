// Quick sort of the global array a[1..n]: QuickSortStep sorts a[lower..upper], whose
// elements lie in [min, max], by a three-way partition around the pivot a[upper] and two
// recursive calls on the parts below and above the pivot.  As in the Eiffel original,
// the elements are 32-bit integers, which gives the first call its bounds.  Proved: the
// result is sorted, nothing outside the sorted range changes and the bounds still hold;
// the permutation property is not stated (Swap states exactly what it does).
// Paper: 9 branches; seedgen goals (--goals all): 11 (2 in QuickSort, 2 in
// QuickSortStep, 6 in the partition loop, 1 for the branch-free Swap).

var a: [int]int;

procedure QuickSort(n: int)
  requires n >= 0;
  requires (forall k: int :: 1 <= k && k <= n ==> -2147483647 <= a[k] && a[k] <= 2147483646);
  modifies a;
  ensures (forall p, q: int :: 1 <= p && p <= q && q <= n ==> a[p] <= a[q]);
  ensures (forall k: int :: k < 1 || n < k ==> a[k] == old(a)[k]);
{
  if (n > 1) {
    call QuickSortStep(1, n, -2147483647, 2147483646);
  }
}

procedure QuickSortStep(lower: int, upper: int, min: int, max: int)
  requires 1 <= lower;
  requires (forall k: int :: lower <= k && k <= upper ==> min <= a[k] && a[k] <= max);
  modifies a;
  ensures (forall p, q: int :: lower <= p && p <= q && q <= upper ==> a[p] <= a[q]);
  ensures (forall k: int :: lower <= k && k <= upper ==> min <= a[k] && a[k] <= max);
  ensures (forall k: int :: k < lower || upper < k ==> a[k] == old(a)[k]);
{
  var pivot, left, right: int;
  if (lower < upper) {
    pivot := a[upper];
    call left, right := ThreeWayPartition(pivot, lower, upper, min, max);
    call QuickSortStep(lower, left, min, pivot - 1);
    call QuickSortStep(right, upper, pivot + 1, max);
  }
}

// Rearranges a[lower..upper] into a[lower..left] < pivot, a(left..right) = pivot and
// a[right..upper] > pivot.
procedure ThreeWayPartition(pivot: int, lower: int, upper: int, min: int, max: int)
  returns (left: int, right: int)
  requires 1 <= lower && lower <= upper;
  requires (forall k: int :: lower <= k && k <= upper ==> min <= a[k] && a[k] <= max);
  modifies a;
  ensures lower - 1 <= left && left < right && right <= upper + 1;
  ensures (forall k: int :: lower <= k && k <= left ==> a[k] < pivot);
  ensures (forall k: int :: left < k && k < right ==> a[k] == pivot);
  ensures (forall k: int :: right <= k && k <= upper ==> a[k] > pivot);
  ensures (forall k: int :: lower <= k && k <= upper ==> min <= a[k] && a[k] <= max);
  ensures (forall k: int :: k < lower || upper < k ==> a[k] == old(a)[k]);
{
  var i, j, k: int;
  i := lower;
  j := lower;
  k := upper;
  while (j <= k)
    invariant lower <= i && i <= j && j <= k + 1 && k <= upper;
    invariant (forall m: int :: lower <= m && m < i ==> a[m] < pivot);
    invariant (forall m: int :: i <= m && m < j ==> a[m] == pivot);
    invariant (forall m: int :: k < m && m <= upper ==> a[m] > pivot);
    invariant (forall m: int :: lower <= m && m <= upper ==> min <= a[m] && a[m] <= max);
    invariant (forall m: int :: m < lower || upper < m ==> a[m] == old(a)[m]);
  {
    if (a[j] < pivot) {
      call Swap(i, j);
      i := i + 1;
      j := j + 1;
    } else if (a[j] > pivot) {
      call Swap(j, k);
      k := k - 1;
    } else {
      j := j + 1;
    }
  }
  left := i - 1;
  right := k + 1;
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
