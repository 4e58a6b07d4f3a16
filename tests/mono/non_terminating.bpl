// Every instance of this axiom needs a bigger one: `Seq int`, `Seq (Seq int)`, ...
type Seq T;
function Wrap<T>(x: T): Seq T;
axiom (forall<T> x: T :: { Wrap(x) } Wrap(Wrap(x)) != Wrap(Wrap(x)));

procedure P(s: Seq int) returns (b: bool)
{
  b := Wrap(s) == Wrap(s);
}
