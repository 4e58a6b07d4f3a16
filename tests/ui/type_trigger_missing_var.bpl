// error: the trigger `{ f(x) }` does not mention the bound variable `y`
function f(x: int): int;

axiom (forall x: int, y: int :: { f(x) } f(x) + y == y + f(x));
