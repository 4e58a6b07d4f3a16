// Two entries into the cycle A <-> B: no loop header dominates it.
procedure P(x: int) {
  if (x > 0) { goto A; } else { goto B; }
  A: goto B;
  B: goto A;
}
