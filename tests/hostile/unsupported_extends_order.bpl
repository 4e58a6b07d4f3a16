type T;
const unique Top: T;
const unique Leaf: T extends Top;
procedure P(t: T) returns (b: bool) {
  b := t <: Leaf;
}
