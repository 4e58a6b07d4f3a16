function f(x: int): int;
function f(y: int): bool;
