// error: `Limit` is a constant and cannot be assigned
const Limit: int;

procedure Raise()
{
  Limit := Limit + 1;
}
