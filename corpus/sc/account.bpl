// Account (the paper's "Account" class): bank accounts with a balance that may go down
// to a credit limit, a per-transaction limit, a transaction status code, and premium
// accounts that earn credits.  The Eiffel class becomes one map per attribute, indexed
// by the account (an integer id); its invariant becomes requires/ensures of every
// procedure on the accounts it touches.
// Paper: 14 branches; seedgen goals (--goals all): 15 (the entries of the nine
// branch-free procedures, and 6 in Pay: insufficient funds / over the transaction limit /
// paid, by a premium account or not).

type Account = int;

var balance: [Account]int;
var credit_limit: [Account]int;       // the balance may not go below it (it is <= 0)
var transaction_limit: [Account]int;  // the largest amount Pay pays out
var code: [Account]int;               // status of the last payment: 0 none, 1 paid,
                                      // 201 insufficient funds, 202 over the limit
var is_premium: [Account]bool;
var credits: [Account]int;

function Available(balance: int, credit_limit: int): int { balance - credit_limit }

// The class invariant, for one account.
function AccountInvariant(balance: int, credit_limit: int, transaction_limit: int,
                          code: int, credits: int): bool
{
  balance >= credit_limit && transaction_limit >= 0 && credits >= 0 &&
  (code == 0 || code == 1 || code == 201 || code == 202)
}

// Initialises account `acc': empty, standard (non-premium) account.
procedure Make(acc: Account)
  modifies balance, credit_limit, transaction_limit, code, is_premium, credits;
  ensures balance[acc] == 0 && credit_limit[acc] == -20 && transaction_limit[acc] == 10;
  ensures code[acc] == 0 && !is_premium[acc] && credits[acc] == 0;
  ensures AccountInvariant(balance[acc], credit_limit[acc], transaction_limit[acc], code[acc], credits[acc]);
{
  balance[acc] := 0;
  credit_limit[acc] := -20;
  transaction_limit[acc] := 10;
  code[acc] := 0;
  is_premium[acc] := false;
  credits[acc] := 0;
}

procedure SetTransactionLimit(acc: Account, limit: int)
  requires AccountInvariant(balance[acc], credit_limit[acc], transaction_limit[acc], code[acc], credits[acc]);
  requires 0 <= limit && limit <= Available(balance[acc], credit_limit[acc]);
  modifies transaction_limit;
  ensures transaction_limit == old(transaction_limit)[acc := limit];
  ensures AccountInvariant(balance[acc], credit_limit[acc], transaction_limit[acc], code[acc], credits[acc]);
{
  transaction_limit[acc] := limit;
}

procedure SetTransactionCode(acc: Account, new_code: int)
  requires AccountInvariant(balance[acc], credit_limit[acc], transaction_limit[acc], code[acc], credits[acc]);
  requires new_code == 1 || new_code == 201 || new_code == 202;
  modifies code;
  ensures code == old(code)[acc := new_code];
  ensures AccountInvariant(balance[acc], credit_limit[acc], transaction_limit[acc], code[acc], credits[acc]);
{
  code[acc] := new_code;
}

procedure ResetTransactionCode(acc: Account)
  requires AccountInvariant(balance[acc], credit_limit[acc], transaction_limit[acc], code[acc], credits[acc]);
  modifies code;
  ensures code == old(code)[acc := 0];
  ensures AccountInvariant(balance[acc], credit_limit[acc], transaction_limit[acc], code[acc], credits[acc]);
{
  code[acc] := 0;
}

// A premium account pays a fee of 5 and gets 50 more credit.
procedure UpgradeToPremium(acc: Account)
  requires AccountInvariant(balance[acc], credit_limit[acc], transaction_limit[acc], code[acc], credits[acc]);
  requires !is_premium[acc] && credit_limit[acc] == -20;
  requires Available(balance[acc], credit_limit[acc]) >= 50;
  modifies balance, is_premium, credit_limit;
  ensures balance == old(balance)[acc := old(balance)[acc] - 5];
  ensures is_premium == old(is_premium)[acc := true];
  ensures credit_limit == old(credit_limit)[acc := old(credit_limit)[acc] - 50];
  ensures AccountInvariant(balance[acc], credit_limit[acc], transaction_limit[acc], code[acc], credits[acc]);
{
  balance[acc] := balance[acc] - 5;
  is_premium[acc] := true;
  credit_limit[acc] := credit_limit[acc] - 50;
}

