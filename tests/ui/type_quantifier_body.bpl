// error: the body of `forall` has type int, expected bool
const N: int;
axiom (forall i: int :: i + N);
