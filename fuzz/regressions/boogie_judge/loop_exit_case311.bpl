// seedgen-case: --unroll 0 --inline-depth 0
var g0: int;

procedure P0(x0: int, x1: int, b0: bool, m: [int]int) returns (r: int, ok: bool)
  requires ((x1 == (-3)) || (x0 < 12345));
  modifies g0;
{
  var l0: int;
  var l1: int;
  var c0: bool;
  var i0: int;
  if (*) {
    assume (x1 < l1);
    assume (l1 >= 1);
  } else {
    l0 := (m[l0] div 7);
    c0 := ((l0 <= 2) || (ok || false));
    c0 := false;
  }
  l1 := (2 * (x1 mod 3));
  i0 := 0;
  while (i0 < 1 && i0 < r)
    invariant 0 <= i0 && i0 <= 1;
  {
    if (*) {
      assume (true || c0);
      l1 := (-1000);
    } else {
      l0 := 1;
      l0 := (if !((x1 == l0) || (r < r)) then g0 else (1 * m[0]));
      return;
    }
    i0 := i0 + 1;
  }
}

procedure P1(x0: int) returns (r: int, ok: bool)
  modifies g0;
{
  var l0: int;
  var l1: int;
  var c0: bool;
  var i0: int;
  ok := (g0 <= ((3 * 4) + l0));
  i0 := 0;
  while (i0 < 1 && i0 < l1)
    invariant 0 <= i0 && i0 <= 1;
  {
    r := 0;
    i0 := i0 + 1;
  }
}
