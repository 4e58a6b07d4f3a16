//! Prints an AST back as Boogie text (filled in by the printer work).
