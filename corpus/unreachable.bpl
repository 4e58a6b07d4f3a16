// Dead code: some branches can never execute (a precondition or an earlier branch
// rules them out); every other branch is reachable.  A coverage tool must prove the
// dead ones unreachable rather than report them as uncovered.
//
// expect-unreachable: Classify/if#1/else/if#1/else
// expect-unreachable: Contradiction/if#1/then

procedure Classify(x: int) returns (r: int)
  requires x >= 0;
  ensures r == 1 || r == 2;
{
  if (x > 10) {
    r := 2;
  } else if (x >= 0) {
    r := 1;
  } else {
    // Unreachable: x >= 0 by the precondition.
    r := -1;
  }
}

procedure Contradiction(x: int, y: int) returns (z: int)
  ensures z >= x;
{
  z := x;
  if (x > 0 && x < 0) {
    // Unreachable: the guard is unsatisfiable.
    z := x - 1;
  }
  if (y > x) {
    z := y;
  }
}
