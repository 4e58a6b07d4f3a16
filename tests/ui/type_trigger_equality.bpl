// error: `==` in a trigger
function f(x: int): int;

axiom (forall x: int :: { f(x) == 3 } f(x) == 3);
