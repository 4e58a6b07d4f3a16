//! Reports of a generation run: the per-procedure summary, human or JSON
//! (DESIGN.md §4), the goal diagnostics editors show at their spans, and the suite's
//! findings ([`findings`]: its tests that violate a contract).
//!
//! Input: one [`ProcedureReport`] per implementation, made from its generation run or
//! read back from the cache (`crate::cache`); nothing here looks at a run's internals,
//! so both sources give the same reports.

pub mod findings;

use crate::diag::Diagnostic;
use crate::gen::enumerate::{GoalStatus, NotCovered};
use crate::gen::ImplementationRun;
use crate::regress::carry::CarriedSuite;
use crate::regress::render;
use crate::source::{SourceDb, Span};
use crate::suite::json;
use findings::Finding;
use serde::{Deserialize, Serialize};

/// What a `prove-tests` run says about one implementation: its section of the suite,
/// where its goals are, and its counts.
#[derive(Clone, Debug)]
pub struct ProcedureReport {
    pub suite: json::Procedure,
    /// The span of each goal of `suite.goals`, in order.
    pub goal_spans: Vec<Span>,
    pub counts: Counts,
    /// Read from the cache rather than generated in this run.
    pub cached: bool,
    /// The solver gave up on some goal: another run may get further, so the result is
    /// not worth keeping.
    pub timed_out: bool,
}

impl ProcedureReport {
    /// The report of a finished run; `suite` is its section of the suite.
    pub fn of(run: &ImplementationRun, suite: json::Procedure) -> ProcedureReport {
        // A goal the solver gave up on (a timeout, a resource limit, the run's time
        // limit: z3 4.8.12 reports the first as "canceled", like the second) may be
        // decided by another run: such a result is not kept.
        let counts = Counts::of(run);
        let timed_out = counts.undecided > 0;
        ProcedureReport {
            suite,
            goal_spans: run.goals().iter().map(|goal| goal.span).collect(),
            counts,
            cached: false,
            timed_out,
        }
    }

    /// The report with `kept` passing and `regressions` failing tests of an existing
    /// suite written into its section beside the new ones (`--existing`).
    pub fn carrying(mut self, (kept, regressions): (usize, usize)) -> ProcedureReport {
        self.counts.tests += kept + regressions;
        self.counts.tests_kept = kept + regressions;
        self.counts.regressions = regressions;
        self
    }
}

/// The counts of one procedure, or of the whole run.
#[derive(Serialize, Deserialize, Debug, Default, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
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
    #[serde(default, skip_serializing_if = "is_zero")]
    pub undecided: usize,
    /// The tests written to the suite.
    pub tests: usize,
    /// The new tests generation kept before the suite reduction dropped those
    /// whose goals other tests enter too.
    pub tests_generated: usize,
    /// Tests carried over from the existing suite (`--existing`): passing ones kept and
    /// failing ones (`regressions`), both written unchanged.
    pub tests_kept: usize,
    pub regressions: usize,
    /// Tests of the suite whose runs violate a contract ([`findings`]). Counted from
    /// the written suite by [`Summary::with_findings`], never by a report: a cache
    /// entry's counts leave it out.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub findings: usize,
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
            undecided: count(|status| matches!(status, GoalStatus::NotCovered { reason: NotCovered::Unknown(_) })),
            tests: run.enumeration.candidates.len(),
            tests_generated: run.generated_tests,
            tests_kept: 0,
            regressions: 0,
            findings: 0,
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
        self.tests_generated += other.tests_generated;
        self.tests_kept += other.tests_kept;
        self.regressions += other.regressions;
        self.findings += other.findings;
        self.checks += other.checks;
        self.time_ms += other.time_ms;
    }
}

/// `prove-tests --format json`: `{"procedures": [...], "totals": {...}}`, with
/// `--existing` the `"regressions"` when there are any, and the `"findings"` when there
/// are any.
#[derive(Serialize, Debug)]
pub struct Summary {
    pub procedures: Vec<ProcedureSummary>,
    pub totals: Counts,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub regressions: Vec<Regression>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<FindingSummary>,
}

/// A test of the suite whose run violates a contract ([`findings`]).
#[derive(Serialize, Debug)]
pub struct FindingSummary {
    pub id: String,
    pub procedure: String,
    /// What the run violated: "postcondition `y >= 0` of `Abs` violated".
    pub message: String,
    /// The violated clause.
    pub span: json::Position,
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
    /// Read from the cache: `checks` are those of the run that made it, `time_ms` what
    /// reading it took.
    #[serde(skip_serializing_if = "is_false")]
    pub cached: bool,
}

