const c: int;
var c: bool;
