// error: real division of a Boolean
procedure Scale(x: int, p: bool) returns (r: real)
{
  r := 1.5 / p;
}
