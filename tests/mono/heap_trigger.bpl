// A quantifier over a whole heap whose trigger selects one field type: splitting the
// heap into one map per field type leaves the trigger on one component, which the
// encoding drops rather than hand z3 a pattern it rejects.
type ref;
type Field _;
type HeapType = <a>[ref, Field a]a;
const value: Field int;
const valid: Field bool;
function Good(H: HeapType): bool;
axiom (forall H: HeapType, o: ref :: { H[o, value] } Good(H) ==> H[o, value] > 0);

procedure Read(H: HeapType, o: ref) returns (r: int)
  requires Good(H);
  ensures r >= 0;
{
  if (H[o, valid]) {
    r := H[o, value];
  } else {
    r := 0;
  }
}
