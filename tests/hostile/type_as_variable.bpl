type T;
procedure P() {
  assert T == T;
}
