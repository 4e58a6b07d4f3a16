// error: `yield` (CIVL concurrency) is not supported yet
procedure {:yields} {:layer 1} Worker(n: int) returns (m: int)
{
  m := n;
  yield;
  m := m + 1;
}
