// error: comparisons do not chain: `lo <= x <= hi` needs `lo <= x && x <= hi`
procedure Check(lo: int, x: int, hi: int)
  requires lo <= x <= hi;
{
}
