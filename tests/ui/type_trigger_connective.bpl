// error: `&&` in a trigger
function P(x: int): bool;

axiom (forall x: int :: { P(x) && P(x + 1) } P(x) ==> P(x + 1));
