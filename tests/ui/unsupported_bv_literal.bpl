// error: bit-vector literals are not supported yet
procedure Mask() returns (b: bool)
{
  b := 255bv8 == 255bv8;
}
