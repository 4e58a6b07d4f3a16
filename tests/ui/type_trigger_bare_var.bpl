// error: a trigger term is the bound variable `x` by itself
function f(x: int): int;

axiom (forall x: int :: { x } f(x) >= x);
