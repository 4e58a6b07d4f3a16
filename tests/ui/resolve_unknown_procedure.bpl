// error: call to an undeclared procedure `Absolute`
procedure Abs(x: int) returns (y: int)
  ensures y >= 0;
{
  y := if x < 0 then -x else x;
}

procedure Distance(p: int, q: int) returns (d: int)
{
  call d := Absolute(p - q);
}
