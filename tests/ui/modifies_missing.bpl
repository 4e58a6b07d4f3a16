// error: `Increment` assigns the global `counter`, which is not in its modifies clause
var counter: int;

procedure Increment()
  ensures counter == old(counter) + 1;
{
  counter := counter + 1;
}
