//! The evaluation harness: the paper's experiments (seeds/001 §5) on our corpus,
//! next to the paper's figures.
//!
//! `cargo bench --bench evaluation` (release; `just bench`). Every figure is measured on
//! the `seedgen` binary as a subprocess, whole-process wall time, one run each:
//! 1. `corpus/sc/` (Tables 1–4): per program, `prove-tests --format json` (goals,
//!    unreachable, tests, time) and `run-tests --format json` on the suite it wrote
//!    (goals covered by replay), beside the paper's branch count and its coverage, time
//!    and test count for SC, IntelliTest, CPAChecker and AutoTest;
//! 2. `corpus/faults/` (Table 5): a suite generated from each `correct.bpl` with
//!    `--unroll N` for N = 0, 1, …, 10, 15, run with `run-tests` against every faulty
//!    variant: variants detected (some test fails or is invalid), distinct failing
//!    clauses (variant, clause, line: the paper's distinct faults, values left out), and
//!    the mean generation time, beside the paper's totals.
//!
//! Each run has a time limit (its child process is killed past it, and the table says
//! "timeout"), and the whole harness a budget, so it ends in under five minutes.
//! Results go to stdout (Markdown tables) and to `target/bench/`: `evaluation.json`,
//! `results.md` (the README's "Results" section), `time.svg` and `faults.svg`. With
//! `--readme` the README's section between `<!-- results:begin -->` and
//! `<!-- results:end -->` is replaced by `results.md`.

mod common;

use common::{run_limited, Limited};
use plotters::prelude::*;
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The whole harness's budget: runs that would start past it are skipped (and said so).
const BUDGET: Duration = Duration::from_secs(285);
/// One `prove-tests` of a `corpus/sc/` program.
const SC_LIMIT: Duration = Duration::from_secs(60);
/// One `prove-tests --unroll N` of a fault program.
const FAULT_LIMIT: Duration = Duration::from_secs(15);
/// One `run-tests`.
const RUN_LIMIT: Duration = Duration::from_secs(20);
/// The unrolling depths of the paper's Table 5.
const DEPTHS: [u32; 12] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15];

