// error: `Twice` calls `Increment`, which modifies `counter`, but `Twice` does not list it
var counter: int;

procedure Increment()
  modifies counter;
  ensures counter == old(counter) + 1;
{
  counter := counter + 1;
}

procedure Twice()
{
  call Increment();
  call Increment();
}
