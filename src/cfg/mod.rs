//! Control-flow graphs: [`hir::Implementation`] → [`graph::Cfg`] ([`lower`]), printed
//! back as Boogie ([`print`]).
//!
//! [`hir::Implementation`]: crate::sema::hir::Implementation
pub mod graph;

pub use graph::*;
