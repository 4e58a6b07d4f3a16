// error: implementation of `Decrement`, which has no procedure declaration
procedure Increment(x: int) returns (y: int);
  ensures y == x + 1;

implementation Increment(x: int) returns (y: int)
{
  y := x + 1;
}

implementation Decrement(x: int) returns (y: int)
{
  y := x - 1;
}
