// Maps of maps and multi-dimensional maps: nested map updates `grid[i][j] := v`, a
// two-argument map `[int, int]bool`, map-update expressions, and parallel assignment.

var grid: [int][int]int;
var visited: [int, int]bool;

procedure SetCell(i: int, j: int, v: int)
  modifies grid, visited;
  ensures grid[i][j] == v;
  ensures visited[i, j];
  ensures (forall p, q: int :: p != i || q != j ==> grid[p][q] == old(grid)[p][q]);
  ensures (forall p, q: int :: p != i || q != j ==> visited[p, q] == old(visited)[p, q]);
{
  grid[i][j] := v;
  visited[i, j] := true;
}

// Zeroes row r in columns [0, n), with the map-update expression form.
procedure ClearRow(r: int, n: int)
  requires n >= 0;
  modifies grid;
  ensures (forall q: int :: 0 <= q && q < n ==> grid[r][q] == 0);
  ensures (forall p: int :: p != r ==> grid[p] == old(grid)[p]);
{
  var j: int;
  j := 0;
  while (j < n)
    invariant 0 <= j && j <= n;
    invariant (forall q: int :: 0 <= q && q < j ==> grid[r][q] == 0);
    invariant (forall p: int :: p != r ==> grid[p] == old(grid)[p]);
  {
    grid := grid[r := grid[r][j := 0]];
    j := j + 1;
  }
}

// Parallel assignment evaluates every right-hand side before assigning.
procedure Rotate(x: int, y: int, z: int) returns (a: int, b: int, c: int)
  ensures a == y && b == z && c == x;
{
  a, b, c := x, y, z;
  a, b, c := b, c, a;
}
