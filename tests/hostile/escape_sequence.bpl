procedure P() {
  assert [31mtrue;
}
