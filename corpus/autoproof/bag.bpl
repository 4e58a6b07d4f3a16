// An Eiffel class BAG (a bounded multiset of integers kept in a sequence) as AutoProof
// translates it to Boogie, written here in that style: `Set T` and `Seq T` preludes of
// polymorphic functions and type-quantified axioms, coercions where a type argument is
// fixed by nothing else, a model query over the heap, invariant checks in `if (*)`.

type ref;
const Void: ref;
type Field _;
type HeapType = <alpha>[ref, Field alpha]alpha;
var Heap: HeapType;

// Sets as maps to bool.
type Set T = [T]bool;
function Set#Empty<T>(): Set T;
axiom (forall<T> o: T :: { Set#Empty()[o] } !Set#Empty()[o]);
function Set#Card<T>(Set T): int;
axiom (forall<T> s: Set T :: { Set#Card(s) } 0 <= Set#Card(s));
axiom (forall<T> :: Set#Card(Set#Empty() : Set T) == 0);
function Set#Singleton<T>(T): Set T;
axiom (forall<T> r: T, o: T :: { Set#Singleton(r)[o] } Set#Singleton(r)[o] <==> r == o);

// Sequences.
type Seq T;
function Seq#Length<T>(Seq T): int;
axiom (forall<T> s: Seq T :: { Seq#Length(s) } 0 <= Seq#Length(s));
function Seq#Empty<T>(): Seq T;
axiom (forall<T> :: Seq#Length(Seq#Empty() : Seq T) == 0);
function Seq#Build<T>(s: Seq T, val: T): Seq T;
axiom (forall<T> s: Seq T, v: T :: { Seq#Length(Seq#Build(s, v)) } Seq#Length(Seq#Build(s, v)) == 1 + Seq#Length(s));
function Seq#Index<T>(Seq T, int): T;
axiom (forall<T> s: Seq T, i: int, v: T :: { Seq#Index(Seq#Build(s, v), i) }
  (i == Seq#Length(s) ==> Seq#Index(Seq#Build(s, v), i) == v) &&
  (i != Seq#Length(s) ==> Seq#Index(Seq#Build(s, v), i) == Seq#Index(s, i)));

const unique BAG.items: Field (Seq int);
const unique BAG.capacity: Field int;

function {:inline} BAG.inv(heap: HeapType, current: ref): bool {
  heap[current, BAG.capacity] > 0 && Seq#Length(heap[current, BAG.items]) <= heap[current, BAG.capacity]
}

procedure BAG.extend(Current: ref, v: int) returns (added: bool);
  requires Current != Void;
  requires BAG.inv(Heap, Current);
  modifies Heap;
  ensures BAG.inv(Heap, Current);
  ensures added ==> Seq#Length(Heap[Current, BAG.items]) == old(Seq#Length(Heap[Current, BAG.items])) + 1;
  ensures !added ==> Heap[Current, BAG.items] == old(Heap[Current, BAG.items]);

implementation BAG.extend(Current: ref, v: int) returns (added: bool)
{
  if (Seq#Length(Heap[Current, BAG.items]) < Heap[Current, BAG.capacity]) {
    Heap[Current, BAG.items] := Seq#Build(Heap[Current, BAG.items], v);
    added := true;
  } else {
    added := false;
  }
  if (*) {
    assert BAG.inv(Heap, Current);
    assume false;
  }
}

procedure BAG.occurrences(Current: ref, v: int) returns (Result: int);
  requires Current != Void;
  requires BAG.inv(Heap, Current);
  ensures Result >= 0;

implementation BAG.occurrences(Current: ref, v: int) returns (Result: int)
{
  var i: int;
  Result := 0;
  i := 0;
  while (i < Seq#Length(Heap[Current, BAG.items]))
    invariant 0 <= i && Result >= 0;
  {
    if (Seq#Index(Heap[Current, BAG.items], i) == v) {
      Result := Result + 1;
    }
    i := i + 1;
  }
}

procedure BAG.is_empty(Current: ref) returns (Result: bool);
  requires Current != Void;
  ensures Result <==> Seq#Length(Heap[Current, BAG.items]) == 0;

implementation BAG.is_empty(Current: ref) returns (Result: bool)
{
  Result := Seq#Length(Heap[Current, BAG.items]) == 0;
}
