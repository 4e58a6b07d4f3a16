// Linear search over an array given as a map `[int]int` plus a length: a while loop
// with invariants, an early exit through `break`, and postconditions for both the
// found and the not-found case (the paper's "Linear search" evaluation class).

procedure LinearSearch(a: [int]int, n: int, key: int) returns (index: int)
  requires n >= 0;
  ensures -1 <= index && index < n;
  ensures index >= 0 ==> a[index] == key;
  ensures index == -1 ==> (forall k: int :: 0 <= k && k < n ==> a[k] != key);
{
  var i: int;
  i := 0;
  index := -1;
  while (i < n)
    invariant 0 <= i && i <= n;
    invariant index == -1;
    invariant (forall k: int :: 0 <= k && k < i ==> a[k] != key);
  {
    if (a[i] == key) {
      index := i;
      break;
    }
    i := i + 1;
  }
}
