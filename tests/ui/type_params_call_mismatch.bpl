// error: a polymorphic procedure called with arguments that give its parameter two types
procedure Copy<T>(x: T, y: T) returns (z: T);

procedure P() returns (z: int)
{
  call z := Copy(1, true);
}
