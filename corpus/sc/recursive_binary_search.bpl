// Recursive binary search: the index of value in the sorted array a[1..n], or 0 when it
// is absent; BinarySearchStep searches a[lower..upper] and calls itself on one half.
// Paper: 7 branches; seedgen goals (--goals all): 8 (2 in the wrapper; 6 in the step:
// empty range, and the four blocks of the three-way comparison).

procedure BinarySearchRecursive(a: [int]int, n: int, value: int) returns (index: int)
  requires n >= 0;
  requires (forall i, j: int :: 1 <= i && i <= j && j <= n ==> a[i] <= a[j]);
  ensures 0 <= index && index <= n;
  ensures index > 0 ==> a[index] == value;
  ensures index == 0 ==> (forall k: int :: 1 <= k && k <= n ==> a[k] != value);
{
  if (n > 0) {
    call index := BinarySearchStep(a, n, value, 1, n);
  } else {
    index := 0;
  }
}

procedure BinarySearchStep(a: [int]int, n: int, value: int, lower: int, upper: int)
  returns (index: int)
  requires (forall i, j: int :: 1 <= i && i <= j && j <= n ==> a[i] <= a[j]);
  requires 1 <= lower && lower <= n + 1;
  requires 0 <= upper && upper <= n;
  ensures index == 0 || (lower <= index && index <= upper);
  ensures index > 0 ==> a[index] == value;
  ensures index == 0 ==> (forall k: int :: lower <= k && k <= upper ==> a[k] != value);
{
  var mid: int;
  if (lower > upper) {
    index := 0;
  } else {
    mid := lower + (upper - lower) div 2;
    if (a[mid] == value) {
      index := mid;
    } else if (a[mid] > value) {
      call index := BinarySearchStep(a, n, value, lower, mid - 1);
    } else {
      call index := BinarySearchStep(a, n, value, mid + 1, upper);
    }
  }
}
