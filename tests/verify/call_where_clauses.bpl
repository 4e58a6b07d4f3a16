// A call havocs the globals its callee modifies and its outputs, and a havoc assumes the
// `where` clauses of what it havocs (Boogie's desugaring): AutoProof's heap is
// `var Heap: HeapType where IsHeap(Heap)`, and every proof after a call needs it.
var g: int where g >= 0;

procedure Bump();
  modifies g;

procedure Get() returns (r: int where r > 0);

procedure AfterCalls() returns (x: int)
  modifies g;
  ensures g >= 0 && x > 0;
{
  call Bump();
  call x := Get();
}

procedure TooStrong()
  modifies g;
{
  call Bump();
  assert g > 0;
}
