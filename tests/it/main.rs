//! The one integration-test binary: each module tests one stage or command.
mod cli;
mod corpus;
mod roundtrip;
mod support;
mod ui;
