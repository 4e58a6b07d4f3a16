// A polymorphic procedure: its generic instance is tested, and so is the instance a
// call fixes.
procedure Pick<T>(b: bool, x: T, y: T) returns (z: T)
  ensures z == x || z == y;
{
  if (b) { z := x; } else { z := y; }
}

procedure Main(n: int) returns (m: int)
  ensures m == n || m == 0;
{
  call m := Pick(n > 0, n, 0);
}
