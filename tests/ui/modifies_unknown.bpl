// error: the modifies clause names `total`, which is not declared
var sum: int;

procedure Add(x: int)
  modifies sum, total;
  ensures sum == old(sum) + x;
{
  sum := sum + x;
}