/// One program of the paper's Tables 1–4: our file stem, its name in the paper, its
/// branch count (Table 1), and per tool (SC, IntelliTest, CPAChecker, AutoTest) the
/// coverage in % (Table 2), the time in s (Table 3) and the test count (Table 4), as
/// printed; "—" where the paper has a dash, "?" where our copy of the paper lost the cell
/// (its Insertion sort row of Table 3, some cells of Table 4).
struct PaperProgram {
    stem: &'static str,
    name: &'static str,
    branches: u32,
    coverage: [&'static str; 4],
    time: [&'static str; 4],
    tests: [&'static str; 4],
}

const TOOLS: [&str; 4] = ["SC", "IntelliTest", "CPAChecker", "AutoTest"];

#[rustfmt::skip]
const PAPER: [PaperProgram; 23] = [
    PaperProgram { stem: "account", name: "Account", branches: 14, coverage: ["100", "92.85", "100", "78.6"], time: ["0.56", "9.58", "3.88", "—"], tests: ["13", "13", "13", "—"] },
    PaperProgram { stem: "clock", name: "Clock", branches: 8, coverage: ["100", "100", "100", "70"], time: ["0.44", "7.44", "1.03", "—"], tests: ["10", "13", "10", "—"] },
    PaperProgram { stem: "heater", name: "Heater", branches: 8, coverage: ["100", "100", "100", "62.5"], time: ["0.85", "8.06", "0.98", "—"], tests: ["8", "8", "?", "?"] },
    PaperProgram { stem: "lamp", name: "Lamp", branches: 8, coverage: ["87.5", "50", "87.5", "87.5"], time: ["0.39", "—", "0.98", "233.03"], tests: ["7", "—", "—", "11"] },
    PaperProgram { stem: "max", name: "Max", branches: 3, coverage: ["100", "100", "100", "66.7"], time: ["0.37", "8.19", "1.01", "—"], tests: ["3", "3", "4", "4"] },
    PaperProgram { stem: "linear_search", name: "Linear search", branches: 5, coverage: ["100", "100", "100", "100"], time: ["0.42", "11.77", "0.99", "—"], tests: ["3", "?", "?", "?"] },
    PaperProgram { stem: "insertion_sort", name: "Insertion sort", branches: 5, coverage: ["100", "100", "100", "80"], time: ["?", "?", "?", "?"], tests: ["3", "5", "8", "?"] },
    PaperProgram { stem: "gnome_sort", name: "Gnome sort", branches: 5, coverage: ["100", "100", "100", "60"], time: ["0.52", "10.89", "1.16", "—"], tests: ["3", "7", "6", "—"] },
    PaperProgram { stem: "square_root", name: "Square root", branches: 5, coverage: ["100", "100", "87.5", "100"], time: ["0.26", "12.86", "—", "1.71"], tests: ["4", "5", "—", "18"] },
    PaperProgram { stem: "sum_and_max", name: "Sum and max", branches: 4, coverage: ["100", "100", "50", "100"], time: ["0.37", "10.99", "—", "1322.61"], tests: ["3", "5", "—", "1784"] },
    PaperProgram { stem: "arithmetic", name: "Arithmetic", branches: 14, coverage: ["100", "100", "65.38", "100"], time: ["0.42", "32.98", "—", "14.49"], tests: ["14", "25", "—", "531"] },
    PaperProgram { stem: "binary_search", name: "Binary search", branches: 5, coverage: ["100", "100", "100", "100"], time: ["0.44", "99.29", "1.00", "150.86"], tests: ["4", "6", "12", "905"] },
    PaperProgram { stem: "recursive_binary_search", name: "Recursive binary search", branches: 7, coverage: ["100", "100", "28.57", "85.7"], time: ["0.48", "13.07", "—", "—"], tests: ["7", "15", "—", "—"] },
    PaperProgram { stem: "dutch_flag", name: "Dutch flag", branches: 11, coverage: ["100", "100", "100", "72.7"], time: ["0.43", "31.36", "1.06", "330.89"], tests: ["9", "27", "20", "—"] },
    PaperProgram { stem: "two_way_max", name: "Two way max", branches: 4, coverage: ["100", "100", "100", "75"], time: ["0.52", "9.59", "0.97", "—"], tests: ["2", "4", "4", "—"] },
    PaperProgram { stem: "two_way_sort", name: "Two way sort", branches: 6, coverage: ["100", "100", "100", "83.3"], time: ["0.39", "80.91", "1.04", "—"], tests: ["5", "9", "6", "—"] },
    PaperProgram { stem: "quick_sort", name: "Quick sort", branches: 9, coverage: ["100", "100", "75", "100"], time: ["0.90", "111.57", "—", "78.37"], tests: ["9", "18", "—", "342"] },
    PaperProgram { stem: "selection_sort", name: "Selection sort", branches: 5, coverage: ["100", "100", "100", "100"], time: ["0.50", "17.81", "1.03", "—"], tests: ["5", "12", "12", "—"] },
    PaperProgram { stem: "bubble_sort", name: "Bubble sort", branches: 5, coverage: ["100", "100", "100", "80"], time: ["0.59", "14.74", "1.00", "—"], tests: ["4", "8", "6", "—"] },
    PaperProgram { stem: "optimized_gnome_sort", name: "Optimized gnome sort", branches: 8, coverage: ["100", "100", "100", "50"], time: ["0.54", "12.32", "1.01", "—"], tests: ["7", "8", "16", "?"] },
    PaperProgram { stem: "queue", name: "Queue", branches: 16, coverage: ["100", "100", "100", "90.91"], time: ["0.89", "9.87", "1.14", "—"], tests: ["19", "46", "30", "?"] },
    PaperProgram { stem: "stack", name: "Stack", branches: 15, coverage: ["100", "100", "100", "90"], time: ["0.41", "28.39", "1.08", "—"], tests: ["16", "24", "26", "—"] },
    PaperProgram { stem: "prime_numbers", name: "Prime numbers", branches: 6, coverage: ["100", "100", "100", "66.7"], time: ["2.06", "5.91", "1.10", "—"], tests: ["7", "10", "13", "?"] },
];

/// The paper's averages over the 23 programs (Tables 2–4, bottom rows): coverage %,
/// time s, tests.
const PAPER_AVERAGES: [[&str; 3]; 4] =
    [["99.4", "0.554", "7.17"], ["97.5", "24.9", "12.68"], ["91", "1.14", "11.9"], ["81.2", "304.57", "623.28"]];

/// Table 5's totals per unrolling depth (0 is "Original", plain SC): distinct faults over
/// ten runs (N_c), per run (R_c), and the mean generation time in seconds.
#[rustfmt::skip]
const PAPER_FAULTS: [(u32, u32, f64, f64); 12] = [
    (0, 46, 28.5, 0.16), (1, 32, 24.9, 0.18), (2, 44, 42.3, 0.31), (3, 51, 42.3, 0.53),
    (4, 51, 44.4, 0.78), (5, 52, 45.3, 1.25), (6, 54, 47.1, 2.13), (7, 53, 47.2, 3.58),
    (8, 54, 47.1, 6.46), (9, 54, 46.2, 21.85), (10, 55, 49.1, 38.86), (15, 55, 49.6, 301.57),
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// How one subprocess ended.
enum Run {
    /// It exited; its stdout and its wall time.
    Done { stdout: String, time: Duration },
    /// It was killed at its time limit.
    Timeout { limit: Duration },
    /// It was not started: the harness's budget was spent.
    Skipped,
}

/// Runs the harness's subprocesses within their limits and the harness's budget.
struct Runner {
    seedgen: &'static str,
    scratch: tempfile::TempDir,
    deadline: Instant,
}

impl Runner {
    /// Runs `seedgen args`, killed after `limit` (or at the harness's deadline).
    fn seedgen(&self, args: &[&str], limit: Duration) -> Run {
        let remaining = self.deadline.saturating_duration_since(Instant::now());
        if remaining < Duration::from_secs(1) {
            return Run::Skipped;
        }
        let limit = limit.min(remaining);
        let out_path = self.scratch.path().join("stdout");
        match run_limited(Command::new(self.seedgen).args(args).current_dir(root()), &out_path, limit) {
            Limited::Exited { time, .. } => {
                let stdout = std::fs::read_to_string(&out_path).expect("its output is UTF-8 text");
                Run::Done { stdout, time }
            }
            Limited::Timeout => Run::Timeout { limit },
        }
    }

    fn path(&self, name: &str) -> String {
        self.scratch.path().join(name).to_str().expect("UTF-8 temporary path").to_string()
    }
}

fn json_of(stdout: &str) -> Value {
    serde_json::from_str(stdout).unwrap_or_else(|error| panic!("not JSON ({error}): {stdout}"))
}

fn count(value: &Value, key: &str) -> u64 {
    value[key].as_u64().unwrap_or_else(|| panic!("no count `{key}` in {value}"))
}

fn secs(time: Duration) -> f64 {
    time.as_secs_f64()
}

// ---------------------------------------------------------------------------------------
// Part 1: the paper's 23 programs.

/// What we measured on one `corpus/sc/` program.
struct ScRow {
    paper: &'static PaperProgram,
    result: Result<ScMeasure, String>,
}

struct ScMeasure {
    goals: u64,
    covered_by_replay: u64,
    unreachable: u64,
    not_covered: u64,
    tests: u64,
    time: Duration,
}

fn measure_sc(runner: &Runner, paper: &'static PaperProgram) -> ScRow {
    let file = format!("corpus/sc/{}.bpl", paper.stem);
    let suite = runner.path(&format!("{}.tests.json", paper.stem));
    let args = ["prove-tests", &file, "-o", &suite, "--format", "json", "--quiet", "--force", "--no-cache"];
    let (summary, time) = match runner.seedgen(&args, SC_LIMIT) {
        Run::Done { stdout, time } => (json_of(&stdout), time),
        Run::Timeout { limit } => return ScRow { paper, result: Err(format!("timeout ({} s)", limit.as_secs())) },
        Run::Skipped => return ScRow { paper, result: Err("skipped (harness budget)".to_string()) },
    };
    let replay = match runner.seedgen(&["run-tests", &file, &suite, "--format", "json", "--quiet"], RUN_LIMIT) {
        Run::Done { stdout, .. } => json_of(&stdout),
        Run::Timeout { .. } => return ScRow { paper, result: Err("run-tests timeout".to_string()) },
        Run::Skipped => return ScRow { paper, result: Err("skipped (harness budget)".to_string()) },
    };
    let totals = &summary["totals"];
    let covered_by_replay =
        replay["goals"].as_array().expect("goals").iter().filter(|goal| goal["covered"] == true).count() as u64;
    let measure = ScMeasure {
        goals: count(totals, "goals"),
        covered_by_replay,
        unreachable: count(totals, "unreachable"),
        not_covered: count(totals, "not_covered"),
        tests: count(totals, "tests"),
        time,
    };
    ScRow { paper, result: Ok(measure) }
}

fn sc_table(rows: &[ScRow]) -> String {
    let mut out = String::new();
    out.push_str("| program | branches (paper) | goals (ours) | covered by replay | unreachable | not covered | tests | time (s) |");
    for tool in TOOLS {
        write!(out, " {tool} (paper): cov. % / s / tests |").expect("writing to a string");
    }
    out.push_str("\n|---|---:|---:|---:|---:|---:|---:|---:|---|---|---|---|\n");
    for row in rows {
        let paper = row.paper;
        let ours = match &row.result {
            Ok(m) => format!(
                "{} | {} | {} | {} | {} | {:.2}",
                m.goals,
                m.covered_by_replay,
                m.unreachable,
                m.not_covered,
                m.tests,
                secs(m.time)
            ),
            Err(reason) => format!("{reason} | | | | |"),
        };
        write!(out, "| {} | {} | {ours} |", paper.name, paper.branches).expect("writing to a string");
        for tool in 0..4 {
            write!(out, " {} / {} / {} |", paper.coverage[tool], paper.time[tool], paper.tests[tool])
                .expect("writing to a string");
        }
        out.push('\n');
    }
    let summary = ScSummary::of(rows);
    write!(
        out,
        "| **total / mean** | {} | {} | {} | {} | {} | {:.2} mean | {:.2} mean |",
        PAPER.iter().map(|paper| paper.branches).sum::<u32>(),
        summary.goals,
        summary.covered,
        summary.unreachable,
        summary.not_covered,
        summary.mean_tests,
        summary.mean_time
    )
    .expect("writing to a string");
    for averages in PAPER_AVERAGES {
        write!(out, " {} / {} / {} |", averages[0], averages[1], averages[2]).expect("writing to a string");
    }
    out.push('\n');
    out
}

/// Totals and means over the programs measured.
struct ScSummary {
    measured: usize,
    goals: u64,
    covered: u64,
    unreachable: u64,
    not_covered: u64,
    mean_tests: f64,
    mean_time: f64,
    median_time: f64,
}

impl ScSummary {
    fn of(rows: &[ScRow]) -> ScSummary {
        let measured: Vec<&ScMeasure> = rows.iter().filter_map(|row| row.result.as_ref().ok()).collect();
        let n = measured.len().max(1) as f64;
        ScSummary {
            measured: measured.len(),
            goals: measured.iter().map(|m| m.goals).sum(),
            covered: measured.iter().map(|m| m.covered_by_replay).sum(),
            unreachable: measured.iter().map(|m| m.unreachable).sum(),
            not_covered: measured.iter().map(|m| m.not_covered).sum(),
            mean_tests: measured.iter().map(|m| m.tests as f64).sum::<f64>() / n,
            mean_time: measured.iter().map(|m| secs(m.time)).sum::<f64>() / n,
            median_time: median(measured.iter().map(|m| secs(m.time)).collect()),
        }
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

// ---------------------------------------------------------------------------------------
// Part 2: fault detection with unrolling (Table 5).

/// One fault program at one depth.
struct FaultCell {
    program: String,
    generation: Run,
    /// Per variant (sorted by name): whether the suite detects it; empty unless
    /// generation finished.
    detected: Vec<(String, bool)>,
    /// Distinct failing clauses: (variant, line, clause).
    clauses: Vec<(String, u64, String)>,
    /// Variants whose `run-tests` timed out or was skipped.
    unjudged: Vec<String>,
}

fn fault_programs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root().join("corpus/faults"))
        .expect("corpus/faults exists")
        .map(|entry| entry.expect("readable").path())
        .filter(|path| path.is_dir())
        .collect();
    dirs.sort();
    dirs
}

fn variants(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("a fault program's directory")
        .map(|entry| entry.expect("readable").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "bpl") && !path.ends_with("correct.bpl"))
        .map(|path| path.file_stem().expect("a name").to_string_lossy().to_string())
        .collect();
    names.sort();
    names
}

/// The clause a failing test names, without the values or the iteration that vary from
/// test to test: `loop invariant `…` violated`, `output `r``.
fn clause(message: &str) -> String {
    if let Some(end) = message.find(" violated") {
        return message[..end + " violated".len()].trim_start_matches("expected pass, but ").to_string();
    }
    match message.find(": expected") {
        Some(end) => message[..end].to_string(),
        None => message.to_string(),
    }
}

fn measure_fault(runner: &Runner, dir: &Path, depth: u32) -> FaultCell {
    let program = dir.file_name().expect("a directory name").to_string_lossy().to_string();
    let correct = format!("corpus/faults/{program}/correct.bpl");
    let suite = runner.path(&format!("{program}.{depth}.tests.json"));
    let unroll = depth.to_string();
    let args = [
        "prove-tests",
        &correct,
        "--unroll",
        &unroll,
        "-o",
        &suite,
        "--format",
        "json",
        "--quiet",
        "--force",
        "--no-cache",
    ];
    let generation = runner.seedgen(&args, FAULT_LIMIT);
    let mut cell = FaultCell { program, generation, detected: Vec::new(), clauses: Vec::new(), unjudged: Vec::new() };
    if !matches!(cell.generation, Run::Done { .. }) {
        return cell;
    }
    for variant in variants(dir) {
        let file = format!("corpus/faults/{}/{variant}.bpl", cell.program);
        let report = match runner.seedgen(&["run-tests", &file, &suite, "--format", "json", "--quiet"], RUN_LIMIT) {
            Run::Done { stdout, .. } => json_of(&stdout),
            Run::Timeout { .. } | Run::Skipped => {
                cell.unjudged.push(variant);
                continue;
            }
        };
        let mut detected = false;
        for test in report["tests"].as_array().expect("tests") {
            if matches!(test["result"].as_str(), Some("fail" | "invalid")) {
                detected = true;
                let line = test["span"]["line"].as_u64().unwrap_or(0);
                let key = (variant.clone(), line, clause(test["message"].as_str().unwrap_or("")));
                if !cell.clauses.contains(&key) {
                    cell.clauses.push(key);
                }
            }
        }
        cell.detected.push((variant, detected));
    }
    cell
}

/// One depth's row: its cells, and what they add up to.
struct FaultRow {
    depth: u32,
    cells: Vec<FaultCell>,
}

impl FaultRow {
    fn detected(&self) -> usize {
        self.cells.iter().flat_map(|cell| &cell.detected).filter(|(_, detected)| *detected).count()
    }

    fn clauses(&self) -> usize {
        self.cells.iter().map(|cell| cell.clauses.len()).sum()
    }

    /// The mean generation time over the programs; a timed-out run counts at its limit,
    /// so the mean is then a lower bound (`true`). `None` when a run was skipped.
    fn mean_time(&self) -> Option<(f64, bool)> {
        let mut total = 0.0;
        let mut bound = false;
        for cell in &self.cells {
            match cell.generation {
                Run::Done { time, .. } => total += secs(time),
                Run::Timeout { limit } => {
                    total += secs(limit);
                    bound = true;
                }
                Run::Skipped => return None,
            }
        }
        Some((total / self.cells.len() as f64, bound))
    }
}

fn cell_text(cell: &FaultCell) -> String {
    match &cell.generation {
        Run::Done { .. } => {
            let detected = cell.detected.iter().filter(|(_, detected)| *detected).count();
            let mut text = format!("{detected}/{}", cell.detected.len() + cell.unjudged.len());
            if !cell.unjudged.is_empty() {
                write!(text, " ({} unjudged)", cell.unjudged.len()).expect("writing to a string");
            }
            text
        }
        Run::Timeout { limit } => format!("timeout ({} s)", limit.as_secs()),
        Run::Skipped => "skipped".to_string(),
    }
}

fn mean_time_text(row: &FaultRow) -> String {
    match row.mean_time() {
        Some((mean, false)) => format!("{mean:.2}"),
        Some((mean, true)) => format!("≥ {mean:.2}"),
        None => "—".to_string(),
    }
}

fn fault_table(rows: &[FaultRow]) -> String {
    let mut out = String::from("| N | variants detected (of 25) |");
    for cell in &rows[0].cells {
        write!(out, " {} |", cell.program).expect("writing to a string");
    }
    out.push_str(" distinct failing clauses | mean time (s) | paper: distinct faults N_c (of 55) | paper: per run R_c | paper: mean time (s) |\n|---:|---:|");
    out.push_str(&"---:|".repeat(rows[0].cells.len()));
    out.push_str("---:|---:|---:|---:|---:|\n");
    for row in rows {
        let (_, nc, rc, time) =
            PAPER_FAULTS.iter().find(|(depth, ..)| *depth == row.depth).expect("every depth is in Table 5");
        write!(out, "| {} | {} |", row.depth, row.detected()).expect("writing to a string");
        for cell in &row.cells {
            write!(out, " {} |", cell_text(cell)).expect("writing to a string");
        }
        writeln!(out, " {} | {} | {nc} | {rc} | {time} |", row.clauses(), mean_time_text(row)).expect("writing");
    }
    out
}

// ---------------------------------------------------------------------------------------
// Plots.

const PALETTE: [RGBColor; 6] = [RED, BLUE, GREEN, MAGENTA, CYAN, BLACK];

/// Draws an 800 × 500 SVG with `draw` on a white area and writes it to `path`.
fn render_svg(path: &Path, draw: impl FnOnce(&DrawingArea<SVGBackend, plotters::coord::Shift>)) {
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (800, 500)).into_drawing_area();
        area.fill(&WHITE).expect("drawing");
        draw(&area);
        area.present().expect("drawing");
    }
    write(path, &svg);
}

fn plot_time(rows: &[FaultRow], path: &Path) {
    render_svg(path, |area| {
        let mut chart = ChartBuilder::on(area)
            .caption("prove-tests --unroll N: generation time (log scale)", ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0u32..16u32, (0.01f64..1000f64).log_scale())
            .expect("a chart");
        chart.configure_mesh().x_desc("N (unrolling depth)").y_desc("seconds").draw().expect("drawing");
        for (index, program) in rows[0].cells.iter().map(|cell| cell.program.clone()).enumerate() {
            let color = PALETTE[index % PALETTE.len()];
            let points: Vec<(u32, f64)> = rows
                .iter()
                .filter_map(|row| match row.cells[index].generation {
                    Run::Done { time, .. } => Some((row.depth, secs(time))),
                    _ => None,
                })
                .collect();
            chart
                .draw_series(LineSeries::new(points.clone(), color))
                .expect("drawing")
                .label(program)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
            chart.draw_series(points.iter().map(|&point| Circle::new(point, 3, color.filled()))).expect("drawing");
        }
        let paper: Vec<(u32, f64)> = PAPER_FAULTS.iter().map(|&(depth, _, _, time)| (depth, time)).collect();
        chart
            .draw_series(LineSeries::new(paper, BLACK.stroke_width(3)))
            .expect("drawing")
            .label("paper: mean (AutoProof)")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK.stroke_width(3)));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE)
            .border_style(BLACK)
            .draw()
            .expect("drawing");
    });
}

