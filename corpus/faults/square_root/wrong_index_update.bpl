// fault: line 24: the lower bound moves past the midpoint (`low := mid` became `low := mid + 1`).
// Square root: the integer square root of n, found by bisection on [low, high) with
// low * low <= n < high * high; the loop stops early when the midpoint is the exact root.
// Paper: 5 branches; seedgen goals (--goals all): 6 (loop body, loop exit, and the four
// blocks of the three-way comparison).

procedure SquareRoot(n: int) returns (root: int)
  requires n >= 0;
  ensures root >= 0;
  ensures root * root <= n && n < (root + 1) * (root + 1);
{
  var low, high, mid: int;
  low := 0;
  high := n + 1;
  while (high - low > 1)
    invariant 0 <= low && low < high;
    invariant low * low <= n && n < high * high;
  {
    mid := (low + high) div 2;
    if (mid * mid == n) {
      low := mid;
      high := mid + 1;
    } else if (mid * mid < n) {
      low := mid + 1;
    } else {
      high := mid;
    }
  }
  root := low;
}
