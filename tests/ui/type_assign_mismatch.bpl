// error: a bool is assigned to the int variable `count`
procedure Reset() returns (count: int)
{
  count := false;
}
