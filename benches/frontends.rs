//! Front-end output beside Boogie 2.4.1, check by check: what `seedgen` accepts, what
//! `verify` proves and reports against what Boogie does on the same implementation, and
//! how many of the goals Boogie finds reachable `prove-tests` covers.
//!
//! `SEEDGEN_FRONTEND_CORPUS=DIR:DIR:… cargo bench --bench frontends` (or `just
//! frontends`). Each element of the list (`:`-separated, as `PATH` is) is one corpus: a
//! directory, whose `.bpl` files at any depth are read, or a single file; the corpus is
//! named by the element's last component. The programs are not part of this
//! repository: AutoProof's, Dafny's, Viper's or SMACK's output, kept wherever you keep
//! them. Boogie 2.4.1 must be on the `PATH` (or named by `BOOGIE`). For each file:
//!
//! 1. `seedgen check`: accepted, refused (its first error), or a crash;
//! 2. `boogie /trace` gives each implementation's verdict (verified, errors, timed out)
//!    and each error's check: the line of the `assert`, of the call whose precondition
//!    fails, of the invariant, or of the postcondition clause (Boogie's "Related
//!    location", where seedgen reports it too);
//! 3. `seedgen verify --format json` gives the same per implementation; the two are
//!    compared check by check ([`compare`]): a Boogie error seedgen reports as a failure
//!    with a replayed test is *found*, one it reports as a possible failure (z3's model
//!    replay did not confirm) is *possible*, any other is *missed*; an implementation
//!    seedgen calls verified where Boogie reports an error is *unsound* (seedgen
//!    proved a check Boogie refutes with a model), the worst there is;
//! 4. with `--goals`, Boogie on `seedgen seed` output says which goals are reachable
//!    (one error per reachable seed), and `seedgen prove-tests`, given three times
//!    Boogie's time on the seeded file, says which it covers (by replayed tests) and
//!    which it proves unreachable; an "unreachable" goal Boogie reaches is a
//!    *contradiction*.
//!
//! Options (after `--`): `--files TEXT` keeps files whose path contains TEXT
//! (repeatable); `--goals`; `--verify-limit S` (seedgen's `--time-limit` for `verify`,
//! default 120); `--boogie-limit S` (Boogie's `/timeLimit` per implementation, default
//! 60); `--json PATH` writes every file's comparison; `--details` prints each
//! disagreement. A crash of seedgen (a panic, a signal) is counted and printed; the
//! exit status is 1 when there was one.

mod common;
#[path = "conformance/process.rs"]
mod process;

use common::ms;
use process::Ending;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// `prove-tests` is given this many times Boogie's time on the seeded file.
const TIME_FACTOR: f64 = 3.0;

/// What a verifier says about one implementation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct ImplementationResult {
    /// `verified`, `errors`, `timed out`, `inconclusive`, `out of memory` (Boogie);
    /// `verified`, `failed`, `undecided`, `vacuous` (seedgen).
    verdict: String,
    /// The checks reported failing, by [`check_key`].
    failures: BTreeSet<String>,
    /// seedgen only: the possible failures (z3's model, unconfirmed).
    possible: BTreeSet<String>,
}

type Results = BTreeMap<String, ImplementationResult>;

/// The comparison of one file's implementations.
#[derive(Clone, Debug, Default)]
struct Comparison {
    implementations: usize,
    /// Both verified, or both report errors at the same lines.
    agree: usize,
    boogie_verified: usize,
    seedgen_verified: usize,
    /// Boogie's errors, and how many seedgen reports as failures or possible failures.
    boogie_errors: usize,
    found: usize,
    possible: usize,
    /// seedgen verified an implementation Boogie reports an error in.
    unsound: usize,
    /// Boogie gave no verdict (a time-out) on these.
    no_reference: usize,
    disagreements: Vec<String>,
}

