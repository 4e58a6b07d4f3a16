//! A failing run near a candidate: what `verify` does when z3 gives up on a check and
//! the candidate's own test does not fail there (DESIGN.md §1, "Failing tests").
//!
//! Input: the machine, the implementation's graphs, the check, and z3's candidate (if
//! any). Output: a [`FailingRun`], a test whose run by the interpreter fails at the
//! check, or nothing within the budget.
//!
//! Why: under `unknown` z3's candidate satisfies every ground constraint but maybe not
//! the quantified axioms (`Set#Card` of a three-element set 2); its test then fails
//! nowhere, or cannot be evaluated, while a genuine failing execution is often a few
//! values away (the empty set, whose cardinality an axiom fixes). The test generator's
//! neighbourhood search ([`crate::gen::search`]) finds such runs: a step changes one
//! value or one choice of a test.
//!
//! The search is best-first from the candidate's test and the all-defaults input (its
//! constants and tables the candidate's, then none): a run is ranked by how near it
//! gets to failing at the check (Korel's branch distance of the check's condition from
//! being false, an assertion being a guard to flip:
//! [`crate::interp::Replay::target_distance`]), then by whether it is an execution at
//! all; ties keep the order runs were made in, so the search is deterministic (unless
//! the `--time-limit` cuts it short). It stops at the first run failing at the check, or
//! after [`MAX_RUNS`] runs, [`MAX_STEPS`] interpreter steps, or the `--time-limit`.
//!
//! Honesty is the replay's: a run counts only when its outcome is a violation of the
//! checked clause, so the entry `requires` and the axioms hold on it as replay judges
//! them. A run that fails there only if an axiom replay cannot decide holds
//! ([`crate::interp::Replay::unconfirmed`]) is kept in case no run does better, and the
//! failure says so.

use crate::cfg::Cfg;
use crate::gen::replay::{branches, default_input, test_input, value_types};
use crate::gen::search::{steps_from, take, Shape};
use crate::interp::{Machine, Outcome, Refutation, Replay, TestInput, TraceMode};
use crate::sema::hir;
use crate::source::Span;
use crate::vc::{Model, Obligation};
use num_bigint::BigInt;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

/// Runs a search may make for one check.
pub(super) const MAX_RUNS: usize = 400;
/// Interpreter steps a search may spend for one check, over all its runs: it stays
/// cheap beside the solver's checks, whatever the program's loops do.
pub(super) const MAX_STEPS: u64 = 5_000_000;

/// A test whose run fails at the check.
#[derive(Clone, Debug)]
pub(super) struct FailingRun {
    /// Its trace is the run's, complete: the test replays strictly.
    pub input: TestInput,
    /// `None` when replay confirms the failure; else why it does not (an axiom it
    /// cannot decide, [`crate::interp::Replay::unconfirmed`]).
    pub unchecked: Option<String>,
}

/// What a search needs of the implementation.
/// What replay makes of the model z3 gave for a check.
pub(super) enum CandidateRun {
    /// It runs into the check's failure: a failing test.
    Fails(TestInput),
    /// It runs as an execution that passes the check (or fails another first): z3's
    /// model was not a counterexample.
    Runs,
    /// It is no execution replay can run: an axiom or a precondition is false on it, or
    /// it reaches what the interpreter cannot evaluate (the replay's message). Neither
    /// confirmed nor refuted.
    DoesNotRun(String),
}

pub(super) struct Search<'a> {
    pub machine: &'a Machine<'a>,
    pub program: &'a hir::Program,
    /// The implementation as lowered: what the interpreter runs.
    pub cyclic: &'a Cfg,
    /// The graph the encoding was made from: what z3's candidate is a path of.
    pub acyclic: &'a Cfg,
    /// The `--time-limit`'s end.
    pub deadline: Option<Instant>,
}

/// How near a run came to failing at the check: smaller is nearer.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Rank {
    /// It evaluated the check, which held; the condition's distance from false.
    Evaluated(BigInt),
    /// An execution that never evaluated the check.
    Executed,
    /// No execution (an input breaks a precondition or an axiom, or replay cannot
    /// evaluate something): its neighbours may be.
    Invalid,
}

/// Whether a run failed at the check.
enum Verdict {
    Fails,
    /// It fails there only if something replay cannot decide holds (the reason).
    FailsUnchecked(String),
    Other(Rank),
}

/// A search under way.
#[derive(Default)]
struct Progress {
    /// The runs still to search around, nearest first, then in the order they were made.
    queue: BTreeMap<(Rank, usize), TestInput>,
    /// Every input run, as text.
    seen: BTreeSet<String>,
    /// The first run that fails at the check only if an axiom replay cannot decide holds.
    unchecked: Option<FailingRun>,
    runs: usize,
    steps: u64,
}

