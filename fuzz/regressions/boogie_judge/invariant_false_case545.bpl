// seedgen-case: --unroll 0 --inline-depth 1
var g1: bool;
var gm: [int]int;

procedure P0(x0: int) returns (r: int, ok: bool)
  modifies g1, gm;
  ensures !(r < (-99));
  ensures (forall k: int :: 0 <= k && k < x0 ==> gm[k] != k + 2);
{
  var l0: int;
  var l1: int;
  var c0: bool;
  assert ((r == x0) ==> (l1 == (-99)));
}

procedure P1(x0: int, x1: int, m: [int]int) returns (r: int, ok: bool)
  modifies g1, gm;
{
  var l0: int;
  var l1: int;
  var c0: bool;
  var i0: int;
  var i1: int;
  var i2: int;
  i0 := 0;
  while (i0 < 3 && i0 < l0)
    invariant false;
  {
    i1 := 0;
    while (i1 < 1)
      invariant 0 <= i1;
    {
      r := (r - l0);
      i1 := i1 + 1;
    }
    ok := (x1 > (-1 * (r - r)));
    i2 := 0;
    while (i2 < 3)
      invariant ((x0 >= x0) ==> (x0 >= r));
    {
      c0 := !((false ==> (x1 <= l0)) && ((l0 >= l1) ==> true));
      l1 := (((2 div 3) + gm[(-3)]) mod -2);
      ok := (false && ok);
      i2 := i2 + 1;
    }
    i0 := i0 + 1;
  }
  ok := (((x1 != (-3)) ==> (x1 != 5)) ==> (!(l1 <= x1) && ok));
}
