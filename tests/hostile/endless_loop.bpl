// The loop never ends: a replay must give up, not hang.
procedure P(x: int) returns (y: int) {
  y := x;
  while (true) {
    y := y + 1;
  }
}
