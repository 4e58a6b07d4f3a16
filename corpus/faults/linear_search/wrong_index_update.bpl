// fault: line 37: LinearSearchForward advances by 2 (`i := i + 1` became `i := i + 2`): every other element is skipped.
// Linear search (the paper's "Linear search" class): the index of a value in a[1..n],
// searched from the back (LinearSearch) and from the front (LinearSearchForward), each
// loop with the whole test in its guard; 0 means "not present".  Has tells whether the
// value is present, with LinearSearch.
// Paper: 5 branches; seedgen goals (--goals all): 5 (two loops' body and exit, and the
// entry of the branch-free Has).

procedure LinearSearch(a: [int]int, n: int, value: int) returns (index: int)
  requires n >= 0;
  ensures 0 <= index && index <= n;
  ensures index > 0 ==> a[index] == value;
  ensures (forall k: int :: index < k && k <= n ==> a[k] != value);
{
  index := n;
  while (index != 0 && a[index] != value)
    invariant 0 <= index && index <= n;
    invariant (forall k: int :: index < k && k <= n ==> a[k] != value);
  {
    index := index - 1;
  }
}

procedure LinearSearchForward(a: [int]int, n: int, value: int) returns (index: int)
  requires n >= 0;
  ensures 0 <= index && index <= n;
  ensures index > 0 ==> a[index] == value;
  ensures index == 0 ==> (forall k: int :: 1 <= k && k <= n ==> a[k] != value);
  ensures index > 0 ==> (forall k: int :: 1 <= k && k < index ==> a[k] != value);
{
  var i: int;
  i := 1;
  while (i <= n && a[i] != value)
    invariant 1 <= i && i <= n + 1;
    invariant (forall k: int :: 1 <= k && k < i ==> a[k] != value);
  {
    i := i + 2;
  }
  index := (if i <= n then i else 0);
}

// Is `value' one of a[1..n]?
procedure Has(a: [int]int, n: int, value: int) returns (found: bool)
  requires n >= 0;
  ensures found <==> (exists k: int :: 1 <= k && k <= n && a[k] == value);
{
  var index: int;
  call index := LinearSearch(a, n, value);
  found := index > 0;
}
