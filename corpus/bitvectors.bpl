// Bit-vectors: 32-bit bit twiddling as C compilers' Boogie front ends (SMACK) write it,
// with operations bound to SMT-LIB by `{:bvbuiltin}`: wrap-around, shifts, masks, and
// signed against unsigned comparisons.

function {:bvbuiltin "bvadd"} add32(x: bv32, y: bv32): bv32;
function {:bvbuiltin "bvsub"} sub32(x: bv32, y: bv32): bv32;
function {:bvbuiltin "bvand"} and32(x: bv32, y: bv32): bv32;
function {:bvbuiltin "bvor"} or32(x: bv32, y: bv32): bv32;
function {:bvbuiltin "bvxor"} xor32(x: bv32, y: bv32): bv32;
function {:bvbuiltin "bvshl"} shl32(x: bv32, y: bv32): bv32;
function {:bvbuiltin "bvlshr"} lshr32(x: bv32, y: bv32): bv32;
function {:bvbuiltin "bvashr"} ashr32(x: bv32, y: bv32): bv32;
function {:bvbuiltin "bvneg"} neg32(x: bv32): bv32;
function {:bvbuiltin "bvult"} ult32(x: bv32, y: bv32): bool;
function {:bvbuiltin "bvslt"} slt32(x: bv32, y: bv32): bool;
function {:bvbuiltin "bvsge"} sge32(x: bv32, y: bv32): bool;
function {:bvbuiltin "bvadd"} add8(x: bv8, y: bv8): bv8;
function {:bvbuiltin "bvmul"} mul8(x: bv8, y: bv8): bv8;
function {:bvbuiltin "bvudiv"} udiv8(x: bv8, y: bv8): bv8;
function {:bvbuiltin "bvurem"} urem8(x: bv8, y: bv8): bv8;
function {:bvbuiltin "bvult"} ult8(x: bv8, y: bv8): bool;
function {:bvbuiltin "sign_extend 24"} sext8to32(x: bv8): bv32;
function {:bvbuiltin "zero_extend 24"} zext8to32(x: bv8): bv32;

// Whether `x` is a power of two: one bit set, `x & (x - 1) == 0`.
procedure IsPowerOfTwo(x: bv32) returns (result: bool)
  ensures result ==> x != 0bv32;
{
  if (x == 0bv32) {
    result := false;
  } else if (and32(x, sub32(x, 1bv32)) == 0bv32) {
    result := true;
  } else {
    result := false;
  }
}

// The number of set bits, one at a time (at most 32 iterations).
procedure PopCount(x: bv32) returns (count: bv32)
  ensures ult32(count, 33bv32);
{
  var rest: bv32;
  var i: bv32;
  rest, count, i := x, 0bv32, 0bv32;
  while (i != 32bv32)
    invariant ult32(i, 33bv32) && !ult32(i, count);
  {
    if (and32(rest, 1bv32) == 1bv32) {
      count := add32(count, 1bv32);
    }
    rest := lshr32(rest, 1bv32);
    i := add32(i, 1bv32);
  }
}

// Where unsigned and signed order disagree, and what wrap-around does to a sum.
procedure Compare(a: bv32, b: bv32) returns (kind: int)
  ensures kind == 3 ==> ult32(add32(a, b), a);
{
  if (ult32(a, b) && !slt32(a, b)) {
    kind := 1;     // a is non-negative, b negative as signed
  } else if (slt32(a, b) && !ult32(a, b)) {
    kind := 2;     // a negative as signed, b not
  } else if (ult32(add32(a, b), a)) {
    kind := 3;     // the sum wrapped around
  } else {
    kind := 0;
  }
}

// A byte's value as C's `signed char` and `unsigned char`, and the high half of a
// word, by extraction and concatenation.
procedure Widen(byte: bv8, word: bv32) returns (signed: bv32, unsigned: bv32, swapped: bv32, half: bv32)
  ensures unsigned[32:8] == 0bv24;
  ensures byte[8:7] == 1bv1 ==> signed[32:8] == 16777215bv24;
  ensures swapped[16:0] == word[32:16] && swapped[32:16] == word[16:0];
{
  signed := sext8to32(byte);
  unsigned := zext8to32(byte);
  swapped := word[16:0] ++ word[32:16];
  if (sge32(signed, 0bv32)) {
    half := ashr32(signed, 1bv32);
  } else {
    half := neg32(ashr32(neg32(signed), 1bv32));
  }
}

// Division and remainder as C's `unsigned char` (a divisor of 0 is excluded, as C
// does; SMT-LIB would give all ones and the dividend).
procedure DivMod(n: bv8, d: bv8) returns (q: bv8, r: bv8)
  requires d != 0bv8;
  ensures add8(mul8(q, d), r) == n && ult8(r, d);
{
  q := udiv8(n, d);
  r := urem8(n, d);
  if (ult8(n, d)) {
    assert q == 0bv8;
  }
}
