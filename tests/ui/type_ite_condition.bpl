// error: the condition of `if then else` has type int, expected bool
procedure Choose(n: int) returns (x: int)
{
  x := (if n then 1 else 2);
}
