// A polymorphic function with a type-quantified axiom, used at two types.
type Seq T;
function Len<T>(s: Seq T): int;
axiom (forall<T> s: Seq T :: { Len(s) } Len(s) >= 0);

procedure Compare(a: Seq int, b: Seq bool) returns (r: int)
  ensures r >= 0;
{
  if (Len(a) > Len(b)) {
    r := Len(a) - Len(b);
  } else {
    r := Len(b) - Len(a);
  }
}
