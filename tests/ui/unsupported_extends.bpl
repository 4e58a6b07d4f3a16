// error: constant orders (`extends`) are not supported yet
type Class;
const unique Object: Class;
const unique Shape: Class extends Object;
const unique Circle: Class extends Shape complete;

axiom Circle <: Object;
