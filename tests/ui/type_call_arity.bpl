// error: `Max` takes two arguments, the call passes three
procedure Max(a: int, b: int) returns (m: int)
{
  m := if a >= b then a else b;
}

procedure Max3(a: int, b: int, c: int) returns (m: int)
{
  call m := Max(a, b, c);
}
