procedure Down(n: int) returns (r: int)
  ensures r == 0;
{
  if (n <= 0) {
    r := 0;
  } else {
    call r := Down(n - 1);
  }
}
