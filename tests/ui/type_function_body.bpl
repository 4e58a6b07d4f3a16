// error: the body of `isZero` has type int, but the function returns bool
function isZero(x: int): bool { x - 0 }
