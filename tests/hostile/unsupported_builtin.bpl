function {:builtin "fp.add"} add(x: int, y: int): int;
procedure P(x: int) returns (y: int)
{
  y := add(x, 1);
}