fn plot_faults(rows: &[FaultRow], path: &Path) {
    render_svg(path, |area| {
        let mut chart = ChartBuilder::on(area)
            .caption("Faults detected vs unrolling depth N", ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(0u32..16u32, 0u32..60u32)
            .expect("a chart");
        chart.configure_mesh().x_desc("N (unrolling depth)").y_desc("faults").draw().expect("drawing");
        // A depth at which some program's generation timed out counts only the others: its
        // points are hollow, so the drop is not mistaken for fewer faults found.
        let complete = |depth: u32| {
            rows.iter().any(|row| {
                row.depth == depth && row.cells.iter().all(|cell| matches!(cell.generation, Run::Done { .. }))
            })
        };
        let detected: Vec<(u32, u32)> = rows.iter().map(|row| (row.depth, row.detected() as u32)).collect();
        let clauses: Vec<(u32, u32)> = rows.iter().map(|row| (row.depth, row.clauses() as u32)).collect();
        let paper: Vec<(u32, u32)> = PAPER_FAULTS.iter().map(|&(depth, nc, ..)| (depth, nc)).collect();
        let series = [
            ("ours: variants detected (of 25)", RED, detected, true),
            ("ours: distinct failing clauses", BLUE, clauses, true),
            ("paper: distinct faults N_c (of 55)", BLACK, paper, false),
        ];
        for (label, color, points, ours) in series {
            chart
                .draw_series(LineSeries::new(points.clone(), color))
                .expect("drawing")
                .label(label)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
            let marker = |&(depth, value): &(u32, u32)| {
                let style = if !ours || complete(depth) { color.filled() } else { color.stroke_width(1) };
                Circle::new((depth, value), 4, style)
            };
            chart.draw_series(points.iter().map(marker)).expect("drawing");
        }
        let note = "hollow points: some program's generation timed out at that depth";
        chart.draw_series(std::iter::once(Text::new(note, (1, 4), ("sans-serif", 12)))).expect("drawing");
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE)
            .border_style(BLACK)
            .draw()
            .expect("drawing");
    });
}

