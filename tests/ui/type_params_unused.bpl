// error: a function type parameter that its signature does not mention
function {:inline} Id<T, U>(x: T): T { x }

procedure P(x: int) returns (y: int)
{
  y := Id(x);
}
