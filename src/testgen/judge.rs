//! Boogie as the judge of reachability: for a generated program without loops,
//! quantifiers or calls, Boogie on `seedgen seed --goals all` output decides which goals
//! are reachable exactly (one error per reachable seed). Every goal Boogie reaches must
//! be covered by `prove-tests --goals all`, and every goal seedgen covers must be one
//! Boogie reaches (a replayed run is an execution; a goal covered that Boogie calls dead
//! is a disagreement of semantics). Boogie is never a dependency of seedgen: the judge
//! runs the binary the caller names (`BOOGIE`, default `boogie`), and says so when it
//! cannot.

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

/// Judges `case` with the Boogie binary `boogie`; the first disagreement, described.
pub fn judge(case: &Case, boogie: &Path) -> Result<Judged, String> {
    let source = &case.source;
    if source.contains("while") || source.contains("forall") || source.contains("exists") {
        return Ok(Judged::Outside("a loop or a quantifier"));
    }
    if source.contains("call ") {
        return Ok(Judged::Outside("a call (Boogie would use the callee's contract)"));
    }
    let seeded = seed(case)?;
    let Some(reached) = boogie_reaches(&seeded, boogie)? else { return Ok(Judged::Outside("Boogie did not decide")) };
    let suite: json::Suite = serde_json::from_str(&prove_tests(case, GoalSelection::All)?)
        .map_err(|error| format!("the suite is not JSON: {error}"))?;
    let goals: Vec<&json::Goal> = suite.procedures.iter().flat_map(|procedure| &procedure.goals).collect();
    for goal in &goals {
        let reachable = reached.contains(&goal.id);
        match (goal.status.as_str(), reachable) {
            ("covered", true) | ("unreachable", false) => {}
            (status, true) => return Err(format!("Boogie reaches `{}`, seedgen says {status}", goal.id)),
            (status, false) => return Err(format!("Boogie calls `{}` unreachable, seedgen says {status}", goal.id)),
        }
    }
    if let Some(unknown) = reached.iter().find(|id| goals.iter().all(|goal| goal.id != **id)) {
        return Err(format!("Boogie reaches `{unknown}`, which the suite does not list"));
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
        goals: GoalSelection::All,
        unroll: 0,
        unroll_goals: Default::default(),
        mutant: None,
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
        .args(["/errorLimit:100000", "/timeLimit:60", "/nologo"])
        .output()
        .map_err(|error| format!("cannot run `{}`: {error}", boogie.display()))?;
    let stdout = String::from_utf8_lossy(&run.stdout);
    if stdout.contains("inconclusive") || stdout.contains("time out") || stdout.contains("out of memory") {
        return Ok(None);
    }
    if !stdout.contains("Boogie program verifier finished") {
        return Err(format!("Boogie did not finish:\n{stdout}{}", String::from_utf8_lossy(&run.stderr)));
    }
    let lines: Vec<&str> = seeded.lines().collect();
    let mut reached = BTreeSet::new();
    for error in stdout.lines().filter(|line| line.contains("Error BP5001")) {
        let line = error_line(error).ok_or_else(|| format!("an error without a line: {error}"))?;
        // Errors at the program's own assertions say nothing of the seeds.
        if lines.get(line - 1).is_some_and(|text| text.trim() == "assert false;") {
            reached.insert(goal_at(&lines, line - 1).ok_or_else(|| format!("no goal above line {line}"))?);
        }
    }
    Ok(Some(reached))
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
