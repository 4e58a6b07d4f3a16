// error: `succ` expects an int, applied to the bool `b`
function succ(x: int): int { x + 1 }

axiom (forall b: bool :: succ(b) > 0);
