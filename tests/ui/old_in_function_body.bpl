// error: `old` is not allowed in a function body (and a function cannot read the global `g`)
var g: int;

function h(x: int): int { x + old(g) }
