// error: a bit-vector literal that does not fit its width
procedure Mask() returns (b: bool)
{
  b := 256bv8 == 255bv8;
}
