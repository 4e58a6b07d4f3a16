// A function defined by itself: no model of the definition exists, and evaluating it
// never ends; no goal is proved unreachable from the contradiction (each is undecided).
function f(x: int): int { f(x) + 1 }

procedure P(x: int) returns (y: int) {
  if (f(x) > 0) {
    y := 1;
  } else {
    y := 2;
  }
}
