// error: label `loop` is defined twice
procedure Countdown(n: int) returns (k: int)
{
  k := n;
  loop:
    goto body, done;
  body:
    assume k > 0;
    k := k - 1;
    goto loop;
  loop:
    goto done;
  done:
    assume k <= 0;
}
