// error: a loop invariant must be a bool, `i` is an int
procedure Loop(n: int)
{
  var i: int;
  i := 0;
  while (i < n)
    invariant i;
  {
    i := i + 1;
  }
}