fn is_false(value: &bool) -> bool {
    !value
}

/// The summary of `reports`; with `--existing`, `carried` is the existing suite run
/// (each report's counts already include its carried tests, [`ProcedureReport::carrying`])
/// and its regressions are listed one by one.
pub fn summarize(reports: &[ProcedureReport], carried: &CarriedSuite) -> Summary {
    let procedures: Vec<ProcedureSummary> = reports
        .iter()
        .map(|report| ProcedureSummary {
            name: report.suite.name.clone(),
            counts: report.counts.clone(),
            cached: report.cached,
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
    Summary { procedures, totals, regressions, findings: Vec::new() }
}

impl Summary {
    /// The summary with `findings`, those of the suite written, counted per procedure and
    /// in total, and listed.
    pub fn with_findings(mut self, db: &SourceDb, findings: &[Finding]) -> Summary {
        for procedure in &mut self.procedures {
            procedure.counts.findings = findings.iter().filter(|finding| finding.procedure == procedure.name).count();
        }
        self.totals.findings = findings.len();
        self.findings = findings
            .iter()
            .map(|finding| FindingSummary {
                id: finding.id.clone(),
                procedure: finding.procedure.clone(),
                message: finding.message.clone(),
                span: crate::suite::position(db, finding.span),
            })
            .collect();
        self
    }

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
            let cached = if procedure.cached { " (cached)" } else { "" };
            let findings = findings_note(&procedure.counts);
            out.push_str(&format!("{:<width$}  {}{cached}{findings}\n", procedure.name, line(&procedure.counts)));
        }
        let findings = findings_note(&self.totals);
        out.push_str(&format!("{:<width$}  {}{findings}\n", "total", line(&self.totals)));
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
        "{}; {}{}, {}, {} ms",
        parts.join(", "),
        plural(counts.tests, "test", "tests"),
        test_origins(counts),
        plural(checks, "check", "checks"),
        counts.time_ms
    )
}

/// `; 1 finding: a test violates a contract`, after a line's counts; empty without
/// findings.
fn findings_note(counts: &Counts) -> String {
    match counts.findings {
        0 => String::new(),
        1 => "; 1 finding: a test violates a contract".to_string(),
        many => format!("; {many} findings: tests violate contracts"),
    }
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

/// A goal neither covered nor proved unreachable: what the coverage gate
/// (`prove-tests --require-coverage`) lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gap {
    pub span: Span,
    pub id: String,
    pub reason: String,
}

/// The goals of `reports` neither covered nor proved unreachable, in program order. Read
/// off the suite's goals, so a cached report gives the same list as a fresh one.
pub fn gaps(reports: &[ProcedureReport]) -> Vec<Gap> {
    let goals = reports.iter().flat_map(|report| report.suite.goals.iter().zip(&report.goal_spans));
    goals
        .filter(|(goal, _)| goal.status == "not_covered")
        .map(|(goal, &span)| Gap { span, id: goal.id.clone(), reason: goal.reason.clone().unwrap_or_default() })
        .collect()
}

/// Warnings at the spans of goals that are dead or not covered, for editors. Read off
/// the suite's goals (`status`, `reason`), so a cached report warns as a fresh one does.
pub fn goal_diagnostics(reports: &[ProcedureReport]) -> Vec<Diagnostic> {
    reports
        .iter()
        .flat_map(|report| report.suite.goals.iter().zip(&report.goal_spans))
        .filter_map(|(goal, &span)| goal_diagnostic(goal, span))
        .collect()
}

/// The warning at `span` when `goal` is dead or not covered.
pub fn goal_diagnostic(goal: &json::Goal, span: Span) -> Option<Diagnostic> {
    match (goal.status.as_str(), &goal.reason) {
        ("unreachable", _) => Some(
            Diagnostic::warning(format!("unreachable code: goal `{}` can never execute", goal.id))
                .with_primary(span, "no execution reaches this branch")
                .with_note("proved by the solver over an over-approximation of the program"),
        ),
        ("not_covered", reason) => Some(
            Diagnostic::warning(format!("goal `{}` is not covered", goal.id))
                .with_primary(span, "no test reaches this branch")
                .with_note(reason.clone().unwrap_or_default()),
        ),
        // Covered: by a new test, or by one kept from an existing suite
        // (`GoalStatus::Kept`, written as `covered`).
        _ => None,
    }
}
