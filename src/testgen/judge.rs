//! Boogie as the judge of reachability, on `seedgen seed --goals all` output (one error
//! per seed Boogie finds reachable) beside `prove-tests --goals all`:
//!
//! - every goal seedgen covers must be one Boogie reaches: a replayed run is an
//!   execution, and Boogie's abstractions of loops and calls only add executions;
//! - where Boogie is exact (no loops, no quantifiers, calls only to procedures without
//!   a body, whose results are the test's choices as they are Boogie's), every goal
//!   Boogie reaches must be covered;
//! - where seedgen's encoding abstracts as Boogie's does (no quantifiers, on which
//!   Boogie's errors may be spurious; calls by contract; loops by their invariants),
//!   no goal seedgen proves unreachable may be one Boogie reaches.
//!
//! Boogie is never a dependency of seedgen: the judge runs the binary the caller names
//! (`BOOGIE`, default `boogie`), and says so when it cannot.

use super::oracle::{prove_tests, quiet_output};
use super::Case;
use crate::config::SeedConfig;
use crate::driver::{self, Outcome, Streams};
use crate::seed::goals::GoalSelection;
use crate::suite::json;
use codespan_reporting::term::termcolor::NoColor;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// What judging a case came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judged {
    /// Boogie and the suite agree on every goal (how many goals, how many reachable).
    Agree { goals: usize, reachable: usize },
    /// The case is outside what Boogie decides exactly here (the reason).
    Outside(&'static str),
}

/// How far Boogie's verdict on a case binds seedgen's (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exactness {
    /// Every goal Boogie reaches is reachable: it must be covered.
    pub reaches_exactly: bool,
    /// seedgen's encoding abstracts as Boogie's does: a goal it proves unreachable may
    /// not be one Boogie reaches.
    pub same_abstraction: bool,
}

impl Exactness {
    /// What `case` allows, read off its text (the generator's programs: procedures
    /// `P0`… with bodies, `Ext` without).
    pub fn of(case: &Case) -> Exactness {
        let source = &case.source;
        let loops = source.contains("while");
        let quantifiers = source.contains("forall") || source.contains("exists");
        let calls_with_body = source.contains(":= P");
        Exactness {
            reaches_exactly: !loops && !quantifiers && !calls_with_body,
            same_abstraction: !quantifiers && (case.inline_depth == 0 || !calls_with_body),
        }
    }
}

/// Judges `case` with the Boogie binary `boogie`; the first disagreement, described.
/// Loops are judged as Boogie sees them, by their invariants (`--unroll 0`, where
/// seedgen's exact retries still unroll them): the goals of an unrolled run (merged over
/// outer iterations) are not those of the seeded program.
pub fn judge(case: &Case, boogie: &Path) -> Result<Judged, String> {
    let case = &Case { unroll: 0, ..case.clone() };
    let exactness = Exactness::of(case);
    let seeded = seed(case)?;
    let Some(reached) = boogie_reaches(&seeded, boogie)? else { return Ok(Judged::Outside("Boogie did not decide")) };
    let suite: json::Suite = serde_json::from_str(&prove_tests(case, GoalSelection::All)?)
        .map_err(|error| format!("the suite is not JSON: {error}"))?;
    let goals: Vec<&json::Goal> = suite.procedures.iter().flat_map(|procedure| &procedure.goals).collect();
    for goal in &goals {
        let reachable = reached.contains(&goal.id);
        match (goal.status.as_str(), reachable) {
            ("covered", true) | ("unreachable", false) => {}
            ("covered", false) => match reached_alone(&seeded, &goal.id, boogie)? {
                None => return Ok(Judged::Outside("Boogie did not decide")),
                Some(true) => {}
                Some(false) => return Err(format!("Boogie calls `{}` unreachable, seedgen covers it", goal.id)),
            },
            ("unreachable", true) if exactness.same_abstraction => {
                return Err(format!("Boogie reaches `{}`, seedgen proves it unreachable", goal.id))
            }
            (status, true) if exactness.reaches_exactly => {
                return Err(format!("Boogie reaches `{}`, seedgen says {status}", goal.id))
            }
            _ => {}
        }
    }
    if let Some(unknown) = reached.iter().find(|id| goals.iter().all(|goal| goal.id != **id)) {
        return Err(format!("Boogie reaches `{unknown}`, which the suite does not list"));
    }
    if !exactness.reaches_exactly && !exactness.same_abstraction {
        return Ok(Judged::Outside("a quantifier beside a loop or a call"));
    }
    Ok(Judged::Agree { goals: goals.len(), reachable: reached.len() })
}

/// `seedgen seed --goals all` of the case, in-process.
fn seed(case: &Case) -> Result<String, String> {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("case.bpl");
    std::fs::write(&file, &case.source).expect("a writable temporary directory");
    let config = SeedConfig {
        file,
        language: Default::default(),
        goals: GoalSelection::All,
        unroll: 0,
        unroll_goals: Default::default(),
        mutant: None,
        guarded: false,
        rejoined: false,
        inline_depth: 1,
    };
    let output = quiet_output();
    let (mut out, mut err) = (Vec::new(), NoColor::new(Vec::new()));
    let outcome = driver::run_seed(&config, &output, &mut Streams { out: &mut out, err: &mut err })
        .expect("writing to memory cannot fail");
    if outcome != Outcome::Success {
        return Err(format!("seed ended {outcome:?}: {}", String::from_utf8_lossy(err.get_ref())));
    }
    String::from_utf8(out).map_err(|error| format!("seed wrote no UTF-8: {error}"))
}

