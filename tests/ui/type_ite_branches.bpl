// error: the branches of `if then else` have different types (int and bool)
procedure Choose(c: bool) returns (x: int)
{
  x := (if c then 1 else false);
}
