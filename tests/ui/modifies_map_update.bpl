// error: `Store` updates the global map `heap`, which is not in its modifies clause
var heap: [int]int;

procedure Store(addr: int, v: int)
  ensures heap[addr] == v;
{
  heap[addr] := v;
}
