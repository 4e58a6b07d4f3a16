// error: `dist` takes two arguments, applied to one
function dist(x: int, y: int): int { if x >= y then x - y else y - x }

procedure Far(x: int) returns (b: bool)
{
  b := dist(x) > 10;
}
