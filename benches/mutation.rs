//! Mutation-adequate suites: for every program of `corpus/sc/` and every correct program
//! of `corpus/faults/`, whole-process `seedgen prove-tests FILE --no-cache
//! --kill-mutants` (wall time), then `seedgen mutate FILE --suite SUITE --format json` on
//! the suite written: killed, equivalent, survived, timed out, could not run, and the
//! score killed / (mutants − equivalent − timed out). Each faults program's suite is then
//! run (`run-tests`) against every faulty variant beside it: a variant is detected when
//! `run-tests` exits non-zero (a test fails or no longer fits the program).
//!
//! `cargo bench --bench mutation` (release). Arguments: a filter on the program's label
//! (`sc/quick_sort`, `faults/two_way_max/correct`), `--limit SECONDS` per child process
//! (default 120; a child killed at it is a "timeout" cell). The Markdown table and the
//! totals go to stdout, every figure to `target/bench/mutation.json`. Figures in
//! `docs/benchmarks.md`, "Mutation-adequate suites".

mod common;

use common::{load_average, run_limited, Limited};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// A program the harness measures.
struct Program {
    /// `sc/NAME` or `faults/NAME/correct`.
    label: String,
    file: PathBuf,
    /// The faulty variants its suite must detect (faults programs only), sorted.
    variants: Vec<PathBuf>,
}

/// What one child process gave.
enum Cell<T> {
    Measured(T),
    /// Killed at the time limit.
    Timeout,
    /// It ended without the expected output (its exit status).
    Failed(String),
}

/// One program's figures.
struct Row {
    label: String,
    /// `prove-tests`'s wall time and the number of tests in the suite it wrote.
    prove: Cell<(Duration, u64)>,
    /// `mutate`'s JSON totals.
    mutate: Cell<Value>,
    /// Each faulty variant's name and whether the suite detected it.
    faults: Vec<(String, Cell<bool>)>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `.bpl` files of `dir`, sorted.
fn bpl_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|error| panic!("{} is readable: {error}", dir.display()))
        .map(|entry| entry.expect("readable entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "bpl"))
        .collect();
    files.sort();
    files
}

/// `corpus/sc/*.bpl`, then `corpus/faults/*/correct.bpl` with their variants.
fn programs(filter: Option<&str>) -> Vec<Program> {
    let corpus = root().join("corpus");
    let sc = bpl_files(&corpus.join("sc")).into_iter().map(|file| Program {
        label: format!("sc/{}", common::name(&file)),
        file,
        variants: Vec::new(),
    });
    let mut fault_dirs: Vec<PathBuf> = std::fs::read_dir(corpus.join("faults"))
        .expect("corpus/faults exists")
        .map(|entry| entry.expect("readable entry").path())
        .filter(|path| path.join("correct.bpl").is_file())
        .collect();
    fault_dirs.sort();
    let faults = fault_dirs.into_iter().map(|dir| Program {
        label: format!("faults/{}/correct", common::name(&dir)),
        file: dir.join("correct.bpl"),
        variants: bpl_files(&dir).into_iter().filter(|file| common::name(file) != "correct").collect(),
    });
    sc.chain(faults).filter(|program| filter.is_none_or(|filter| program.label.contains(filter))).collect()
}

/// Runs the release `seedgen` and the harness's scratch space.
struct Runner {
    seedgen: PathBuf,
    scratch: tempfile::TempDir,
    limit: Duration,
}

impl Runner {
    /// `seedgen args` within the limit: its exit status, stdout and wall time.
    fn seedgen(&self, args: &[&std::ffi::OsStr]) -> Cell<(std::process::ExitStatus, String, Duration)> {
        let out = self.scratch.path().join("stdout");
        match run_limited(Command::new(&self.seedgen).args(args).current_dir(root()), &out, self.limit) {
            Limited::Exited { status, time } => {
                let stdout = std::fs::read_to_string(&out).expect("seedgen's output is UTF-8 text");
                Cell::Measured((status, stdout, time))
            }
            Limited::Timeout => Cell::Timeout,
        }
    }

    fn measure(&self, program: &Program) -> Row {
        let suite = self.scratch.path().join(format!("{}.tests.json", program.label.replace('/', "_")));
        let file = program.file.as_os_str();
        let prove = match self.seedgen(&[
            "prove-tests".as_ref(),
            file,
            "--no-cache".as_ref(),
            "--kill-mutants".as_ref(),
            "--format".as_ref(),
            "json".as_ref(),
            "-o".as_ref(),
            suite.as_os_str(),
        ]) {
            Cell::Measured((_, _, time)) if suite.is_file() => Cell::Measured((time, suite_tests(&suite))),
            Cell::Measured((status, _, _)) => Cell::Failed(format!("no suite ({status})")),
            Cell::Timeout => Cell::Timeout,
            Cell::Failed(why) => Cell::Failed(why),
        };
        if !matches!(prove, Cell::Measured(_)) {
            let faults =
                program.variants.iter().map(|variant| (common::name(variant), Cell::Failed("no suite".into())));
            return Row {
                label: program.label.clone(),
                prove,
                mutate: Cell::Failed("no suite".into()),
                faults: faults.collect(),
            };
        }
        let mutate = match self.seedgen(&[
            "mutate".as_ref(),
            file,
            "--suite".as_ref(),
            suite.as_os_str(),
            "--format".as_ref(),
            "json".as_ref(),
        ]) {
            Cell::Measured((status, stdout, _)) => match serde_json::from_str::<Value>(&stdout) {
                Ok(report) => Cell::Measured(report["totals"].clone()),
                Err(_) => Cell::Failed(format!("no JSON report ({status})")),
            },
            Cell::Timeout => Cell::Timeout,
            Cell::Failed(why) => Cell::Failed(why),
        };
        let faults = program
            .variants
            .iter()
            .map(|variant| {
                let detected = match self.seedgen(&["run-tests".as_ref(), variant.as_os_str(), suite.as_os_str()]) {
                    Cell::Measured((status, _, _)) => Cell::Measured(!status.success()),
                    Cell::Timeout => Cell::Timeout,
                    Cell::Failed(why) => Cell::Failed(why),
                };
                (common::name(variant), detected)
            })
            .collect();
        Row { label: program.label.clone(), prove, mutate, faults }
    }
}

/// The number of tests in a written suite.
fn suite_tests(suite: &Path) -> u64 {
    let text = std::fs::read_to_string(suite).expect("the suite is readable");
    let suite: Value = serde_json::from_str(&text).expect("the suite is JSON");
    let procedures = suite["procedures"].as_array().expect("a suite has procedures");
    procedures.iter().map(|procedure| procedure["tests"].as_array().map_or(0, Vec::len) as u64).sum()
}

fn count(totals: &Value, key: &str) -> u64 {
    totals[key].as_u64().unwrap_or_else(|| panic!("no count `{key}` in {totals}"))
}

/// Killed and counted (mutants − equivalent − timed out) of a `mutate` report's totals.
fn score_parts(totals: &Value) -> (u64, u64) {
    let counted = count(totals, "mutants") - count(totals, "equivalent") - count(totals, "timeout");
    (count(totals, "killed"), counted)
}

fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        100.0
    } else {
        part as f64 * 100.0 / whole as f64
    }
}

