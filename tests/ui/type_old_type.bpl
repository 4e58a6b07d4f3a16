// error: `!` needs a bool operand, but `old(count)` is an int
var count: int;

procedure Step()
  modifies count;
  ensures !old(count);
{
  count := count + 1;
}
