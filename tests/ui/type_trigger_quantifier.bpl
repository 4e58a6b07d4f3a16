// error: a quantifier inside a trigger
function f(x: int): int;
function P(b: bool): bool;

axiom (forall x: int :: { P((exists y: int :: f(y) == x)) } P(true));
