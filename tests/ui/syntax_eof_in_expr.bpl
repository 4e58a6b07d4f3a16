// error: unexpected end of file in the middle of the postcondition's expression
procedure Double(x: int) returns (y: int)
  ensures y == 2 *