/// Every check compared, implementation by implementation.
fn compare(boogie: &Results, seedgen: &Results) -> Comparison {
    let mut comparison = Comparison::default();
    for (name, reference) in boogie {
        comparison.implementations += 1;
        let Some(ours) = seedgen.get(name) else {
            comparison.disagreements.push(format!("{name}: seedgen gives no verdict"));
            continue;
        };
        let boogie_verified = reference.verdict == "verified";
        if !boogie_verified && reference.verdict != "errors" {
            comparison.no_reference += 1;
            continue;
        }
        comparison.boogie_verified += usize::from(boogie_verified);
        comparison.seedgen_verified += usize::from(ours.verdict == "verified");
        comparison.boogie_errors += reference.failures.len();
        let found = reference.failures.intersection(&ours.failures).count();
        let possible = reference
            .failures
            .iter()
            .filter(|&line| !ours.failures.contains(line) && ours.possible.contains(line))
            .count();
        comparison.found += found;
        comparison.possible += possible;
        if !boogie_verified && ours.verdict == "verified" {
            comparison.unsound += 1;
        }
        let same = if boogie_verified {
            ours.verdict == "verified"
        } else {
            found + possible == reference.failures.len() && ours.failures.is_subset(&reference.failures)
        };
        if same {
            comparison.agree += 1;
        } else {
            comparison.disagreements.push(format!(
                "{name}: Boogie {} {:?}, seedgen {} {:?} (possible {:?})",
                reference.verdict, reference.failures, ours.verdict, ours.failures, ours.possible
            ));
        }
    }
    comparison
}

/// A check as both verifiers name it: the line of the `assert`, invariant or `ensures`
/// clause; for a callee's precondition, the call's line and the clause's (a clause
/// fails at each call apart, and several clauses at one call).
fn check_key(line: usize, clause: Option<usize>) -> String {
    clause.map_or_else(|| line.to_string(), |clause| format!("{line}:{clause}"))
}

/// Boogie's `/trace` output: `Verifying NAME ...`, then its errors
/// (`FILE(LINE,COL): Error BP5003: …`, and the clause on the `Related location` line
/// after a postcondition's or a precondition's), then `[…]  verified` (or `error`,
/// `errors`, `timed out`).
fn parse_boogie_trace(stdout: &str) -> Results {
    let mut results = Results::new();
    let mut current: Option<String> = None;
    // A postcondition's error (`None`) or a call's (its line) waiting for its clause.
    let mut pending: Option<Option<usize>> = None;
    for line in stdout.lines() {
        if let Some(rest) = line.strip_prefix("Verifying ") {
            let name = rest.trim_end_matches(" ...").to_string();
            results.entry(name.clone()).or_default();
            current = Some(name);
            continue;
        }
        let Some(result) = current.as_ref().and_then(|name| results.get_mut(name)) else { continue };
        if let Some(verdict) = line.trim_start().strip_prefix('[').and_then(|rest| rest.split_once("]  ")) {
            result.verdict = verdict.1.trim().to_string();
            if result.verdict == "error" {
                result.verdict = "errors".to_string();
            }
        } else if let Some(at) = error_line(line, ": Error ") {
            pending = None;
            if line.contains("BP5003") {
                pending = Some(None);
            } else if line.contains("BP5002") {
                pending = Some(Some(at));
            } else {
                result.failures.insert(check_key(at, None));
            }
        } else if let (Some(at), Some(call)) = (error_line(line, ": Related location: "), pending.take()) {
            result.failures.insert(call.map_or_else(|| check_key(at, None), |call| check_key(call, Some(at))));
        }
    }
    results
}

/// The line of `FILE(LINE,COL)MARKER…`.
fn error_line(line: &str, marker: &str) -> Option<usize> {
    let position = &line[..line.find(marker)?];
    let open = position.rfind('(')?;
    position[open + 1..].split(',').next()?.parse().ok()
}

/// `seedgen verify --format json`'s report, as [`Results`].
fn parse_seedgen_report(report: &Value) -> Results {
    let line = |at: &Value| at["line"].as_u64().map(|line| line as usize);
    let lines = |checks: &Value, possible: Option<bool>| -> BTreeSet<String> {
        let checks = checks.as_array().map(Vec::as_slice).unwrap_or_default();
        checks
            .iter()
            .filter(|check| possible.is_none_or(|wanted| check["possible_failure"].as_bool() == Some(wanted)))
            .filter_map(|check| Some(check_key(line(check)?, line(&check["clause"]))))
            .collect()
    };
    let implementations = report["implementations"].as_array().map(Vec::as_slice).unwrap_or_default();
    implementations
        .iter()
        .map(|implementation| {
            let result = ImplementationResult {
                verdict: implementation["verdict"].as_str().unwrap_or_default().to_string(),
                failures: lines(&implementation["failures"], None),
                possible: lines(&implementation["undecided"], Some(true)),
            };
            (implementation["name"].as_str().unwrap_or_default().to_string(), result)
        })
        .collect()
}

