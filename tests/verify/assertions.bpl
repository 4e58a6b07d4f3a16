// Assertions that fail, one way each. A failing assertion is assumed afterwards (as
// Boogie does), so `x == 7` in Sequence cannot fail once `x > 0 && x < 0` held.

procedure Sequence(x: int)
{
  assert x > 0;
  assert x < 0;
  assert x == 7;
}

// A havocked value is a choice of the failing test.
procedure Havoc() returns (y: int)
{
  var x: int;
  havoc x;
  y := x * 2;
  assert y != 6;
}

// Maps are shown as tables with a default, elements of an uninterpreted type as T#n.
type T;

procedure Tables(m: [int]int, s: [int, int]bool, u: T, v: T)
{
  assert m[1] == m[2] || !s[1, 2] || u == v;
}

// Globals and constants the implementation reads are inputs too.
var counter: int;
const Limit: int;
axiom Limit > 10;

procedure Bump()
  modifies counter;
{
  counter := counter + 1;
  assert counter <= Limit;
}
