// Gnome sort of the global array a[1..n]: the gnome steps forward while neighbours are
// in order, and otherwise swaps them and steps back.  Proved: the result is sorted and
// nothing outside a[1..n] changes; the permutation property is not stated.
// Paper: 5 branches; seedgen goals (--goals all): 6 (loop body and exit; in order / out
// of order; step back / stay at the front).

var a: [int]int;

procedure GnomeSort(n: int)
  requires n >= 1;
  modifies a;
  ensures (forall p, q: int :: 1 <= p && p <= q && q <= n ==> a[p] <= a[q]);
  ensures (forall k: int :: k < 1 || n < k ==> a[k] == old(a)[k]);
{
  var pos, t: int;
  pos := 2;
  while (pos <= n)
    invariant 2 <= pos && pos <= n + 1;
    invariant (forall p, q: int :: 1 <= p && p <= q && q < pos ==> a[p] <= a[q]);
    invariant (forall k: int :: k < 1 || n < k ==> a[k] == old(a)[k]);
  {
    if (a[pos] >= a[pos - 1]) {
      pos := pos + 1;
    } else {
      t := a[pos];
      a[pos] := a[pos - 1];
      a[pos - 1] := t;
      if (pos > 2) {
        pos := pos - 1;
      }
    }
  }
}
