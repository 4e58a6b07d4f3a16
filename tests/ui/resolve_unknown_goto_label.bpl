// error: `goto` to an undefined label `exit` (the label is `done`)
procedure Skip(x: int) returns (y: int)
{
  start:
    y := x;
    goto exit;
  done:
    return;
}
