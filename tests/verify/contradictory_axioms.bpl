// Axioms that refute themselves by their triggers: every check would hold vacuously,
// so none is reported verified; the contradiction is an error at the axioms.
// boogie-errors: 0 (Boogie verifies both implementations from the contradiction)
function f(x: int): int;
axiom (forall x: int :: {f(x)} f(x) > 0);
axiom f(2) < 0;

procedure Wrong(a: int) returns (r: int)
  ensures r == f(a) + 1;
{
  r := f(a);
}

procedure Sanity() {
  assert f(0) > 0;
  assert false;
}
