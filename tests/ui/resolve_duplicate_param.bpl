// error: `x` is both an in-parameter and an out-parameter of `Twice`
procedure Twice(x: int) returns (x: int)
{
}
