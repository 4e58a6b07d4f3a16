// The paper's running example `simple(a)` (Huang, Meyer, Oriol, §2.1-2.2), extended
// version: two sequential conditionals, so four leaf blocks (instructions 1-4) and four
// paths; the second guard `a * a > a` is the paper's `a^2 > a` (true unless a is 0 or 1).
// The paper's tests for [bn, a] are [1, 1], [2, 0], [3, -1], [4, 0].

// The integer attribute `x` of the enclosing Eiffel class.
var x: int;

procedure simple(a: int)
  modifies x;
  ensures a * a > a ==> x == 3;
  ensures a * a <= a ==> x == 4;
  ensures x == 3 <==> (a < 0 || a > 1);
{
  if (a > 0) {
    x := 1;  // Instruction 1
  } else {
    x := 2;  // Instruction 2
  }
  // The paper's postcondition of the one-conditional version holds here.
  assert a > 0 ==> x == 1;
  assert a <= 0 ==> x == 2;

  if (a * a > a) {
    x := 3;  // Instruction 3
  } else {
    x := 4;  // Instruction 4
  }
}
