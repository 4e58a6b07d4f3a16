// Reals: compound interest on a balance, with a fixed-point rounding step. Exact
// rational arithmetic (`/`, `real(...)`, `int(...)`), comparisons on reals and a loop
// over whole years.

// An amount rounded down to cents. `{:inline}`: Boogie expands it rather than stating
// its definitional axiom, a quantifier over `int(..)` on which z3 4.8.12 gives up in the
// seeded program's loop-exit query (seedgen defines it as a recursive function either
// way, and covers that goal alike).
function {:inline} Cents(amount: real): real { real(int(amount * 100.0)) / 100.0 }

procedure Compound(principal: real, rate: real, years: int) returns (balance: real)
  requires principal >= 0.0;
  requires 0.0 <= rate && rate <= 1.0;
  requires years >= 0;
  ensures balance >= principal;
{
  var year: int;
  balance := principal;
  year := 0;
  while (year < years)
    invariant 0 <= year && year <= years;
    invariant balance >= principal;
  {
    balance := balance + Cents(balance * rate);
    year := year + 1;
  }
}

// The tax bracket of an income: a three-way split with fractional thresholds.
procedure Tax(income: real) returns (tax: real)
  requires income >= 0.0;
  ensures 0.0 <= tax && tax <= income / 2.0;
{
  if (income <= 10000.5) {
    tax := 0.0;
  } else if (income <= 50000.0) {
    tax := (income - 10000.5) * 0.2;
  } else {
    tax := 7999.9 + (income - 50000.0) * 0.4;
  }
}

// The mean of two readings, whether it is whole, and its distance from zero.
procedure Mean(a: real, b: real) returns (mean: real, whole: bool, distance: real)
  ensures a <= b ==> a <= mean && mean <= b;
  ensures whole <==> real(int(mean)) == mean;
  ensures distance >= 0.0;
{
  mean := (a + b) / 2.0;
  whole := real(int(mean)) == mean;
  if (mean < 0.0) {
    distance := -mean;
  } else {
    distance := mean;
  }
}
