// error: a trigger on a `lambda`
function f(x: int): int;
const m: [int]int;

axiom m == (lambda x: int :: { f(x) } f(x) + 1);
