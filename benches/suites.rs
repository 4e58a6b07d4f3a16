//! Suite benchmark: per corpus program (`corpus/*.bpl`, `corpus/sc/*.bpl`),
//! the integers of the test inputs with and without minimization (median and largest
//! |v|), the suite's size before and after reduction, and what minimization costs in
//! wall time; next to the paper's Table 4 test counts (seeds/001) for its 23 programs.
//!
//! `cargo bench --bench suites` (release). Each configuration of each program runs once
//! to warm the file system's caches, then `RUNS` times, with `--no-cache` (seedgen's own
//! cache would answer every run after the first); times are medians of the whole
//! process. The figures come from the suites and `--format json` summaries seedgen
//! writes: nothing is taken from anywhere else. Prints a Markdown table for `docs/benchmarks.md`. An
//! argument that is not a flag keeps only the programs whose path contains it.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const RUNS: usize = 5;

/// The SC column of the paper's Table 4 (tests to reach exhaustive coverage), by the
/// file name of our model of each program in `corpus/sc/`.
const TABLE_4: [(&str, u32); 23] = [
    ("account", 13),
    ("clock", 10),
    ("heater", 8),
    ("lamp", 7),
    ("max", 3),
    ("linear_search", 3),
    ("insertion_sort", 3),
    ("gnome_sort", 3),
    ("square_root", 4),
    ("sum_and_max", 3),
    ("arithmetic", 14),
    ("binary_search", 4),
    ("recursive_binary_search", 7),
    ("dutch_flag", 9),
    ("two_way_max", 2),
    ("two_way_sort", 5),
    ("quick_sort", 9),
    ("selection_sort", 5),
    ("bubble_sort", 4),
    ("optimized_gnome_sort", 7),
    ("queue", 19),
    ("stack", 16),
    ("prime_numbers", 7),
];

fn corpus(filter: Option<&str>) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["corpus", "corpus/sc"] {
        let entries = std::fs::read_dir(root.join(dir)).expect("the corpus directory exists");
        let mut found: Vec<PathBuf> = entries
            .map(|entry| entry.expect("readable entry").path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "bpl"))
            .filter(|path| filter.is_none_or(|filter| path.to_string_lossy().contains(filter)))
            .collect();
        found.sort();
        files.extend(found);
    }
    files
}

/// `sc/max` for `corpus/sc/max.bpl`, `max` for `corpus/max.bpl`.
fn name(path: &Path) -> String {
    let stem = path.file_stem().expect("a file name").to_string_lossy().to_string();
    match path.parent().and_then(Path::file_name) {
        Some(dir) if dir == "sc" => format!("sc/{stem}"),
        _ => stem,
    }
}

/// One configuration of one program: its summary, its suite, and the median wall time.
struct Run {
    summary: Value,
    suite: Value,
    time: Duration,
}

fn prove_tests(seedgen: &str, path: &Path, suite: &Path, extra: &[&str]) -> Run {
    let command = || {
        let mut command = Command::new(seedgen);
        // Without the cache: a warm run would read every result back and time nothing.
        command.args(["prove-tests", "--quiet", "--no-cache", "--format", "json"]);
        command.arg(path).arg("-o").arg(suite).args(extra);
        command
    };
    let run = || {
        let start = Instant::now();
        let output = command().output().expect("seedgen runs");
        // Exit status 3: some goal is undecided (the solver gave up); the suite holds
        // everything else the run established, and is measured as written.
        let status = output.status.code();
        assert!(matches!(status, Some(0 | 3)), "{}: {}", path.display(), String::from_utf8_lossy(&output.stderr));
        (start.elapsed(), output.stdout)
    };
    run();
    let mut times = Vec::new();
    let mut stdout = Vec::new();
    for _ in 0..RUNS {
        let (time, out) = run();
        times.push(time);
        stdout = out;
    }
    times.sort();
    let summary = serde_json::from_slice(&stdout).expect("the summary is JSON");
    let suite = serde_json::from_str(&std::fs::read_to_string(suite).expect("written")).expect("the suite is JSON");
    Run { summary, suite, time: times[RUNS / 2] }
}

