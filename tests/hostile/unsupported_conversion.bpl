axiom int(3) == 3;
