// seedgen-case: --unroll 1 --inline-depth 0
var g1: bool;
var gm: [int]int;

procedure Ext(a: int) returns (b: int);
  ensures b >= a;

procedure P0(x0: int) returns (r: int, ok: bool)
  modifies g1, gm;
  ensures (forall k: int :: 0 <= k && k < r ==> gm[k] >= k + -1);
{
  var l0: int;
  var l1: int;
  var c0: bool;
  gm[(4 div 2)] := (((-3) - r) div 2);
}

procedure P1(x0: int, x1: int, b0: bool, m: [int]int) returns (r: int, ok: bool)
  modifies g1, gm;
{
  var l0: int;
  var l1: int;
  var c0: bool;
  var i0: int;
  i0 := 0;
  while (i0 < 3 && i0 < x0)
    invariant 0 <= i0 && i0 <= 3;
  {
    havoc l0;
    i0 := i0 + 1;
  }
  ok := (((r >= (-1000)) && g1) && (((l0 >= (-3)) ==> (r == x1)) || (b0 || true)));
}

procedure P2(x0: int, m: [int]int) returns (r: int, ok: bool)
  requires (forall k: int :: 0 <= k && k < x0 ==> m[k] > k + 1);
  modifies g1, gm;
{
  var l0: int;
  var l1: int;
  var c0: bool;
  var i0: int;
  if (!((x0 > r) || c0)) {
    i0 := 0;
    while (i0 < 1)
      invariant 0 <= i0;
    {
      c0 := (true ==> ((l0 < 0) || (l1 != 2)));
      assert ((l1 == (-99)) || (l1 >= l1));
      r := x0;
      i0 := i0 + 1;
    }
  }
  r := (0 * (gm[x0] div 7));
}
