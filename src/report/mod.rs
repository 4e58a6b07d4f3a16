//! Reports of a generation run: the per-procedure summary, human or JSON
//! (DESIGN.md §4), and the goal diagnostics editors show at their spans.

use crate::diag::Diagnostic;
use crate::gen::enumerate::{GoalStatus, NotCovered};
use crate::gen::ImplementationRun;
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
    /// Of the goals not covered, those the solver gave up on (a timeout, a resource
    /// limit, the run's time limit): the run is incomplete (exit status 3).
    #[serde(skip_serializing_if = "is_zero")]
    pub undecided: usize,
    pub tests: usize,
    pub checks: u32,
    pub time_ms: u64,
}

impl Counts {
    pub fn of(run: &ImplementationRun) -> Counts {
        let status = &run.enumeration.status;
        let count = |matches: fn(&GoalStatus) -> bool| status.iter().filter(|status| matches(status)).count();
        Counts {
            goals: status.len(),
            covered: count(|status| matches!(status, GoalStatus::Covered { .. })),
            unreachable: count(|status| matches!(status, GoalStatus::Unreachable)),
            not_covered: count(|status| matches!(status, GoalStatus::NotCovered { .. })),
            replay_missed: count(|status| {
                matches!(
                    status,
                    GoalStatus::NotCovered { reason: NotCovered::ReplayMissed(_) | NotCovered::BeyondBound { .. } }
                )
            }),
            undecided: count(|status| matches!(status, GoalStatus::NotCovered { reason: NotCovered::Unknown(_) })),
            tests: run.enumeration.candidates.len(),
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
        self.undecided += other.undecided;
        self.tests += other.tests;
        self.checks += other.checks;
        self.time_ms += other.time_ms;
    }
}

/// `prove-tests --format json`: `{"procedures": [...], "totals": {...}}`.
#[derive(Serialize, Debug)]
pub struct Summary {
    pub procedures: Vec<ProcedureSummary>,
    pub totals: Counts,
}

#[derive(Serialize, Debug)]
pub struct ProcedureSummary {
    pub name: String,
    #[serde(flatten)]
    pub counts: Counts,
}

pub fn summarize(runs: &[ImplementationRun]) -> Summary {
    let procedures: Vec<ProcedureSummary> =
        runs.iter().map(|run| ProcedureSummary { name: run.name.clone(), counts: Counts::of(run) }).collect();
    let mut totals = Counts::default();
    procedures.iter().for_each(|procedure| totals.add(&procedure.counts));
    Summary { procedures, totals }
}

impl Summary {
    /// Goals the solver gave up on: the run established less than it was asked to.
    pub fn undecided(&self) -> usize {
        self.totals.undecided
    }

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

fn is_zero(count: &usize) -> bool {
    *count == 0
}

fn plural(count: usize, noun: &str, nouns: &str) -> String {
    format!("{count} {}", if count == 1 { noun } else { nouns })
}

fn line(counts: &Counts) -> String {
    let mut parts = vec![plural(counts.goals, "goal", "goals"), format!("{} covered", counts.covered)];
    parts.push(format!("{} unreachable", counts.unreachable));
    let mut why = Vec::new();
    if counts.replay_missed > 0 {
        why.push(format!("{} missed by replay", counts.replay_missed));
    }
    if counts.undecided > 0 {
        why.push(format!("{} undecided", counts.undecided));
    }
    parts.push(if why.is_empty() {
        format!("{} not covered", counts.not_covered)
    } else {
        format!("{} not covered ({})", counts.not_covered, why.join(", "))
    });
    let checks = usize::try_from(counts.checks).unwrap_or(usize::MAX);
    format!(
        "{}; {}, {}, {} ms",
        parts.join(", "),
        plural(counts.tests, "test", "tests"),
        plural(checks, "check", "checks"),
        counts.time_ms
    )
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
                GoalStatus::Covered { .. } => {}
            }
        }
    }
    diagnostics
}
