// A type argument nothing determines (`Nil()` at `Len`) is instantiated to `int`, with
// a warning, as Boogie does; the program then runs like any other.
type List _;
function Nil<a>() returns (List a);
function Len<a>(l: List a) returns (int);
axiom (forall<a> :: Len(Nil() : List a) == 0);

procedure Length(n: int) returns (r: int)
  ensures r >= 0;
{
  if (n > 0) {
    r := n;
  } else {
    r := Len(Nil());
  }
}
