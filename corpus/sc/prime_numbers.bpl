// Prime numbers (the paper's "Prime numbers" class): whether n is prime, by trial
// division with every candidate divisor 2, 3, ..., n - 1 until one divides n.
// Paper: 6 branches; seedgen goals (--goals all): 6 (n < 2 or not; loop body and exit;
// divides / does not).

// d divides n.
function Divides(d: int, n: int): bool { n mod d == 0 }

procedure IsPrime(n: int) returns (prime: bool)
  ensures prime <==> n >= 2 && (forall d: int :: 2 <= d && d < n ==> !Divides(d, n));
{
  var d: int;
  if (n < 2) {
    prime := false;
  } else {
    prime := true;
    d := 2;
    while (prime && d < n)
      invariant 2 <= d && d <= n;
      invariant prime ==> (forall k: int :: 2 <= k && k < d ==> !Divides(k, n));
      invariant !prime ==> d < n && Divides(d, n);
    {
      if (n mod d == 0) {
        prime := false;
      } else {
        d := d + 1;
      }
    }
  }
}
