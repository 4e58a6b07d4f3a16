// fault: line 14: the loop stops when the indices are one apart (`x != y` became `x < y - 1`): a[y] is never compared.
// Two-way max: the index of a maximum element of a[1..n], found by moving two indices
// toward each other and always discarding the smaller of the two elements they point at.
// Paper: 4 branches; seedgen goals (--goals all): 4 (loop body, loop exit, then, else).

procedure TwoWayMax(a: [int]int, n: int) returns (index: int)
  requires n >= 1;
  ensures 1 <= index && index <= n;
  ensures (forall k: int :: 1 <= k && k <= n ==> a[k] <= a[index]);
{
  var x, y: int;
  x := 1;
  y := n;
  while (x < y - 1)
    invariant 1 <= x && x <= y && y <= n;
    invariant (forall k: int :: 1 <= k && k < x ==> a[k] <= a[x] || a[k] <= a[y]);
    invariant (forall k: int :: y < k && k <= n ==> a[k] <= a[x] || a[k] <= a[y]);
  {
    if (a[x] <= a[y]) {
      x := x + 1;
    } else {
      y := y - 1;
    }
  }
  index := x;
}
