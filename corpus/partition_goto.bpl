// Unstructured code: a partition loop written with labels and multi-target `goto`s,
// each target starting with the `assume` that selects it.  Boogie finds the loop from
// the back edges to `head`; the `assert`s at the start of the loop head are the loop
// invariants (checked on entry and after every iteration, assumed at the head).

var a: [int]int;

// Rearranges a[0..n) so that the elements smaller than p come first; returns the
// boundary k.
procedure Partition(n: int, p: int) returns (k: int)
  requires n >= 0;
  modifies a;
  ensures 0 <= k && k <= n;
  ensures (forall x: int :: 0 <= x && x < k ==> a[x] < p);
  ensures (forall x: int :: k <= x && x < n ==> a[x] >= p);
{
  var i, j, t: int;

  entry:
    i := 0;
    j := n;
    goto head;

  head:
    assert 0 <= i && i <= j && j <= n;
    assert (forall x: int :: 0 <= x && x < i ==> a[x] < p);
    assert (forall x: int :: j <= x && x < n ==> a[x] >= p);
    goto body, done;

  body:
    assume i < j;
    goto small, large;

  small:
    assume a[i] < p;
    i := i + 1;
    goto head;

  large:
    assume a[i] >= p;
    j := j - 1;
    t := a[i];
    a[i] := a[j];
    a[j] := t;
    goto head;

  done:
    assume i >= j;
    k := i;
    return;
}
