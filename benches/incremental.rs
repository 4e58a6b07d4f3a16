//! Incremental benchmark: whole-process wall time of `seedgen prove-tests` on a
//! generated file of 200 procedures (branches, loops, calls to a contract), cold, warm
//! with nothing changed, warm with one procedure changed, and cold with `--jobs 1` and
//! `--jobs 2`.
//!
//! `cargo bench --bench incremental` (release). Targets: a warm run on the unchanged
//! file under 50 ms; after one procedure changed, under 3× (that procedure alone + the
//! warm run). Every output is checked byte for byte against a cold run (`--no-cache`)
//! of the same file. `--write FILE` also keeps the generated program.

mod common;

use common::generated::{changed, program, CHANGED, PROCEDURES};
use common::{children_cpu, load_average, ms, Timings};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const WARM_RUNS: usize = 21;
const COLD_RUNS: usize = 3;
const WARM_TARGET: Duration = Duration::from_millis(50);

struct Bench {
    seedgen: PathBuf,
    dir: PathBuf,
}

impl Bench {
    fn file(&self) -> PathBuf {
        self.dir.join("bench200.bpl")
    }

    fn cache(&self) -> PathBuf {
        self.dir.join(".seedgen")
    }

    /// Runs `prove-tests` on the file with `args`, writing `out`; its wall time.
    fn run(&self, out: &str, args: &[&str]) -> Duration {
        let start = Instant::now();
        let output = Command::new(&self.seedgen)
            .arg("prove-tests")
            .arg(self.file())
            .arg("-o")
            .arg(self.dir.join(out))
            .arg("--quiet")
            .args(args)
            .output()
            .expect("seedgen runs");
        let elapsed = start.elapsed();
        assert!(output.status.success(), "prove-tests {args:?} failed: {}", String::from_utf8_lossy(&output.stderr));
        elapsed
    }

    fn read(&self, out: &str) -> Vec<u8> {
        std::fs::read(self.dir.join(out)).expect("the suite was written")
    }

    fn same(&self, a: &str, b: &str) -> bool {
        self.read(a) == self.read(b)
    }

    fn set_program(&self, text: &str) {
        std::fs::write(self.file(), text).expect("the scratch directory is writable");
    }

    fn clear_cache(&self) {
        if self.cache().exists() {
            std::fs::remove_dir_all(self.cache()).expect("the cache can be removed");
        }
    }
}

fn row(what: &str, timings: &Timings, runs: usize, note: &str) {
    println!("| {what} | {} | {} | {runs} | {note} |", ms(timings.median()), ms(timings.min()));
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let scratch = tempfile::tempdir().expect("a temporary directory");
    let bench = Bench { seedgen: PathBuf::from(env!("CARGO_BIN_EXE_seedgen")), dir: scratch.path().to_path_buf() };
    let original = program();
    if let Some(at) = args.iter().position(|arg| arg == "--write") {
        let path = Path::new(args.get(at + 1).expect("--write FILE"));
        std::fs::write(path, &original).expect("--write's file is writable");
    }
    let edited = changed(&original);
    assert_ne!(original, edited);
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let load = load_average().map(|load| format!(", load average {load}")).unwrap_or_default();
    println!("prove-tests on {PROCEDURES} generated procedures, whole process, {cores} cores{load}; wall time in ms");
    println!();
    println!("| run | median | min | runs | output |");
    println!("|---|---:|---:|---:|---|");

    bench.set_program(&original);
    bench.run("reference.json", &["--no-cache"]);
    let cold = Timings::of(COLD_RUNS, || {
        bench.clear_cache();
        bench.run("cold.json", &[])
    });
    row("cold (empty cache)", &cold, COLD_RUNS, same_as(bench.same("cold.json", "reference.json")));
    let cpu_before = children_cpu();
    let warm = Timings::of(WARM_RUNS, || bench.run("warm.json", &[]));
    let warm_cpu = cpu_before.zip(children_cpu()).map(|(before, after)| (after - before) / WARM_RUNS as u32);
    row("warm, nothing changed", &warm, WARM_RUNS, same_as(bench.same("warm.json", "reference.json")));

    bench.set_program(&edited);
    bench.run("changed-reference.json", &["--no-cache"]);
    let alone = Timings::of(COLD_RUNS, || bench.run("alone.json", &["--no-cache", "--proc", &format!("p{CHANGED}")]));
    let changed_runs = Timings::of(COLD_RUNS, || {
        bench.set_program(&original);
        bench.run("warm.json", &[]);
        bench.set_program(&edited);
        bench.run("changed.json", &[])
    });
    row(&format!("p{CHANGED} alone (`--proc`, no cache)"), &alone, COLD_RUNS, "");
    let identical = bench.same("changed.json", "changed-reference.json");
    row(&format!("warm, p{CHANGED} changed"), &changed_runs, COLD_RUNS, same_as(identical));

    bench.set_program(&original);
    let one = Timings::of(COLD_RUNS, || bench.run("jobs1.json", &["--no-cache", "--jobs", "1"]));
    row("cold, `--jobs 1`", &one, COLD_RUNS, same_as(bench.same("jobs1.json", "reference.json")));
    let two = Timings::of(COLD_RUNS, || bench.run("jobs2.json", &["--no-cache", "--jobs", "2"]));
    row("cold, `--jobs 2`", &two, COLD_RUNS, same_as(bench.same("jobs2.json", "reference.json")));

    println!();
    let warm_ok = warm.median() < WARM_TARGET;
    println!(
        "warm unchanged: {} ms median, target < {} ms: {}",
        ms(warm.median()),
        WARM_TARGET.as_millis(),
        verdict(warm_ok)
    );
    if let Some(cpu) = warm_cpu {
        println!("warm unchanged: {} ms of CPU (user + system) per run, the mean of {WARM_RUNS}", ms(cpu));
    }
    let bound = (alone.median() + warm.median()) * 3;
    let changed_ok = changed_runs.median() < bound;
    println!(
        "one changed: {} ms median, target < 3 × ({} + {}) = {} ms: {}",
        ms(changed_runs.median()),
        ms(alone.median()),
        ms(warm.median()),
        ms(bound),
        verdict(changed_ok)
    );
    println!("--jobs 2 vs --jobs 1: {:.2}× faster", one.median().as_secs_f64() / two.median().as_secs_f64());
}

fn same_as(identical: bool) -> &'static str {
    if identical {
        "byte-identical to a cold run"
    } else {
        "DIFFERS from a cold run"
    }
}

fn verdict(ok: bool) -> &'static str {
    if ok {
        "met"
    } else {
        "MISSED"
    }
}
