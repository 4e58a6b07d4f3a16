// error: `==` compares an int with a map
var a: [int]int;

procedure Same(x: int) returns (b: bool)
{
  b := x == a;
}
