type T;
var x: T int;
