//! Problems that lowering to a control-flow graph finds, as data, and their one
//! conversion into diagnostics.
//!
//! The checker accepts every `goto`, so the only thing lowering can still reject is the
//! shape of the graph: a loop with more than one entry (an irreducible graph) has no
//! header to put invariants on, and Boogie rejects it too ("Irreducible flow graphs are
//! unsupported").

use crate::diag::Diagnostic;
use crate::source::Span;

/// A problem in the user's program found while building its control-flow graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CfgError {
    /// A jump into the middle of a loop: the edge at `span` (a `goto`, or the fall-through
    /// into a label) enters a cycle whose head does not dominate it.
    Irreducible { span: Span },
    /// A construct `check` accepts but the engine (lowering, encoding, interpreter) does
    /// not run yet; `more` counts its other occurrences.
    NotExecutable { construct: EngineConstruct, span: Span, more: usize },
    /// A function bound by `{:bvbuiltin "name"}` or `{:builtin "name"}` to an operation
    /// outside the engine's theories (`crate::vc::theory`), at the function.
    UnknownBuiltin { name: String, span: Span },
    /// A function bound to a known builtin whose parameter or result types are not the
    /// operation's.
    BuiltinSignature { name: String, span: Span },
}

/// The parts of Boogie 2 that `check` accepts and the engine does not run yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum EngineConstruct {
    /// `bv0`, which z3 has no sort for.
    EmptyBitVector,
    /// `extends` clauses of constants.
    Order,
    /// `<:` at a type that mentions a type parameter (checking makes every other one
    /// its type's order function, `sema::order`).
    OrderAtTypeParameter,
}

impl EngineConstruct {
    fn what(self) -> &'static str {
        match self {
            EngineConstruct::EmptyBitVector => "zero-width bit-vectors (`bv0`)",
            EngineConstruct::Order => "`extends` orders",
            EngineConstruct::OrderAtTypeParameter => "`<:` at a type parameter",
        }
    }
}

impl CfgError {
    pub fn span(&self) -> Span {
        match self {
            CfgError::Irreducible { span }
            | CfgError::NotExecutable { span, .. }
            | CfgError::UnknownBuiltin { span, .. }
            | CfgError::BuiltinSignature { span, .. } => *span,
        }
    }

    pub fn to_diagnostic(&self) -> Diagnostic {
        match self {
            CfgError::Irreducible { span } => Diagnostic::error("irreducible control flow")
                .with_primary(*span, "this jump enters a loop without passing through its head")
                .with_note("a loop must have a single entry (its head), where its invariants are checked")
                .with_help("make every jump into the loop go to one label, or write the loop as a `while`"),
            CfgError::UnknownBuiltin { name, span } => {
                Diagnostic::error(format!("seedgen cannot generate tests with the builtin `{name}`"))
                    .with_primary(*span, "this function is bound to it")
                    .with_note(
                        "the engine knows the bit-vector operations (`bvadd` … `bvsge`, `sign_extend n`, \
                         `zero_extend n`, `concat`, `bv2nat`, `int2bv n`), `div`, `mod`, `to_real` and `to_int`",
                    )
            }
            CfgError::BuiltinSignature { name, span } => {
                Diagnostic::error(format!("the builtin `{name}` does not take or give these types"))
                    .with_primary(*span, "this function's parameters or result do not fit the operation")
                    .with_help(
                        "declare it with the operation's SMT-LIB types: e.g. `bvadd` on two `bv32`s gives a `bv32`",
                    )
            }
            CfgError::NotExecutable { construct, span, more } => {
                let diagnostic = Diagnostic::error(format!(
                    "seedgen checks {} but cannot generate tests for them yet",
                    construct.what()
                ))
                .with_primary(*span, "first used here")
                .with_note("`seedgen check` accepts this program; seeding, test generation, verification and replay do not run it yet");
                if *more > 0 {
                    diagnostic.with_note(format!("{more} more use(s) in this program"))
                } else {
                    diagnostic
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FileId;

    #[test]
    fn irreducible_points_at_the_jump() {
        let span = Span::new(FileId(0), 3, 9);
        let diagnostic = CfgError::Irreducible { span }.to_diagnostic();
        assert_eq!(diagnostic.primary_span(), Some(span));
        assert!(diagnostic.message.contains("irreducible"));
    }
}
