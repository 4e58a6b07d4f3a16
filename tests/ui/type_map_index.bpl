// error: the map `seen` is indexed by int, but is given a bool
var seen: [int]bool;

procedure Visit(i: int)
  modifies seen;
{
  seen[seen[i]] := true;
}
