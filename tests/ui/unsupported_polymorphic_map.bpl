// error: polymorphic maps (`<a>[Field a]a`) are not supported yet
type Field a;
type Ref;
var Heap: <a>[Ref, Field a]a;

procedure Read(r: Ref, f: Field int) returns (v: int)
{
  v := Heap[r, f];
}
