type Ref; type Field a; type T = [int]int;
const unique null: Ref;
const N: int;
axiom N > 0;
function f(x: int, int) returns (int);
function g(x: int): bool { x > 0 && (x < 10 || x == 42) }
var {:foo 1, "s"} M: [int]int where true, b: bool;
procedure {:entry} simple(a: int) returns (x: int)
  requires a >= 0 ==> a <= 10 ==> true;
  free ensures x > 0;
  modifies M;
{
  var i: int, m: [int][int]bool;
  if (a > 0) { x := 1; } else if (*) { x := 2; } else { x := 3; }
  L: while (i < 10) invariant i >= 0; free invariant {:x} true; { i := i + 1; if (i == 5) { break; } }
  havoc i; assume {:partition} i == -5;
  call x := simple(a - 1);
  call simple(0);
  m[1][2] := true; M[i], x := M[i := 3][i] div 2 mod 3, if a < 0 then 1 else -x;
  assert (forall k: int, j: int :: {f(k, j)} {:weight 3} f(k, j) == k) <==> (exists k: int :: M[k] == old(M[k]));
  assert (lambda z: int :: z + 1)[3] == 4;
  goto A, B;
  A: return;
  B: assume false; return;
}
implementation simple(a: int) returns (x: int) { x := 1; }
