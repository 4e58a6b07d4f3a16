// Axioms written for trigger-based instantiation, as front ends write their preludes:
// no term `below(x)` ever exists, so no trigger fires, but as first-order formulas
// they contradict each other (model-based instantiation refutes them). Boogie reports
// the postcondition; a proof from the contradiction would call it verified.
function above(x: int): int;
function below(x: int): int;
axiom (forall x: int :: {above(x)} above(x) > 0);
axiom (forall x: int :: {below(x)} below(x) == above(x) - 1 && below(x) < 0);

procedure Successor(a: int) returns (r: int)
  ensures r == a + 1;
{
  r := a;
}

procedure Sanity() {
  assert false;
}