/// The goals Boogie reaches in a seeded file, as `IMPLEMENTATION/GOAL`: each error is at
/// an `assert false`, whose goal is the nearest `// GOAL` comment above it that is not a
/// block's continuation, in the implementation Boogie was verifying.
fn reachable_goals(seeded: &str, stdout: &str) -> BTreeSet<String> {
    let lines: Vec<&str> = seeded.lines().collect();
    let mut goals = BTreeSet::new();
    let mut current = String::new();
    for line in stdout.lines() {
        if let Some(rest) = line.strip_prefix("Verifying ") {
            current = rest.trim_end_matches(" ...").to_string();
        } else if let Some(at) = error_line(line, ": Error BP5001") {
            let goal = lines[..at.min(lines.len())].iter().rev().find_map(|text| {
                let comment = text.trim().strip_prefix("// ")?;
                (!comment.ends_with("(continued)")).then(|| comment.to_string())
            });
            if let Some(goal) = goal {
                goals.insert(format!("{current}/{goal}"));
            }
        }
    }
    goals
}

/// The goals of a suite by status, as `IMPLEMENTATION/GOAL`.
fn suite_statuses(suite: &Value) -> BTreeMap<String, String> {
    let procedures = suite["procedures"].as_array().map(Vec::as_slice).unwrap_or_default();
    let mut statuses = BTreeMap::new();
    for procedure in procedures {
        let name = procedure["name"].as_str().unwrap_or_default();
        for goal in procedure["goals"].as_array().map(Vec::as_slice).unwrap_or_default() {
            let id = goal["id"].as_str().unwrap_or_default();
            let local = id.split_once('/').map_or(id, |(_, rest)| rest);
            statuses.insert(format!("{name}/{local}"), goal["status"].as_str().unwrap_or_default().to_string());
        }
    }
    statuses
}

/// Goals reached by Boogie against seedgen's statuses.
#[derive(Clone, Debug, Default)]
struct Goals {
    goals: usize,
    boogie_reachable: usize,
    covered: usize,
    /// Of Boogie's reachable goals, those seedgen covers.
    covered_reachable: usize,
    unreachable: usize,
    contradicted: Vec<String>,
    boogie_time: Duration,
    seedgen_time: Duration,
}

/// What one file gave.
#[derive(Clone, Debug, Default)]
struct FileResult {
    /// Boogie 2.4.1's summary when it rejects the file (newer syntax, or a front end's
    /// output it needs an option for): nothing is compared.
    boogie_rejects: Option<String>,
    accepted: bool,
    refusal: Option<String>,
    crashes: Vec<String>,
    comparison: Comparison,
    boogie_time: Duration,
    seedgen_time: Duration,
    goals: Option<Goals>,
}

struct Options {
    corpora: Vec<PathBuf>,
    filters: Vec<String>,
    goals: bool,
    details: bool,
    verify_limit: Duration,
    boogie_limit: u64,
    json: Option<PathBuf>,
    boogie: PathBuf,
    seedgen: PathBuf,
}

/// A crash of a seedgen run: a panic's message, a signal, or a time-out of the process
/// (its `--time-limit` should have ended it).
fn crash(what: &str, run: &process::Run) -> Option<String> {
    if let Some(line) = run.stderr.lines().find(|line| line.contains("panicked at")) {
        return Some(format!("{what}: {line}"));
    }
    match &run.ending {
        Ending::Signal(signal) => Some(format!("{what}: signal {signal}")),
        Ending::TimedOut => Some(format!("{what}: ran past its time limit")),
        Ending::Exited(101) => Some(format!("{what}: exit status 101")),
        Ending::NotStarted(error) => Some(format!("{what}: {error}")),
        Ending::Exited(_) => None,
    }
}

