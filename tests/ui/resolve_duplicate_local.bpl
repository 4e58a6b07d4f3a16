// error: local `i` is declared twice in the same body
procedure Count(n: int) returns (c: int)
{
  var i: int;
  var c2, i: int;
  i := 0;
  c := 0;
}
