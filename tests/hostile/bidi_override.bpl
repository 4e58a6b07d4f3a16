procedure P() {
  var x: int;
  x := 1;‮
}