// ---------------------------------------------------------------------------------------
// Outputs.

fn write(path: &Path, text: &str) {
    seedgen::suite::write_atomically(path, text)
        .unwrap_or_else(|error| panic!("cannot write {}: {error}", path.display()));
}

fn run_json(run: &Run) -> Value {
    match run {
        Run::Done { time, .. } => json!({ "status": "done", "seconds": secs(*time) }),
        Run::Timeout { limit } => json!({ "status": "timeout", "limit_seconds": limit.as_secs() }),
        Run::Skipped => json!({ "status": "skipped" }),
    }
}

fn results_json(sc: &[ScRow], faults: &[FaultRow], total: Duration) -> Value {
    let sc: Vec<Value> = sc
        .iter()
        .map(|row| {
            let paper = row.paper;
            let mut value = json!({
                "program": paper.stem,
                "paper": { "branches": paper.branches, "coverage": paper.coverage, "time": paper.time, "tests": paper.tests },
            });
            match &row.result {
                Ok(m) => {
                    value["goals"] = json!(m.goals);
                    value["covered_by_replay"] = json!(m.covered_by_replay);
                    value["unreachable"] = json!(m.unreachable);
                    value["not_covered"] = json!(m.not_covered);
                    value["tests"] = json!(m.tests);
                    value["seconds"] = json!(secs(m.time));
                }
                Err(reason) => value["error"] = json!(reason),
            }
            value
        })
        .collect();
    let faults: Vec<Value> = faults
        .iter()
        .map(|row| {
            let cells: Vec<Value> = row
                .cells
                .iter()
                .map(|cell| {
                    json!({
                        "program": cell.program,
                        "generation": run_json(&cell.generation),
                        "detected": cell.detected.iter().filter(|(_, d)| *d).map(|(v, _)| v).collect::<Vec<_>>(),
                        "not_detected": cell.detected.iter().filter(|(_, d)| !*d).map(|(v, _)| v).collect::<Vec<_>>(),
                        "unjudged": cell.unjudged,
                        "clauses": cell.clauses.iter().map(|(v, line, clause)| json!({ "variant": v, "line": line, "clause": clause })).collect::<Vec<_>>(),
                    })
                })
                .collect();
            json!({
                "unroll": row.depth,
                "detected": row.detected(),
                "distinct_clauses": row.clauses(),
                "mean_seconds": row.mean_time().map(|(mean, _)| mean),
                "mean_is_lower_bound": row.mean_time().is_some_and(|(_, bound)| bound),
                "programs": cells,
            })
        })
        .collect();
    json!({ "sc": sc, "faults": faults, "harness_seconds": secs(total) })
}