impl Search<'_> {
    /// The test of `model` (a candidate of an `unknown` answer, a path of the acyclic
    /// graph), its trace completed, when it fails at `obligation`'s clause as the
    /// interpreter runs the program as written: the cheap confirmation, tried first.
    pub(super) fn failing_candidate(&self, model: &Model, obligation: &Obligation) -> CandidateRun {
        let input = test_input(self.program, self.cyclic, self.acyclic, model);
        let replay = self.machine.run(&input, TraceMode::Complete);
        match replay.outcome {
            Outcome::Failed(violation) if at_check(obligation.span, violation.span, violation.call) => {
                CandidateRun::Fails(TestInput { trace: replay.trace, ..input })
            }
            Outcome::Passed | Outcome::Failed(_) => CandidateRun::Runs,
            other => CandidateRun::DoesNotRun(other.message().to_string()),
        }
    }

    /// Whether replay runs the test of `model` (a candidate) as an execution (into a
    /// failure or past it), else the instances of a quantified axiom or precondition it
    /// breaks, when it finds them ([`crate::smt::refine`]).
    pub(super) fn runs_candidate(&self, model: &Model) -> Result<(), Option<Refutation>> {
        let input = test_input(self.program, self.cyclic, self.acyclic, model);
        let replay = self.machine.run(&input, TraceMode::Complete);
        match replay.outcome {
            Outcome::Passed | Outcome::Failed(_) => Ok(()),
            _ => Err(replay.refutation),
        }
    }

    /// The first run the search finds failing at `obligation`'s clause, starting from
    /// `candidate`'s test (see the module header); else the first that fails there
    /// unchecked.
    pub(super) fn failing_run(&self, obligation: &Obligation, candidate: Option<&Model>) -> Option<FailingRun> {
        let target = obligation.span;
        let branches = branches(self.cyclic);
        let mut progress = Progress::default();
        for root in self.roots(candidate) {
            if self.spent(&progress) {
                return progress.unchecked;
            }
            if let Some(found) = self.visit(root, target, &mut progress) {
                return Some(found);
            }
        }
        while let Some((_, input)) = progress.queue.pop_first() {
            let shape = Shape { types: value_types(self.program, self.cyclic, &input), branches: &branches };
            for step in steps_from(&input, &shape) {
                if self.spent(&progress) {
                    return progress.unchecked;
                }
                let Some(neighbour) = take(&input, &step, &shape) else { continue };
                if let Some(found) = self.visit(neighbour, target, &mut progress) {
                    return Some(found);
                }
            }
        }
        progress.unchecked
    }

    /// Runs `input` unless it ran already: a run confirmed failing at `target` is the
    /// result; any other is queued by its [`Rank`] (one failing unchecked kept aside).
    fn visit(&self, input: TestInput, target: Span, progress: &mut Progress) -> Option<FailingRun> {
        if !progress.seen.insert(format!("{input:?}")) {
            return None;
        }
        let replay = self.machine.run_toward(&input, TraceMode::Complete, target);
        progress.runs += 1;
        progress.steps += replay.steps;
        let input = TestInput { trace: replay.trace.clone(), ..input };
        match judge(&replay, target) {
            Verdict::Fails => return Some(FailingRun { input, unchecked: None }),
            Verdict::FailsUnchecked(reason) => {
                progress.unchecked.get_or_insert(FailingRun { input, unchecked: Some(reason) });
            }
            Verdict::Other(rank) => {
                progress.queue.insert((rank, progress.runs), input);
            }
        }
        None
    }

    /// Whether the search has spent its budget.
    fn spent(&self, progress: &Progress) -> bool {
        progress.runs >= MAX_RUNS
            || progress.steps >= MAX_STEPS
            || self.deadline.is_some_and(|end| Instant::now() >= end)
    }

    /// Where the search starts: the candidate's test (its tables made to agree with the
    /// functions axioms define), then the all-defaults input with the candidate's
    /// constants and tables, then with none.
    fn roots(&self, candidate: Option<&Model>) -> Vec<TestInput> {
        let defaults = default_input(self.program, self.cyclic);
        let mut roots = Vec::new();
        if let Some(model) = candidate {
            let mut input = test_input(self.program, self.cyclic, self.acyclic, model);
            self.machine.agree_with_definitions(&mut input);
            let with_tables =
                TestInput { consts: input.consts.clone(), functions: input.functions.clone(), ..defaults.clone() };
            roots.push(input);
            roots.push(with_tables);
        }
        roots.push(defaults);
        roots
    }
}

/// Whether a violation at `span` (of a callee's clause: at the `call`) is one of the
/// check at `target`.
fn at_check(target: Span, span: Span, call: Option<Span>) -> bool {
    span == target || call == Some(target)
}

/// What `replay` says of the check at `target`.
fn judge(replay: &Replay, target: Span) -> Verdict {
    let at_target = |span: Span, call: Option<Span>| at_check(target, span, call);
    match (&replay.outcome, &replay.unconfirmed) {
        (Outcome::Failed(violation), _) if at_target(violation.span, violation.call) => Verdict::Fails,
        (Outcome::CannotEvaluate(stop), Some(violation)) if at_target(violation.span, violation.call) => {
            let reason = stop.message.split_once(" only if ").map_or(stop.message.as_str(), |(_, why)| why);
            Verdict::FailsUnchecked(reason.to_string())
        }
        // A run whose inputs break a precondition or an axiom may still reach the check
        // (the tables are judged on what the run read, when it ends): no execution.
        (Outcome::Invalid(_) | Outcome::ReplayError { .. } | Outcome::BudgetExhausted(_), _) => {
            Verdict::Other(Rank::Invalid)
        }
        (outcome, _) => Verdict::Other(match (&replay.target_distance, outcome) {
            (Some(distance), _) => Rank::Evaluated(distance.clone()),
            (None, Outcome::CannotEvaluate(_)) => Rank::Invalid,
            (None, _) => Rank::Executed,
        }),
    }
}
