// seedgen-case: --unroll 1 --inline-depth 0
var g0: int;
var g1: bool;

procedure P0(x0: int, x1: int, b0: bool, m: [int]int) returns (r: int, ok: bool)
  modifies g0, g1;
{
  var l0: int;
  var l1: int;
  var c0: bool;
  var i0: int;
  i0 := 0;
  while (i0 < 3 && i0 < g0)
    invariant 0 <= i0 && i0 <= 3;
  {
    havoc l0;
    i0 := i0 + 1;
  }
  ok := (((g0 >= (-1000)) && g1) && (((g0 >= (-3)) ==> (r == x0)) || (b0 || true)));
}

procedure P1(x0: int) returns (r: int, ok: bool)
  modifies g0, g1;
{
  var l0: int;
  var l1: int;
  var c0: bool;
  g1 := ((l0 > (1 + 1000)) || ((l1 > (-3)) && !(l1 != (-99))));
}
