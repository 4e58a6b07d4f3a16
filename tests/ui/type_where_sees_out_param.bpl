// error: the `where` clause of in-parameter `lo` mentions out-parameter `hi`, which does not exist before the call
procedure Range(lo: int where lo <= hi) returns (hi: int where hi >= lo)
{
  hi := lo + 1;
}
