// error: the type synonyms `Key` and `Index` are defined in terms of each other
type Key = Index;
type Index = Key;

var table: [Key]int;
