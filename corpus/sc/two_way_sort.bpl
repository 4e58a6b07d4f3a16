// Two-way sort: sorts the boolean array a[1..n] (false before true) by moving two
// indices toward each other and swapping a misplaced pair.  Proved: the result is
// sorted and nothing outside a[1..n] changes; the permutation property is not stated
// (Swap states exactly what it does).
// Paper: 6 branches; seedgen goals (--goals all): 7 (loop body and exit, the four blocks
// of the three-way case analysis, and the entry of the branch-free Swap).

var a: [int]bool;

procedure TwoWaySort(n: int)
  requires n >= 0;
  modifies a;
  ensures (forall p, q: int :: 1 <= p && p <= q && q <= n && a[p] ==> a[q]);
  ensures (forall k: int :: k < 1 || n < k ==> a[k] == old(a)[k]);
{
  var i, j: int;
  i := 0;
  j := n;
  while (i != j)
    invariant 0 <= i && i <= j && j <= n;
    invariant (forall k: int :: 1 <= k && k <= i ==> !a[k]);
    invariant (forall k: int :: j < k && k <= n ==> a[k]);
    invariant (forall k: int :: k < 1 || n < k ==> a[k] == old(a)[k]);
  {
    if (!a[i + 1]) {
      i := i + 1;
    } else if (a[j]) {
      j := j - 1;
    } else {
      call Swap(i + 1, j);
      i := i + 1;
      j := j - 1;
    }
  }
}

// Exchange a[i] and a[j].
procedure Swap(i: int, j: int)
  modifies a;
  ensures a == old(a)[i := old(a)[j]][j := old(a)[i]];
{
  var t: bool;
  t := a[i];
  a[i] := a[j];
  a[j] := t;
}
