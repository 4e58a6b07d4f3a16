// error: unknown type `Ref` (never declared with `type Ref;`)
var next: [Ref]Ref;

procedure Advance(r: Ref) returns (s: Ref)
{
  s := next[r];
}
