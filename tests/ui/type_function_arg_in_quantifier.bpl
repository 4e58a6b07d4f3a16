// error: `f` is applied to a bool inside a quantifier whose variable is an int
function f(x: int): int;
function g(b: bool): int;

axiom (forall x: int :: { f(x) } f(x) == g(x));
