// Names that mean something to SMT-LIB or Z3 (or contain Boogie's odd identifier
// characters): they must be quoted, not clash.
type Int;
const unique select: Int;
function store(x: int): int;
procedure and(let: int, ite: int, Bool': int, a.b: int, `q: int, $x#1: int) returns (distinct: int)
{
  if (let > ite && store(Bool') == 3 && a.b == `q && $x#1 < 0) {
    distinct := let;
  } else {
    distinct := ite;
  }
}
