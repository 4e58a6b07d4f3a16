// error: bit-vector extraction `x[8:0]` is not supported yet
procedure Low(x: bv16) returns (y: bv8)
{
  y := x[8:0];
}
