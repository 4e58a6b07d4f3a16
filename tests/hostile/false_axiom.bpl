// An inconsistent axiom: no goal is proved unreachable from it (each is undecided).
axiom false;

procedure P(x: int) returns (y: int) {
  if (x > 0) { y := 1; } else { y := 2; }
}
