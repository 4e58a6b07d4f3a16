// error: bit-vector types (`bv32`) are not supported yet
var flags: bv32;

procedure Clear()
  modifies flags;
{
  flags := 0bv32;
}
