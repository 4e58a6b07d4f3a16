// error (seedgen is stricter than Boogie): an `if then else` operand needs parentheses
procedure Pick(c: bool) returns (y: int)
{
  y := 10 + if c then 1 else 2;
}
