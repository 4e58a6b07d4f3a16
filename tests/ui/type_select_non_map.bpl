// error: `n` is an int, not a map, and cannot be indexed
procedure First(a: [int]int, n: int) returns (x: int)
{
  x := n[0];
}
