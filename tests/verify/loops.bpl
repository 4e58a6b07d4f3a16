// Loop invariants that fail: on entry, not maintained, and one per back edge of a
// `goto` loop. A free invariant is assumed, never checked.

procedure EntryFails(n: int) returns (i: int)
{
  i := 1;
  while (i < n)
    invariant i == 0;
  {
    i := i + 1;
  }
}

procedure NotMaintained(n: int) returns (i: int)
{
  i := 0;
  while (i < n)
    invariant 0 <= i && i <= 5;
  {
    i := i + 1;
  }
}

// Two back edges, each checks the invariant (Boogie reports both).
procedure TwoBackEdges(n: int) returns (i: int)
{
  i := 0;
  head:
    assert i < 3;
    goto one, two, done;
  one:
    i := i + 1;
    goto head;
  two:
    i := i + 2;
    goto head;
  done:
    return;
}

// The invariant is too weak for the postcondition.
procedure TooWeak(n: int) returns (i: int)
  requires n >= 0;
  ensures i == n;
{
  i := 0;
  while (i < n)
    invariant i >= 0;
  {
    i := i + 1;
  }
}

procedure FreeStays(n: int) returns (i: int)
  ensures i >= 0;
{
  i := 0;
  while (i < n)
    free invariant i >= 0;
  {
    i := i - 1;
  }
}
