//! Unrolling benchmark: for every corpus program with a loop, `seedgen prove-tests
//! --unroll N` for N = 0..10 and 15, in both ways of counting the goals of nested loops
//! (`--unroll-goals per-loop`, the default, and `combinations`): whole-process wall
//! time, goals, goals decided, checks, and the size of the encodings (`check --dump smt2
//! --unroll N`, the same in both modes, in KiB of SMT-LIB text, which z3 prints with
//! shared subterms `let`-bound, so it follows the size of the formula's DAG). Target, in
//! the default mode at N = 15: every goal decided, under 1 s for a program of single
//! loops and under 3 s for one with nested loops (whose goals the two modes count
//! differently).
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

/// The targets at N = 15 in the default mode: single loops, nested loops.
const TARGET: Duration = Duration::from_secs(1);
const TARGET_NESTED: Duration = Duration::from_secs(3);

/// The two ways of counting goals, the default first.
const MODES: [&str; 2] = ["per-loop", "combinations"];

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

fn measure(seedgen: &str, program: &Path, (bound, mode): (u32, &str), suite: &Path) -> Cell {
    let start = Instant::now();
    let output = Command::new(seedgen)
        .args(["prove-tests", "--format", "json", "--no-cache", "--quiet", "--time-limit"])
        .arg(TIME_LIMIT.to_string())
        .args(["--unroll", &bound.to_string(), "--unroll-goals", mode, "-o"])
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
        println!("#### {}\n", name(&program));
        println!("| N | per-loop: time (ms) | goals | decided | checks | combinations: time (ms) | goals | decided | checks | VC (KiB) |");
        println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for bound in BOUNDS {
            let cells = MODES.map(|mode| measure(seedgen, &program, (bound, mode), &suite));
            let columns = cells.iter().map(|cell| {
                let mark = if cell.limited { "≥" } else { "" };
                format!("{mark}{} | {} | {} | {}", ms(cell.time), cell.goals, cell.covered, cell.checks)
            });
            println!("| {bound} | {} | {:.1} |", columns.collect::<Vec<_>>().join(" | "), cells[0].vc_kib);
            let [default, combinations] = &cells;
            let target = if default.goals == combinations.goals { TARGET } else { TARGET_NESTED };
            if bound == 15 && (default.limited || default.covered < default.goals || default.time > target) {
                over.push(format!(
                    "{} ({} ms, {} of {} goals decided)",
                    name(&program),
                    ms(default.time),
                    default.covered,
                    default.goals
                ));
            }
        }
        println!();
    }
    if over.is_empty() {
        println!(
            "At N = 15, every program has every goal decided, single loops under {} ms and nested loops under {} ms.",
            TARGET.as_millis(),
            TARGET_NESTED.as_millis()
        );
    } else {
        println!("Over target at N = 15: {}.", over.join(", "));
    }
}
