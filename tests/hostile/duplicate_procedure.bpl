procedure P() { }
procedure P() { }
