// error: `&&` and `||` cannot be mixed without parentheses
procedure InRange(x: int, lo: int, hi: int) returns (ok: bool)
{
  ok := lo <= x && x <= hi || x == 0;
}
