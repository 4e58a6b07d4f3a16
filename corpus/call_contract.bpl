// Modular calls: `Abs` is specified by requires/ensures, and its callers are verified
// against that contract only (the callee's body is never looked at by the caller).

procedure Abs(x: int) returns (y: int)
  ensures y >= 0;
  ensures y == x || y == -x;
{
  if (x < 0) {
    y := -x;
  } else {
    y := x;
  }
}

// The distance between two points on a line.
procedure Distance(p: int, q: int) returns (d: int)
  ensures d >= 0;
  ensures p <= q ==> d == q - p;
  ensures q < p ==> d == p - q;
{
  call d := Abs(p - q);
}

// A caller with its own precondition, that uses the callee's result in a branch.
procedure Clamp(x: int, bound: int) returns (r: int)
  requires bound > 0;
  ensures -bound <= r && r <= bound;
{
  var m: int;
  call m := Abs(x);
  if (m <= bound) {
    r := x;
  } else if (x > 0) {
    r := bound;
  } else {
    r := -bound;
  }
}
