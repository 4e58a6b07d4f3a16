type Set a = [a]bool;

procedure Member(s: Set int, x: int) returns (b: bool)
{
  if (s[x]) { b := true; } else { b := false; }
}
