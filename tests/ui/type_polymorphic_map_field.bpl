// error: a heap read at a field of `int` stored into a `bool`
type Field a;
type Ref;
var Heap: <a>[Ref, Field a]a;

procedure Read(r: Ref, f: Field int) returns (v: bool)
{
  v := Heap[r, f];
}
