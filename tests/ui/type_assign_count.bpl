// error: two targets but three right-hand sides in a parallel assignment
procedure Swap(a: int, b: int) returns (x: int, y: int)
{
  x, y := b, a, 0;
}
