// Maps with no index (`[]int`): one value each, read `m[]` and updated `m[] := e`.
var m: []int;

procedure Bump(k: int)
  requires m[] == 5;
  modifies m;
  ensures m[] == 5 + k || m[] == 0;
{
  if (k > 0) {
    m[] := m[] + k;
  } else {
    m := m[:= 0];
  }
}
