// A tour of the printer's format: every declaration kind, every statement kind,
// attributes everywhere, written the way people write them (layout here is messy on
// purpose; the snapshot shows what the printer makes of it).
type Ref; type {:datatype} finite Color;
type Field a; type Heap = <a>[Ref, Field a]a;

const unique null: Ref;
const {:max} N: int;
const unique red, green: Color extends complete;

function {:inline} abs(x: int): int { if x < 0 then -x else x }
function f(x: int, int) returns (int);
function \old(r: bool) returns (result: bool);

axiom N > 0 && N <= 100;
axiom (∀ i: int • {abs(i)} abs(i) ≥ 0);

var $Heap: Heap;
var {:global} M: [int]int where M[0] == 0, flag: bool;

procedure {:entry} Sum(n: int, {:ghost} limit: int where limit > 0) returns (s: int, ok: bool);
  requires n >= 0 ==> n < limit;
  free requires {:note "checked by the caller"} limit < 1000;
  ensures ok <==> s == n * (n + 1) div 2;
  modifies M, flag;

implementation Sum(n: int, limit: int) returns (s: int, ok: bool)
{
  var i: int, \then: bool;
  var m: [int][int]bool;
  s := 0; i := 0;
  while (i < n) invariant 0 <= i && i <= n; free invariant {:x} s >= 0; {
    i := i + 1; s := s + i;
    if (s > limit) { ok := false; return; } else if (*) { havoc flag; } else { assume {:partition} !flag; }
  }
  m[1][2] := true; M[i], \then := M[i := 3][i] mod 2, if n == 0 then true else false;
  call {:id 1} ok := Check(s - -1);
  Done:
  assert {:msg "the sum"} (exists k: int :: k == s) || (forall<T> x: T :: x == x);
  goto Done, Exit;
  Exit: return;
}

procedure Check(x: int) returns (b: bool)
{
  b := (lambda y: int :: y > 0)[x] ==> (x > 0 ==> b) ==> b;
  while (true) { if (b) { break; } }
}