fn cell_text<T>(cell: &Cell<T>, show: impl Fn(&T) -> String) -> String {
    match cell {
        Cell::Measured(value) => show(value),
        Cell::Timeout => "timeout".to_string(),
        Cell::Failed(why) => format!("failed: {why}"),
    }
}

fn table_row(row: &Row) -> String {
    let time = cell_text(&row.prove, |(time, _)| format!("{:.2}", time.as_secs_f64()));
    let tests = cell_text(&row.prove, |(_, tests)| tests.to_string());
    let figures = match &row.mutate {
        Cell::Measured(totals) => {
            let (killed, counted) = score_parts(totals);
            let keys = ["mutants", "killed", "equivalent", "survived", "timeout", "error"];
            let mut cells: Vec<String> = keys.iter().map(|key| count(totals, key).to_string()).collect();
            cells.push(format!("{:.1}", percent(killed, counted)));
            cells.join(" | ")
        }
        other => {
            let text = cell_text(other, |_| String::new());
            [text.as_str(); 7].join(" | ")
        }
    };
    format!("| {} | {time} | {tests} | {figures} |", row.label)
}

fn fault_json(cell: &Cell<bool>) -> Value {
    match cell {
        Cell::Measured(detected) => json!(detected),
        Cell::Timeout => json!("timeout"),
        Cell::Failed(why) => json!(format!("failed: {why}")),
    }
}

fn row_json(row: &Row) -> Value {
    let (time, tests) = match &row.prove {
        Cell::Measured((time, tests)) => (json!(time.as_secs_f64()), json!(tests)),
        other => (json!(cell_text(other, |_| String::new())), Value::Null),
    };
    let mutate = match &row.mutate {
        Cell::Measured(totals) => totals.clone(),
        other => json!(cell_text(other, |_| String::new())),
    };
    let faults: serde_json::Map<String, Value> =
        row.faults.iter().map(|(name, detected)| (name.clone(), fault_json(detected))).collect();
    json!({ "program": row.label, "time_seconds": time, "tests": tests, "mutate": mutate, "faults": faults })
}

