// A heap `<a>[ref, Field a]a` with fields of three types (int, bool, ref).
type ref;
const null: ref;
type Field _;
type HeapType = <a>[ref, Field a]a;
var H: HeapType;
const unique value: Field int;
const unique marked: Field bool;
const unique next: Field ref;

procedure Step(this: ref) returns (r: int)
  requires this != null;
  modifies H;
  ensures H[this, marked];
{
  if (H[this, next] == null) {
    H[this, value] := 0;
  } else if (H[H[this, next], marked]) {
    H[this, value] := H[H[this, next], value] + 1;
  } else {
    H[this, value] := H[this, value] - 1;
  }
  H[this, marked] := true;
  r := H[this, value];
}
