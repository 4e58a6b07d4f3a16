// error: the `real` type is not supported yet
procedure Average(a: real, b: real) returns (m: real)
{
  m := (a + b) / 2.0;
}
