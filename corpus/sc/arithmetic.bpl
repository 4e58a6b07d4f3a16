// Arithmetic (the paper's "Arithmetic" class): integer addition, multiplication and
// division built from successor steps, recursively and with a loop; each routine
// analyses the sign or size of its arguments.  The bounds in the preconditions come
// from the Eiffel original (they keep the recursion shallow).
// Paper: 14 branches; seedgen goals (--goals all): 14 (AddRecursive 4, Multiply 4,
// MultiplyRecursive 4, DivideRecursive 2).

procedure AddRecursive(a: int, b: int) returns (r: int)
  requires -100 <= b && b <= 100;
  ensures r == a + b;
{
  if (b == 0) {
    r := a;
  } else if (b > 0) {
    call r := AddRecursive(a, b - 1);
    r := r + 1;
  } else {
    call r := AddRecursive(a, b + 1);
    r := r - 1;
  }
}

// a * b by repeated addition.
procedure Multiply(a: int, b: int) returns (r: int)
  requires -10 <= a && a <= 10;
  requires 0 <= b && b <= 10;
  ensures r == a * b;
{
  var i: int;
  if (a == 0 || b == 0) {
    r := 0;
  } else {
    r := a;
    i := b;
    while (i != 1)
      invariant 1 <= i && i <= b;
      invariant r == a * (b - i + 1);
    {
      call r := AddRecursive(r, a);
      i := i - 1;
    }
  }
}

procedure MultiplyRecursive(a: int, b: int) returns (r: int)
  requires -10 <= a && a <= 10;
  requires 0 <= b && b <= 10;
  ensures r == a * b;
{
  var m: int;
  if (a == 0 || b == 0) {
    r := 0;
  } else if (b == 1) {
    r := a;
  } else {
    call m := MultiplyRecursive(a, b - 1);
    call r := AddRecursive(m, a);
  }
}

// Quotient and remainder of n divided by m, by repeated subtraction.
procedure DivideRecursive(n: int, m: int) returns (q: int, r: int)
  requires 0 <= n && n <= 100;
  requires 0 < m && m <= 100;
  ensures n == q * m + r;
  ensures 0 <= r && r < m;
{
  var d: int;
  if (n < m) {
    q := 0;
    r := n;
  } else {
    call d := AddRecursive(n, -m);
    call q, r := DivideRecursive(d, m);
    q := q + 1;
  }
}
