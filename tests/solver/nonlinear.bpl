// Goals behind non-linear integer equations, so prove-tests must end on time with them
// "not covered" (undecided), the easy ones covered, and exit status 3. The first is
// Fermat's x^3 + y^3 = z^3, dead, which z3 can neither satisfy nor refute: it stays
// undecided on every run (with `== z*z*z + 1`, z3 sometimes found 9^3 + 10^3 = 12^3 + 1
// within 300 ms, and the run was complete). The second z3 solves on some runs only.
procedure hard(x: int, y: int, z: int) returns (r: int)
{
  if (x > 1 && y > 1 && z > 1 && x*x*x + y*y*y == z*z*z) {
    r := 1;
  } else {
    r := 0;
  }
  if (x*x*y - 7*y*y*z + z*z*x == 12345 && x > 100) {
    r := r + 2;
  }
}
