// A prelude in the style of an object-oriented verifier's: a heap as a polymorphic
// map, sets as maps to Booleans with cardinality, singleton and removal, set
// equality as extensionality, frames as sets of objects, and a type-quantified
// axiom that relates sets of pairs (instantiated only by its triggers, as E-matching
// does, or it would build pairs of pairs without end).
type ref;
type Field _;
type HeapType = <a>[ref, Field a]a;
type Set T = [T]bool;
type Pair U V;
function Set#Card<T>(s: Set T): int;
function Set#Empty<T>(): Set T;
function Set#Singleton<T>(x: T): Set T;
function Set#Removed<T>(s: Set T, x: T): Set T;
function Set#Equal<T>(a: Set T, b: Set T): bool;
function Pairs<U, V>(s: Set U, t: Set V): Set (Pair U V);
axiom (forall<T> s: Set T :: { Set#Card(s) } 0 <= Set#Card(s));
axiom (forall<T> o: T :: { Set#Empty()[o] } !Set#Empty()[o]);
axiom (forall<T> s: Set T :: { Set#Card(s) } Set#Card(s) == 0 <==> s == Set#Empty());
axiom (forall<T> x: T, o: T :: { Set#Singleton(x)[o] } Set#Singleton(x)[o] <==> x == o);
axiom (forall<T> x: T :: { Set#Card(Set#Singleton(x)) } Set#Card(Set#Singleton(x)) == 1);
axiom (forall<T> s: Set T, x: T, o: T :: { Set#Removed(s, x)[o] } Set#Removed(s, x)[o] <==> o != x && s[o]);
axiom (forall<T> s: Set T, x: T :: { Set#Card(Set#Removed(s, x)) }
  s[x] ==> Set#Card(Set#Removed(s, x)) == Set#Card(s) - 1);
axiom (forall<T> a: Set T, b: Set T :: { Set#Equal(a, b) }
  Set#Equal(a, b) <==> (forall o: T :: { a[o] } { b[o] } a[o] <==> b[o]));
axiom (forall<T> a: Set T, b: Set T :: { Set#Equal(a, b) } Set#Equal(a, b) ==> a == b);
axiom (forall<U, V> s: Set U, t: Set V :: { Set#Card(Pairs(s, t)) }
  Set#Card(Pairs(s, t)) == Set#Card(s) * Set#Card(t) && Pairs(Pairs(s, t), Pairs(t, s)) == Pairs(Pairs(s, t), Pairs(t, s)));

var Heap: HeapType;
const owns: Field (Set ref);
const count: Field int;

procedure Sanity(current: ref)
  requires Set#Card(Heap[current, owns]) == 1;
{
  assert false;
}

procedure Remove(current: ref, x: ref) returns (n: int)
  requires Heap[current, owns][x];
  modifies Heap;
  ensures n == Set#Card(Heap[current, owns]);
  ensures n >= 1;
{
  Heap[current, owns] := Set#Removed(Heap[current, owns], x);
  n := Set#Card(Heap[current, owns]);
}
