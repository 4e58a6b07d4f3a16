// Integer square root by bisection (the paper's square root class, written as a new user
// would): the largest r with r * r <= n, searched for in [x1, x2) with
// x1 * x1 <= n < x2 * x2; a midpoint whose square is n ends the search at once. Its
// `mid * mid == n` branch needs an input that is a perfect square the bisection meets at
// a given iteration: with `--unroll 15`, `body@13/if#1/then` needs n in the thousands.

procedure IntegerSquareRoot(n: int) returns (r: int)
  requires n >= 0;
  ensures r >= 0 && r * r <= n && n < (r + 1) * (r + 1);
{
  var x1, x2, mid: int;
  x1 := 0;
  x2 := n + 1;
  while (x1 + 1 < x2)
    invariant 0 <= x1 && x1 < x2;
    invariant x1 * x1 <= n && n < x2 * x2;
  {
    mid := (x1 + x2) div 2;
    if (mid * mid == n) {
      x1 := mid;
      break;
    } else if (mid * mid < n) {
      x1 := mid;
    } else {
      x2 := mid;
    }
  }
  r := x1;
}
