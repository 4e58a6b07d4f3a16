// Structured control flow: `return` inside a loop, labelled `break` out of nested
// loops, and `else if` chains.

procedure FindNegative(a: [int]int, n: int) returns (k: int)
  requires n >= 0;
  ensures k == -1 || (0 <= k && k < n && a[k] < 0);
  ensures k == -1 ==> (forall i: int :: 0 <= i && i < n ==> a[i] >= 0);
{
  var i: int;
  i := 0;
  while (i < n)
    invariant 0 <= i && i <= n;
    invariant (forall p: int :: 0 <= p && p < i ==> a[p] >= 0);
  {
    if (a[i] < 0) {
      k := i;
      return;
    }
    i := i + 1;
  }
  k := -1;
}

// Finds a pair (i, j) with m[i][j] == key in an n-by-n square, leaving both loops at once.
procedure FindInSquare(m: [int][int]int, n: int, key: int) returns (found: bool)
  requires n >= 0;
  ensures found ==> (exists i, j: int :: 0 <= i && i < n && 0 <= j && j < n && m[i][j] == key);
{
  var i, j: int;
  found := false;
  i := 0;
  outer:
  while (i < n)
    invariant 0 <= i && !found;
  {
    j := 0;
    while (j < n)
      invariant 0 <= j && !found;
    {
      if (m[i][j] == key) {
        found := true;
        break outer;
      }
      j := j + 1;
    }
    i := i + 1;
  }
}

procedure Grade(score: int) returns (g: int)
  requires 0 <= score && score <= 100;
  ensures 1 <= g && g <= 4;
{
  if (score >= 90) { g := 4; }
  else if (score >= 75) { g := 3; }
  else if (score >= 50) { g := 2; }
  else { g := 1; }
}
