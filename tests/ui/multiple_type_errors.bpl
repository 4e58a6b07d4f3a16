// errors (4, all reported): bool + int, an int guard, a bool assigned to an int, and a
// map indexed by a bool
var m: [int]int;

procedure P(b: bool, n: int) returns (r: int)
  modifies m;
{
  r := b + n;
  while (n) {
    r := true;
  }
  m[b] := 0;
}
