//! Fuzzes the whole pipeline on small well-typed programs (`seedgen::testgen`): the
//! input bytes are the generator's decisions, so every input is a program that checks.
//! `prove-tests` runs in-process, then every test of its suite is replayed; the oracle
//! (`testgen::oracle`) is the agreement of solver and interpreter: each test passes and
//! enters exactly the goals it claims, and no goal called unreachable is entered by the
//! suite or by probe runs. Any disagreement, and any panic, is a crash.
#![no_main]

use libfuzzer_sys::fuzz_target;
use seedgen::testgen;

fuzz_target!(|data: &[u8]| {
    let case = testgen::generate(data);
    if let Err(disagreement) = testgen::oracle::check(&case) {
        panic!("{disagreement}\n{}", case.describe());
    }
});
