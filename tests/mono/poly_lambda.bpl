// Type-quantified lambdas, as Dafny writes its frames: `lambda<a> o: ref, f: Field a ::`
// is a value of the polymorphic map type `<a>[ref, Field a]bool`, one map per field
// type the program selects it at.
type ref;
const null: ref;
type Field _;
var H: <a>[ref, Field a]a;
const unique value: Field int;
const unique marked: Field bool;

// Whether `frame` allows writing `value` of `o`: a polymorphic map passed to a function.
function Allows(frame: <b>[ref, Field b]bool, o: ref): bool { frame[o, value] }

procedure Bump(this: ref, other: ref) returns (r: int)
  requires this != null;
  modifies H;
{
  var frame: <b>[ref, Field b]bool;
  frame := (lambda<a> o: ref, f: Field a :: o == this);
  if (frame[other, marked]) {
    r := 1;
  } else {
    r := 2;
  }
  if (Allows(frame, other) && other != null) {
    H[other, value] := H[other, value] + 1;
  }
  // The frame of a single field, captured variables and all.
  frame := (lambda<a> o: ref, f: Field a :: o == other && frame[o, f]);
  assert frame[other, value] ==> other == this;
}
