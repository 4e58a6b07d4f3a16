// Iterative binary search over a sorted array (the paper's "Binary search" class): a
// loop whose body has a three-way branch, one arm of which returns from the loop.

procedure BinarySearch(a: [int]int, n: int, key: int) returns (index: int)
  requires n >= 0;
  requires (forall i, j: int :: 0 <= i && i <= j && j < n ==> a[i] <= a[j]);
  ensures index >= 0 ==> index < n && a[index] == key;
  ensures index < 0 ==> (forall k: int :: 0 <= k && k < n ==> a[k] != key);
{
  var lo, hi, mid: int;
  lo, hi := 0, n;
  index := -1;
  while (lo < hi)
    invariant 0 <= lo && lo <= hi && hi <= n;
    invariant index == -1;
    invariant (forall k: int :: 0 <= k && k < lo ==> a[k] != key);
    invariant (forall k: int :: hi <= k && k < n ==> a[k] != key);
  {
    mid := (lo + hi) div 2;
    if (a[mid] < key) {
      lo := mid + 1;
    } else if (a[mid] > key) {
      hi := mid;
    } else {
      index := mid;
      return;
    }
  }
}
