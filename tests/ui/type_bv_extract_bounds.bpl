// error: extraction past the operand's width
procedure Low(x: bv16) returns (y: bv8)
{
  y := x[17:9];
}