procedure IncreaseCredits(acc: Account, amount: int)
  requires AccountInvariant(balance[acc], credit_limit[acc], transaction_limit[acc], code[acc], credits[acc]);
  requires is_premium[acc];
  requires amount > 0;
  modifies credits;
  ensures credits == old(credits)[acc := old(credits)[acc] + amount];
  ensures AccountInvariant(balance[acc], credit_limit[acc], transaction_limit[acc], code[acc], credits[acc]);
{
  credits[acc] := credits[acc] + amount;
}

procedure Deposit(acc: Account, amount: int)
  requires AccountInvariant(balance[acc], credit_limit[acc], transaction_limit[acc], code[acc], credits[acc]);
  requires amount >= 0;
  modifies balance;
  ensures balance == old(balance)[acc := old(balance)[acc] + amount];
  ensures AccountInvariant(balance[acc], credit_limit[acc], transaction_limit[acc], code[acc], credits[acc]);
{
  balance[acc] := balance[acc] + amount;
}

procedure Withdraw(acc: Account, amount: int)
  requires AccountInvariant(balance[acc], credit_limit[acc], transaction_limit[acc], code[acc], credits[acc]);
  requires 0 <= amount && amount <= Available(balance[acc], credit_limit[acc]);
  modifies balance;
  ensures balance == old(balance)[acc := old(balance)[acc] - amount];
  ensures AccountInvariant(balance[acc], credit_limit[acc], transaction_limit[acc], code[acc], credits[acc]);
{
  balance[acc] := balance[acc] - amount;
}

// Moves `amount' from `acc' to `other'.
procedure Transfer(acc: Account, other: Account, amount: int)
  requires acc != other;
  requires AccountInvariant(balance[acc], credit_limit[acc], transaction_limit[acc], code[acc], credits[acc]);
  requires AccountInvariant(balance[other], credit_limit[other], transaction_limit[other], code[other], credits[other]);
  requires 0 <= amount && amount <= Available(balance[acc], credit_limit[acc]);
  modifies balance;
  ensures balance == old(balance)[acc := old(balance)[acc] - amount][other := old(balance)[other] + amount];
  ensures AccountInvariant(balance[acc], credit_limit[acc], transaction_limit[acc], code[acc], credits[acc]);
  ensures AccountInvariant(balance[other], credit_limit[other], transaction_limit[other], code[other], credits[other]);
{
  call Withdraw(acc, amount);
  call Deposit(other, amount);
}

// Pays `amount' to `vendor' if the funds and the transaction limit allow it, and
// records the outcome in code[acc]; premium accounts earn credits on every payment.
procedure Pay(acc: Account, vendor: Account, amount: int)
  requires acc != vendor;
  requires AccountInvariant(balance[acc], credit_limit[acc], transaction_limit[acc], code[acc], credits[acc]);
  requires AccountInvariant(balance[vendor], credit_limit[vendor], transaction_limit[vendor], code[vendor], credits[vendor]);
  requires amount > 0;
  modifies balance, code, credits;
  ensures amount > Available(old(balance)[acc], credit_limit[acc]) ==>
            code[acc] == 201 && balance == old(balance);
  ensures amount <= Available(old(balance)[acc], credit_limit[acc]) && amount > transaction_limit[acc] ==>
            code[acc] == 202 && balance == old(balance);
  ensures code[acc] == 1 ==>
            balance == old(balance)[acc := old(balance)[acc] - amount][vendor := old(balance)[vendor] + amount];
  ensures code[acc] == 1 && is_premium[acc] ==> credits[acc] == old(credits)[acc] + amount;
  ensures code[acc] != 1 || !is_premium[acc] ==> credits == old(credits);
  ensures AccountInvariant(balance[acc], credit_limit[acc], transaction_limit[acc], code[acc], credits[acc]);
  ensures AccountInvariant(balance[vendor], credit_limit[vendor], transaction_limit[vendor], code[vendor], credits[vendor]);
{
  call ResetTransactionCode(acc);
  if (amount > Available(balance[acc], credit_limit[acc])) {
    call SetTransactionCode(acc, 201);
  } else if (amount > transaction_limit[acc]) {
    call SetTransactionCode(acc, 202);
  } else {
    call SetTransactionCode(acc, 1);
    call Transfer(acc, vendor, amount);
    if (is_premium[acc]) {
      call IncreaseCredits(acc, amount);
    }
  }
}
