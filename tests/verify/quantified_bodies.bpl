// Functions whose bodies quantify, as front ends write them (AutoProof's frame and
// heap predicates, Dafny's `$IsGoodMultiSet`): an `{:inline}` one Boogie expands at
// each application, another it defines by an axiom triggered on its applications.
// z3 cannot unfold such a body as a recursive definition, so both must be encoded as
// Boogie does. The two procedures that verify do so only from the bodies; the third
// fails, with a test.
type Ref;
function {:inline} AllPositive(m: [Ref]int): bool { (forall r: Ref :: {m[r]} m[r] > 0) }
function PositiveUpTo(m: [int]int, n: int): bool { (forall i: int :: {m[i]} 0 <= i && i < n ==> m[i] > 0) }

procedure ReadPositive(m: [Ref]int, r: Ref) returns (v: int)
  requires AllPositive(m);
  ensures v > 0;
{
  v := m[r];
}

procedure ReadBelow(a: [int]int, n: int) returns (v: int)
  requires PositiveUpTo(a, n) && n > 3;
  ensures v > 0;
{
  v := a[2];
}

procedure ReadTooMuch(m: [Ref]int, r: Ref) returns (v: int)
  requires AllPositive(m);
  ensures v > 1;
{
  v := m[r];
}
