// error: functions with type parameters are not supported yet
function {:inline} Id<T>(x: T): T { x }

procedure P(x: int) returns (y: int)
{
  y := Id(x);
}
