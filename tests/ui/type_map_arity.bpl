// error: `grid` takes two indices, `grid[i]` gives one
var grid: [int, int]int;

procedure Row(i: int) returns (v: int)
{
  v := grid[i];
}
