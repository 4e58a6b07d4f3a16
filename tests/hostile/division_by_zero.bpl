procedure P(x: int) returns (y: int) {
  if (x div 0 == 3 && x mod 0 == 2) {
    y := 1;
  } else {
    y := 2;
  }
}
