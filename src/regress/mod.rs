//! Running a suite against the current program (`seedgen run-tests`, DESIGN.md §4):
//! every loaded test replayed strictly, its run compared with the recorded
//! expectation, and the coverage of the program by the whole suite.
//!
//! Input: the [`LoadedTest`]s of [`crate::suite::load`] and the lowered program.
//! Output: a [`SuiteRun`]; [`render`] turns it into human, JSON, JUnit and LCOV text.

pub mod carry;
pub mod render;

use crate::cfg::cut::cut_loops;
use crate::cfg::unroll::{unroll_loops, Unrolled};
use crate::cfg::BlockId;
use crate::cfg::Cfg;
use crate::interp::{Coverage, Limits, Machine, Outcome, Replay, TraceMode};
use crate::seed::goals::{goals_counted, Goal, GoalId};
use crate::sema::hir;
use crate::source::Span;
use crate::suite::json;
use crate::suite::load::LoadedTest;
use crate::suite::value::to_json;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

/// How one test went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Pass,
    /// The run differs from the recording: a check fails, an output changed, the run
    /// is no longer feasible. `span` points at the clause or command.
    Fail {
        message: String,
        span: Option<Span>,
    },
    /// The test no longer fits the program: its precondition is false on its inputs,
    /// or the procedure's signature changed.
    Invalid {
        message: String,
        span: Option<Span>,
    },
    /// The test cannot be run as written: its trace does not fit, or the interpreter
    /// cannot evaluate what it meets.
    Error {
        message: String,
        span: Option<Span>,
    },
}

/// A recorded failure a test's run fails again, the same way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reproduced {
    /// "postcondition `y >= 0` of `Abs` violated".
    pub message: String,
    /// The violated clause.
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct TestResult {
    pub id: String,
    /// The implementation the test exercises.
    pub procedure: String,
    pub verdict: Verdict,
    /// For a passing test recorded `fail`: the failure its run reproduced. The test
    /// passes (the program behaves as recorded), yet the program violates a contract,
    /// which a bare "pass" would hide.
    pub reproduced: Option<Reproduced>,
    /// The goals of its own implementation its run entered (as `prove-tests` counts a
    /// test's `covers`); empty for a test that could not run.
    pub entered: Vec<GoalId>,
    pub time: Duration,
}

/// One goal of the current program and whether the suite's runs entered it.
#[derive(Clone, Debug)]
pub struct GoalCoverage {
    pub goal: Goal,
    pub covered: bool,
}

#[derive(Clone, Debug)]
pub struct SuiteRun {
    pub results: Vec<TestResult>,
    /// Per implementation, in program order: its goals.
    pub goals: Vec<(String, Vec<GoalCoverage>)>,
    /// Everything every run executed.
    pub coverage: Coverage,
}

impl SuiteRun {
    pub fn count(&self, matches: fn(&Verdict) -> bool) -> usize {
        self.results.iter().filter(|result| matches(&result.verdict)).count()
    }

    /// The passing tests whose runs reproduce a recorded failure.
    pub fn reproduced(&self) -> usize {
        self.results.iter().filter(|result| result.reproduced.is_some()).count()
    }
}

