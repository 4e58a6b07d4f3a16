// `{:subsumption 0}` (Dafny writes it on its well-formedness checks): Boogie checks the
// assertion and does not assume it after, so the check after it fails on its own too.
// Boogie 2.4.1 reports three errors here: both assertions of P, the first of Q (whose
// second assertion is assumed from the first, as usual).
procedure P(y: int) returns (r: int)
{
  assert {:subsumption 0} y != 0;
  assert y != 0;
  r := 10 div y;
}

procedure Q(y: int) returns (r: int)
{
  assert y != 0;
  assert y != 0;
}
