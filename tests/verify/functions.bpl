// Uninterpreted functions are inputs of a failing test: their tables are shown.

type Color;
const unique Red, Green: Color;

function rank(c: Color): int;
axiom rank(Red) == 0;

procedure Rank(c: Color) returns (r: int)
  ensures r == 0;
{
  r := rank(c);
}
