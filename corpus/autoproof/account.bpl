// An Eiffel class ACCOUNT as AutoProof translates it to Boogie (written here in that
// style: a polymorphic heap `<alpha>[ref, Field alpha]alpha`, typed fields, the class
// invariant checked in `if (*) { assert ...; assume false; }` blocks, `free requires`
// for what the heap's well-formedness gives). Routines: deposit, withdraw, a query.

type ref;
const Void: ref;

type Field _;
type HeapType = <alpha>[ref, Field alpha]alpha;

const allocated: Field bool;
function IsHeap(heap: HeapType): bool;
var Heap: HeapType where IsHeap(Heap);

type Type;
const unique ANY: Type;
const unique ACCOUNT: Type;
axiom ACCOUNT <: ANY;
function type_of(o: ref): Type;

function {:inline} attached(heap: HeapType, o: ref, t: Type): bool {
  o != Void && heap[o, allocated] && type_of(o) <: t
}

const unique ACCOUNT.balance: Field int;
const unique ACCOUNT.credit_limit: Field int;
const unique ACCOUNT.interest_rate: Field real;
const unique ACCOUNT.closed: Field bool;

function {:inline} ACCOUNT.inv(heap: HeapType, current: ref): bool {
  heap[current, ACCOUNT.credit_limit] >= 0 &&
  heap[current, ACCOUNT.balance] >= -heap[current, ACCOUNT.credit_limit] &&
  heap[current, ACCOUNT.interest_rate] >= 0.0
}

procedure ACCOUNT.deposit(Current: ref, amount: int);
  free requires attached(Heap, Current, ACCOUNT);
  requires ACCOUNT.inv(Heap, Current);
  requires amount >= 0;
  modifies Heap;
  ensures Heap[Current, ACCOUNT.balance] == old(Heap[Current, ACCOUNT.balance]) + amount;
  ensures ACCOUNT.inv(Heap, Current);

implementation ACCOUNT.deposit(Current: ref, amount: int)
{
  if (Heap[Current, ACCOUNT.closed]) {
    Heap[Current, ACCOUNT.closed] := false;
  }
  Heap[Current, ACCOUNT.balance] := Heap[Current, ACCOUNT.balance] + amount;
  if (*) {
    assert ACCOUNT.inv(Heap, Current);
    assume false;
  }
}

procedure ACCOUNT.withdraw(Current: ref, amount: int) returns (ok: bool);
  free requires attached(Heap, Current, ACCOUNT);
  requires ACCOUNT.inv(Heap, Current);
  requires amount >= 0;
  modifies Heap;
  ensures ok ==> Heap[Current, ACCOUNT.balance] == old(Heap[Current, ACCOUNT.balance]) - amount;
  ensures !ok ==> Heap[Current, ACCOUNT.balance] == old(Heap[Current, ACCOUNT.balance]);
  ensures ACCOUNT.inv(Heap, Current);

implementation ACCOUNT.withdraw(Current: ref, amount: int) returns (ok: bool)
{
  var available: int;
  available := Heap[Current, ACCOUNT.balance] + Heap[Current, ACCOUNT.credit_limit];
  if (amount <= available) {
    Heap[Current, ACCOUNT.balance] := Heap[Current, ACCOUNT.balance] - amount;
    ok := true;
  } else {
    ok := false;
  }
  if (*) {
    assert ACCOUNT.inv(Heap, Current);
    assume false;
  }
}

procedure ACCOUNT.yearly_interest(Current: ref) returns (Result: real);
  free requires attached(Heap, Current, ACCOUNT);
  requires ACCOUNT.inv(Heap, Current);
  ensures Heap[Current, ACCOUNT.balance] <= 0 ==> Result == 0.0;

implementation ACCOUNT.yearly_interest(Current: ref) returns (Result: real)
{
  if (Heap[Current, ACCOUNT.balance] > 0) {
    Result := real(Heap[Current, ACCOUNT.balance]) * Heap[Current, ACCOUNT.interest_rate] / 100.0;
  } else {
    Result := 0.0;
  }
}
