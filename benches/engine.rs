//! Engine benchmark: whole-process wall time of `seedgen prove-tests` on every
//! corpus program, next to Boogie 2.4.1 verifying the same seeded program (the output of
//! `seedgen seed`, with `/errorLimit:1000`) when `boogie` is on the `PATH`.
//!
//! `cargo bench --bench engine` (release). Each command runs once to warm the caches,
//! then `RUNS` times, the programs' runs interleaved round by round (see [`measure`]);
//! the table gives the median and the minimum wall time, in
//! milliseconds, as a Markdown table for `docs/benchmarks.md`. Target: every program
//! under 50 ms. An argument that is not a flag keeps only the programs whose name
//! contains it (`cargo bench --bench engine -- control`).

mod common;

use common::{corpus, load_average, ms, name, Timings};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const RUNS: usize = 11;
const TARGET: Duration = Duration::from_millis(50);

/// A command line: the program, then its arguments.
type Argv = Vec<OsString>;

/// A run of `argv`, timed; exit status 0 or 1 (a program with errors, which a seeded
/// program is for Boogie) counts as a run.
fn run(argv: &Argv) -> Duration {
    let mut command = Command::new(&argv[0]);
    command.args(&argv[1..]);
    let start = Instant::now();
    let status = command.output().expect("the command runs").status;
    assert!(status.success() || status.code() == Some(1), "{command:?} failed: {status}");
    start.elapsed()
}

/// A warm-up round, then `RUNS` rounds each running every command once, in turn. A
/// shared machine has slow spells of a few seconds (seen: every time doubled, Boogie's
/// too); interleaved, one spreads over a sample or two of every command, where
/// consecutive runs would give one program most of its samples in it.
fn measure(commands: &[Argv]) -> Vec<Timings> {
    for argv in commands {
        run(argv);
    }
    let mut times = vec![Vec::with_capacity(RUNS); commands.len()];
    for _ in 0..RUNS {
        for (argv, times) in commands.iter().zip(&mut times) {
            times.push(run(argv));
        }
    }
    times.into_iter().map(Timings::from_runs).collect()
}

fn main() {
    let filter = std::env::args().skip(1).find(|arg| !arg.starts_with('-'));
    let seedgen = env!("CARGO_BIN_EXE_seedgen");
    let scratch = tempfile::tempdir().expect("a temporary directory");
    let boogie = Command::new("boogie").arg("/help").output().is_ok();
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let programs = corpus(filter.as_deref());
    let suite = scratch.path().join("suite.json");
    // `--no-cache`: a run that reads its results from the cache solves nothing.
    let flags = ["prove-tests", "--quiet", "--no-cache"];
    let seedgen_commands: Vec<Argv> = programs
        .iter()
        .map(|path| {
            let mut argv: Argv = std::iter::once(seedgen).chain(flags).map(OsString::from).collect();
            argv.extend([path.as_os_str(), "-o".as_ref(), suite.as_os_str()].map(OsString::from));
            argv
        })
        .collect();
    let load = load_average().unwrap_or_default();
    eprintln!("{} programs, {RUNS} rounds after a warm-up: seedgen, then Boogie", programs.len());
    let seedgen_times = measure(&seedgen_commands);
    let boogie_times = if boogie { measure(&boogie_commands(seedgen, &programs, scratch.path())) } else { Vec::new() };
    println!("prove-tests, whole process, {RUNS} rounds after a warm-up, {cores} cores, load average {load}; wall time in ms");
    if !boogie {
        println!("(boogie is not on the PATH: its column is empty)");
    }
    println!();
    println!("| program | seedgen median | seedgen min | Boogie 2.4.1 median (seeded) |");
    println!("|---|---:|---:|---:|");
    let mut slowest = (Duration::ZERO, String::new());
    for (index, path) in programs.iter().enumerate() {
        let times = &seedgen_times[index];
        let median = times.median();
        if median > slowest.0 {
            slowest = (median, name(path));
        }
        let mark = if median < TARGET { "" } else { " (over target)" };
        let boogie_column = boogie_times.get(index).map_or(String::new(), |times| ms(times.median()));
        println!("| {} | {}{mark} | {} | {boogie_column} |", name(path), ms(median), ms(times.min()));
    }
    println!();
    println!("slowest median: {} ms ({}); target < {} ms", ms(slowest.0), slowest.1, TARGET.as_millis());
}

/// Boogie on each program's seeded form, the output of `seedgen seed`, written to `dir`.
fn boogie_commands(seedgen: &str, programs: &[PathBuf], dir: &Path) -> Vec<Argv> {
    programs
        .iter()
        .map(|path| {
            let seeded = dir.join(format!("{}.seeded.bpl", name(path)));
            let output = Command::new(seedgen).arg("seed").arg(path).output().expect("seed runs");
            assert!(output.status.success(), "seed failed on {}", path.display());
            std::fs::write(&seeded, output.stdout).expect("the scratch directory is writable");
            vec!["boogie".into(), seeded.into(), "/errorLimit:1000".into()]
        })
        .collect()
}
