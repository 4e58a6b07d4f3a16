function {:bvbuiltin "bvadd"} add(x: bv8, y: bv16): bv8;
procedure P(x: bv8) returns (y: bv8)
{
  y := add(x, 1bv16);
}
