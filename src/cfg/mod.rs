//! Control-flow graphs: [`hir::Implementation`] → [`graph::Cfg`] ([`lower`]), made
//! acyclic by the invariant abstraction ([`cut`]), printed back as Boogie
//! ([`print`](mod@print)). [`loops`] finds the natural loops; [`error`] holds the one
//! problem lowering can report.
//!
//! [`hir::Implementation`]: crate::sema::hir::Implementation
pub mod cut;
pub mod error;
pub mod graph;
pub mod inline;
pub mod loops;
pub mod lower;
pub mod print;
pub mod support;
pub mod uninit;
pub mod unroll;

pub use error::CfgError;
pub use graph::*;

#[cfg(test)]
mod tests;
