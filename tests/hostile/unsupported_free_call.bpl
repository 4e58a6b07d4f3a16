procedure Q();
procedure P() {
  free call Q();
}