/// "N not covered", with what such a goal means when there is one.
fn not_covered_text(not_covered: u64) -> String {
    match not_covered {
        0 => "none not covered".to_string(),
        _ => format!(
            "{not_covered} not covered (replay missed, each annotated in its file; `run-tests` counts such a goal \
             covered when a test of another procedure enters it)"
        ),
    }
}

/// The README's "Results" section: the headline figures and the fault table.
fn results_markdown(sc: &[ScRow], faults: &[FaultRow], total: Duration) -> String {
    let summary = ScSummary::of(sc);
    let mut out = String::new();
    writeln!(
        out,
        "Generated by `just results` (`cargo bench --bench evaluation -- --readme`): the \
         paper's experiments (seeds/001 §5) on `corpus/sc/` and `corpus/faults/`, whole-process \
         wall times of the release binary, one run each ({:.0} s in all). Full tables: \
         [docs/benchmarks.md](docs/benchmarks.md#evaluation-the-papers-experiments).\n",
        secs(total)
    )
    .expect("writing to a string");
    let not_measured = sc.len() - summary.measured;
    writeln!(
        out,
        "- **The paper's 23 programs**: {} of {} goals covered by replaying the suites \
         (`run-tests`); `prove-tests` reports {} proved unreachable (Lamp's dead branch) and {}{}.\n\
         - **Mean tests per program: {:.2}** (paper: 7.17). **Mean time per program: {:.2} s** \
         (paper: 0.554 s with AutoProof); median {:.2} s.\n",
        summary.covered,
        summary.goals,
        summary.unreachable,
        not_covered_text(summary.not_covered),
        if not_measured == 0 { String::new() } else { format!("; {not_measured} programs not measured") },
        summary.mean_tests,
        summary.mean_time,
        summary.median_time
    )
    .expect("writing to a string");
    out.push_str("Fault detection, suites from each correct program with `--unroll N`, run against its five faulty variants (paper: 55 distinct faults over its own variants):\n\n");
    out.push_str("| N | variants detected (of 25) | distinct failing clauses | mean time (s) | paper: N_c | paper: time (s) |\n|---:|---:|---:|---:|---:|---:|\n");
    for row in faults {
        let (_, nc, _, time) =
            PAPER_FAULTS.iter().find(|(depth, ..)| *depth == row.depth).expect("every depth is in Table 5");
        let timeouts: Vec<&str> = row
            .cells
            .iter()
            .filter(|cell| !matches!(cell.generation, Run::Done { .. }))
            .map(|cell| cell.program.as_str())
            .collect();
        let detected = match timeouts.as_slice() {
            [] => row.detected().to_string(),
            programs => format!("{} ({} timed out)", row.detected(), programs.join(", ")),
        };
        writeln!(out, "| {} | {detected} | {} | {} | {nc} | {time} |", row.depth, row.clauses(), mean_time_text(row))
            .expect("writing to a string");
    }
    out
}

