// Postconditions that fail. A clause violated at several `return`s is one failure
// (Boogie checks postconditions once, at a unified exit).

procedure TwoReturns(x: int) returns (y: int)
  ensures y > 0;
{
  if (x > 0) {
    y := 0;
    return;
  }
  y := -1;
}

var balance: int;

procedure Withdraw(amount: int)
  requires amount >= 0;
  modifies balance;
  ensures balance >= 0;
  ensures balance == old(balance) - amount;
{
  balance := balance - amount;
}

// An out-parameter never written is an input of the test (its initial value).
procedure Forgets(flag: bool) returns (r: int)
  ensures r == 1;
{
  if (flag) {
    r := 1;
  }
}
