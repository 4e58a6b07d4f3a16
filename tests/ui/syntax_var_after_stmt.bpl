// error: local `var` declarations must come before the first statement of a body
procedure Swap(a: int, b: int) returns (x: int, y: int)
  ensures x == b && y == a;
{
  x := b;
  var t: int;
  t := a;
  y := t;
}
