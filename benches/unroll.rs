//! Unrolling benchmark (issue 5): for every corpus program with a loop, `seedgen
//! prove-tests --unroll N` for N = 0..10 and 15: whole-process wall time, goals, goals
//! covered, checks, and the size of the encodings (`check --dump smt2 --unroll N`, in
//! KiB of SMT-LIB text, which z3 prints with shared subterms `let`-bound, so it follows
//! the size of the formula's DAG). Target: N = 15 under 1 s per program, growth close to
//! linear.
//!
//! `cargo bench --bench unroll` (release). One run per cell, under `--time-limit`
//! [`TIME_LIMIT`] seconds: a cell that reaches it shows its time with `≥` and the goals
//! the run decided. An argument that is not a flag keeps only the programs whose name
//! contains it (`cargo bench --bench unroll -- binary`). Prints a Markdown table per
//! program for `docs/benchmarks.md`.

mod common;

use common::{corpus, ms, name};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const BOUNDS: [u32; 12] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15];

/// Seconds a run may take (`--time-limit`).
const TIME_LIMIT: u64 = 20;

const TARGET: Duration = Duration::from_secs(1);

/// The corpus programs with a loop (`while` or `goto`).
fn loop_programs(filter: Option<&str>) -> Vec<PathBuf> {
    let has_loop = |path: &PathBuf| {
        let text = std::fs::read_to_string(path).expect("readable program");
        text.contains("while") || text.contains("goto")
    };
    corpus(filter).into_iter().filter(has_loop).collect()
}

/// One cell of the table.
struct Cell {
    time: Duration,
    limited: bool,
    goals: u64,
    covered: u64,
    checks: u64,
    vc_kib: f64,
}

fn measure(seedgen: &str, program: &Path, bound: u32, suite: &Path) -> Cell {
    let start = Instant::now();
    let output = Command::new(seedgen)
        .args(["prove-tests", "--format", "json", "--no-cache", "--quiet", "--time-limit"])
        .arg(TIME_LIMIT.to_string())
        .args(["--unroll", &bound.to_string(), "-o"])
        .arg(suite)
        .arg(program)
        .output()
        .expect("seedgen runs");
    let time = start.elapsed();
    // 3: the time limit left goals undecided; the summary is written all the same.
    assert!(matches!(output.status.code(), Some(0 | 3)), "{program:?} --unroll {bound}: {}", output.status);
    let summary: serde_json::Value = serde_json::from_slice(&output.stdout).expect("a JSON summary");
    let total = |field: &str| summary["totals"][field].as_u64().unwrap_or(0);
    let dump = Command::new(seedgen)
        .args(["check", "--dump", "smt2", "--unroll", &bound.to_string()])
        .arg(program)
        .output()
        .expect("seedgen runs");
    Cell {
        time,
        limited: output.status.code() == Some(3),
        goals: total("goals"),
        covered: total("covered") + total("unreachable"),
        checks: total("checks"),
        vc_kib: dump.stdout.len() as f64 / 1024.0,
    }
}

fn main() {
    let filter = std::env::args().skip(1).find(|arg| !arg.starts_with('-'));
    let seedgen = env!("CARGO_BIN_EXE_seedgen");
    let scratch = tempfile::tempdir().expect("a temporary directory");
    let suite = scratch.path().join("suite.json");
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let load = common::load_average().unwrap_or_else(|| "?".to_string());
    println!("prove-tests --unroll N, whole process, one run per cell, {cores} cores, load {load};");
    println!("time in ms (≥: stopped by --time-limit {TIME_LIMIT}); decided = covered + proved unreachable\n");
    let mut over = Vec::new();
    for program in loop_programs(filter.as_deref()) {
        println!("### {}\n", name(&program));
        println!("| N | time (ms) | goals | decided | checks | VC (KiB) |");
        println!("|---:|---:|---:|---:|---:|---:|");
        for bound in BOUNDS {
            let cell = measure(seedgen, &program, bound, &suite);
            let mark = if cell.limited { "≥" } else { "" };
            println!(
                "| {bound} | {mark}{} | {} | {} | {} | {:.1} |",
                ms(cell.time),
                cell.goals,
                cell.covered,
                cell.checks,
                cell.vc_kib
            );
            if bound == 15 && (cell.limited || cell.time > TARGET) {
                over.push(name(&program));
            }
        }
        println!();
    }
    if over.is_empty() {
        println!("Every program at N = 15 is under {} ms.", TARGET.as_millis());
    } else {
        println!("Over {} ms at N = 15: {}.", TARGET.as_millis(), over.join(", "));
    }
}
