// error: `IsPositive` returns a bool, but its result is assigned to the int `r`
procedure IsPositive(x: int) returns (b: bool)
{
  b := x > 0;
}

procedure Caller(x: int) returns (r: int)
{
  call r := IsPositive(x);
}
