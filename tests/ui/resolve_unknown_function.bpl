// error: unknown function `square` (only `sqr` is declared)
function sqr(x: int): int { x * x }

procedure Area(side: int) returns (a: int)
  ensures a == square(side);
{
  a := sqr(side);
}
