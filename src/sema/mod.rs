//! Name resolution and type checking: [`crate::syntax::ast::Program`] → [`hir::Program`].
//!
//! Input: an AST as the parser returns it (possibly with unsupported constructs).
//! Output: the typed program, whose invariants are listed in [`hir`], and every problem
//! found. The check never stops at the first error and avoids cascades: a name that does
//! not resolve gets the *error type*, which is compatible with every type and is never
//! reported again.
//!
//! Two passes, so that declarations may appear in any order, as in Boogie:
//! 1. [`resolve`] collects the global declarations into symbol tables (types, with
//!    synonyms expanded by [`types`]; constants, globals and functions; procedures with
//!    their signatures and `modifies` clauses);
//! 2. [`body`] checks every expression ([`expr`], with Boogie's trigger rules in
//!    [`triggers`]) and statement ([`stmt`]) against them.
//!
//! Name spaces follow Boogie: types are separate from values; constants, global
//! variables and functions share one name space; procedures have their own; locals may
//! shadow globals and bound variables shadow everything.

pub mod error;
pub mod hir;

/// `accepts!(src)`: the program parses and type-checks without errors; evaluates to the
/// HIR.
#[cfg(test)]
macro_rules! accepts {
    ($source:expr) => {
        $crate::sema::tests::expect_accepted($source)
    };
}

/// `warns!(src, "text")`: the program is accepted, and its first diagnostic is a warning
/// containing `text`.
#[cfg(test)]
macro_rules! warns {
    ($source:expr, $needle:expr) => {
        $crate::sema::tests::expect_warning($source, $needle)
    };
}

/// `rejects!(src, "text")`: the program parses, fails to type-check, and the first error
/// (in source order), as rendered for a person, contains `text`.
#[cfg(test)]
macro_rules! rejects {
    ($source:expr, $needle:expr) => {
        $crate::sema::tests::expect_rejected($source, $needle)
    };
}

mod attrs;
mod body;
mod expr;
mod modifies;
pub mod order;
pub mod relevance;
mod resolve;
mod stmt;
mod triggers;
mod types;

pub use error::SemaError;
pub use expr::decimal_value;

use crate::source::Span;
use crate::syntax::ast;
use hir::{BoundId, ConstId, FunctionId, GlobalId, ProcId, Type, TypeId, TypeParamId};
use std::collections::BTreeMap;

/// How a program is read, beyond the language itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CheckOptions {
    /// `--infer-modifies`: each procedure with a body may modify what its bodies and
    /// callees write (Boogie's `-inferModifies`, see [`modifies`]).
    pub infer_modifies: bool,
}

/// Resolves and type-checks a program with the default options.
pub fn check(program: &ast::Program) -> (Option<hir::Program>, Vec<SemaError>) {
    check_with(program, CheckOptions::default())
}

/// Resolves and type-checks a program. Never fails: returns the HIR when there are no
/// errors, and every problem found, in source order.
pub fn check_with(program: &ast::Program, options: CheckOptions) -> (Option<hir::Program>, Vec<SemaError>) {
    let mut checker = Checker::default();
    checker.collect(program);
    if options.infer_modifies {
        checker.infer_modifies(program);
    }
    checker.check_bodies(program);
    if checker.errors.iter().all(SemaError::is_warning) {
        checker.order_functions();
    }
    let mut errors = checker.errors;
    errors.sort_by_key(|error| {
        let span = error.span();
        (span.file, span.start)
    });
    if errors.iter().all(SemaError::is_warning) {
        (Some(checker.program), errors)
    } else {
        (None, errors)
    }
}

/// The state shared by both passes: the HIR under construction, the global symbol
/// tables (by name, in `BTreeMap`s so that suggestions are deterministic) and the errors.
#[derive(Default)]
struct Checker {
    program: hir::Program,
    types: BTreeMap<String, TypeSymbol>,
    values: BTreeMap<String, ValueSymbol>,
    procs: BTreeMap<String, ProcId>,
    /// The span of each function's name, by [`FunctionId`], for "declared here" labels.
    function_name_spans: Vec<Span>,
    /// The span of each procedure's name, by [`ProcId`].
    proc_name_spans: Vec<Span>,
    errors: Vec<SemaError>,
    /// Bound variables are numbered across the whole program (see [`hir::BoundId`]).
    next_bound: u32,
    /// The inference variables of type arguments (see [`types`]).
    inference: Vec<types::Inference>,
    /// Type parameters reported as occurring nowhere they could be inferred from.
    unused_type_params: std::collections::BTreeSet<TypeParamId>,
}

struct TypeSymbol {
    kind: TypeSymbolKind,
    /// The span of the declared name.
    span: Span,
}

enum TypeSymbolKind {
    /// An uninterpreted type or type constructor (its arity is in the HIR's table).
    Uninterpreted(TypeId),
    /// The synonym's parameters and its expansion; `None` only while synonyms are being
    /// expanded.
    Synonym(Option<(Vec<TypeParamId>, Type)>),
    /// A declaration that was rejected (a cyclic synonym, a datatype): its uses get the
    /// error type silently, the declaration was reported.
    Broken,
}

struct ValueSymbol {
    value: GlobalValue,
    /// The span of the declared name.
    span: Span,
    /// Declared `{:extern}`: another declaration of the name replaces it.
    is_extern: bool,
}

