// error: `old` is not allowed in an axiom (and an axiom cannot read the global `limit`)
var limit: int;

axiom old(limit) > 0;
