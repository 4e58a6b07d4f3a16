//! Engine benchmark (issue 3): whole-process wall time of `seedgen prove-tests` on every
//! corpus program, next to Boogie 2.4.1 verifying the same seeded program (the output of
//! `seedgen seed`, with `/errorLimit:1000`) when `boogie` is on the `PATH`.
//!
//! `cargo bench --bench engine` (release). Each command runs once to warm the caches,
//! then `RUNS` times; the table gives the median and the minimum wall time, in
//! milliseconds, as a Markdown table for `docs/benchmarks.md`. Target: every program
//! under 50 ms. An argument that is not a flag keeps only the programs whose name
//! contains it (`cargo bench --bench engine -- control`).

mod common;

use common::{corpus, ms, name, Timings};
use std::process::Command;
use std::time::{Duration, Instant};

const RUNS: usize = 11;
const TARGET: Duration = Duration::from_millis(50);

/// One warm-up run of `command`, then `RUNS` timed ones; exit status 0 or 1 (a
/// program with errors, which a seeded program is for Boogie) counts as a run.
fn measure(mut command: impl FnMut() -> Command) -> Timings {
    let run = |command: &mut Command| {
        let start = Instant::now();
        let status = command.output().expect("the command runs").status;
        assert!(status.success() || status.code() == Some(1), "{command:?} failed: {status}");
        start.elapsed()
    };
    run(&mut command());
    Timings::of(RUNS, || run(&mut command()))
}

fn main() {
    let filter = std::env::args().skip(1).find(|arg| !arg.starts_with('-'));
    let seedgen = env!("CARGO_BIN_EXE_seedgen");
    let scratch = tempfile::tempdir().expect("a temporary directory");
    let boogie = Command::new("boogie").arg("/help").output().is_ok();
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    println!("prove-tests, whole process, {RUNS} runs after a warm-up, {cores} cores; wall time in ms");
    if !boogie {
        println!("(boogie is not on the PATH: its column is empty)");
    }
    println!();
    println!("| program | seedgen median | seedgen min | Boogie 2.4.1 median (seeded) |");
    println!("|---|---:|---:|---:|");
    let mut slowest = (Duration::ZERO, String::new());
    for path in corpus(filter.as_deref()) {
        let suite = scratch.path().join("suite.json");
        let seedgen_times = measure(|| {
            let mut command = Command::new(seedgen);
            // `--no-cache`: a run that reads its results from the cache solves nothing.
            command.arg("prove-tests").arg("--quiet").arg("--no-cache").arg(&path).arg("-o").arg(&suite);
            command
        });
        let boogie_column = if boogie {
            let seeded = scratch.path().join(format!("{}.seeded.bpl", name(&path)));
            let output = Command::new(seedgen).arg("seed").arg(&path).output().expect("seed runs");
            assert!(output.status.success(), "seed failed on {}", path.display());
            std::fs::write(&seeded, output.stdout).expect("the scratch directory is writable");
            let times = measure(|| {
                let mut command = Command::new("boogie");
                command.arg(&seeded).arg("/errorLimit:1000");
                command
            });
            ms(times.median())
        } else {
            String::new()
        };
        let median = seedgen_times.median();
        if median > slowest.0 {
            slowest = (median, name(&path));
        }
        let mark = if median < TARGET { "" } else { " (over target)" };
        println!("| {} | {}{mark} | {} | {boogie_column} |", name(&path), ms(median), ms(seedgen_times.min()));
    }
    println!();
    println!("slowest median: {} ms ({}); target < {} ms", ms(slowest.0), slowest.1, TARGET.as_millis());
}
