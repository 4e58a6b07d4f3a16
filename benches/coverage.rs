//! Coverage on programs seedgen was not tuned on: whole-process `seedgen prove-tests` on
//! generated files (`seedgen::testgen::shapes`), at default options and with
//! `--unroll 3`: goals, covered, unreachable, not covered, checks and wall time.
//!
//! `cargo bench --bench coverage` (release). Target: every goal covered in every row.
//! `--write DIR` also keeps the generated programs there. Figures in
//! `docs/benchmarks.md`.

mod common;

use common::{load_average, ms, prove_totals};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The generated programs: a file name and its text.
fn programs() -> Vec<(&'static str, String)> {
    vec![("branch_after_loop200.bpl", seedgen::testgen::shapes::branch_after_loop(200))]
}

/// The option sets every program runs with.
const RUNS: [&[&str]; 2] = [&[], &["--unroll", "3"]];

/// `prove-tests` on `file` with `flags`, never from the cache: the JSON summary's
/// totals and the wall time.
fn prove(seedgen: &Path, file: &Path, flags: &[&str]) -> (Value, std::time::Duration) {
    prove_totals(seedgen, file, &file.with_extension("tests.json"), flags)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let scratch = tempfile::tempdir().expect("a temporary directory");
    let dir = match args.iter().position(|arg| arg == "--write") {
        Some(at) => PathBuf::from(args.get(at + 1).expect("--write DIR")),
        None => scratch.path().to_path_buf(),
    };
    let seedgen = PathBuf::from(env!("CARGO_BIN_EXE_seedgen"));
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let load = load_average().map(|load| format!(", load average {load}")).unwrap_or_default();
    println!("prove-tests on generated programs, whole process, {cores} cores{load}");
    println!();
    println!("| program | options | goals | covered | unreachable | not covered | checks | time (ms) |");
    println!("|---|---|---:|---:|---:|---:|---:|---:|");
    let mut all_covered = true;
    for (name, text) in programs() {
        let file = dir.join(name);
        std::fs::write(&file, text).expect("the directory is writable");
        for flags in RUNS {
            let (totals, elapsed) = prove(&seedgen, &file, flags);
            let count = |key: &str| totals[key].as_u64().unwrap_or(0);
            all_covered &= count("not_covered") == 0;
            let options = if flags.is_empty() { "default".to_string() } else { format!("`{}`", flags.join(" ")) };
            println!(
                "| {name} | {options} | {} | {} | {} | {} | {} | {} |",
                count("goals"),
                count("covered"),
                count("unreachable"),
                count("not_covered"),
                count("checks"),
                ms(elapsed)
            );
        }
    }
    println!();
    println!("every goal covered or proved unreachable: {}", if all_covered { "yes" } else { "NO" });
}
