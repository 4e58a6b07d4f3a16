//! Reports of a generation run: the per-procedure summary, human or JSON
//! (DESIGN.md §4), and the goal diagnostics editors show at their spans.

use crate::diag::Diagnostic;
use crate::gen::enumerate::{GoalStatus, NotCovered};
use crate::gen::ImplementationRun;
use crate::regress::carry::CarriedSuite;
use crate::regress::render;
use serde::Serialize;

/// The counts of one procedure, or of the whole run.
#[derive(Serialize, Debug, Default, Clone, PartialEq, Eq)]
pub struct Counts {
    pub goals: usize,
    /// Entered by the replay of a test.
    pub covered: usize,
    pub unreachable: usize,
    pub not_covered: usize,
    /// Of the goals not covered, those a solver model reached but its replay did not.
    pub replay_missed: usize,
    /// The tests written to the suite.
    pub tests: usize,
    /// The new tests generation kept before the suite reduction (issue 6) dropped those
    /// whose goals other tests enter too.
    pub tests_generated: usize,
    /// Tests carried over from the existing suite (`--existing`): passing ones kept and
    /// failing ones (`regressions`), both written unchanged.
    pub tests_kept: usize,
    pub regressions: usize,
    pub checks: u32,
    pub time_ms: u64,
}

impl Counts {
    pub fn of(run: &ImplementationRun) -> Counts {
        let status = &run.enumeration.status;
        let count = |matches: fn(&GoalStatus) -> bool| status.iter().filter(|status| matches(status)).count();
        Counts {
            goals: status.len(),
            covered: count(|status| matches!(status, GoalStatus::Covered { .. } | GoalStatus::Kept)),
            unreachable: count(|status| matches!(status, GoalStatus::Unreachable)),
            not_covered: count(|status| matches!(status, GoalStatus::NotCovered { .. })),
            replay_missed: count(|status| {
                matches!(
                    status,
                    GoalStatus::NotCovered { reason: NotCovered::ReplayMissed(_) | NotCovered::BeyondBound { .. } }
                )
            }),
            tests: run.enumeration.candidates.len(),
            tests_generated: run.generated_tests,
            tests_kept: 0,
            regressions: 0,
            checks: run.enumeration.checks,
            time_ms: u64::try_from(run.time.as_millis()).unwrap_or(u64::MAX),
        }
    }

    fn add(&mut self, other: &Counts) {
        self.goals += other.goals;
        self.covered += other.covered;
        self.unreachable += other.unreachable;
        self.not_covered += other.not_covered;
        self.replay_missed += other.replay_missed;
        self.tests += other.tests;
        self.tests_generated += other.tests_generated;
        self.tests_kept += other.tests_kept;
        self.regressions += other.regressions;
        self.checks += other.checks;
        self.time_ms += other.time_ms;
    }
}

/// `prove-tests --format json`: `{"procedures": [...], "totals": {...}}`, and with
/// `--existing` the `"regressions"` when there are any.
#[derive(Serialize, Debug)]
pub struct Summary {
    pub procedures: Vec<ProcedureSummary>,
    pub totals: Counts,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub regressions: Vec<Regression>,
}

