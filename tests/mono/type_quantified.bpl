// A type-quantified axiom with no bound variable of its own, instantiated by the
// instances of the polymorphic functions it mentions.
type Set T = [T]bool;
function Empty<T>(): Set T;
function Card<T>(s: Set T): int;
axiom (forall<T> :: Card(Empty() : Set T) == 0);
axiom (forall<T> x: T :: !Empty()[x]);

procedure Fill(x: int) returns (s: Set int, n: int)
  ensures n == Card(s) || s[x];
{
  s := Empty();
  n := Card(s);
  if (n > 0) {
    s[x] := true;
  }
}
