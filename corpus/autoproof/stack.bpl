// An Eiffel class STACK (a bounded stack of integers kept in a sequence) as AutoProof
// translates it, written here in that style: a polymorphic heap with fields of three
// types, a `Seq T` prelude of polymorphic functions and type-quantified axioms, the
// class invariant as an inlined function checked in `if (*)` blocks, a `where` clause
// on the heap and `free` contracts. The routine `wipe` has a real bug: it resets the
// count but keeps the items, so its invariant check fails (Boogie 2.4.1 reports that
// assertion and `verify` must too); the other routines are correct.

type ref;
const Void: ref;
type Field _;
type HeapType = <alpha>[ref, Field alpha]alpha;
const allocated: Field bool;
var Heap: HeapType where Heap[Void, allocated] == false;

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
function Seq#Take<T>(s: Seq T, n: int): Seq T;
axiom (forall<T> s: Seq T, n: int :: { Seq#Length(Seq#Take(s, n)) }
  0 <= n && n <= Seq#Length(s) ==> Seq#Length(Seq#Take(s, n)) == n);

const unique STACK.items: Field (Seq int);
const unique STACK.capacity: Field int;
const unique STACK.count: Field int;

function {:inline} STACK.inv(heap: HeapType, current: ref): bool {
  heap[current, STACK.capacity] > 0 &&
  heap[current, STACK.count] == Seq#Length(heap[current, STACK.items]) &&
  heap[current, STACK.count] <= heap[current, STACK.capacity]
}

procedure STACK.push(Current: ref, v: int) returns (pushed: bool);
  free requires Heap[Current, allocated];
  requires Current != Void;
  requires STACK.inv(Heap, Current);
  modifies Heap;
  ensures STACK.inv(Heap, Current);
  ensures pushed <==> old(Heap[Current, STACK.count] < Heap[Current, STACK.capacity]);
  ensures pushed ==> Seq#Index(Heap[Current, STACK.items], old(Heap[Current, STACK.count])) == v;

implementation STACK.push(Current: ref, v: int) returns (pushed: bool)
{
  if (Heap[Current, STACK.count] < Heap[Current, STACK.capacity]) {
    Heap[Current, STACK.items] := Seq#Build(Heap[Current, STACK.items], v);
    Heap[Current, STACK.count] := Heap[Current, STACK.count] + 1;
    pushed := true;
  } else {
    pushed := false;
  }
  if (*) {
    assert STACK.inv(Heap, Current);
    assume false;
  }
}

procedure STACK.top(Current: ref) returns (Result: int);
  free requires Heap[Current, allocated];
  requires Current != Void;
  requires STACK.inv(Heap, Current);
  requires Heap[Current, STACK.count] > 0;
  ensures Result == Seq#Index(Heap[Current, STACK.items], Heap[Current, STACK.count] - 1);

implementation STACK.top(Current: ref) returns (Result: int)
{
  Result := Seq#Index(Heap[Current, STACK.items], Heap[Current, STACK.count] - 1);
}

procedure STACK.pop(Current: ref);
  free requires Heap[Current, allocated];
  requires Current != Void;
  requires STACK.inv(Heap, Current);
  modifies Heap;
  ensures STACK.inv(Heap, Current);
  ensures old(Heap[Current, STACK.count]) > 0 ==> Heap[Current, STACK.count] == old(Heap[Current, STACK.count]) - 1;

implementation STACK.pop(Current: ref)
{
  if (Heap[Current, STACK.count] > 0) {
    Heap[Current, STACK.items] := Seq#Take(Heap[Current, STACK.items], Heap[Current, STACK.count] - 1);
    Heap[Current, STACK.count] := Heap[Current, STACK.count] - 1;
  }
  if (*) {
    assert STACK.inv(Heap, Current);
    assume false;
  }
}

procedure STACK.is_full(Current: ref) returns (Result: bool);
  requires Current != Void;
  requires STACK.inv(Heap, Current);
  ensures Result <==> Heap[Current, STACK.count] == Heap[Current, STACK.capacity];

implementation STACK.is_full(Current: ref) returns (Result: bool)
{
  Result := Heap[Current, STACK.count] >= Heap[Current, STACK.capacity];
}

procedure STACK.wipe(Current: ref);
  free requires Heap[Current, allocated];
  requires Current != Void;
  requires STACK.inv(Heap, Current);
  modifies Heap;
  ensures Heap[Current, STACK.count] == 0;

implementation STACK.wipe(Current: ref)
{
  Heap[Current, STACK.count] := 0;
  if (*) {
    assert STACK.inv(Heap, Current);
    assume false;
  }
}
