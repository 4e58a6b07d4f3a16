procedure Q(x: int) returns (y: int);
procedure P() {
  assert Q(1) == 2;
}
