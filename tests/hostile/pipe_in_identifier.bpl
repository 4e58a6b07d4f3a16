// `|x|` quotes a symbol in SMT-LIB, but `|` starts no Boogie token.
procedure P() {
  var |x: int;
}
