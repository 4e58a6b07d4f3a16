// error: a let-bound integer used as a Boolean, and a coercion to the wrong type
type Seq _;
function Length<T>(s: Seq T): int;

procedure P(s: Seq int) returns (b: bool)
{
  b := (var n := Length(s); n);
  b := Length(s : Seq bool) > 0;
}
