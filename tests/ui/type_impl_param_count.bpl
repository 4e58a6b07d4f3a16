// error: the implementation of `Add` has one parameter, the procedure has two
procedure Add(x: int, y: int) returns (z: int);
  ensures z == x + y;

implementation Add(x: int) returns (z: int)
{
  z := x;
}