const BEGIN: &str = "<!-- results:begin -->";
const END: &str = "<!-- results:end -->";

/// Replaces the README's text between the markers by `section`.
fn update_readme_section(section: &str) {
    let path = root().join("README.md");
    let readme = std::fs::read_to_string(&path).expect("README.md is readable");
    let (Some(begin), Some(end)) = (readme.find(BEGIN), readme.find(END)) else {
        panic!("README.md has no `{BEGIN}` … `{END}` section");
    };
    let updated = format!("{}{BEGIN}\n{section}{}", &readme[..begin], &readme[end..]);
    write(&path, &updated);
}

fn main() {
    let update_readme = std::env::args().any(|arg| arg == "--readme");
    let started = Instant::now();
    let runner = Runner {
        seedgen: env!("CARGO_BIN_EXE_seedgen"),
        scratch: tempfile::tempdir().expect("a temporary directory"),
        deadline: started + BUDGET,
    };
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    println!("seedgen evaluation harness: whole-process wall times, one run each, {cores} cores\n");

    let sc: Vec<ScRow> = PAPER.iter().map(|paper| measure_sc(&runner, paper)).collect();
    println!("## The paper's 23 programs (corpus/sc/; paper: Tables 1-4)\n\n{}", sc_table(&sc));

    let programs = fault_programs();
    let faults: Vec<FaultRow> = DEPTHS
        .iter()
        .map(|&depth| FaultRow {
            depth,
            cells: programs.iter().map(|dir| measure_fault(&runner, dir, depth)).collect(),
        })
        .collect();
    println!("## Fault detection with unrolling (corpus/faults/; paper: Table 5)\n\n{}", fault_table(&faults));
    let total = started.elapsed();
    println!("harness time: {:.1} s", secs(total));

    let out = root().join("target/bench");
    std::fs::create_dir_all(&out).expect("target/bench can be created");
    let results = serde_json::to_string_pretty(&results_json(&sc, &faults, total)).expect("JSON values serialize");
    write(&out.join("evaluation.json"), &format!("{results}\n"));
    let section = results_markdown(&sc, &faults, total);
    write(&out.join("results.md"), &section);
    plot_time(&faults, &out.join("time.svg"));
    plot_faults(&faults, &out.join("faults.svg"));
    println!("wrote target/bench/evaluation.json, results.md, time.svg, faults.svg");
    if update_readme {
        update_readme_section(&section);
        println!("updated the README's Results section");
    }
}
