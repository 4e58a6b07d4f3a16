// corpus/bitvectors.bpl with seeded bugs: the midpoint of two unsigned words is
// computed as `(lo + hi) >> 1`, which wraps around when the sum passes 2^32, and the
// signed sign test uses an unsigned comparison.

function {:bvbuiltin "bvadd"} add32(x: bv32, y: bv32): bv32;
function {:bvbuiltin "bvsub"} sub32(x: bv32, y: bv32): bv32;
function {:bvbuiltin "bvlshr"} lshr32(x: bv32, y: bv32): bv32;
function {:bvbuiltin "bvule"} ule32(x: bv32, y: bv32): bool;
function {:bvbuiltin "bvult"} ult32(x: bv32, y: bv32): bool;
function {:bvbuiltin "bvslt"} slt32(x: bv32, y: bv32): bool;

procedure Midpoint(lo: bv32, hi: bv32) returns (mid: bv32)
  requires ule32(lo, hi);
  ensures ule32(lo, mid) && ule32(mid, hi);
{
  mid := lshr32(add32(lo, hi), 1bv32);  // bug: lo + (hi - lo) >> 1 does not wrap
}

procedure Abs(x: bv32) returns (y: bv32)
  ensures !slt32(y, 0bv32) || y == 2147483648bv32;
{
  if (ult32(x, 0bv32)) {  // bug: never true; a negative x is returned as is
    y := sub32(0bv32, x);
  } else {
    y := x;
  }
}
