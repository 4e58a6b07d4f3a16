procedure P(x: int) {
  assert x != 7;
}
