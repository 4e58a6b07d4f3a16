// error: `old` is a keyword and cannot name a parameter
procedure Update(old: int) returns (new: int)
{
  new := old + 1;
}
