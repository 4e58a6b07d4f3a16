// Declarations beyond procedures: an uninterpreted type, `const unique`, a type
// synonym, functions with and without a body, axioms, and quantifiers with triggers.

type Color;
const unique Red: Color;
const unique Green, Blue: Color;
// Every color is one of the three (instantiated wherever `rank` is applied).
axiom (forall c: Color :: { rank(c) } c == Red || c == Green || c == Blue);

type Rank = int;

// Uninterpreted, pinned down by an axiom.
function rank(c: Color): Rank;
axiom rank(Red) == 0 && rank(Green) == 1 && rank(Blue) == 2;

// Defined by its body.
function next(r: Rank): Rank { (r + 1) mod 3 }

function {:inline} IsWarm(c: Color): bool { c == Red }

// An uninterpreted growth function with a triggered axiom.
function grow(x: int): int;
axiom (forall x: int :: { grow(x) } grow(x) > x);

procedure Cycle(c: Color) returns (d: Color)
  ensures rank(d) == next(rank(c));
  ensures IsWarm(d) <==> c == Blue;
{
  if (c == Red) {
    d := Green;
  } else if (c == Green) {
    d := Blue;
  } else {
    d := Red;
  }
}

procedure Grow(x: int) returns (y: int)
  ensures y > x + 1;
{
  y := grow(grow(x));
  assert (exists z: int :: { grow(z) } z > x && y == grow(z));
}
