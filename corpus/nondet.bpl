// Nondeterminism: `havoc`, `if (*)`, `while (*)`, and a procedure without a body whose
// results are unknown to its callers (only its postcondition is).  For a test, each
// of these choices is an input.

// An external input: no body, so any value satisfying the postcondition may come back.
procedure ReadSensor() returns (v: int);
  ensures v >= -1000;

procedure Clamp() returns (v: int)
  ensures 0 <= v && v <= 100;
{
  call v := ReadSensor();
  if (v < 0) {
    v := 0;
  } else if (v > 100) {
    v := 100;
  }
}

// A random walk of at most n steps.
procedure RandomWalk(n: int) returns (pos: int, steps: int)
  requires n >= 0;
  ensures 0 <= steps && steps <= n;
  ensures -steps <= pos && pos <= steps;
{
  pos := 0;
  steps := 0;
  while (*)
    invariant 0 <= steps && steps <= n;
    invariant -steps <= pos && pos <= steps;
  {
    if (steps == n) {
      break;
    }
    if (*) {
      pos := pos + 1;
    } else {
      pos := pos - 1;
    }
    steps := steps + 1;
  }
}

// Picks any value, then keeps it only if it lies in [lo, hi].
procedure Choose(lo: int, hi: int) returns (x: int, ok: bool)
  requires lo <= hi;
  ensures ok ==> lo <= x && x <= hi;
  ensures !ok ==> x == lo;
{
  havoc x;
  ok := lo <= x && x <= hi;
  if (!ok) {
    x := lo;
  }
}
