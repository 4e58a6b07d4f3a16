// An Eiffel class CELL (a linked cell with an item and a `right` neighbour) as AutoProof
// translates it, in that style: reference-typed and Boolean fields in one polymorphic
// heap, the dynamic type order `<:`, `attached` checks through an inlined function,
// a `where` clause on the heap, and the invariant checked in an `if (*)` block.

type ref;
const Void: ref;
type Field _;
type HeapType = <alpha>[ref, Field alpha]alpha;
const allocated: Field bool;
function IsHeap(heap: HeapType): bool;
var Heap: HeapType where IsHeap(Heap);

type Type;
const unique ANY: Type;
const unique CELL: Type;
axiom CELL <: ANY;
axiom (forall t: Type :: { t <: ANY } t <: ANY);
function type_of(o: ref): Type;

function {:inline} attached(heap: HeapType, o: ref, t: Type): bool {
  o != Void && heap[o, allocated] && type_of(o) <: t
}

const unique CELL.item: Field int;
const unique CELL.right: Field ref;
const unique CELL.frozen: Field bool;

procedure CELL.put_right(Current: ref, other: ref);
  free requires attached(Heap, Current, CELL);
  requires other == Void || attached(Heap, other, CELL);
  modifies Heap;
  ensures Heap[Current, CELL.frozen] ==> Heap[Current, CELL.right] == old(Heap[Current, CELL.right]);
  ensures !old(Heap[Current, CELL.frozen]) ==> Heap[Current, CELL.right] == other;

implementation CELL.put_right(Current: ref, other: ref)
{
  if (!Heap[Current, CELL.frozen]) {
    Heap[Current, CELL.right] := other;
  }
}

procedure CELL.sum_two(Current: ref) returns (Result: int);
  free requires attached(Heap, Current, CELL);
  requires Heap[Current, CELL.right] == Void || attached(Heap, Heap[Current, CELL.right], CELL);
  ensures Heap[Current, CELL.right] == Void ==> Result == Heap[Current, CELL.item];

implementation CELL.sum_two(Current: ref) returns (Result: int)
{
  var next: ref;
  next := Heap[Current, CELL.right];
  if (next == Void) {
    Result := Heap[Current, CELL.item];
  } else {
    Result := Heap[Current, CELL.item] + Heap[next, CELL.item];
  }
  if (*) {
    assert Result >= Heap[Current, CELL.item] || next != Void;
    assume false;
  }
}
