// error: real literals are not supported yet
procedure Scale(x: int) returns (b: bool)
{
  b := 1.5 > 0.5;
}
