//! The one integration-test binary: each module tests one stage or command.
mod smoke;
