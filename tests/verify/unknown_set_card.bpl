// A set and its size, with cardinality axioms quantified over sets (as front ends'
// preludes state them): z3 gives up on the assertion ("incomplete (theory array)"),
// and the test of its candidate fails nowhere. A run a few steps from it does fail
// there (a non-member removed: size 0 becomes -1 while the cardinality stays 0), which
// `verify` reports as the failing test. Replay cannot decide an axiom quantified over
// maps, and the failure says so. Boogie 2.4.1 reports the assertion too.

type ref;
type Set T = [T]bool;
function Set#Card<T>(Set T): int;
axiom (forall<T> s: Set T :: { Set#Card(s) } 0 <= Set#Card(s));
function Set#Empty<T>(): Set T;
axiom (forall<T> o: T :: { Set#Empty()[o] } !Set#Empty()[o]);
axiom (forall<T> :: Set#Card(Set#Empty() : Set T) == 0);
function Set#Remove<T>(s: Set T, o: T): Set T { s[o := false] }
axiom (forall<T> s: Set T, o: T :: { Set#Card(Set#Remove(s, o)) }
  s[o] ==> Set#Card(Set#Remove(s, o)) + 1 == Set#Card(s));

var members: Set ref;
var size: int;

// The bug: `size` decreases even when `o` is not a member.
procedure Leave(o: ref)
  requires size == Set#Card(members);
  modifies members, size;
{
  members := Set#Remove(members, o);
  size := size - 1;
  assert size == Set#Card(members);
}
