// error: `a` is assigned twice in one parallel assignment (Boogie rejects a swap written this way)
var a: [int]int;

procedure Swap(i: int, j: int)
  modifies a;
{
  a[i], a[j] := a[j], a[i];
}
