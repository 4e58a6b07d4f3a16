// Fermat's last theorem for n = 3: the solver cannot settle it in 100 ms.
procedure P(x: int, y: int, z: int) returns (r: int) {
  if (x > 0 && y > 0 && z > 0 && x * x * x + y * y * y == z * z * z) {
    r := 1;
  } else {
    r := 0;
  }
}
