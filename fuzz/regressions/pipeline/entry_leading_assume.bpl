// seedgen-case: --unroll 0 --inline-depth 0

var gm: [int]int;

procedure P0(x0: int, b0: bool, m: [int]int) returns (r: int, ok: bool)
  modifies gm;
{
  var l0: int;
  var l1: int;
  var c0: bool;
  assume false;
  r := 0;
}

procedure P1(x0: int) returns (r: int)
  modifies gm;
{
  var l0: int;
  var l1: int;
  var c0: bool;
  r := 0;
}
