// The partial order `<:` on dynamic types, as object-oriented front ends (AutoProof,
// Dafny) write it: a type constant per class, axioms placing each below `ANY`, and
// routines that branch on an object's dynamic type. Boogie leaves `<:` uninterpreted
// beyond its partial-order axioms, so each test states which comparisons hold.

type Type;
const unique ANY: Type;
const unique CELL: Type;
const unique LIST: Type;
const unique ARRAYED_LIST: Type;
axiom CELL <: ANY && LIST <: ANY;
axiom ARRAYED_LIST <: LIST;
axiom (forall t: Type :: { t <: ANY } t <: ANY);

type ref;
const Void: ref;
function type_of(o: ref): Type;

// Which family an object belongs to.
procedure Family(o: ref) returns (family: int)
  requires o != Void;
  ensures type_of(o) <: CELL ==> family == 1;
  ensures family == 2 ==> type_of(o) <: LIST;
{
  if (type_of(o) <: CELL) {
    family := 1;
  } else if (type_of(o) <: LIST) {
    family := 2;
  } else {
    family := 0;
  }
}

// Whether two objects can share a representation: the type of one conforms to the
// other's.
procedure Conforming(a: ref, b: ref) returns (result: bool)
  requires a != Void && b != Void;
  ensures result <==> type_of(a) <: type_of(b) || type_of(b) <: type_of(a);
{
  if (type_of(a) <: type_of(b)) {
    result := true;
  } else {
    result := type_of(b) <: type_of(a);
  }
}
