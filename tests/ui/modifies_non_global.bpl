// error: a modifies clause names `x`, a parameter, not a global variable
procedure Inc(x: int) returns (y: int)
  modifies x;
{
  y := x + 1;
}
