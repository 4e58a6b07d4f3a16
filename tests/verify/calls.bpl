// Calls are checked against the callee's contract: each `requires` clause at each call,
// and the caller only knows what the callee `ensures`.

procedure Sqrt(x: int) returns (r: int);
  requires x >= 0;
  requires x < 1000000;
  ensures r * r <= x && x < (r + 1) * (r + 1);

procedure Caller(a: int) returns (r: int)
{
  call r := Sqrt(a - 1);
}

// The callee's result is a choice of the test: any value its contract allows.
procedure Read() returns (v: int);
  ensures v >= -1000;

procedure UsesRead() returns (v: int)
  ensures v >= 0;
{
  call v := Read();
}

// Abs with an implementation: the caller sees its contract only, which is too weak.
procedure Abs(x: int) returns (y: int)
  ensures y >= 0;
{
  if (x < 0) { y := -x; } else { y := x; }
}

procedure Double(x: int) returns (z: int)
  ensures z == 2 * x || z == -2 * x;
{
  call z := Abs(2 * x);
}
