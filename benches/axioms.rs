//! Axiom-heavy programs beside Boogie 2.4.1: for each `Test/havoc0/*.bpl` of Boogie's
//! suite (Windows driver models: a memory model of sets, `Rep`/`AtLeast` axioms, some
//! 370 axioms each), Boogie on `seedgen seed` output of the file (one error per goal it
//! finds reachable, with the `/errorLimit` the seeded file names) and `seedgen
//! prove-tests` on the file, whole processes, one after the other in the same run. The
//! run of `prove-tests` is given three times Boogie's time, less [`START_AND_EXIT`], as
//! its `--time-limit` (the target: as many goals decided as Boogie reports errors, the
//! whole process within three times Boogie's), or the `--time-limit SECONDS` given.
//!
//! `SEEDGEN_BOOGIE_REPO=/path/to/boogie cargo bench --bench axioms` (a directory
//! containing `Test/havoc0`); `--files NAME` keeps the files whose name contains NAME.
//! Prints a Markdown table (the one in `docs/benchmarks.md`).

mod common;

use common::{load_average, ms, prove_totals};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// How many times Boogie's time `prove-tests` is given, when no `--time-limit` is.
const TIME_FACTOR: u32 = 3;

/// What a `prove-tests` process takes beside its `--time-limit`: starting, reading and
/// checking the file before the limit's clock starts, writing the suite and exiting
/// after it (40 to 60 ms measured on the driver models); kept off the limit so that the
/// whole process stays within [`TIME_FACTOR`] times Boogie's.
const START_AND_EXIT: Duration = Duration::from_millis(150);

/// Boogie's verdict on a seeded file: errors (reachable goals), and its time.
struct BoogieRun {
    errors: u64,
    elapsed: Duration,
}

/// `boogie` on the seeded program `seeded`, with the error limit its header names.
fn boogie(seeded: &Path) -> BoogieRun {
    let text = std::fs::read_to_string(seeded).expect("the seeded file was written");
    let limit = text
        .lines()
        .find_map(|line| line.split("/errorLimit:").nth(1))
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .unwrap_or("100000")
        .to_string();
    let start = Instant::now();
    let output = Command::new("boogie")
        .arg(seeded)
        .arg(format!("/errorLimit:{limit}"))
        .arg("/nologo")
        .output()
        .expect("boogie runs (Boogie 2.4.1 on the PATH)");
    let elapsed = start.elapsed();
    let stdout = String::from_utf8_lossy(&output.stdout);
    // "Boogie program verifier finished with 0 verified, 26 errors"
    let errors = stdout
        .lines()
        .find(|line| line.contains("verifier finished with"))
        .and_then(|line| line.split(", ").nth(1))
        .and_then(|part| part.split(' ').next())
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| panic!("Boogie finished: {stdout}"));
    BoogieRun { errors, elapsed }
}

/// `seedgen prove-tests` on `file` within `limit`: the JSON summary's totals and the
/// wall time.
fn prove(seedgen: &Path, file: &Path, suite: &Path, limit: Duration) -> (Value, Duration) {
    let limit = format!("{:.3}", limit.as_secs_f64());
    prove_totals(seedgen, file, suite, &["--time-limit", &limit])
}

fn flag<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter().position(|arg| arg == name).and_then(|at| args.get(at + 1)).map(String::as_str)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(repo) = std::env::var_os("SEEDGEN_BOOGIE_REPO").map(PathBuf::from) else {
        eprintln!("SEEDGEN_BOOGIE_REPO is not set: name a local copy of boogie-org/boogie (containing Test/havoc0)");
        return;
    };
    let filter = flag(&args, "--files");
    let fixed_limit = flag(&args, "--time-limit").map(|secs| Duration::from_secs_f64(secs.parse().expect("seconds")));
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo.join("Test/havoc0"))
        .expect("SEEDGEN_BOOGIE_REPO/Test/havoc0 is readable")
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "bpl"))
        .filter(|path| filter.is_none_or(|name| path.to_string_lossy().contains(name)))
        .collect();
    files.sort();
    let scratch = tempfile::tempdir().expect("a temporary directory");
    let seedgen = PathBuf::from(env!("CARGO_BIN_EXE_seedgen"));
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let load = load_average().map(|load| format!(", load average {load}")).unwrap_or_default();
    println!(
        "Boogie 2.4.1 on `seedgen seed` output beside `seedgen prove-tests`, whole processes, {cores} cores{load}"
    );
    println!();
    println!("| file | goals | Boogie errors | Boogie (ms) | covered | unreachable | decided | checks | seedgen (ms) | × Boogie | limit (ms) |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut all_met = true;
    for file in files {
        let name = file.file_stem().expect("a file name").to_string_lossy().to_string();
        let seeded = scratch.path().join(format!("{name}.seeded.bpl"));
        let seed = Command::new(&seedgen).arg("seed").arg(&file).output().expect("seedgen seed runs");
        std::fs::write(&seeded, &seed.stdout).expect("the directory is writable");
        let reference = boogie(&seeded);
        let limit = fixed_limit.unwrap_or((reference.elapsed * TIME_FACTOR).saturating_sub(START_AND_EXIT));
        let suite = scratch.path().join(format!("{name}.tests.json"));
        let (totals, elapsed) = prove(&seedgen, &file, &suite, limit);
        let count = |key: &str| totals[key].as_u64().unwrap_or(0);
        let decided = count("covered") + count("unreachable");
        let ratio = elapsed.as_secs_f64() / reference.elapsed.as_secs_f64();
        all_met &= decided >= reference.errors && ratio <= f64::from(TIME_FACTOR);
        println!(
            "| {name} | {} | {} | {} | {} | {} | {decided} | {} | {} | {ratio:.2} | {} |",
            count("goals"),
            reference.errors,
            ms(reference.elapsed),
            count("covered"),
            count("unreachable"),
            count("checks"),
            ms(elapsed),
            ms(limit)
        );
    }
    println!();
    println!(
        "goals decided >= Boogie's errors, within {TIME_FACTOR} times its time, on every file: {}",
        if all_met { "yes" } else { "NO" }
    );
}
