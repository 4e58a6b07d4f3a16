procedure Floor(x: real) returns (y: int)
{
  y := int(x);
}
