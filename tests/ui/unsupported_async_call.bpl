// error: `async call` (CIVL concurrency) is not supported yet
procedure {:yields} {:layer 1} Task(n: int);

procedure {:yields} {:layer 1} Spawn()
{
  yield;
  async call Task(1);
  yield;
}
