// error: assignment is `:=`, not `=`
procedure Init() returns (x: int)
{
  x = 0;
}
