// Stack (the paper's "Stack" class): a bounded stack of integers in arr[1..top] with a
// capacity of 100; pushing onto a full stack or popping an empty one raises the error
// flag instead.  Search and IsContain look for a key from the top down.  The class
// invariant (0 <= top <= Capacity) becomes requires/ensures.
// Paper: 15 branches; seedgen goals (--goals all): 15 (Make 1; Push, Pop, Peek 2 each;
// Search and IsContain 4 each: loop body and exit, found / not yet).

const Capacity: int;
axiom Capacity == 100;

var arr: [int]int;
var top: int;
var error: bool;  // set by an operation that cannot proceed

procedure Make()
  modifies top, error;
  ensures top == 0 && !error;
{
  top := 0;
  error := false;
}

procedure Push(x: int)
  requires 0 <= top && top <= Capacity;
  modifies arr, top, error;
  ensures 0 <= top && top <= Capacity;
  ensures old(top) == Capacity ==> error && top == old(top) && arr == old(arr);
  ensures old(top) < Capacity ==> top == old(top) + 1 && arr == old(arr)[top := x] && error == old(error);
{
  if (top < Capacity) {
    top := top + 1;
    arr[top] := x;
  } else {
    error := true;
  }
}

procedure Pop() returns (x: int)
  requires 0 <= top && top <= Capacity;
  modifies top, error;
  ensures 0 <= top && top <= Capacity;
  ensures old(top) == 0 ==> error && top == 0;
  ensures old(top) > 0 ==> top == old(top) - 1 && x == arr[old(top)] && error == old(error);
{
  if (top >= 1) {
    x := arr[top];
    top := top - 1;
  } else {
    error := true;
  }
}

procedure Peek() returns (x: int)
  requires 0 <= top && top <= Capacity;
  modifies error;
  ensures top == 0 ==> error;
  ensures top > 0 ==> x == arr[top] && error == old(error);
{
  if (top >= 1) {
    x := arr[top];
  } else {
    error := true;
  }
}

// The position of the topmost occurrence of key, or 0.
procedure Search(key: int) returns (index: int)
  requires 0 <= top && top <= Capacity;
  ensures 0 <= index && index <= top;
  ensures index > 0 ==> arr[index] == key;
  ensures (forall k: int :: index < k && k <= top ==> arr[k] != key);
{
  var i: int;
  i := top;
  index := 0;
  while (i >= 1 && index == 0)
    invariant 0 <= i && i <= top;
    invariant index == 0 || (index == i && arr[i] == key);
    invariant (forall k: int :: i < k && k <= top ==> arr[k] != key);
  {
    if (arr[i] == key) {
      index := i;
    } else {
      i := i - 1;
    }
  }
}

procedure IsContain(key: int) returns (found: bool)
  requires 0 <= top && top <= Capacity;
  ensures found <==> (exists k: int :: 1 <= k && k <= top && arr[k] == key);
{
  var i: int;
  i := top;
  found := false;
  while (i >= 1 && !found)
    invariant 0 <= i && i <= top;
    invariant found ==> 1 <= i && arr[i] == key;
    invariant (forall k: int :: i < k && k <= top ==> arr[k] != key);
  {
    if (arr[i] == key) {
      found := true;
    } else {
      i := i - 1;
    }
  }
}
