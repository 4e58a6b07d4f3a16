// warning, then error: a type argument nothing fixes is `int` (Boogie's rule, with a
// warning); a coercion fixes it, here to a type the comparison rejects
function Empty<T>(): [T]bool;

procedure P() returns (b: bool)
{
  b := Empty() == Empty();
  b := Empty()[true] == Empty()[1];
  b := Empty() == (lambda x: bool :: false);
  b := (Empty() : [int]bool) == (lambda x: bool :: false);
}
