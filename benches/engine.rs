//! Engine benchmark (issue 3): whole-process wall time of `seedgen prove-tests` on every
//! corpus program, next to Boogie 2.4.1 verifying the same seeded program when `boogie`
//! is installed. `cargo bench --bench engine` (release). Target: every program under
//! 50 ms.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const RUNS: usize = 7;

fn corpus() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("corpus/ exists")
        .map(|entry| entry.expect("readable entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "bpl"))
        .collect();
    files.sort();
    files
}

/// Median wall time of `RUNS` runs of `command`.
fn median(mut command: impl FnMut() -> Command) -> Duration {
    let mut times: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            let status = command().output().expect("the command runs").status;
            assert!(status.success() || status.code() == Some(1), "the command failed: {status}");
            start.elapsed()
        })
        .collect();
    times.sort();
    times[RUNS / 2]
}

fn main() {
    let seedgen = env!("CARGO_BIN_EXE_seedgen");
    let scratch = tempfile::tempdir().expect("a temporary directory");
    let boogie = Command::new("boogie").arg("/version").output().is_ok();
    println!("prove-tests, whole process, median of {RUNS} runs (target < 50 ms)");
    println!("{:<20} {:>10} {:>12}", "program", "seedgen", if boogie { "boogie" } else { "" });
    let mut worst = Duration::ZERO;
    for path in corpus() {
        let suite = scratch.path().join("suite.json");
        let time = median(|| {
            let mut command = Command::new(seedgen);
            command.arg("prove-tests").arg("--quiet").arg(&path).arg("-o").arg(&suite);
            command
        });
        worst = worst.max(time);
        let name = path.file_stem().expect("a file name").to_string_lossy().to_string();
        let boogie_time = boogie.then(|| {
            let seeded = scratch.path().join("seeded.bpl");
            let output = Command::new(seedgen).arg("seed").arg(&path).output().expect("seed runs");
            std::fs::write(&seeded, output.stdout).expect("writable");
            median(|| {
                let mut command = Command::new("boogie");
                command.arg(&seeded).arg("/errorLimit:1000");
                command
            })
        });
        let boogie_column = boogie_time.map(|time| format!("{:>10.1?}", time)).unwrap_or_default();
        println!("{name:<20} {:>10.1?} {boogie_column:>12}", time);
    }
    println!("slowest: {worst:.1?}");
}
