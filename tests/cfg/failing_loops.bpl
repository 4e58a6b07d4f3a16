// Loops whose proofs fail, one way each, so that a printed graph must reproduce every
// failure: an invariant false on entry (twice), one not maintained (twice, once in a
// nested loop), a goto loop's invariant not maintained, a postcondition the invariant
// is too weak for. The free invariant is assumed, never checked, so `FreeStays`
// verifies.

procedure EntryFails(n: int) returns (i: int)
{
  i := 1;
  while (i < n) invariant i == 0; { i := i + 1; }
}

procedure NotMaintained(n: int) returns (i: int)
{
  i := 0;
  while (i < n) invariant i <= 5; { i := i + 1; }
}

procedure PostFails(n: int) returns (i: int)
  ensures i == n;
{
  i := 0;
  while (i < n) invariant i >= 0; { i := i + 1; }
}

procedure GotoInvariantFails(n: int) returns (i: int)
{
  i := 0;
  H: assert i < 3; goto B, D;
  B: i := i + 1; goto H;
  D: return;
}

procedure Both(n: int) returns (i: int)
{
  i := 5;
  while (i < n) invariant i < 3; { i := i + 2; }
  assert i > 100;
}

procedure NestedFails(n: int) returns (s: int)
{
  var i, j: int;
  s := 0; i := 0;
  while (i < n) invariant s >= 0; {
    j := 0;
    while (j < i) invariant j >= 0; { s := s - 1; j := j + 1; }
    i := i + 1;
  }
}

procedure FreeStays(n: int) returns (i: int)
  ensures i >= 0;
{
  i := 0;
  while (i < n) free invariant i >= 0; { i := i - 1; }
}
