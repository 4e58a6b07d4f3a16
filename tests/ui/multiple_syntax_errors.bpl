// errors (3, all reported): a missing `;`, `=` for `:=`, and a missing `)`, each in its
// own procedure, so recovery at declaration boundaries finds all three
procedure A(x: int) returns (y: int)
{
  y := x + 1
}

procedure B(x: int) returns (y: int)
{
  y = x;
}

procedure C(x: int) returns (y: int)
  requires (x > 0;
{
  y := x;
}

procedure D(x: int) returns (y: int)
{
  y := x;
}
