// error: the guard of `if` has type int, expected bool
procedure Flag(n: int) returns (b: bool)
{
  if (n) {
    b := true;
  } else {
    b := false;
  }
}
