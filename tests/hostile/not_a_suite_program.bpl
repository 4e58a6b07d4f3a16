// A program where a suite was expected: run-tests must not treat it as tests.
procedure Max(a: int, b: int) returns (m: int) { m := a; }
