// error: `old` is not allowed in a precondition
var balance: int;

procedure Withdraw(amount: int)
  requires old(balance) >= amount;
  modifies balance;
{
  balance := balance - amount;
}