/// Runs `tests` on the program whose lowered graphs are `cfgs`; `options` are the
/// suite's, whose unrolling its goal ids are made with.
pub fn run(
    program: &hir::Program,
    cfgs: &[Cfg],
    tests: &[LoadedTest],
    limits: Limits,
    options: &json::Options,
) -> SuiteRun {
    let (unroll, counted) = (options.unroll, options.unroll_goals());
    let machine = Machine::new(program, cfgs, limits);
    let unrolled: Vec<Unrolled> = cfgs.iter().map(|cfg| unroll_loops(program, cfg, unroll)).collect();
    let all_goals: Vec<Vec<Goal>> =
        unrolled.iter().map(|unrolled| goals_counted(&cut_loops(program, &unrolled.cfg), counted)).collect();
    let mut passed: Vec<BTreeSet<BlockId>> = vec![BTreeSet::new(); cfgs.len()];
    let mut coverage = Coverage::default();
    let mut results = Vec::new();
    for test in tests {
        let start = Instant::now();
        let (procedure, verdict, entered, reproduced) = match test {
            LoadedTest::Stale { procedure, reason, .. } => {
                (procedure.clone(), Verdict::Invalid { message: reason.clone(), span: None }, Vec::new(), None)
            }
            LoadedTest::Ready { input, expect, .. } => {
                let index =
                    cfgs.iter().position(|cfg| cfg.implementation == input.implementation).expect("loaded for a graph");
                let replay = machine.run(input, TraceMode::Strict);
                coverage.merge(&replay.coverage);
                let blocks = replay.passed(&unrolled[index]);
                let entered =
                    all_goals[index].iter().filter(|goal| goal.entered_by(&blocks)).map(|goal| goal.id.clone());
                let entered = entered.collect();
                passed[index].extend(blocks);
                let verdict = judge(program, &cfgs[index], &replay, expect);
                let reproduced = match (&verdict, &replay.outcome) {
                    (Verdict::Pass, Outcome::Failed(violation)) => {
                        Some(Reproduced { message: violation.message.clone(), span: violation.span })
                    }
                    _ => None,
                };
                (cfgs[index].name.clone(), verdict, entered, reproduced)
            }
        };
        let id = test.id().to_string();
        results.push(TestResult { id, procedure, verdict, reproduced, entered, time: start.elapsed() });
    }
    // Without unrolling, a test of one procedure covers the goals of those it calls too.
    if unroll == 0 {
        for (index, cfg) in cfgs.iter().enumerate() {
            passed[index].extend(coverage.blocks.get(&cfg.implementation).into_iter().flatten().copied());
        }
    }
    let goals = cfgs
        .iter()
        .zip(all_goals)
        .zip(&passed)
        .map(|((cfg, goals), passed)| {
            let goals = goals.into_iter().map(|goal| GoalCoverage { covered: goal.entered_by(passed), goal }).collect();
            (cfg.name.clone(), goals)
        })
        .collect();
    SuiteRun { results, goals, coverage }
}

/// Compares a run with its recording.
pub fn judge(program: &hir::Program, cfg: &Cfg, replay: &Replay, expect: &json::Expect) -> Verdict {
    let (outcome, message) = crate::suite::expected_outcome(&replay.outcome);
    let span = replay.outcome.span();
    match &replay.outcome {
        Outcome::Invalid(stop) => return Verdict::Invalid { message: stop.message.clone(), span },
        // A check recorded as undecided is compared as an outcome like another.
        Outcome::CannotEvaluate(_) if expect.outcome == "unchecked" => {}
        Outcome::ReplayError { .. } | Outcome::CannotEvaluate(_) | Outcome::BudgetExhausted(_) => {
            return Verdict::Error { message: replay.outcome.message().to_string(), span }
        }
        Outcome::Passed | Outcome::Failed(_) | Outcome::Infeasible(_) => {}
    }
    if outcome != expect.outcome || message != expect.message {
        let expected = match &expect.message {
            Some(message) => format!("{} ({message})", expect.outcome),
            None => expect.outcome.clone(),
        };
        let actual = match &message {
            Some(message) => message.clone(),
            None => "the procedure returned normally".to_string(),
        };
        return Verdict::Fail { message: format!("expected {expected}, but {actual}"), span };
    }
    match output_difference(program, cfg, replay, expect) {
        Some(message) => Verdict::Fail { message, span: Some(cfg.span) },
        None => Verdict::Pass,
    }
}

/// The first recorded output whose value changed, described.
fn output_difference(program: &hir::Program, cfg: &Cfg, replay: &Replay, expect: &json::Expect) -> Option<String> {
    let actual = |name: &str, global: bool| {
        replay.outputs.iter().find_map(|(var, value)| {
            let matches = match var {
                hir::Var::Local(id) => !global && cfg.locals[id.index()].name == name,
                hir::Var::Global(id) => global && program.globals[id.index()].name == name,
                hir::Var::Const(_) | hir::Var::Bound(_) => false,
            };
            matches.then(|| to_json(program, value))
        })
    };
    let recorded =
        expect.outputs.iter().map(|named| (named, false)).chain(expect.globals.iter().map(|named| (named, true)));
    for (named, global) in recorded {
        let kind = if global { "global" } else { "output" };
        match actual(&named.name, global) {
            Some(value) if value == named.value => {}
            Some(value) => {
                return Some(format!("{kind} `{}`: expected {}, got {value}", named.name, named.value));
            }
            None => return Some(format!("{kind} `{}` is no longer an output of `{}`", named.name, cfg.name)),
        }
    }
    None
}
