//! seedgen: exhaustive-coverage regression test suites for Boogie programs, from failed
//! proofs (Seeding Contradiction, seeds/001).
//!
//! The pipeline, one module per stage (see ARCHITECTURE.md):
//! ```text
//! source text ──syntax::parse──▶ ast::Program ──sema::check──▶ hir::Program
//! ```
//! Every stage returns its result together with its diagnostics and never fails on bad
//! input; problems are [`diag::Diagnostic`]s with spans into the [`source::SourceDb`].
//!
//! These docs are for contributors and built with private items (`just doc`), so a
//! module's documentation links to the private pieces it is made of.
#![allow(rustdoc::private_intra_doc_links)]

pub mod cache;
pub mod cfg;
pub mod config;
pub mod diag;
pub mod driver;
pub mod gen;
pub mod interp;
pub mod lsp;
pub mod mono;
pub mod mutate;
pub mod progress;
pub mod regress;
pub mod report;
pub mod seed;
pub mod sema;
pub mod smt;
pub mod source;
pub mod suite;
pub mod syntax;
#[doc(hidden)]
pub mod testgen;
pub mod vc;
pub mod verify;
