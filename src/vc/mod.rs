//! Verification conditions, solver-independent: an acyclic [`Cfg`] → an [`Encoding`]
//! whose models are executions, and the [`Model`]s later stages read.
//!
//! ```text
//! hir::Program ──expr::Translator::new──▶ prelude (sorts, constants, functions, axioms)
//! acyclic Cfg ──passify──▶ Passive (incarnations x@k, steps per block, join fix-ups)
//!             ──encode───▶ Encoding (%exec@B, %take@P@S, trans@B; failures for verify)
//! solver model ──smt::Session──▶ Model (path, entry values, choice trace, UF tables)
//! ```
//! Everything here is plain data over a [`term::Terms`] arena; only [`crate::smt`]
//! talks to a solver. The encoding's rules and its correctness argument are in
//! [`mod@encode`]; passification's rules in [`passify`].
//!
//! [`Cfg`]: crate::cfg::Cfg
pub mod encode;
mod expr;
pub mod model;
pub mod passify;
pub mod term;
pub mod theory;

pub use encode::{encode, encode_verification, BlockVc, EdgeVc, Encoding, Failure, FailureId};
pub use expr::{Definition, Prelude};
pub use model::{Assignment, Choice, FunctionModel, MapValue, Model, Value};
pub use passify::{Abstraction, Input, InputKind, Obligation, ObligationKind};
pub use term::{Sort, SymbolId, Term, TermId, Terms};

#[cfg(test)]
pub(crate) mod testing;
#[cfg(test)]
mod tests;
