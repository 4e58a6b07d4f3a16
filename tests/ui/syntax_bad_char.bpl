// error: invalid character `@` in the guard
procedure Bump(x: int) returns (y: int)
{
  if (x @ 0) {
    y := 1;
  }
}
