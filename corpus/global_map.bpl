// A routine over a global map: account balances that procedures update, with
// `modifies` clauses and postconditions relating the new state to `old` state.

var balance: [int]int;
var total: int;

procedure Deposit(acct: int, amount: int)
  requires amount > 0;
  modifies balance, total;
  ensures balance == old(balance)[acct := old(balance)[acct] + amount];
  ensures total == old(total) + amount;
{
  balance[acct] := balance[acct] + amount;
  total := total + amount;
}

// Withdraws `amount` if the account holds enough; otherwise changes nothing.
procedure Withdraw(acct: int, amount: int) returns (ok: bool)
  requires amount > 0;
  modifies balance;
  ensures ok <==> old(balance[acct]) >= amount;
  ensures ok ==> balance[acct] == old(balance[acct]) - amount;
  ensures !ok ==> balance == old(balance);
  ensures (forall other: int :: other != acct ==> balance[other] == old(balance)[other]);
{
  if (balance[acct] >= amount) {
    balance[acct] := balance[acct] - amount;
    ok := true;
  } else {
    ok := false;
  }
}

procedure Transfer(from: int, to: int, amount: int)
  requires amount > 0 && from != to;
  requires balance[from] >= amount;
  modifies balance, total;
  ensures balance[from] == old(balance[from]) - amount;
  ensures balance[to] == old(balance[to]) + amount;
{
  var ok: bool;
  call ok := Withdraw(from, amount);
  assert ok;
  call Deposit(to, amount);
}