/// The goals (`Implementation/path`) whose seed Boogie reports reachable in `seeded`;
/// `None` when Boogie gave up on some (a timeout, an inconclusive answer).
fn boogie_reaches(seeded: &str, boogie: &Path) -> Result<Option<BTreeSet<String>>, String> {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("seeded.bpl");
    std::fs::write(&file, seeded).expect("a writable temporary directory");
    let run = Command::new(boogie)
        .arg(&file)
        .args(["/errorLimit:100000", "/timeLimit:60", "/nologo", "/trace"])
        .output()
        .map_err(|error| format!("cannot run `{}`: {error}", boogie.display()))?;
    let stdout = String::from_utf8_lossy(&run.stdout);
    if stdout.contains("inconclusive") || stdout.contains("time out") || stdout.contains("out of memory") {
        return Ok(None);
    }
    if !stdout.contains("Boogie program verifier finished") {
        return Err(format!("Boogie did not finish:\n{stdout}{}", String::from_utf8_lossy(&run.stderr)));
    }
    if errors_unreported(&stdout) {
        return Ok(None);
    }
    let lines: Vec<&str> = seeded.lines().collect();
    let mut reached = BTreeSet::new();
    for error in stdout.lines().filter(|line| line.contains("Error BP5001")) {
        let line = error_line(error).ok_or_else(|| format!("an error without a line: {error}"))?;
        // Errors at the program's own assertions say nothing of the seeds.
        if is_seed(&lines, line - 1) {
            reached.insert(goal_at(&lines, line - 1).ok_or_else(|| format!("no goal above line {line}"))?);
        }
    }
    Ok(Some(reached))
}

/// Whether Boogie reaches `goal` in `seeded` with every other seed made `assert true`.
/// Boogie 2.4.1 was seen to report one error where a seed inside a loop's body and one
/// at its exit are both reachable (seedgen's unstructured form of the loop; the exit's
/// error comes when it is the only seed), so a goal Boogie did not report is asked alone
/// before it counts as a disagreement.
fn reached_alone(seeded: &str, goal: &str, boogie: &Path) -> Result<Option<bool>, String> {
    let lines: Vec<&str> = seeded.lines().collect();
    let alone: Vec<String> = (0..lines.len())
        .map(|index| match is_seed(&lines, index) && goal_at(&lines, index).as_deref() != Some(goal) {
            true => lines[index].replace("assert false;", "assert true;"),
            false => lines[index].to_string(),
        })
        .collect();
    Ok(boogie_reaches(&alone.join("\n"), boogie)?.map(|reached| reached.contains(goal)))
}

/// Whether Boogie's `/trace` output says of some implementation that it has errors
/// without reporting any: Boogie 2.4.1 with z3 4.8.12 was seen to end so (`[0.037 s, 4
/// proof obligations]  errors` and no error line), where it cannot say which seeds it
/// reached.
fn errors_unreported(stdout: &str) -> bool {
    let mut pending = false;
    for line in stdout.lines() {
        if line.starts_with("Verifying ") || line.contains("verifier finished") {
            if pending {
                return true;
            }
        } else if line.trim_start().starts_with('[') && line.trim_end().trim_end_matches('s').ends_with("error") {
            pending = true;
        } else if line.contains("Error BP5001") {
            pending = false;
        }
    }
    false
}

/// Whether line `index` is a seed's `assert false` (inside `if (bn == K)`, or after the
/// label `seedK:` of a goal of several blocks), not one of the program's own (an
/// invariant `false`).
fn is_seed(lines: &[&str], index: usize) -> bool {
    let above = if index > 0 { lines[index - 1].trim() } else { "" };
    let guarded = above.starts_with("if (bn == ") || (above.starts_with("seed") && above.ends_with(':'));
    guarded && lines.get(index).is_some_and(|line| line.trim() == "assert false;")
}

/// The line of a Boogie error `file(LINE,COL): Error …` (1-based).
fn error_line(error: &str) -> Option<usize> {
    let (_, after) = error.split_once(".bpl(")?;
    after.split_once(',')?.0.parse().ok().filter(|&line| line > 0)
}

/// The goal whose seed is the `assert false` at `index`: the block comment above it (the
/// goal's path) in the implementation above that.
fn goal_at(lines: &[&str], index: usize) -> Option<String> {
    let above = lines[..index].iter().rev();
    let path = above.clone().find_map(|line| line.trim_start().strip_prefix("// "))?;
    let implementation = above.clone().find_map(|line| line.strip_prefix("implementation "))?;
    let name = implementation.split('(').next()?.trim();
    Some(format!("{name}/{}", path.trim_end_matches(" (continued)")))
}
