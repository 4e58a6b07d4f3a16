//! The one integration-test binary: each module tests one stage or command.
mod cfg;
mod cli;
mod conformance;
mod corpus;
mod coverage;
mod docs;
mod emit_bpl;
mod evaluation;
mod fuzz_regressions;
#[cfg(unix)] // The cases use `/dev/zero`, signals and symbolic links.
mod hostile;
mod incremental;
mod lsp;
mod mono;
mod mutate;
mod properties;
mod prove;
mod regen;
mod roundtrip;
mod run_tests;
mod seed;
mod solver_trouble;
mod support;
mod testcomp;
mod ui;
mod unroll;
mod verify;
