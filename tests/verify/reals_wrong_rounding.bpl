// corpus/reals.bpl with seeded bugs: the interest is rounded to the nearest cent
// downwards with `int`, which for a negative rate would lower the balance, and the
// rate's lower bound is gone; the mean's distance takes the wrong sign below zero.

function Cents(amount: real): real { real(int(amount * 100.0)) / 100.0 }

procedure Compound(principal: real, rate: real, years: int) returns (balance: real)
  requires principal >= 0.0;
  requires rate <= 1.0;  // bug: a negative rate is allowed
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

procedure Mean(a: real, b: real) returns (mean: real, distance: real)
  ensures a <= b ==> a <= mean && mean <= b;
  ensures distance >= 0.0;
{
  mean := (a + b) / 2.0;
  if (mean < -0.5) {  // bug: between -0.5 and 0 the distance is negative
    distance := -mean;
  } else {
    distance := mean;
  }
}
