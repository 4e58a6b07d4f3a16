// seedgen-case: --unroll 0 --inline-depth 1
var gm: [int]int;

procedure Ext(a: int) returns (b: int);
  ensures b >= a;

procedure P0(x0: int, b0: bool) returns (r: int)
  modifies gm;
{
  var l0: int;
  var l1: int;
  var c0: bool;
  var i0: int;
  var i1: int;
  l0 := (((if (r >= r) then l0 else (-1000)) div 7) mod 7);
  goto L0, L1;
  L0:
  havoc l1;
  call r := Ext(r);
  if (*) {
    goto L3, L4;
    L3:
    i0 := 0;
    while (i0 < 3)
      invariant 0 <= i0;
    {
      assert (l1 != 1);
      i0 := i0 + 1;
    }
    goto L5;
    L4:
    c0 := !(l0 > (1 * 1000));
    goto L6, L7;
    L6:
    call l0 := Ext(gm[l1]);
    i1 := 0;
    while (i1 < 2 && i1 < x0)
      invariant 0 <= i1;
    {
      l1 := gm[0];
      i1 := i1 + 1;
    }
    l0 := ((if (l1 >= (-2)) then ((-2) mod -2) else (2 * (-3))) - (gm[1000] div 7));
    goto L8;
    L7:
    goto L8;
    L8:
    assume true;
    goto L5;
    L5:
    assume true;
  } else {
  }
  goto L2;
  L1:
  goto L2;
  L2:
  assume true;
}

procedure P1(x0: int, b0: bool) returns (r: int)
  modifies gm;
{
  var l0: int;
  var l1: int;
  var c0: bool;
  assert (l1 != (-99));
}

procedure P2(x0: int, b0: bool, m: [int]int) returns (r: int, ok: bool)
  modifies gm;
{
  var l0: int;
  var l1: int;
  var c0: bool;
  var i0: int;
  l0 := ((-1 * (if (x0 < l0) then r else l1)) div 3);
  i0 := 0;
  while (i0 < 1 && i0 < x0)
    invariant 0 <= i0 && i0 <= 1;
  {
    r := 0;
    i0 := i0 + 1;
  }
}
