// The program docs/editor.md's on-save setups are tried on (tests/it/docs.rs): one
// postcondition that does not hold and one branch no input reaches.

// Halves `x`; the postcondition fails for odd `x` (`div` rounds down).
procedure Half(x: int) returns (h: int)
  ensures h + h == x;
{
  h := x div 2;
}

// The absolute value; the second `if` can never be entered.
procedure Abs(x: int) returns (y: int)
  ensures y >= 0;
{
  if (x < 0) {
    y := -x;
  } else {
    y := x;
  }
  if (y < 0) {
    y := 0;
  }
}
