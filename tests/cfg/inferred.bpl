// Boogie 2.4.1 infers interval invariants (`/infer`, on by default): here `i < 12` at
// the loop head, which proves the assertion after the `break`. Its inference reads
// negated guards in Boogie's spelling (`10 >= i`), so the lowered graph must spell them
// that way to verify; the cut graph has no loop left to infer anything for, and fails
// as Boogie does with `/noinfer`.

procedure BreakThenAssert(n: int) returns (i: int)
{
  i := 0;
  while (true) invariant i >= 0; { if (i > 10) { break; } i := i + 1; }
  assert i == 11;
}
