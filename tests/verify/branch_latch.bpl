// A loop body that ends in a branch: our graph joins the branches before the one back
// edge, so the invariant is checked once and fails once. Boogie merges the empty join
// away and checks the invariant at the end of each branch, hence two errors:
// boogie-errors: 2

procedure Steps(n: int) returns (i: int)
{
  i := 0;
  while (i < n)
    invariant i < 3;
  {
    if (*) {
      i := i + 1;
    } else {
      i := i + 2;
    }
  }
}
