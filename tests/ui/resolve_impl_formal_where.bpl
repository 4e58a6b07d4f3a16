// error: `where` clause on an implementation's parameter (it belongs on the procedure's)
procedure Halve(x: int) returns (y: int);
  ensures y + y <= x;

implementation Halve(x: int where x >= 0) returns (y: int)
{
  y := x div 2;
}
