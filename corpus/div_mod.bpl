// Integer division and remainder (Euclidean, as in SMT-LIB: 0 <= a mod b < |b|),
// division by repeated subtraction, and attributes on declarations and commands.

procedure {:category "arithmetic"} DivMod(a: int, b: int) returns (q: int, r: int)
  requires b > 0;
  ensures a == b * q + r;
  ensures 0 <= r && r < b;
{
  q := a div b;
  r := a mod b;
}

// The same quotient and remainder for a >= 0, computed by repeated subtraction.
procedure Divide(a: int, b: int) returns (q: int, r: int)
  requires a >= 0 && b > 0;
  ensures q == a div b && r == a mod b;
{
  q := 0;
  r := a;
  while (r >= b)
    invariant a == b * q + r && 0 <= r;
  {
    q := q + 1;
    r := r - b;
  }
  assert {:msg "remainder below divisor"} r < b;
}

function {:inline} IsEven(x: int): bool { x mod 2 == 0 }

procedure {:entrypoint} Parity(x: int) returns (even: bool)
  ensures even <==> IsEven(x);
  ensures IsEven(-7 + 1) && -7 div 2 == -4 && -7 mod 2 == 1;
{
  if (x mod 2 == 0) {
    even := true;
  } else {
    even := false;
  }
}
