//! Helpers shared by the integration tests: the one place that drives each stage.

use seedgen::diag::{render_human_plain, render_short};
use seedgen::driver::{check_file, Checked};
use seedgen::source::SourceDb;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The crate root, so tests can name files relative to it.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.bpl` file directly in `dir` (relative to the crate root), sorted. The
/// evaluation programs in `corpus/sc/` and `corpus/faults/` have tests of their own
/// (`tests/it/evaluation.rs`).
pub fn bpl_files(dir: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(root().join(dir)) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries
        .map(|entry| entry.expect("directory entries are readable").path())
        .filter(|path| path.is_file() && path.extension().is_some_and(|ext| ext == "bpl"))
        .collect();
    files.sort();
    files
}

/// Every correct program of the corpus: `corpus/`, the paper's programs in `corpus/sc/`
/// and the correct version of each `corpus/faults/` program (for cross-checks with
/// Boogie, which run on all of them).
pub fn correct_corpus_programs() -> Vec<PathBuf> {
    let mut files = bpl_files("corpus");
    files.extend(bpl_files("corpus/sc"));
    files.extend(fault_programs().into_iter().map(|dir| dir.join("correct.bpl")));
    files
}

/// The fault variants of `corpus/faults/` (every file but `correct.bpl`).
pub fn fault_variants() -> Vec<PathBuf> {
    let variants = fault_programs().into_iter().flat_map(|dir| bpl_files(&display_name(&dir)));
    variants.filter(|path| !path.ends_with("correct.bpl")).collect()
}

/// The directories of `corpus/faults/`, sorted.
fn fault_programs() -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(root().join("corpus/faults")) else { return Vec::new() };
    let mut dirs: Vec<PathBuf> =
        entries.map(|entry| entry.expect("a readable entry").path()).filter(|path| path.is_dir()).collect();
    dirs.sort();
    dirs
}

/// How many goals of a `prove-tests --format json` summary a model reached, whether or
/// not its replay did: between those and those plus the goals the solver left
/// undecided (which Boogie, on the same encoding, may decide either way).
pub fn reached_goals(summary: &Value) -> std::ops::RangeInclusive<u64> {
    let count = |field: &str| summary["totals"][field].as_u64().unwrap_or(0);
    let reached = count("covered") + count("replay_missed");
    reached..=reached + count("undecided")
}

/// The path as tests show it: relative to the crate root, with `/` separators.
pub fn display_name(path: &Path) -> String {
    let relative = path.strip_prefix(root()).unwrap_or(path);
    relative.components().map(|part| part.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

/// Parses and checks a source text under a display name.
pub fn check_source(name: &str, text: &str) -> (SourceDb, Checked) {
    let mut db = SourceDb::new();
    let file = db.add(name, text);
    let checked = check_file(&db, file, Default::default());
    (db, checked)
}

/// The diagnostics of a check, rendered as the human and the short format.
pub fn check_report(name: &str, text: &str) -> String {
    let (db, checked) = check_source(name, text);
    let human = render_human_plain(&db, &checked.diagnostics);
    let short: Vec<String> = checked.diagnostics.iter().map(|d| render_short(&db, d)).collect();
    format!("{human}\n--- short ---\n{}\n", short.join("\n"))
}

/// `count` pseudo-random numbers from `seed` (xorshift64): reproducible garbage.
pub fn pseudo_random(seed: u64, count: usize) -> impl Iterator<Item = u64> {
    let mut state = seed;
    (0..count).map(move |_| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    })
}

/// Runs the `seedgen` binary from the crate root.
pub fn seedgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_seedgen"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .output()
        .expect("the seedgen binary runs")
}

/// Boogie 2.4.1's error count on `file` (every failing assertion, up to 10,000), read off
/// `Boogie program verifier finished with N verified, M errors`.
pub fn boogie_errors(file: &Path) -> usize {
    let output = Command::new("boogie").arg(file).arg("/errorLimit:10000").output().expect("boogie runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let summary = stdout
        .lines()
        .find(|line| line.starts_with("Boogie program verifier finished"))
        .unwrap_or_else(|| panic!("{}: no verdict:\n{stdout}", file.display()));
    let errors = summary.rsplit(", ").next().expect("the summary lists errors");
    errors.split(' ').next().and_then(|count| count.parse().ok()).expect("an error count")
}

/// Every goal of a suite (its JSON), in order.
pub fn goals(suite: &Value) -> Vec<&Value> {
    suite["procedures"]
        .as_array()
        .expect("procedures")
        .iter()
        .flat_map(|procedure| procedure["goals"].as_array().expect("goals"))
        .collect()
}

pub fn id(goal: &Value) -> &str {
    goal["id"].as_str().expect("a goal has an id")
}

pub fn status(goal: &Value) -> &str {
    goal["status"].as_str().expect("a goal has a status")
}

/// The ids of the goals a suite (its JSON) reports covered.
pub fn covered_goals(suite: &Value) -> Vec<&str> {
    goals(suite).into_iter().filter(|goal| status(goal) == "covered").map(id).collect()
}

/// The ids of the goals a `run-tests --format json` report measured covered.
pub fn replayed_goals(report: &Value) -> Vec<&str> {
    let goals = report["goals"].as_array().expect("goals");
    goals.iter().filter(|goal| goal["covered"] == true).map(id).collect()
}

/// `goal id: status (reason)` per goal, and the number of tests, per procedure: the
/// reviewed rendering of the goal-status snapshots.
pub fn statuses(suite: &Value) -> String {
    let mut out = String::new();
    for procedure in suite["procedures"].as_array().expect("procedures") {
        let tests = procedure["tests"].as_array().expect("tests").len();
        out.push_str(&format!("{} ({tests} tests)\n", procedure["name"].as_str().expect("name")));
        for goal in procedure["goals"].as_array().expect("goals") {
            let leaf = if goal["leaf"] == Value::Bool(true) { "" } else { " (enclosing)" };
            let reason = goal["reason"].as_str().map(|reason| format!(" ({reason})")).unwrap_or_default();
            out.push_str(&format!("  {}{leaf}: {}{reason}\n", id(goal), status(goal)));
        }
    }
    out
}