#[derive(Clone, Copy)]
enum GlobalValue {
    Const(ConstId),
    Global(GlobalId),
    Function(FunctionId),
}

impl Checker {
    fn error(&mut self, error: SemaError) {
        self.errors.push(error);
    }

    fn fresh_bound(&mut self) -> BoundId {
        let id = BoundId(self.next_bound);
        self.next_bound = self.next_bound.checked_add(1).expect("fewer than 2^32 bound variables");
        id
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::diag::render_human_plain;
    use crate::source::SourceDb;

    fn run(source: &str) -> (SourceDb, Option<hir::Program>, Vec<SemaError>) {
        let mut db = SourceDb::new();
        let file = db.add("t.bpl", source);
        let (ast, parse_errors) = crate::syntax::parse(file, source);
        if !parse_errors.is_empty() {
            let diagnostics: Vec<_> = parse_errors.iter().map(|error| error.to_diagnostic()).collect();
            panic!("test program does not parse:\n{}", render_human_plain(&db, &diagnostics));
        }
        let (program, errors) = check(&ast);
        (db, program, errors)
    }

    pub(crate) fn expect_warning(source: &str, needle: &str) {
        let (db, program, errors) = run(source);
        let diagnostics: Vec<_> = errors.iter().map(SemaError::to_diagnostic).collect();
        let all = render_human_plain(&db, &diagnostics);
        assert!(program.is_some(), "a program with only warnings is accepted; got:\n{all}");
        let first = errors.first().unwrap_or_else(|| panic!("expected a warning containing {needle:?}, got none"));
        assert!(first.is_warning() && all.contains(needle), "expected a warning containing {needle:?}; got:\n{all}");
    }

    pub(crate) fn expect_accepted(source: &str) -> hir::Program {
        let (db, program, errors) = run(source);
        if !errors.is_empty() {
            let diagnostics: Vec<_> = errors.iter().map(SemaError::to_diagnostic).collect();
            panic!("expected no errors, got:\n{}", render_human_plain(&db, &diagnostics));
        }
        let program = program.expect("no errors means a program");
        // The checker's placeholders (the error type, an unresolved variable or
        // procedure) all use the id `u32::MAX`; none may survive in an accepted program.
        assert!(!format!("{program:?}").contains(&u32::MAX.to_string()), "a placeholder escaped into the HIR");
        program
    }

    pub(crate) fn expect_rejected(source: &str, needle: &str) {
        let (db, program, errors) = run(source);
        assert!(program.is_none(), "a program with errors has no HIR");
        let diagnostics: Vec<_> = errors.iter().map(SemaError::to_diagnostic).collect();
        let all = render_human_plain(&db, &diagnostics);
        let first = diagnostics.first().unwrap_or_else(|| panic!("expected an error containing {needle:?}, got none"));
        let rendered = render_human_plain(&db, std::slice::from_ref(first));
        assert!(rendered.contains(needle), "first error does not contain {needle:?}; all errors:\n{all}");
    }

    /// The number of errors, for tests about cascades.
    pub(crate) fn error_count(source: &str) -> usize {
        run(source).2.len()
    }

    /// The front end's sample program (`/tmp/smoke.bpl`), which uses every core construct,
    /// without its type constructor `type Field a;` and with `call simple(0);` receiving
    /// the procedure's one result (both are errors, tested elsewhere).
    const SMOKE: &str = r#"
type Ref; type T = [int]int;
const unique null: Ref;
const N: int;
axiom N > 0;
function f(x: int, int) returns (int);
function g(x: int): bool { x > 0 && (x < 10 || x == 42) }
var {:foo 1, "s"} M: [int]int where true, b: bool;
procedure {:entry} simple(a: int) returns (x: int)
  requires a >= 0 ==> a <= 10 ==> true;
  free ensures x > 0;
  modifies M;
{
  var i: int, m: [int][int]bool;
  if (a > 0) { x := 1; } else if (*) { x := 2; } else { x := 3; }
  L: while (i < 10) invariant i >= 0; free invariant {:x} true; { i := i + 1; if (i == 5) { break; } }
  havoc i; assume {:partition} i == -5;
  call x := simple(a - 1);
  call x := simple(0);
  m[1][2] := true; M[i], x := M[i := 3][i] div 2 mod 3, if a < 0 then 1 else -x;
  assert (forall k: int, j: int :: {f(k, j)} {:weight 3} f(k, j) == k) <==> (exists k: int :: M[k] == old(M[k]));
  assert (lambda z: int :: z + 1)[3] == 4;
  goto A, B;
  A: return;
  B: assume false; return;
}
implementation simple(a: int) returns (x: int) { x := 1; }"#;

    #[test]
    fn the_sample_program_checks() {
        let program = accepts!(SMOKE);
        assert_eq!(program.procedures.len(), 1);
        assert_eq!(program.implementations.len(), 2);
        assert_eq!(program.procedures[0].implementations, vec![hir::ImplId(0), hir::ImplId(1)]);
    }

    #[test]
    fn errors_come_in_source_order_and_each_once() {
        let source = r"
            procedure P() { x := 1; }
            type T = U;
        ";
        assert_eq!(error_count(source), 2);
        rejects!(source, "cannot find variable `x`");
    }
}
