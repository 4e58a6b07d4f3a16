// Primes by trial division: `a[1..count]` receives the primes up to `n`, each tested by
// the divisors `d` with `d * d <= candidate`. The contracts nest quantifiers whose inner
// bound reads the map being filled (`j * j <= a[i]`), which no interval of the
// contract's shape bounds: the interpreter finds the bound on each run's state, per
// outer binding, so every test's contracts are checked by replay.

function divides(d: int, n: int): bool { n mod d == 0 }

procedure Primes(n: int) returns (a: [int]int, count: int)
  requires n <= 30;
  ensures count >= 0;
  ensures (forall i: int :: 1 <= i && i <= count ==> a[i] >= 2);
  ensures (forall i: int :: 1 <= i && i <= count ==>
             (forall j: int :: 2 <= j && j * j <= a[i] ==> !divides(j, a[i])));
{
  var candidate, d: int;
  var prime: bool;
  count := 0;
  candidate := 2;
  while (candidate <= n)
    invariant candidate >= 2;
    invariant count >= 0;
    invariant (forall i: int :: 1 <= i && i <= count ==> a[i] >= 2 && a[i] < candidate);
    invariant (forall i: int :: 1 <= i && i <= count ==>
                 (forall j: int :: 2 <= j && j * j <= a[i] ==> !divides(j, a[i])));
  {
    d := 2;
    prime := true;
    while (d * d <= candidate && prime)
      invariant d >= 2;
      invariant prime ==> (forall j: int :: 2 <= j && j < d ==> !divides(j, candidate));
    {
      if (divides(d, candidate)) {
        prime := false;
      }
      d := d + 1;
    }
    if (prime) {
      count := count + 1;
      a[count] := candidate;
    }
    candidate := candidate + 1;
  }
}