fn run_file(options: &Options, file: &Path, scratch: &Path) -> FileResult {
    let mut result = FileResult::default();
    let path = file.to_string_lossy().to_string();
    let seedgen = |args: &[&str], limit: Duration| process::run(&options.seedgen, args, None, limit);
    let boogie_limit = format!("/timeLimit:{}", options.boogie_limit);
    let whole = Duration::from_secs(3600);
    let boogie = process::run(&options.boogie, &["/nologo", "/trace", &boogie_limit, &path], None, whole);
    result.boogie_time = boogie.elapsed;
    // "N type checking errors detected in FILE": Boogie 2.4.1 does not accept it.
    result.boogie_rejects =
        boogie.stdout.lines().find(|line| line.contains(" errors detected in ")).map(str::to_string);
    let checked = seedgen(&["check", &path], Duration::from_secs(600));
    result.crashes.extend(crash("check", &checked));
    result.accepted = checked.ending == Ending::Exited(0);
    if !result.accepted {
        result.refusal = checked.stderr.lines().find(|line| line.contains("error")).map(str::to_string);
    }
    if !result.accepted || result.boogie_rejects.is_some() {
        return result;
    }
    let verify_limit = format!("{:.3}", options.verify_limit.as_secs_f64());
    let verified =
        seedgen(&["verify", "--format", "json", "--time-limit", &verify_limit, &path], options.verify_limit * 2);
    result.seedgen_time = verified.elapsed;
    result.crashes.extend(crash("verify", &verified));
    let report: Value = serde_json::from_str(&verified.stdout).unwrap_or(Value::Null);
    result.comparison = compare(&parse_boogie_trace(&boogie.stdout), &parse_seedgen_report(&report));
    if options.goals {
        result.goals = Some(goals(options, file, scratch, &mut result.crashes));
    }
    result
}

/// Boogie on the seeded file, then `prove-tests` within [`TIME_FACTOR`] times its time.
fn goals(options: &Options, file: &Path, scratch: &Path, crashes: &mut Vec<String>) -> Goals {
    let path = file.to_string_lossy().to_string();
    let stem = common::name(file);
    let seeded_path = scratch.join(format!("{stem}.seeded.bpl"));
    let seed = process::run(&options.seedgen, &["seed", &path], None, Duration::from_secs(600));
    crashes.extend(crash("seed", &seed));
    std::fs::write(&seeded_path, &seed.stdout).expect("the scratch directory is writable");
    let seeded = seeded_path.to_string_lossy().to_string();
    let boogie_limit = format!("/timeLimit:{}", options.boogie_limit);
    let args = ["/nologo", "/trace", "/errorLimit:100000", &boogie_limit, &seeded];
    let boogie = process::run(&options.boogie, &args, None, Duration::from_secs(3600));
    let reachable = reachable_goals(&seed.stdout, &boogie.stdout);
    let suite = scratch.join(format!("{stem}.tests.json")).to_string_lossy().to_string();
    let limit = format!("{:.3}", (boogie.elapsed.as_secs_f64() * TIME_FACTOR - 0.15).max(1.0));
    let args = ["prove-tests", &path, "-o", &suite, "--no-cache", "--quiet", "--force", "--time-limit", &limit];
    let proved = process::run(
        &options.seedgen,
        &args,
        None,
        boogie.elapsed.mul_f64(TIME_FACTOR * 2.0) + Duration::from_secs(60),
    );
    crashes.extend(crash("prove-tests", &proved));
    let suite: Value =
        std::fs::read_to_string(&suite).ok().and_then(|text| serde_json::from_str(&text).ok()).unwrap_or(Value::Null);
    let statuses = suite_statuses(&suite);
    let status = |goal: &String| statuses.get(goal).map(String::as_str);
    Goals {
        goals: statuses.len(),
        boogie_reachable: reachable.len(),
        covered: statuses.values().filter(|status| *status == "covered").count(),
        covered_reachable: reachable.iter().filter(|goal| status(goal) == Some("covered")).count(),
        unreachable: statuses.values().filter(|status| *status == "unreachable").count(),
        contradicted: reachable.iter().filter(|goal| status(goal) == Some("unreachable")).cloned().collect(),
        boogie_time: boogie.elapsed,
        seedgen_time: proved.elapsed,
    }
}

fn files_of(corpus: &Path, filters: &[String]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![corpus.to_path_buf()];
    while let Some(path) = pending.pop() {
        if path.is_dir() {
            let entries = std::fs::read_dir(&path).map(|entries| entries.filter_map(|entry| Some(entry.ok()?.path())));
            pending.extend(entries.into_iter().flatten());
        } else if path.extension().is_some_and(|ext| ext == "bpl") {
            files.push(path);
        }
    }
    files.retain(|path| {
        filters.is_empty() || filters.iter().any(|filter| path.to_string_lossy().contains(filter.as_str()))
    });
    files.sort();
    files
}