/// The totals under the table, printed and as JSON.
fn totals(rows: &[Row]) -> Value {
    let (mut killed, mut counted, mut equivalent) = (0, 0, 0);
    let mut below_90 = Vec::new();
    for row in rows {
        if let Cell::Measured(totals) = &row.mutate {
            let (row_killed, row_counted) = score_parts(totals);
            killed += row_killed;
            counted += row_counted;
            equivalent += count(totals, "equivalent");
            let score = percent(row_killed, row_counted);
            if score < 90.0 {
                below_90.push(json!({ "program": row.label, "score": score }));
            }
        } else {
            below_90.push(json!({ "program": row.label, "score": Value::Null }));
        }
    }
    let sc: Vec<(Duration, u64)> = rows
        .iter()
        .filter(|row| row.label.starts_with("sc/"))
        .filter_map(|row| match row.prove {
            Cell::Measured(measured) => Some(measured),
            _ => None,
        })
        .collect();
    let sc_runs = sc.len().max(1) as f64;
    let mean_tests = sc.iter().map(|(_, tests)| *tests as f64).sum::<f64>() / sc_runs;
    let mean_time = sc.iter().map(|(time, _)| time.as_secs_f64()).sum::<f64>() / sc_runs;
    let max = rows
        .iter()
        .filter(|row| row.label.starts_with("sc/"))
        .filter_map(|row| match row.prove {
            Cell::Measured((time, _)) => Some((time.as_secs_f64(), row.label.clone())),
            _ => None,
        })
        .max_by(|a, b| a.0.total_cmp(&b.0));
    let variants: Vec<(String, &Cell<bool>)> = rows
        .iter()
        .flat_map(|row| {
            let program = row.label.trim_start_matches("faults/").trim_end_matches("/correct").to_string();
            row.faults.iter().map(move |(name, cell)| (format!("{program}/{name}"), cell))
        })
        .collect();
    let undetected: Vec<&str> = variants
        .iter()
        .filter(|(_, cell)| !matches!(cell, Cell::Measured(true)))
        .map(|(name, _)| name.as_str())
        .collect();
    json!({
        "killed": killed,
        "counted": counted,
        "equivalent": equivalent,
        "score": percent(killed, counted),
        "sc_programs_timed": sc.len(),
        "sc_mean_tests": mean_tests,
        "sc_mean_time_seconds": mean_time,
        "sc_max_time": max.map(|(time, program)| json!({ "program": program, "seconds": time })),
        "below_90": below_90,
        "fault_variants": variants.len(),
        "faults_detected": variants.len() - undetected.len(),
        "faults_undetected": undetected,
    })
}

fn print_totals(totals: &Value) {
    let below: Vec<String> = totals["below_90"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|entry| match entry["score"].as_f64() {
            Some(score) => format!("{} {score:.1}", entry["program"].as_str().expect("a label")),
            None => format!("{} (not measured)", entry["program"].as_str().expect("a label")),
        })
        .collect();
    let max = &totals["sc_max_time"];
    println!();
    println!(
        "Overall: {} killed of {} counted = {:.1} % ({} mutants proved equivalent)",
        totals["killed"],
        totals["counted"],
        totals["score"].as_f64().unwrap_or(0.0),
        totals["equivalent"]
    );
    println!(
        "corpus/sc/: mean tests per program {:.2}, mean time {:.2} s, max {:.2} s ({})",
        totals["sc_mean_tests"].as_f64().unwrap_or(0.0),
        totals["sc_mean_time_seconds"].as_f64().unwrap_or(0.0),
        max["seconds"].as_f64().unwrap_or(0.0),
        max["program"].as_str().unwrap_or("-")
    );
    println!("below 90 %: {}", if below.is_empty() { "none".to_string() } else { below.join(", ") });
    let undetected: Vec<&str> =
        totals["faults_undetected"].as_array().expect("a list").iter().filter_map(Value::as_str).collect();
    println!(
        "faults detected: {} of {}{}",
        totals["faults_detected"],
        totals["fault_variants"],
        if undetected.is_empty() { String::new() } else { format!(" (not detected: {})", undetected.join(", ")) }
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let limit_at = args.iter().position(|arg| arg == "--limit");
    let limit =
        limit_at.map_or(120, |at| args.get(at + 1).and_then(|secs| secs.parse().ok()).expect("--limit SECONDS"));
    let filter = args
        .iter()
        .enumerate()
        .find(|(at, arg)| !arg.starts_with("--") && limit_at.is_none_or(|limit_at| *at != limit_at + 1))
        .map(|(_, arg)| arg.as_str());
    let runner = Runner {
        seedgen: PathBuf::from(env!("CARGO_BIN_EXE_seedgen")),
        scratch: tempfile::tempdir().expect("a temporary directory"),
        limit: Duration::from_secs(limit),
    };
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let load = load_average().map(|load| format!(", load average {load} at the start")).unwrap_or_default();
    println!("prove-tests --kill-mutants, then mutate on its suite; whole process, {cores} cores{load}, limit {limit} s per child");
    println!();
    println!("| program | time (s) | tests | mutants | killed | equivalent | survived | timed out | err | score % |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let rows: Vec<Row> = programs(filter)
        .iter()
        .map(|program| {
            let row = runner.measure(program);
            println!("{}", table_row(&row));
            row
        })
        .collect();
    let totals = totals(&rows);
    print_totals(&totals);
    let report = json!({
        "limit_seconds": limit,
        "load_average": load_average(),
        "programs": rows.iter().map(row_json).collect::<Vec<_>>(),
        "totals": totals,
    });
    let out = root().join("target/bench");
    std::fs::create_dir_all(&out).expect("target/bench can be created");
    let text = serde_json::to_string_pretty(&report).expect("the report serializes");
    std::fs::write(out.join("mutation.json"), text).expect("target/bench is writable");
    println!();
    println!("wrote target/bench/mutation.json");
}
