// error: procedures with type parameters are not supported yet
procedure Copy<T>(x: T) returns (y: T)
{
  y := x;
}