/// A test of the existing suite that no longer passes (`--existing`).
#[derive(Serialize, Debug)]
pub struct Regression {
    pub id: String,
    pub procedure: String,
    /// `fail`, `invalid` or `error`, as `run-tests` says.
    pub verdict: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

#[derive(Serialize, Debug)]
pub struct ProcedureSummary {
    pub name: String,
    #[serde(flatten)]
    pub counts: Counts,
}

pub fn summarize(runs: &[ImplementationRun]) -> Summary {
    summarize_carrying(runs, &CarriedSuite::default())
}

/// [`summarize`] for a regeneration from an existing suite (`--existing`): each
/// procedure's tests of `carried` that pass (kept) and fail (regressions) are written
/// with the new ones; the regressions are also listed one by one.
pub fn summarize_carrying(runs: &[ImplementationRun], carried: &CarriedSuite) -> Summary {
    let procedures: Vec<ProcedureSummary> = runs
        .iter()
        .map(|run| {
            let (kept, regressions) = carried.counts(&run.name);
            let mut counts = Counts::of(run);
            counts.tests += kept + regressions;
            counts.tests_kept = kept + regressions;
            counts.regressions = regressions;
            ProcedureSummary { name: run.name.clone(), counts }
        })
        .collect();
    let mut totals = Counts::default();
    procedures.iter().for_each(|procedure| totals.add(&procedure.counts));
    let regressions = carried
        .regressions
        .iter()
        .map(|result| Regression {
            id: result.id.clone(),
            procedure: result.procedure.clone(),
            verdict: render::label(&result.verdict),
            message: render::details(&result.verdict).map(|(message, _)| message.to_string()),
        })
        .collect();
    Summary { procedures, totals, regressions }
}

impl Summary {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("summaries serialize to JSON")
    }

    /// One line per procedure and a total, aligned.
    pub fn to_human(&self) -> String {
        let width = self.procedures.iter().map(|procedure| procedure.name.len()).max().unwrap_or(0).max(5);
        let mut out = String::new();
        for procedure in &self.procedures {
            out.push_str(&format!("{:<width$}  {}\n", procedure.name, line(&procedure.counts)));
        }
        out.push_str(&format!("{:<width$}  {}\n", "total", line(&self.totals)));
        out
    }
}

fn plural(count: usize, noun: &str, nouns: &str) -> String {
    format!("{count} {}", if count == 1 { noun } else { nouns })
}

fn line(counts: &Counts) -> String {
    let mut parts = vec![plural(counts.goals, "goal", "goals"), format!("{} covered", counts.covered)];
    parts.push(format!("{} unreachable", counts.unreachable));
    parts.push(if counts.replay_missed > 0 {
        format!("{} not covered ({} missed by replay)", counts.not_covered, counts.replay_missed)
    } else {
        format!("{} not covered", counts.not_covered)
    });
    let checks = usize::try_from(counts.checks).unwrap_or(usize::MAX);
    format!(
        "{}; {}{}, {}, {} ms",
        parts.join(", "),
        plural(counts.tests, "test", "tests"),
        test_origins(counts),
        plural(checks, "check", "checks"),
        counts.time_ms
    )
}

/// Where the tests came from, when not simply generated: ` (2 kept, 1 regression, 1
/// new of 3 generated)`; empty when every generated test was kept and none was carried.
fn test_origins(counts: &Counts) -> String {
    let new = counts.tests - counts.tests_kept;
    let mut parts = Vec::new();
    if counts.tests_kept > 0 {
        parts.push(format!("{} kept", counts.tests_kept - counts.regressions));
        if counts.regressions > 0 {
            parts.push(plural(counts.regressions, "regression", "regressions"));
        }
    }
    match (counts.tests_generated == new, parts.is_empty()) {
        (true, true) => return String::new(),
        (true, false) => parts.push(format!("{new} new")),
        (false, _) => parts.push(format!("{new} of {} generated", counts.tests_generated)),
    }
    format!(" ({})", parts.join(", "))
}

/// Warnings at the spans of goals that are dead or not covered, for editors.
pub fn goal_diagnostics(runs: &[ImplementationRun]) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for run in runs {
        for (goal, status) in run.goals().iter().zip(&run.enumeration.status) {
            match status {
                GoalStatus::Unreachable => diagnostics.push(
                    Diagnostic::warning(format!("unreachable code: goal `{}` can never execute", goal.id))
                        .with_primary(goal.span, "no execution reaches this branch")
                        .with_note("proved by the solver over an over-approximation of the program"),
                ),
                GoalStatus::NotCovered { reason } => diagnostics.push(
                    Diagnostic::warning(format!("goal `{}` is not covered", goal.id))
                        .with_primary(goal.span, "no test reaches this branch")
                        .with_note(reason.describe()),
                ),
                GoalStatus::Covered { .. } | GoalStatus::Kept => {}
            }
        }
    }
    diagnostics
}
