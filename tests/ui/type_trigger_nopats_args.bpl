// error: a `{:nopats}` negative trigger with two expressions (Boogie wants exactly one)
function f(x: int, y: int): int;

axiom (forall x: int :: {:nopats f(x, 10), f(x, x)} { f(x, 1) } f(x, 1) == 3);
