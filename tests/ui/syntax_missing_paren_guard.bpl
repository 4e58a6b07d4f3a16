// error: the guard of `if` must be parenthesized: `if (x > 0)`
procedure Sign(x: int) returns (s: int)
{
  if x > 0 {
    s := 1;
  } else {
    s := 0;
  }
}
