// A frame Dafny's way, `$_ModifiesFrame := (lambda<alpha> $o: ref, $f: Field alpha :: ...)`,
// that the implementation never reads: its polymorphic map has no instance, so the
// assignment assigns nothing, and the seeded program must not print an empty `:=`.
type ref;
const null: ref;
type Field _;
var H: <a>[ref, Field a]a;
const unique value: Field int;

procedure Touch(this: ref) returns (r: int)
  requires this != null;
  modifies H;
{
  var frame: <alpha>[ref, Field alpha]bool;
  frame := (lambda<alpha> o: ref, f: Field alpha :: o == this);
  if (H[this, value] > 0) {
    r := 1;
  } else {
    r := 2;
  }
}
