// A procedure declared without a body and implemented by a separate `implementation`
// (whose parameters may be renamed), `free` contracts, and `lambda` map expressions.

var counters: [int]int;

procedure Reset(n: int);
  requires n >= 0;
  free requires counters[-1] == 0;
  modifies counters;
  ensures (forall i: int :: 0 <= i && i < n ==> counters[i] == 0);
  ensures (forall i: int :: i < 0 || n <= i ==> counters[i] == old(counters)[i]);
  free ensures counters[-1] == 0;

implementation Reset(count: int)
{
  counters := (lambda i: int :: if 0 <= i && i < count then 0 else counters[i]);
}

procedure Increment(k: int);
  modifies counters;
  ensures counters == old(counters)[k := old(counters)[k] + 1];

implementation Increment(k: int)
{
  counters[k] := counters[k] + 1;
}

procedure Tally(n: int)
  requires n > 0;
  modifies counters;
  ensures counters[0] == 2;
{
  call Reset(n);
  call Increment(0);
  call Increment(0);
}
