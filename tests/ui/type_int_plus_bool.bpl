// error: `+` applied to int and bool
procedure Count(flag: bool, n: int) returns (m: int)
{
  m := n + flag;
}
