function f(x: int): int;
procedure P() {
  call f(1);
}
