// Optimized gnome sort of the global array a[1..n]: like gnome sort, but after carrying
// an element back to its place the gnome jumps forward to where it left off (`last`)
// instead of walking.  Proved: the result is sorted and nothing outside a[1..n] changes;
// the permutation property is not stated.
// Paper: 8 branches; seedgen goals (--goals all): 10 (loop body and exit; in order: jump
// back to `last` / step; out of order: remember `last` / keep it, or stay at the front).

var a: [int]int;

procedure OptimizedGnomeSort(n: int)
  requires n >= 1;
  modifies a;
  ensures (forall p, q: int :: 1 <= p && p <= q && q <= n ==> a[p] <= a[q]);
  ensures (forall k: int :: k < 1 || n < k ==> a[k] == old(a)[k]);
{
  var pos, last, t: int;
  pos := 2;
  last := 1;
  while (pos <= n)
    invariant 2 <= pos && pos <= n + 1;
    invariant 1 <= last && last <= n;
    invariant last == 1 || (3 <= last && pos <= last);
    // a[1..pos-1] is sorted; when the gnome is carrying an element back, a[pos..last]
    // is sorted too (the element is a[pos]) and no smaller than a[1..pos-1] after pos.
    invariant (forall p, q: int :: 1 <= p && p <= q && q < pos ==> a[p] <= a[q]);
    invariant (forall p, q: int :: pos <= p && p <= q && q <= last ==> a[p] <= a[q]);
    invariant (forall p, q: int :: 1 <= p && p < pos && pos < q && q <= last ==> a[p] <= a[q]);
    invariant (forall k: int :: k < 1 || n < k ==> a[k] == old(a)[k]);
  {
    if (a[pos] >= a[pos - 1]) {
      if (last != 1) {
        pos := last;
        last := 1;
      } else {
        pos := pos + 1;
      }
    } else {
      t := a[pos];
      a[pos] := a[pos - 1];
      a[pos - 1] := t;
      if (pos > 2) {
        if (last == 1) {
          last := pos;
        }
        pos := pos - 1;
      } else {
        pos := pos + 1;
      }
    }
  }
}
