// error: a bit-vector of one width where another is needed
var flags: bv32;

procedure Clear()
  modifies flags;
{
  flags := 0bv16;
}
