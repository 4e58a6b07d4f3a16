// error: a constant that extends a constant of another type
type Class;
type Shape;
const unique Object: Class;
const unique Circle: Shape extends Object;