fn print_file_row(name: &str, result: &FileResult) {
    let c = &result.comparison;
    if !result.accepted || result.boogie_rejects.is_some() {
        let seedgen = result.refusal.as_deref().map_or("accepted".to_string(), |refusal| format!("refused: {refusal}"));
        let boogie = match (result.accepted, result.boogie_rejects.is_some()) {
            (true, _) => "Boogie 2.4.1 rejects it",
            (false, true) => "Boogie 2.4.1 rejects it too",
            (false, false) => "Boogie 2.4.1 accepts it",
        };
        println!("| {name} | {} ({boogie}) | | | | | | | |", seedgen.replace('|', "\\|"));
        return;
    }
    let goals = result.goals.as_ref().map_or_else(String::new, |goals| {
        format!(
            "{}/{} ({} unreachable, {} contradicted), {:.1}×",
            goals.covered_reachable,
            goals.boogie_reachable,
            goals.unreachable,
            goals.contradicted.len(),
            goals.seedgen_time.as_secs_f64() / goals.boogie_time.as_secs_f64().max(1e-3)
        )
    });
    println!(
        "| {name} | {}/{} | {}/{} | {}+{}/{} | {} | {} | {} | {} | {goals} |",
        c.agree,
        c.implementations - c.no_reference,
        c.seedgen_verified,
        c.boogie_verified,
        c.found,
        c.possible,
        c.boogie_errors,
        c.unsound,
        ms(result.boogie_time),
        ms(result.seedgen_time),
        result.crashes.len()
    );
}

fn file_json(file: &Path, result: &FileResult) -> Value {
    let c = &result.comparison;
    json!({
        "file": file.to_string_lossy(),
        "accepted": result.accepted,
        "boogie_rejects": result.boogie_rejects,
        "refusal": result.refusal,
        "crashes": result.crashes,
        "implementations": c.implementations,
        "agree": c.agree,
        "boogie_verified": c.boogie_verified,
        "seedgen_verified": c.seedgen_verified,
        "boogie_errors": c.boogie_errors,
        "found": c.found,
        "possible": c.possible,
        "unsound": c.unsound,
        "no_reference": c.no_reference,
        "disagreements": c.disagreements,
        "boogie_ms": result.boogie_time.as_millis() as u64,
        "seedgen_ms": result.seedgen_time.as_millis() as u64,
        "goals": result.goals.as_ref().map(|goals| json!({
            "goals": goals.goals,
            "boogie_reachable": goals.boogie_reachable,
            "covered": goals.covered,
            "covered_reachable": goals.covered_reachable,
            "unreachable": goals.unreachable,
            "contradicted": goals.contradicted,
            "boogie_ms": goals.boogie_time.as_millis() as u64,
            "seedgen_ms": goals.seedgen_time.as_millis() as u64,
        })),
    })
}

