procedure P() { assert (forall x: int :: { f(x) } true); }
