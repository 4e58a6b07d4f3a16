// Dutch flag (Dijkstra's Dutch national flag problem): FlagSort sorts the array a[1..n]
// of colours 1 (blue), 2 (white) and 3 (red) in one pass; ThreeWayPartition rearranges
// a[lower..upper] into the elements smaller than, equal to and larger than a pivot.
// Both keep three growing regions and swap elements into them.  The permutation property
// is not stated (Swap states exactly what it does).
// Paper: 11 branches; seedgen goals (--goals all): 13 (6 in each loop: body, exit and the
// four blocks of the three-way case analysis; 1 for the branch-free Swap).

var a: [int]int;

procedure FlagSort(n: int) returns (b: int, r: int)
  requires n >= 0;
  requires (forall k: int :: 1 <= k && k <= n ==> 1 <= a[k] && a[k] <= 3);
  modifies a;
  ensures 1 <= b && b <= r + 1 && r <= n;
  ensures (forall k: int :: 1 <= k && k < b ==> a[k] == 1);
  ensures (forall k: int :: b <= k && k <= r ==> a[k] == 2);
  ensures (forall k: int :: r < k && k <= n ==> a[k] == 3);
  ensures (forall k: int :: k < 1 || n < k ==> a[k] == old(a)[k]);
{
  var i: int;
  b := 1;
  i := 1;
  r := n;
  while (i <= r)
    invariant 1 <= b && b <= i && i <= r + 1 && r <= n;
    invariant (forall k: int :: 1 <= k && k < b ==> a[k] == 1);
    invariant (forall k: int :: b <= k && k < i ==> a[k] == 2);
    invariant (forall k: int :: r < k && k <= n ==> a[k] == 3);
    invariant (forall k: int :: i <= k && k <= r ==> 1 <= a[k] && a[k] <= 3);
    invariant (forall k: int :: k < 1 || n < k ==> a[k] == old(a)[k]);
  {
    if (a[i] == 1) {
      call Swap(b, i);
      b := b + 1;
      i := i + 1;
    } else if (a[i] == 2) {
      i := i + 1;
    } else {
      call Swap(r, i);
      r := r - 1;
    }
  }
}

procedure ThreeWayPartition(pivot: int, lower: int, upper: int) returns (left: int, right: int)
  requires 1 <= lower && lower <= upper;
  modifies a;
  ensures lower - 1 <= left && left < right && right <= upper + 1;
  ensures (forall k: int :: lower <= k && k <= left ==> a[k] < pivot);
  ensures (forall k: int :: left < k && k < right ==> a[k] == pivot);
  ensures (forall k: int :: right <= k && k <= upper ==> a[k] > pivot);
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
