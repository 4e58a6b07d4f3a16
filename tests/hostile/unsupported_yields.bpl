procedure {:yields} P() { }
