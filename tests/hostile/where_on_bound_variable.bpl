axiom (forall x: int where x > 0 :: x >= 1);
