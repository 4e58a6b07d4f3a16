// Unstructured and unusual control flow: goto loops whose leading `assert`s are their
// invariants (with an `assume` among them, and a self loop), nested goto loops sharing
// a latch, `break` out of a labelled `if`, code after `goto`/`return`, a `while` whose
// body always leaves, and a free invariant. One error: the invariant of `NoLoop` does
// not hold on entry (line 64; it is checked once, as the loop never iterates).

procedure SelfLoop(n: int) returns (x: int)
  requires n >= 0;
  ensures x == n;
{
  x := 0;
  L: assert x <= n; assume true; assert x >= 0;
  goto Body, Done;
  Body: assume x < n; x := x + 1; goto L;
  Done: assume x >= n; return;
}

procedure SelfLatch(n: int) returns (x: int)
  requires n >= 0;
  ensures x >= n;
{
  x := 0;
  L: assert x >= 0; x := x + 1; goto L, M;
  M: assume x >= n; return;
}

procedure Nested(n: int) returns (s: int)
  requires n >= 0;
  ensures s >= 0;
{
  var i, j: int;
  s := 0; i := 0;
  O: assert i >= 0 && s >= 0;
  goto OB, OE;
  OB: assume i < n; j := 0;
  I: assert j >= 0 && s >= 0;
  goto IB, IE, O;
  IB: assume j < i; s := s + j; j := j + 1; goto I;
  IE: assume j >= i; i := i + 1; goto O;
  OE: assume i >= n; return;
}

procedure BreakIf(a: int) returns (r: int)
  ensures r == 1 || r == 2;
{
  r := 2;
  L: if (a > 0) { r := 1; if (a > 5) { break L; } r := 1; } else { r := 2; }
  assert r == 1 || r == 2;
}

procedure DeadCode(a: int) returns (r: int)
  ensures r == 1;
{
  r := 1;
  goto X;
  r := 5; if (a > 0) { r := 7; } while (true) { r := 8; }
  X: return;
  r := 9;
}

procedure NoLoop(a: int) returns (r: int)
  ensures r == 3;
{
  while (a > 0) invariant a > 100; { r := 3; return; }
  r := 3;
}

procedure FreeInvariant(n: int) returns (i: int)
  requires n >= 0;
  ensures i == n;
{
  i := 0;
  while (i < n) free invariant i <= n; invariant i >= 0; { i := i + 1; }
}
