// An inconsistent axiom: every goal is vacuously unreachable.
axiom false;

procedure P(x: int) returns (y: int) {
  if (x > 0) { y := 1; } else { y := 2; }
}
