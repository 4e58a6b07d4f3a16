// a comment
// café in Latin-1
procedure P() { }
