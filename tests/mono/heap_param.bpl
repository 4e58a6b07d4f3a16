// A heap `<a>[ref, Field a]a` passed in and returned: the parameter and the result are
// split per field type (`h<int>`, `h<bool>`), as a global heap is.
type ref;
type Field _;
type HeapType = <a>[ref, Field a]a;
const unique count: Field int;
const unique flag: Field bool;

procedure Bump(h: HeapType, o: ref) returns (r: int, after: HeapType)
  ensures after[o, flag];
{
  if (h[o, flag]) {
    r := h[o, count];
  } else {
    r := 0;
  }
  after := h[o, count := r + 1][o, flag := true];
}
