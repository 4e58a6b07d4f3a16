// Goals behind non-linear integer equations: z3 decides neither within a short time
// limit, so prove-tests must end on time with these goals "not covered" (undecided),
// the easy ones covered, and exit status 3.
procedure hard(x: int, y: int, z: int) returns (r: int)
{
  if (x > 1 && y > 1 && z > 1 && x*x*x + y*y*y == z*z*z + 1 && x*y*z > 100) {
    r := 1;
  } else {
    r := 0;
  }
  if (x*x*y - 7*y*y*z + z*z*x == 12345 && x > 100) {
    r := r + 2;
  }
}
