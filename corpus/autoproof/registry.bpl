// An Eiffel class REGISTRY (a set of registered objects and its size) as AutoProof
// translates it, written here in that style: a polymorphic heap, a `Set T` prelude
// (`Set T = [T]bool`, cardinality axioms quantified over the element type), the class
// invariant checked in `if (*)` blocks. The routine `unregister` has a real bug: it
// decreases `size` even when the object was not registered, so its invariant check
// fails (Boogie 2.4.1 reports that assertion and `verify` must too).

type ref;
const Void: ref;
type Field _;
type HeapType = <alpha>[ref, Field alpha]alpha;
var Heap: HeapType;

// Sets as maps to bool.
type Set T = [T]bool;
function Set#Card<T>(Set T): int;
axiom (forall<T> s: Set T :: { Set#Card(s) } 0 <= Set#Card(s));
function Set#Empty<T>(): Set T;
axiom (forall<T> o: T :: { Set#Empty()[o] } !Set#Empty()[o]);
axiom (forall<T> :: Set#Card(Set#Empty() : Set T) == 0);
function Set#Add<T>(s: Set T, o: T): Set T { s[o := true] }
function Set#Remove<T>(s: Set T, o: T): Set T { s[o := false] }
axiom (forall<T> s: Set T, o: T :: { Set#Card(Set#Add(s, o)) }
  !s[o] ==> Set#Card(Set#Add(s, o)) == Set#Card(s) + 1);
axiom (forall<T> s: Set T, o: T :: { Set#Card(Set#Remove(s, o)) }
  s[o] ==> Set#Card(Set#Remove(s, o)) + 1 == Set#Card(s));

const unique REGISTRY.members: Field (Set ref);
const unique REGISTRY.size: Field int;
const unique REGISTRY.open: Field bool;

function {:inline} REGISTRY.inv(heap: HeapType, current: ref): bool {
  heap[current, REGISTRY.size] == Set#Card(heap[current, REGISTRY.members]) &&
  !heap[current, REGISTRY.members][Void]
}

procedure REGISTRY.register(Current: ref, o: ref);
  requires Current != Void && o != Void;
  requires REGISTRY.inv(Heap, Current);
  modifies Heap;
  ensures REGISTRY.inv(Heap, Current);
  ensures Heap[Current, REGISTRY.open] ==> Heap[Current, REGISTRY.members][o];

implementation REGISTRY.register(Current: ref, o: ref)
{
  if (Heap[Current, REGISTRY.open] && !Heap[Current, REGISTRY.members][o]) {
    Heap[Current, REGISTRY.members] := Set#Add(Heap[Current, REGISTRY.members], o);
    Heap[Current, REGISTRY.size] := Heap[Current, REGISTRY.size] + 1;
  }
  if (*) {
    assert REGISTRY.inv(Heap, Current);
    assume false;
  }
}

procedure REGISTRY.unregister(Current: ref, o: ref);
  requires Current != Void;
  requires REGISTRY.inv(Heap, Current);
  modifies Heap;
  ensures !Heap[Current, REGISTRY.members][o];

implementation REGISTRY.unregister(Current: ref, o: ref)
{
  if (Heap[Current, REGISTRY.open]) {
    Heap[Current, REGISTRY.members] := Set#Remove(Heap[Current, REGISTRY.members], o);
    Heap[Current, REGISTRY.size] := Heap[Current, REGISTRY.size] - 1;
  } else {
    Heap[Current, REGISTRY.members] := Set#Remove(Heap[Current, REGISTRY.members], o);
  }
  if (*) {
    assert REGISTRY.inv(Heap, Current);
    assume false;
  }
}

procedure REGISTRY.close(Current: ref);
  requires Current != Void;
  requires REGISTRY.inv(Heap, Current);
  modifies Heap;
  ensures REGISTRY.inv(Heap, Current);
  ensures !Heap[Current, REGISTRY.open];

implementation REGISTRY.close(Current: ref)
{
  Heap[Current, REGISTRY.open] := false;
  if (*) {
    assert REGISTRY.inv(Heap, Current);
    assume false;
  }
}
