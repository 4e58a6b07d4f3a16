// A precondition that refutes itself: no goal is proved unreachable from it (undecided).
procedure P(x: int) returns (y: int)
  requires x > 0;
  requires x < 0;
  ensures y == 1;
{
  y := 2;
}
