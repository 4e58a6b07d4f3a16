// Nondeterministic branches are choices of the failing test: `if (*)`, `while (*)`,
// and multi-target `goto`s whose targets no guard decides.

procedure Star() returns (r: int)
  ensures r >= 0;
{
  r := 0;
  while (*)
    invariant r >= 0;
  {
    if (*) {
      r := r + 1;
    } else {
      break;
    }
  }
  if (*) {
    r := r - 5;
  }
}

procedure Labels(a: int) returns (r: int)
  ensures r != 3;
{
  start:
    goto left, right;
  left:
    r := a;
    goto finish;
  right:
    r := 3;
    goto finish;
  finish:
    return;
}
