// Queue: a bounded circular queue of integers (the paper's "Queue" class, with the
// array used as a ring instead of shifting on every removal).  The count elements are
// items[head], items[Next(head)], ...; enqueueing onto a full queue or dequeueing from
// an empty one raises the error flag instead.  The class invariant becomes
// requires/ensures.
// Paper: 16 branches; seedgen goals (--goals all): 16 (Make and Size 1 each; Enqueue and
// Dequeue 4 each: full/empty or not, index wraps around or not; Peek 2; Contains 4: loop
// body and exit, found / not yet).

const Capacity: int;
axiom Capacity == 100;

var items: [int]int;
var head: int;   // slot of the first element
var tail: int;   // slot where the next element goes
var count: int;
var error: bool; // set by an operation that cannot proceed

// The slot `offset' places after slot 1 when counting around the ring (offset < 2 * Capacity).
function Slot(offset: int): int { if offset > Capacity then offset - Capacity else offset }

// The slot after slot p.
function Next(p: int): int { if p == Capacity then 1 else p + 1 }

// The k-th element (from 0) of a queue whose first element is in slot `head'.
function At(items: [int]int, head: int, k: int): int { items[Slot(head + k)] }

function QueueInvariant(head: int, tail: int, count: int): bool
{
  1 <= head && head <= Capacity && 1 <= tail && tail <= Capacity &&
  0 <= count && count <= Capacity && tail == Slot(head + count)
}

procedure Make()
  modifies head, tail, count, error;
  ensures QueueInvariant(head, tail, count);
  ensures count == 0 && !error;
{
  head := 1;
  tail := 1;
  count := 0;
  error := false;
}

procedure Size() returns (n: int)
  requires QueueInvariant(head, tail, count);
  ensures n == count;
{
  n := count;
}

procedure Enqueue(x: int)
  requires QueueInvariant(head, tail, count);
  modifies items, tail, count, error;
  ensures QueueInvariant(head, tail, count);
  ensures old(count) == Capacity ==> error && count == old(count) && items == old(items);
  ensures old(count) < Capacity ==>
            count == old(count) + 1 && items == old(items)[Slot(head + old(count)) := x] &&
            error == old(error);
{
  if (count == Capacity) {
    error := true;
  } else {
    items[tail] := x;
    if (tail == Capacity) {
      tail := 1;
    } else {
      tail := tail + 1;
    }
    count := count + 1;
  }
}

procedure Dequeue() returns (x: int)
  requires QueueInvariant(head, tail, count);
  modifies head, count, error;
  ensures QueueInvariant(head, tail, count);
  ensures old(count) == 0 ==> error && head == old(head) && count == 0;
  ensures old(count) > 0 ==>
            x == items[old(head)] && head == Next(old(head)) && count == old(count) - 1 &&
            error == old(error);
{
  if (count == 0) {
    error := true;
  } else {
    x := items[head];
    if (head == Capacity) {
      head := 1;
    } else {
      head := head + 1;
    }
    count := count - 1;
  }
}

procedure Peek() returns (x: int)
  requires QueueInvariant(head, tail, count);
  modifies error;
  ensures count == 0 ==> error;
  ensures count > 0 ==> x == items[head] && error == old(error);
{
  if (count == 0) {
    error := true;
  } else {
    x := items[head];
  }
}

// Is key one of the queue's elements?
procedure Contains(key: int) returns (found: bool)
  requires QueueInvariant(head, tail, count);
  ensures found <==> (exists k: int :: 0 <= k && k < count && At(items, head, k) == key);
{
  var i, pos: int;
  i := 0;
  pos := head;
  found := false;
  while (i < count && !found)
    invariant 0 <= i && i <= count;
    invariant pos == Slot(head + i);
    invariant found ==> i < count && At(items, head, i) == key;
    invariant (forall k: int :: 0 <= k && k < i ==> At(items, head, k) != key);
  {
    if (items[pos] == key) {
      found := true;
    } else {
      i := i + 1;
      pos := Next(pos);
    }
  }
}
