axiom 2 ** 3 == 8;