fn options() -> Result<Options, String> {
    let corpora = std::env::var_os("SEEDGEN_FRONTEND_CORPUS").ok_or(
        "SEEDGEN_FRONTEND_CORPUS is not set: name the front-end output to read (directories or files, `:`-separated)",
    )?;
    let mut options = Options {
        corpora: std::env::split_paths(&corpora).collect(),
        filters: Vec::new(),
        goals: false,
        details: false,
        verify_limit: Duration::from_secs(120),
        boogie_limit: 60,
        json: None,
        boogie: std::env::var_os("BOOGIE").map_or_else(|| PathBuf::from("boogie"), PathBuf::from),
        seedgen: PathBuf::from(env!("CARGO_BIN_EXE_seedgen")),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--files" => options.filters.push(value("--files")?),
            "--goals" => options.goals = true,
            "--details" => options.details = true,
            "--json" => options.json = Some(PathBuf::from(value("--json")?)),
            "--verify-limit" => {
                let seconds =
                    value("--verify-limit")?.parse::<f64>().map_err(|error| format!("--verify-limit: {error}"))?;
                options.verify_limit = Duration::from_secs_f64(seconds);
            }
            "--boogie-limit" => {
                options.boogie_limit =
                    value("--boogie-limit")?.parse().map_err(|error| format!("--boogie-limit: {error}"))?
            }
            // `cargo bench` passes `--bench`.
            "--bench" => {}
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    Ok(options)
}

fn main() {
    let options = match options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("frontends: {message}");
            std::process::exit(2);
        }
    };
    let scratch = tempfile::tempdir().expect("a temporary directory");
    let mut documents = Vec::new();
    let mut crashed = false;
    for corpus in &options.corpora {
        let label = corpus.file_name().map_or_else(|| corpus.to_string_lossy(), |name| name.to_string_lossy());
        let files = files_of(corpus, &options.filters);
        println!("## {label}: {} files", files.len());
        println!();
        println!("| file | agree | verified (seedgen/Boogie) | errors found+possible/Boogie | unsound | Boogie (ms) | seedgen (ms) | crashes | goals covered/Boogie-reachable |");
        println!("|---|---:|---:|---:|---:|---:|---:|---:|---|");
        let mut totals = Comparison::default();
        let mut results = Vec::new();
        for file in &files {
            let result = run_file(&options, file, scratch.path());
            print_file_row(&common::name(file), &result);
            add(&mut totals, &result.comparison);
            results.push((file.clone(), result));
        }
        println!();
        print_totals(&totals, &results);
        for (file, result) in &results {
            crashed |= !result.crashes.is_empty();
            for crash in &result.crashes {
                println!("CRASH {}: {crash}", file.display());
            }
            if options.details {
                for disagreement in &result.comparison.disagreements {
                    println!("  {}: {disagreement}", common::name(file));
                }
            }
            documents.push(file_json(file, result));
        }
        println!();
    }
    if let Some(path) = &options.json {
        let text = serde_json::to_string_pretty(&Value::Array(documents)).expect("JSON values serialize");
        std::fs::write(path, text).expect("the JSON report can be written");
    }
    std::process::exit(i32::from(crashed));
}

fn add(totals: &mut Comparison, comparison: &Comparison) {
    totals.implementations += comparison.implementations;
    totals.agree += comparison.agree;
    totals.boogie_verified += comparison.boogie_verified;
    totals.seedgen_verified += comparison.seedgen_verified;
    totals.boogie_errors += comparison.boogie_errors;
    totals.found += comparison.found;
    totals.possible += comparison.possible;
    totals.unsound += comparison.unsound;
    totals.no_reference += comparison.no_reference;
}

fn print_totals(totals: &Comparison, results: &[(PathBuf, FileResult)]) {
    let accepted = results.iter().filter(|(_, result)| result.accepted).count();
    let both_reject = results.iter().filter(|(_, result)| !result.accepted && result.boogie_rejects.is_some()).count();
    let boogie_accepts = results.iter().filter(|(_, result)| result.boogie_rejects.is_none()).count();
    let crashes: usize = results.iter().map(|(_, result)| result.crashes.len()).sum();
    println!(
        "accepted {accepted}/{} (Boogie 2.4.1 accepts {boogie_accepts}; both reject {both_reject}); implementations agreeing with Boogie {}/{} ({} with no Boogie verdict); verified {} \
         (Boogie {}); Boogie's errors found {} + possible {} of {}; unsound {}; crashes {crashes}",
        results.len(),
        totals.agree,
        totals.implementations - totals.no_reference,
        totals.no_reference,
        totals.seedgen_verified,
        totals.boogie_verified,
        totals.found,
        totals.possible,
        totals.boogie_errors,
        totals.unsound
    );
    let goals: Vec<&Goals> = results.iter().filter_map(|(_, result)| result.goals.as_ref()).collect();
    if !goals.is_empty() {
        let sum = |measure: fn(&Goals) -> usize| goals.iter().map(|goals| measure(goals)).sum::<usize>();
        let time = |measure: fn(&Goals) -> Duration| goals.iter().map(|goals| measure(goals)).sum::<Duration>();
        println!(
            "goals: {} of Boogie's {} reachable covered ({} covered in all, {} unreachable, {} contradicted) of {}; \
             time {} vs Boogie {}",
            sum(|goals| goals.covered_reachable),
            sum(|goals| goals.boogie_reachable),
            sum(|goals| goals.covered),
            sum(|goals| goals.unreachable),
            sum(|goals| goals.contradicted.len()),
            sum(|goals| goals.goals),
            ms(time(|goals| goals.seedgen_time)),
            ms(time(|goals| goals.boogie_time))
        );
    }
}
