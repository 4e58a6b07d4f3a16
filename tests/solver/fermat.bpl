// Fermat's last theorem for cubes: true, but beyond z3's non-linear arithmetic, so
// verify can neither prove nor refute the postcondition and must not say "verified".
procedure cubes(x: int, y: int, z: int) returns (ok: bool)
  requires x > 0 && y > 0 && z > 0;
  ensures ok;
{
  ok := x*x*x + y*y*y != z*z*z;
}
