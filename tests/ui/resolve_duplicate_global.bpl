// error: `count` is declared twice at the top level (a variable and a constant)
var count: int;
const count: int;

procedure Reset()
  modifies count;
{
  count := 0;
}
