// error: `break outer` names no enclosing labelled statement
procedure Scan(n: int)
{
  var i: int;
  i := 0;
  while (i < n) {
    if (i == 5) {
      break outer;
    }
    i := i + 1;
  }
}
