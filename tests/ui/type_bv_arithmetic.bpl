// error: `+` on bit-vectors (Boogie's bit-vector arithmetic is by `{:bvbuiltin}` functions)
function {:bvbuiltin "bvadd"} bvadd8(bv8, bv8): bv8;

procedure Add(x: bv8, y: bv8) returns (z: bv8)
{
  z := bvadd8(x, y);
  z := x + y;
}
