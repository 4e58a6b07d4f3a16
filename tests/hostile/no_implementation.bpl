// Declarations only: nothing to generate tests for.
procedure P(x: int) returns (y: int);
  ensures y > x;
function f(x: int): int;
