// error: the in-parameter `n` cannot be assigned
procedure Countdown(n: int) returns (steps: int)
  requires n >= 0;
{
  steps := 0;
  while (n > 0) {
    n := n - 1;
    steps := steps + 1;
  }
}
