//! What the benchmarks share: wall times and how they are shown.

// Each benchmark uses part of this module.
#![allow(dead_code)]

pub mod generated;

use std::path::{Path, PathBuf};
use std::time::Duration;

/// Wall times of repeated runs, sorted.
pub struct Timings(Vec<Duration>);

impl Timings {
    /// Runs `run` `runs` times (at least once); `run` returns the time it measured.
    pub fn of(runs: usize, mut run: impl FnMut() -> Duration) -> Timings {
        Timings::from_runs((0..runs.max(1)).map(|_| run()).collect())
    }

    /// The timings of runs measured elsewhere.
    pub fn from_runs(mut times: Vec<Duration>) -> Timings {
        assert!(!times.is_empty(), "at least one run");
        times.sort();
        Timings(times)
    }

    pub fn median(&self) -> Duration {
        self.0[self.0.len() / 2]
    }

    pub fn min(&self) -> Duration {
        self.0[0]
    }

    pub fn max(&self) -> Duration {
        self.0[self.0.len() - 1]
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }
}

/// Milliseconds with one decimal.
pub fn ms(duration: Duration) -> String {
    format!("{:.1}", duration.as_secs_f64() * 1000.0)
}

/// The CPU time (user + system) of this process's finished children so far, where
/// Linux tells it (`/proc/self/stat`, in clock ticks of `getconf CLK_TCK`). Ticks are
/// coarse (10 ms), so only the difference over many runs, divided by their number, is
/// meaningful: on a loaded machine it shows what a run costs, where wall time also
/// counts the wait for a core.
pub fn children_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name in parentheses, which may contain spaces.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    // cutime and cstime are fields 16 and 17 of the whole line, 14 and 15 here.
    let ticks: u64 = fields.get(13)?.parse::<u64>().ok()? + fields.get(14)?.parse::<u64>().ok()?;
    let per_second: u64 = std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|output| String::from_utf8(output.stdout).ok())
        .and_then(|text| text.trim().parse().ok())
        .unwrap_or(100);
    Some(Duration::from_secs_f64(ticks as f64 / per_second as f64))
}

/// `/proc/loadavg`'s 1-minute load, where Linux tells it: on a shared machine the wall
/// times mean little without it.
pub fn load_average() -> Option<String> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().next().map(str::to_string)
}

/// The `corpus/*.bpl` programs, sorted, those whose name contains `filter` if one is
/// given (a benchmark's first argument that is not a flag).
pub fn corpus(filter: Option<&str>) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("corpus/ exists")
        .map(|entry| entry.expect("readable entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "bpl"))
        .filter(|path| filter.is_none_or(|filter| name(path).contains(filter)))
        .collect();
    files.sort();
    files
}

/// A program's file name without `.bpl`.
pub fn name(path: &Path) -> String {
    path.file_stem().expect("a file name").to_string_lossy().to_string()
}

/// Whole-process `seedgen prove-tests FILE -o SUITE --no-cache --quiet --format json
/// FLAGS`: the JSON summary's totals and the wall time.
pub fn prove_totals(seedgen: &Path, file: &Path, suite: &Path, flags: &[&str]) -> (serde_json::Value, Duration) {
    let start = std::time::Instant::now();
    let output = std::process::Command::new(seedgen)
        .arg("prove-tests")
        .arg(file)
        .arg("-o")
        .arg(suite)
        .args(["--no-cache", "--quiet", "--format", "json"])
        .args(flags)
        .output()
        .expect("seedgen runs");
    let elapsed = start.elapsed();
    let summary: serde_json::Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|_| panic!("a JSON summary: {}", String::from_utf8_lossy(&output.stderr)));
    (summary["totals"].clone(), elapsed)
}

/// How a child process run by [`run_limited`] ended.
pub enum Limited {
    /// It exited by itself: its status and wall time.
    Exited { status: std::process::ExitStatus, time: Duration },
    /// It was killed at its time limit.
    Timeout,
}

/// Runs `command` with its stdout going to the file `stdout` (not a pipe: a child
/// blocked on a full pipe would look slow) and stderr discarded, killed after `limit`, so
/// that a harness always ends.
pub fn run_limited(command: &mut std::process::Command, stdout: &Path, limit: Duration) -> Limited {
    let out = std::fs::File::create(stdout).expect("the output file can be created");
    let start = std::time::Instant::now();
    let mut child = command.stdout(out).stderr(std::process::Stdio::null()).spawn().expect("the child starts");
    loop {
        if let Some(status) = child.try_wait().expect("waiting for the child") {
            return Limited::Exited { status, time: start.elapsed() };
        }
        if start.elapsed() >= limit {
            // Only this child, by its handle (never a broad kill).
            child.kill().expect("the child can be killed");
            child.wait().expect("the killed child is reaped");
            return Limited::Timeout;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}
