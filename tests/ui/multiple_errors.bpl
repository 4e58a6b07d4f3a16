// errors (5, all reported): unknown variable `toal`, int used as a guard, call with a wrong
// argument count, a global assigned without `modifies`, and an assertion on an int
var total: int;

procedure Add(x: int) returns (y: int)
{
  y := toal + x;
}

procedure Check(n: int)
{
  if (n) {
    assert n;
  }
}

procedure Accumulate(a: int, b: int)
{
  var r: int;
  call r := Add(a, b);
  total := total + r;
}
