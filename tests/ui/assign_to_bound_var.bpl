// error: `havoc` of the in-parameter `x`
procedure Fuzz(x: int) returns (y: int)
{
  havoc x;
  y := x;
}
