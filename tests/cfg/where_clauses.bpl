// `where` clauses: assumed at the entry (globals, parameters, locals) and after every
// `havoc` of their variable, including the havoc of a loop's targets when it is cut.
// Verifies.

var g: int where g > 0;

procedure Formals(x: int where x > 0) returns (r: int where r > 5)
{
  var l: int where l > 7;
  assert x > 0;
  assert r > 5;
  assert l > 7;
  havoc l;
  assert l > 7;
}

procedure Global()
  modifies g;
{
  assert g > 0;
  havoc g;
  assert g > 0;
}

procedure Loop(n: int) returns (r: int where r >= 0)
  modifies g;
{
  var i: int where i >= 0;
  i := 0;
  while (i < n)
    invariant i <= n || n < 0;
  {
    i := i + 1;
    g := g + 1;
    r := r + 1;
  }
  assert i >= 0;
  assert g > 0;
  assert r >= 0;
}
