// error: argument `flag` of the call has type bool, `Inc` expects int
procedure Inc(x: int) returns (y: int)
{
  y := x + 1;
}

procedure Caller(flag: bool) returns (r: int)
{
  call r := Inc(flag);
}