/// |v| of every integer in the tests' inputs (parameters, globals, constants, unset
/// locals, function tables, map keys, values and defaults), as `f64` (integers beyond 64
/// bits are strings of digits in a suite).
fn input_magnitudes(suite: &Value) -> Vec<f64> {
    fn walk(value: &Value, found: &mut Vec<f64>) {
        match value {
            Value::Number(number) => found.extend(number.as_f64().map(f64::abs)),
            Value::String(text) if text.trim_start_matches('-').chars().all(|c| c.is_ascii_digit()) => {
                found.extend(text.parse::<f64>().ok().map(f64::abs))
            }
            Value::Array(items) => items.iter().for_each(|item| walk(item, found)),
            Value::Object(fields) => fields.iter().filter(|(key, _)| *key != "name").for_each(|(_, v)| walk(v, found)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    for procedure in suite["procedures"].as_array().expect("procedures") {
        for test in procedure["tests"].as_array().expect("tests") {
            walk(&test["inputs"], &mut found);
        }
    }
    found.sort_by(f64::total_cmp);
    found
}

fn median(values: &[f64]) -> String {
    match values.len() {
        0 => "–".to_string(),
        n => show(values[n / 2]),
    }
}

fn max(values: &[f64]) -> String {
    values.last().map_or_else(|| "–".to_string(), |&value| show(value))
}

fn show(value: f64) -> String {
    if value < 1e6 {
        format!("{value}")
    } else {
        format!("{value:.1e}")
    }
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

fn count(summary: &Value, key: &str) -> u64 {
    summary["totals"][key].as_u64().expect("a count in the summary")
}

fn main() {
    let filter = std::env::args().skip(1).find(|arg| !arg.starts_with('-'));
    let seedgen = env!("CARGO_BIN_EXE_seedgen");
    let scratch = tempfile::tempdir().expect("a temporary directory");
    let suite = scratch.path().join("suite.json");
    println!("prove-tests per corpus program, whole process, median of {RUNS} runs after a warm-up");
    println!();
    println!(
        "| program | median \\|v\\| raw | max \\|v\\| raw | median \\|v\\| min. | max \\|v\\| min. | tests before \
         reduction | tests after | paper (Table 4) | ms `--no-minimize` | ms minimized | minimization ms |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let (mut all_raw, mut all_small) = (Vec::new(), Vec::new());
    // Per directory (`corpus`, `corpus/sc`): the magnitudes without and with minimization.
    let mut by_directory: Vec<(String, Vec<f64>, Vec<f64>)> = Vec::new();
    let (mut before, mut after, mut sc_after, mut sc_paper, mut sc_programs) = (0, 0, 0, 0, 0);
    let (mut time_raw, mut time_small) = (0.0, 0.0);
    for path in corpus(filter.as_deref()) {
        let raw = prove_tests(seedgen, &path, &suite, &["--no-minimize"]);
        let small = prove_tests(seedgen, &path, &suite, &[]);
        let (raw_values, small_values) = (input_magnitudes(&raw.suite), input_magnitudes(&small.suite));
        let name = name(&path);
        let paper = name.strip_prefix("sc/").and_then(|stem| TABLE_4.iter().find(|(program, _)| *program == stem));
        let (generated, tests) = (count(&small.summary, "tests_generated"), count(&small.summary, "tests"));
        before += generated;
        after += tests;
        if let Some((_, paper_tests)) = paper {
            sc_after += tests;
            sc_paper += u64::from(*paper_tests);
            sc_programs += 1;
        }
        time_raw += ms(raw.time);
        time_small += ms(small.time);
        println!(
            "| {name} | {} | {} | {} | {} | {generated} | {tests} | {} | {:.1} | {:.1} | {:+.1} |",
            median(&raw_values),
            max(&raw_values),
            median(&small_values),
            max(&small_values),
            paper.map_or_else(String::new, |(_, tests)| tests.to_string()),
            ms(raw.time),
            ms(small.time),
            ms(small.time) - ms(raw.time),
        );
        let directory = if name.starts_with("sc/") { "corpus/sc" } else { "corpus" };
        match by_directory.iter_mut().find(|(known, _, _)| known == directory) {
            Some((_, raw, small)) => {
                raw.extend(&raw_values);
                small.extend(&small_values);
            }
            None => by_directory.push((directory.to_string(), raw_values.clone(), small_values.clone())),
        }
        all_raw.extend(raw_values);
        all_small.extend(small_values);
    }
    all_raw.sort_by(f64::total_cmp);
    all_small.sort_by(f64::total_cmp);
    let share = |values: &[f64]| {
        100.0 * values.iter().filter(|&&value| value <= 10.0).count() as f64 / values.len().max(1) as f64
    };
    println!();
    println!(
        "integers in test inputs: {} raw, median |v| {}, {:.1}% within ±10; {} minimized, median |v| {}, {:.1}% within ±10",
        all_raw.len(),
        median(&all_raw),
        share(&all_raw),
        all_small.len(),
        median(&all_small),
        share(&all_small)
    );
    for (directory, raw, small) in &by_directory {
        println!(
            "{directory}: {:.1}% of {} raw integers within ±10, {:.1}% of {} minimized",
            share(raw),
            raw.len(),
            share(small),
            small.len()
        );
    }
    println!("tests: {before} before reduction, {after} after");
    if sc_programs > 0 {
        let mean = |total: u64| total as f64 / f64::from(sc_programs);
        println!(
            "corpus/sc ({sc_programs} programs): {:.2} tests per program, the paper's Table 4 {:.2}",
            mean(sc_after),
            mean(sc_paper)
        );
    }
    println!("wall time, sum of medians: {time_raw:.0} ms without minimization, {time_small:.0} ms with");
}
