// Tests whose runs violate a contract: `prove-tests` reports each as a finding at the
// violated clause. One kind of check per procedure; every other goal is covered by a
// passing test.

// A postcondition: only x == 5 breaks it.
procedure Abs(x: int) returns (y: int)
  ensures y >= 0;
{
  if (x == 5) {
    y := -1;
  } else if (x < 0) {
    y := -x;
  } else {
    y := x;
  }
}

procedure Half(n: int) returns (h: int)
  requires n >= 0;
{
  h := n div 2;
}

// A callee's precondition, at the call: every a > 3 below 10 breaks it.
procedure HalfOfLess(a: int) returns (r: int)
{
  if (a > 3) {
    call r := Half(a - 10);
  } else {
    r := 0;
  }
}

// An assertion: the branch that reaches it always breaks it.
procedure Clamp(x: int) returns (y: int)
{
  y := x;
  if (x > 100) {
    y := x + 1;
    assert y <= 100;
  }
}

// A loop invariant, after an iteration: the branch inside the loop breaks it.
procedure Count(n: int) returns (i: int)
  requires n >= 0;
{
  i := 0;
  while (i < n)
    invariant i <= 2;
  {
    if (i == 2) {
      i := i + 10;
    }
    i := i + 1;
  }
}

// A callee's postcondition, broken while the callee runs (calls execute in a test).
procedure AbsOfFive() returns (y: int)
{
  call y := Abs(5);
}
