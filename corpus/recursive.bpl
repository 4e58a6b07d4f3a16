// Recursion: a procedure that calls itself, verified against its own contract, and a
// recursive function with a body that specifies it.  Also a recursive binary search.

// sum(n) = 0 + 1 + ... + n
function sum(n: int): int
{
  if n <= 0 then 0 else n + sum(n - 1)
}

procedure Sum(n: int) returns (s: int)
  requires n >= 0;
  ensures s == sum(n);
{
  if (n == 0) {
    s := 0;
  } else {
    call s := Sum(n - 1);
    s := s + n;
  }
}

// Searches the sorted segment a[lo..hi) for key.
procedure BinarySearch(a: [int]int, lo: int, hi: int, key: int) returns (found: bool)
  requires 0 <= lo && lo <= hi;
  requires (forall i, j: int :: lo <= i && i <= j && j < hi ==> a[i] <= a[j]);
  ensures found <==> (exists k: int :: lo <= k && k < hi && a[k] == key);
{
  var mid: int;
  if (lo == hi) {
    found := false;
    return;
  }
  mid := lo + (hi - lo) div 2;
  if (a[mid] == key) {
    found := true;
  } else if (a[mid] < key) {
    call found := BinarySearch(a, mid + 1, hi, key);
  } else {
    call found := BinarySearch(a, lo, mid, key);
  }
}
