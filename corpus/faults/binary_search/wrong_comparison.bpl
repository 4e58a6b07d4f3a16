// fault: line 26: a match is treated as "too small" (`value > a[middle]` became `value >= a[middle]`).
// Binary search (the paper's "Binary search" class): the index of value in the sorted
// array a[1..n], or 0 when it is absent; the search stops as soon as it finds value.
// Paper: 5 branches; seedgen goals (--goals all): 6 (loop body, loop exit, and the four
// blocks of the three-way comparison).

procedure BinarySearch(a: [int]int, n: int, value: int) returns (index: int)
  requires n >= 0;
  requires (forall i, j: int :: 1 <= i && i <= j && j <= n ==> a[i] <= a[j]);
  ensures 0 <= index && index <= n;
  ensures index > 0 ==> a[index] == value;
  ensures index == 0 ==> (forall k: int :: 1 <= k && k <= n ==> a[k] != value);
{
  var lower, upper, middle: int;
  lower := 1;
  upper := n + 1;
  index := 0;
  while (index == 0 && lower < upper)
    invariant 1 <= lower && lower <= upper && upper <= n + 1;
    invariant 0 <= index && index <= n;
    invariant index > 0 ==> a[index] == value;
    invariant (forall k: int :: 1 <= k && k < lower ==> a[k] < value);
    invariant (forall k: int :: upper <= k && k <= n ==> value < a[k]);
  {
    middle := lower + (upper - lower) div 2;
    if (value >= a[middle]) {
      lower := middle + 1;
    } else if (a[middle] > value) {
      upper := middle;
    } else {
      index := middle;
    }
  }
}
