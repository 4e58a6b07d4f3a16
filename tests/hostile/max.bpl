// Maximum of two integers: one conditional, a result variable, and a postcondition
// that characterises the result exactly (an upper bound that is one of the inputs).

procedure Max(a: int, b: int) returns (m: int)
  ensures m >= a && m >= b;
  ensures m == a || m == b;
{
  if (a >= b) {
    m := a;
  } else {
    m := b;
  }
}

// The maximum of three, written with a conditional expression and a call.
procedure Max3(a: int, b: int, c: int) returns (m: int)
  ensures m >= a && m >= b && m >= c;
  ensures m == a || m == b || m == c;
{
  var ab: int;
  call ab := Max(a, b);
  m := (if ab >= c then ab else c);
}
