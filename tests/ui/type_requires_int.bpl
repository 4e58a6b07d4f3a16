// error: a precondition must be a bool, `n - 1` is an int
procedure Dec(n: int) returns (m: int)
  requires n - 1;
{
  m := n - 1;
}
