// A prelude in the style of a verifier front end's (heap as a polymorphic map with
// inline read and update, multisets as maps to integers, sequences), written for
// trigger-based instantiation: its multiset axioms contradict each other as
// first-order formulas (a map holding only -1 is not empty, has a nonzero
// cardinality, and no positive entry), while no trigger builds such a map.
type ref;
type Field _;
type Heap = [ref]<a>[Field a]a;
function {:inline} read<a>(H: Heap, r: ref, f: Field a): a { H[r][f] }
function {:inline} update<a>(H: Heap, r: ref, f: Field a, v: a): Heap { H[r := H[r][f := v]] }
function GoodHeap(H: Heap): bool;
function HeapSucc(a: Heap, b: Heap): bool;
const OneHeap: Heap;
axiom GoodHeap(OneHeap);
axiom (forall<a> h: Heap, r: ref, f: Field a, x: a :: { update(h, r, f, x) }
  GoodHeap(update(h, r, f, x)) ==> HeapSucc(h, update(h, r, f, x)));

type MultiSet T = [T]int;
function Card<T>(m: MultiSet T): int;
function EmptyBag<T>(): MultiSet T;
axiom (forall<T> m: MultiSet T :: { Card(m) } 0 <= Card(m));
function GoodBag<T>(m: MultiSet T): bool;
axiom (forall<T> o: T :: { EmptyBag()[o]: int } (EmptyBag(): MultiSet T)[o] == 0);
axiom (forall<T> m: MultiSet T :: { GoodBag(m) }
  GoodBag(m) <==> (forall b: T :: { m[b] } 0 <= m[b] && m[b] <= Card(m)));
axiom (forall<T> m: MultiSet T :: { Card(m) }
  (Card(m) == 0 <==> m == EmptyBag()) && (Card(m) != 0 ==> (exists x: T :: 0 < m[x])));
axiom (forall<T> m: MultiSet T, x: T, n: int :: { Card(m[x := n]) }
  0 <= n ==> Card(m[x := n]) == Card(m) - m[x] + n);

type Seq T;
function SeqLength<T>(s: Seq T): int;
function SeqEmpty<T>(): Seq T;
function FromSeq<T>(s: Seq T): MultiSet T;
axiom (forall<T> s: Seq T :: { FromSeq(s) } GoodBag(FromSeq(s)));
axiom (forall<T> :: FromSeq(SeqEmpty(): Seq T) == EmptyBag());
axiom (forall<T> s: Seq T :: { SeqLength(s) } SeqLength(s) == 0 ==> s == SeqEmpty());

var H: Heap;
const alloc: Field bool;

procedure Sanity()
  requires GoodHeap(H);
{
  assert false;
}

procedure Store(r: ref) returns (c: int)
  requires GoodHeap(H);
  modifies H;
  ensures c >= 1200;
{
  H := update(H, r, alloc, true);
  c := Card(FromSeq(SeqEmpty(): Seq ref)) + 200;
}
