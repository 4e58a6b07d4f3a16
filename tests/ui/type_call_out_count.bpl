// error: `DivMod` has two results, the call receives only one
procedure DivMod(a: int, b: int) returns (q: int, r: int)
  requires b > 0;
{
  q := a div b;
  r := a mod b;
}

procedure Half(a: int) returns (h: int)
{
  call h := DivMod(a, 2);
}
