//! `seedgen verify`: prove every contract and assertion of a program as Boogie does, and
//! turn each failed proof into a failing test (DESIGN.md §1, "Failing tests (FP-FT)").
//!
//! Input: a checked program and its cyclic graphs, as [`crate::cfg::lower::lower_all`]
//! returns them. Output: one [`ImplementationVerdict`] per graph, in the same order:
//! verified, failed (each failure with the counterexample that is its failing test), or
//! inconclusive (the solver gave up); [`VerifyError`]s make diagnostics of them.
//!
//! Per implementation: loops are replaced by their invariants ([`cut_loops`]), calls by
//! their callees' contracts ([`encode()`] does that), and one z3 session checks every
//! check of the encoding in order: `assert`s, invariants on entry and maintained by each
//! back edge, callee `requires` at calls, `ensures` at each `return`. Free clauses are
//! assumed, never checked. A check's query assumes the checks before it on its path, as
//! Boogie's verification condition does, so an assertion that can only fail after an
//! earlier one failed is not reported (Boogie does not either).
//!
//! **Counting, as Boogie 2.4.1 does.** One failure per `assert`, per invariant on entry,
//! per call and `requires` clause, per invariant and back edge (Boogie copies the
//! invariants to every back edge), and one per `ensures` clause however many `return`s
//! violate it (Boogie checks postconditions once, at a unified exit): of the checks of
//! one clause at several `return` blocks, the first that fails is reported.
//!
//! **Unknown answers, confirmed by a run.** When z3 gives up on a check (axioms over
//! arrays: "incomplete (theory array)") with a candidate model, the candidate's test is
//! run by the interpreter on the program as written ([`crate::interp`]: loops iterate,
//! calls execute), as Dafny's test generation validates Boogie's counterexamples. A run
//! that fails at the checked clause is a concrete execution violating it: a failure,
//! reported with that test. Otherwise a search ([`search`]) runs the tests one value or
//! choice away from the candidate's and from the all-defaults input, nearest to failing
//! first, within a budget of runs and steps and the `--time-limit`: the first run that
//! fails at the clause is the failure's test (one that fails there only if an axiom
//! replay cannot decide holds is reported saying so). With no such run the check is
//! undecided. A check z3 decides costs no run. A caller that asks only whether each
//! implementation verifies ([`Confirmation::Skip`]) gets no run at all: a confirmed
//! failure and an undecided check both leave the implementation unverified.
//!
//! **Determinism.** Implementations run in parallel, each with its own session (and z3
//! context, see [`crate::smt`]), so a verdict depends only on its implementation; the
//! result is in graph order whatever the scheduling.

mod error;
mod failing_test;
mod search;
#[cfg(test)]
mod tests;

pub use error::{failure_diagnostic, CheckSite, FailingTest, VerifyError};

use crate::cfg::cut::cut_loops;
use crate::cfg::{AssertReason, BlockId, Cfg, CmdKind};
use crate::diag::Diagnostic;
use crate::interp::{Limits, Machine, TestInput, Violation, ViolationKind};
use crate::sema::hir::{self, ImplId};
use crate::smt::refine::{self, Instance};
use crate::smt::{footing, Footing, Reach, Session, SessionOptions};
use crate::source::Span;
use crate::vc::{encode_verification, Encoding, FailureId, Model, Obligation, ObligationKind};
use failing_test::TestContext;
use search::{CandidateRun, FailingRun, Search};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The verdict on one implementation.
#[derive(Clone, Debug)]
pub struct ImplementationVerdict {
    pub implementation: ImplId,
    pub name: String,
    pub outcome: Outcome,
    /// Wall-clock time of the cut, the encoding and every solver query.
    pub time: Duration,
    /// The axioms (and the precondition) refute themselves, with the spans of an unsat
    /// core's ([`crate::smt::footing`]).
    pub contradiction: Option<VerifyError>,
}

#[derive(Clone, Debug)]
pub enum Outcome {
    /// Every check holds.
    Verified,
    /// Some checks fail; `undecided` lists those the solver could decide neither way.
    Failed { failures: Vec<VerificationFailure>, undecided: Vec<Undecided> },
    /// No check fails, but the solver could not decide these.
    Inconclusive(Vec<Undecided>),
    /// The run's time limit was reached before the implementation (at `implementation`)
    /// was encoded: none of its checks was asked.
    NotStarted { implementation: Span },
}

impl ImplementationVerdict {
    /// Every check of the implementation holds, and not from axioms that refute
    /// themselves.
    pub fn is_verified(&self) -> bool {
        matches!(self.outcome, Outcome::Verified) && !self.is_vacuous()
    }

    /// The axioms (and the precondition) refute themselves by their triggers: nothing
    /// was proved from them.
    pub fn is_vacuous(&self) -> bool {
        matches!(self.contradiction, Some(VerifyError::Contradictory { by_triggers: true, .. }))
    }

    /// How many checks fail.
    pub fn failures(&self) -> usize {
        match &self.outcome {
            Outcome::Failed { failures, .. } => failures.len(),
            Outcome::Verified | Outcome::Inconclusive(_) | Outcome::NotStarted { .. } => 0,
        }
    }

    /// The run's time limit was reached before any check of it was asked.
    pub fn not_started(&self) -> bool {
        matches!(self.outcome, Outcome::NotStarted { .. })
    }

    /// How many checks the solver decided neither way.
    pub fn undecided(&self) -> usize {
        self.undecided_checks().len()
    }

    /// How many undecided checks have a counterexample replay did not confirm (what
    /// Boogie reports as errors).
    pub fn possible_failures(&self) -> usize {
        self.undecided_checks().iter().filter(|check| check.possible_failure).count()
    }

    fn undecided_checks(&self) -> &[Undecided] {
        match &self.outcome {
            Outcome::Verified | Outcome::NotStarted { .. } => &[],
            Outcome::Failed { undecided, .. } | Outcome::Inconclusive(undecided) => undecided,
        }
    }
}

/// A check that fails, with an execution that makes it fail.
#[derive(Clone, Debug)]
pub struct VerificationFailure {
    pub obligation: Obligation,
    /// The solver's execution up to the failing check (over the abstracted program:
    /// loops by their invariants, calls by their contracts, so possibly not a real
    /// execution); `None` when the solver gave up and a search found `run`.
    pub counterexample: Option<Model>,
    /// The test the interpreter ran on the program as written, failing at the check,
    /// when a run confirmed the failure (the solver gave up on the check); its trace
    /// is complete, so it replays strictly.
    pub run: Option<TestInput>,
    pub site: CheckSite,
    /// `counterexample` as text.
    pub test: FailingTest,
}

/// A check the solver could decide neither way.
#[derive(Clone, Debug)]
pub struct Undecided {
    pub obligation: Obligation,
    /// `timeout`, `resource limit`, or z3's reason (`incomplete quantifiers`, …).
    pub reason: String,
    pub site: CheckSite,
    /// The model z3 was looking at, if any: every ground constraint holds in it, but
    /// some quantified axiom may not.
    pub candidate: Option<(Model, FailingTest)>,
    /// z3 gave up (not a limit) with the candidate, and replay could neither run it into
    /// the failure nor run it past the check (an axiom or a precondition is false on
    /// it): what Boogie reports as an error.
    pub possible_failure: bool,
}

impl ImplementationVerdict {
    /// The failures (errors), then the undecided checks (warnings), each in check order.
    pub fn errors(&self) -> Vec<VerifyError> {
        let (failures, undecided): (&[VerificationFailure], &[Undecided]) = match &self.outcome {
            Outcome::NotStarted { implementation } => {
                return vec![VerifyError::NotStarted { implementation: *implementation }];
            }
            Outcome::Verified => (&[], &[]),
            Outcome::Failed { failures, undecided } => (failures, undecided),
            Outcome::Inconclusive(undecided) => (&[], undecided),
        };
        let failed = failures
            .iter()
            .map(|failure| VerifyError::Fails { site: failure.site.clone(), test: failure.test.clone() });
        let undecided = undecided.iter().map(|check| VerifyError::Undecided {
            site: check.site.clone(),
            reason: check.reason.clone(),
            candidate: check.candidate.as_ref().map(|(_, test)| test.clone()),
            possible_failure: check.possible_failure,
        });
        self.contradiction.iter().cloned().chain(failed).chain(undecided).collect()
    }
}

/// Every verdict's diagnostics, implementation by implementation; a contradiction of
/// the axioms alone, which every implementation meets, once.
pub fn diagnostics(verdicts: &[ImplementationVerdict]) -> Vec<Diagnostic> {
    let mut reported: Vec<Vec<Span>> = Vec::new();
    let mut first_time = |error: &VerifyError| match error {
        VerifyError::Contradictory { axioms, precondition: false, on_terms: false, .. } => {
            let new = !reported.contains(axioms);
            reported.push(axioms.clone());
            new
        }
        _ => true,
    };
    verdicts
        .iter()
        .flat_map(ImplementationVerdict::errors)
        .filter(|error| first_time(error))
        .map(|error| error.to_diagnostic())
        .collect()
}

/// The passes recurse over expressions up to `syntax::MAX_EXPR_DEPTH` deep: give the
/// workers the stack `main` gives the pipeline (`prove-tests`' workers too).
pub const WORKER_STACK_BYTES: usize = 256 * 1024 * 1024;

/// What [`verify`] does with a check z3 gives up on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Confirmation {
    /// Runs its candidate's test, then searches near it, for a run failing there: a
    /// failure with its test, else an undecided check with the candidate's test (the
    /// `verify` command, the editor).
    Search,
    /// Leaves it undecided at once: for a caller that asks only whether each
    /// implementation verifies, which neither a confirmed failure nor an undecided check
    /// does (proofs that goals are unreachable, a mutant's infection proof).
    Skip,
}

/// Verifies every implementation of `program`; `cfgs` are its cyclic graphs.
pub fn verify(
    program: &hir::Program,
    cfgs: &[Cfg],
    options: &SessionOptions,
    confirmation: Confirmation,
) -> Vec<ImplementationVerdict> {
    // As many workers as the rayon pool the caller runs in (`prove-tests --jobs`), or
    // as cores.
    let workers = rayon::current_num_threads().min(cfgs.len());
    // A run stops at the `--time-limit` too (the candidates' runs and the searches).
    let limits = Limits { deadline: options.deadline, ..Limits::default() };
    let machine = &Machine::new(program, cfgs, limits);
    if workers <= 1 {
        return cfgs.iter().map(|cfg| verify_in_time(program, cfg, (options, confirmation), machine)).collect();
    }
    let next = AtomicUsize::new(0);
    let verdicts: Mutex<Vec<Option<ImplementationVerdict>>> = Mutex::new(vec![None; cfgs.len()]);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let work = || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(cfg) = cfgs.get(index) else { break };
                let verdict = verify_in_time(program, cfg, (options, confirmation), machine);
                verdicts.lock().expect("a worker that panicked ends the scope with its panic")[index] = Some(verdict);
            };
            std::thread::Builder::new()
                .name("verify".to_string())
                .stack_size(WORKER_STACK_BYTES)
                .spawn_scoped(scope, work)
                .expect("the system can start a verification thread");
        }
    });
    let verdicts = verdicts.into_inner().expect("every worker finished without panicking");
    verdicts.into_iter().map(|verdict| verdict.expect("the workers verify every implementation")).collect()
}

/// [`verify_implementation`], unless the run's deadline has passed: a front end's
/// implementation takes seconds to encode (each of Viper's `auction` 25 s), so one not
/// started by then is said to be, not encoded to have every check cut off.
fn verify_in_time(
    program: &hir::Program,
    cfg: &Cfg,
    run: (&SessionOptions, Confirmation),
    machine: &Machine,
) -> ImplementationVerdict {
    if run.0.deadline.is_some_and(|deadline| Instant::now() >= deadline) {
        return ImplementationVerdict {
            implementation: cfg.implementation,
            name: cfg.name.clone(),
            outcome: Outcome::NotStarted { implementation: cfg.span },
            time: Duration::ZERO,
            contradiction: None,
        };
    }
    verify_implementation(program, cfg, run, machine)
}

/// Verifies one implementation (its cyclic graph) in a session of its own; `machine`
/// runs the candidates of checks z3 gives up on.
fn verify_implementation(
    program: &hir::Program,
    cfg: &Cfg,
    (options, confirmation): (&SessionOptions, Confirmation),
    machine: &Machine,
) -> ImplementationVerdict {
    let start = Instant::now();
    let acyclic = cut_loops(program, cfg);
    let encoding = Arc::new(encode_verification(program, &acyclic));
    let search = Search { machine, program, cyclic: cfg, acyclic: &acyclic, deadline: options.deadline };
    let (answers, footing) = answers(&encoding, options, &search);
    let contradiction =
        footing.as_ref().and_then(Footing::contradiction).map(|contradiction| VerifyError::Contradictory {
            axioms: contradiction.axioms.iter().map(|&index| program.axioms[index].span).collect(),
            implementation: cfg.span,
            precondition: contradiction.precondition,
            by_triggers: contradiction.by_triggers,
            on_terms: contradiction.on_terms,
        });
    let context = TestContext::new(program, cfg, &acyclic, &encoding);
    let mut failures = Vec::new();
    let mut undecided = Vec::new();
    for group in check_groups(&encoding) {
        let obligation = encoding.failure(group[0]).obligation.clone();
        let site = site(program, cfg, &obligation);
        match decide(group.iter().map(|id| &answers[id.index()])) {
            Decision::Holds => {}
            Decision::Fails(counterexample) => {
                let test = context.failing_test(counterexample, &obligation);
                let counterexample = Some(counterexample.clone());
                failures.push(VerificationFailure { obligation, counterexample, run: None, site, test });
            }
            Decision::Unknown { reason, .. } if confirmation == Confirmation::Skip => {
                undecided.push(Undecided {
                    obligation,
                    reason: reason.to_string(),
                    site,
                    candidate: None,
                    possible_failure: false,
                });
            }
            Decision::Unknown { reason, candidate } => {
                let checked = Checked { obligation, site, reason, candidate };
                match confirm(checked, &search, &context) {
                    Verdict::Fails(failure) => failures.push(failure),
                    Verdict::Undecided(check) => undecided.push(check),
                }
            }
        }
    }
    let outcome = match (failures.is_empty(), undecided.is_empty()) {
        (true, true) => Outcome::Verified,
        (true, false) => Outcome::Inconclusive(undecided),
        (false, _) => Outcome::Failed { failures, undecided },
    };
    let (implementation, name, time) = (cfg.implementation, cfg.name.clone(), start.elapsed());
    ImplementationVerdict { implementation, name, outcome, time, contradiction }
}

/// A check the solver gave up on.
struct Checked<'a> {
    obligation: Obligation,
    site: CheckSite,
    reason: &'a str,
    candidate: Option<&'a Model>,
}

/// What becomes of a check the solver gave up on.
enum Verdict {
    Fails(VerificationFailure),
    Undecided(Undecided),
}

/// A check the solver gave up on, as a failure when a run confirms it: the candidate's
/// own test, else one a search finds near it ([`search`]); else undecided.
fn confirm(check: Checked, search: &Search, context: &TestContext) -> Verdict {
    let Checked { obligation, site, reason, candidate } = check;
    let mut unconfirmed = None;
    if let Some(model) = candidate {
        match search.failing_candidate(model, &obligation) {
            CandidateRun::Fails(run) => {
                let test = context.failing_test(model, &obligation);
                let (counterexample, run) = (Some(model.clone()), Some(run));
                return Verdict::Fails(VerificationFailure { obligation, counterexample, run, site, test });
            }
            CandidateRun::Runs => {}
            CandidateRun::DoesNotRun(stop) => unconfirmed = Some(stop),
        }
    }
    match search.failing_run(&obligation, candidate) {
        Some(FailingRun { input, unchecked }) => {
            let test = context.failing_run(&input, reason, unchecked.as_deref());
            Verdict::Fails(VerificationFailure { obligation, counterexample: None, run: Some(input), site, test })
        }
        None => {
            let candidate = candidate.map(|model| {
                let mut test = context.failing_test(model, &obligation);
                test.caveats.extend(unconfirmed.iter().map(|stop| format!("replay does not run it: {stop}")));
                (model.clone(), test)
            });
            let possible_failure = unconfirmed.is_some() && is_possible_failure(reason);
            Verdict::Undecided(Undecided { obligation, reason: reason.to_string(), site, candidate, possible_failure })
        }
    }
}

/// The solver's answer to every check of `encoding`, by [`FailureId`]: all of them, in
/// order, in one session, so the queries (and z3's history, which its answers depend
/// on) are fixed by the encoding alone.
///
/// z3's nonlinear arithmetic is sensitive to that history: the postcondition of
/// `Divide` (`corpus/div_mod.bpl`), asked after a slightly different sequence of
/// earlier checks, came back `unknown` ("incomplete (theory arithmetic)") after 10 s,
/// while a session of its own proves it in 0.5 s. So a check answered `unknown` for
/// another reason than a limit is asked once more, alone, in a fresh session (still
/// deterministic: each session has a fresh z3 context).
///
/// With the answers, the footing they stood on (the first session's, or a later one's
/// that found a contradiction).
fn answers(encoding: &Arc<Encoding>, options: &SessionOptions, search: &Search) -> (Vec<Reach>, Option<Footing>) {
    let mut session = Session::new(Arc::clone(encoding), *options);
    let mut answers = Vec::with_capacity(encoding.failures.len());
    let mut contradicted = None;
    for id in encoding.failure_ids() {
        let first = session.check_failure(id);
        let answer = refined(&mut session, id, first, search);
        let answer = match answer {
            Reach::Unknown { reason, .. } if !is_limit(&reason) && reason != footing::CONTRADICTORY => {
                let mut alone = Session::new(Arc::clone(encoding), *options);
                let first = alone.check_failure(id);
                let answer = refined(&mut alone, id, first, search);
                contradicted = contradicted.or(alone.footing().filter(|footing| footing.contradiction().is_some()));
                answer
            }
            answer => answer,
        };
        answers.push(answer);
    }
    let footing = session.footing().filter(|footing| footing.contradiction().is_some()).or(contradicted);
    (answers, footing)
}

/// `answer` to the check `failure`, repaired by replay in a session that validates
/// candidates, while z3 gives up with a candidate replay does not run (an axiom or a
/// precondition false on it), at most [`refine::MAX_ROUNDS`] times: the instances of a
/// quantified axiom or precondition it breaks asserted ([`crate::smt::refine`], as
/// `prove-tests` does), or, when replay names none, the entry maps wished simple
/// ([`Session::simplest_failure`]); then the check is asked again. A candidate replay
/// runs is left to [`confirm`]. Every answer stays exact (the instances are implied,
/// the wishes assumptions), and checks whose candidates run cost nothing more.
fn refined(session: &mut Session, failure: FailureId, mut answer: Reach, search: &Search) -> Reach {
    if !session.validates_candidates() {
        return answer;
    }
    let mut wished = false;
    for _ in 0..refine::MAX_ROUNDS {
        let Reach::Unknown { candidate: Some(model), .. } = &answer else { break };
        let Err(refutation) = search.runs_candidate(model) else { break };
        let instances = refutation.map(|refutation| Instance::of(session.encoding(), &refutation)).unwrap_or_default();
        let next = match instances.is_empty() {
            false => session.refine_failure(failure, instances),
            true if !wished => session.simplest_failure(failure),
            true => break,
        };
        wished = true;
        match next {
            // Nothing new to assert, or no candidate: the last one stands.
            Reach::Unknown { candidate: None, .. } => break,
            next => answer = next,
        }
    }
    answer
}

/// The reasons [`crate::smt::Session`] gives when a check ran out of time or resources.
fn is_limit(reason: &str) -> bool {
    reason == "timeout" || reason == "resource limit"
}

/// Whether z3's `unknown` with `reason` makes its model a counterexample as Boogie
/// would report one: z3 gave up (`incomplete quantifiers`, …), rather than being cut
/// off by a limit mid-search or answering from contradictory axioms.
fn is_possible_failure(reason: &str) -> bool {
    !is_limit(reason) && reason != crate::smt::TIME_LIMIT && reason != footing::CONTRADICTORY
}

enum Decision<'a> {
    Holds,
    Fails(&'a Model),
    Unknown { reason: &'a str, candidate: Option<&'a Model> },
}

/// The answers of one group's checks, in order: the first failing one decides;
/// otherwise an undecided one leaves the group undecided.
fn decide<'a>(group: impl Iterator<Item = &'a Reach>) -> Decision<'a> {
    let mut decision = Decision::Holds;
    for answer in group {
        match answer {
            Reach::Sat(model) => return Decision::Fails(model),
            Reach::Unsat => {}
            Reach::Unknown { reason, candidate } => {
                if matches!(decision, Decision::Holds) {
                    decision = Decision::Unknown { reason, candidate: candidate.as_ref() };
                }
            }
        }
    }
    decision
}

/// The encoding's checks grouped into what is reported once (see the module
/// documentation, "Counting"), in order of their first check. Free invariants are only
/// assumed (the encoding makes them assumptions already; this guards the rule).
fn check_groups(encoding: &Encoding) -> Vec<Vec<FailureId>> {
    let mut groups: Vec<(GroupKey, Vec<FailureId>)> = Vec::new();
    for id in encoding.failure_ids() {
        let failure = encoding.failure(id);
        if matches!(failure.obligation.kind, ObligationKind::Assert(AssertReason::Invariant { free: true, .. })) {
            continue;
        }
        let key = group_key(&failure.obligation, failure.block);
        match groups.iter_mut().find(|(existing, _)| *existing == key) {
            Some((_, members)) => members.push(id),
            None => groups.push((key, vec![id])),
        }
    }
    groups.into_iter().map(|(_, members)| members).collect()
}

#[derive(PartialEq)]
struct GroupKey {
    obligation: Obligation,
    /// The back edge, for an invariant checked as maintained; `None` otherwise.
    back_edge: Option<BlockId>,
}

fn group_key(obligation: &Obligation, block: BlockId) -> GroupKey {
    let maintained = matches!(obligation.kind, ObligationKind::Assert(AssertReason::InvariantMaintained { .. }));
    GroupKey { obligation: obligation.clone(), back_edge: maintained.then_some(block) }
}

/// What a diagnostic says about an obligation's check.
fn site(program: &hir::Program, cfg: &Cfg, obligation: &Obligation) -> CheckSite {
    let span = obligation.span;
    match &obligation.kind {
        // Verification is modular (nothing is inlined), so inlined contracts only come
        // from callers that inline on purpose; they read as assertions at the call.
        ObligationKind::Assert(AssertReason::User | AssertReason::Unsubsumed | AssertReason::Ensures { .. }) => {
            CheckSite::Assertion { span }
        }
        ObligationKind::Assert(AssertReason::Requires { callee, .. }) => CheckSite::Precondition {
            callee: program.procedures[callee.index()].name.clone(),
            call: span,
            clause: span,
        },
        ObligationKind::Assert(AssertReason::InvariantMaintained { .. }) => {
            CheckSite::InvariantMaintained { invariant: span, loop_span: loop_span(cfg, span) }
        }
        // An uncut invariant (none reach the encoding) is checked where the loop is entered.
        ObligationKind::Assert(AssertReason::InvariantOnEntry { .. } | AssertReason::Invariant { .. }) => {
            CheckSite::InvariantOnEntry { invariant: span, loop_span: loop_span(cfg, span) }
        }
        ObligationKind::Requires { callee, .. } => CheckSite::Precondition {
            callee: program.procedures[callee.index()].name.clone(),
            call: span,
            clause: obligation.related.unwrap_or(span),
        },
        ObligationKind::Ensures { .. } => {
            CheckSite::Postcondition { clause: span, implementation: obligation.related.unwrap_or(cfg.span) }
        }
    }
}

/// What a diagnostic says about the check a run of `cfg` (an implementation of
/// `cfgs`, the lowered graphs) violated: the same sites as `verify`'s failures, so
/// that a test found violating a contract reads as a failure `verify` reports. The
/// check may be a callee's: its invariant's loop and its postcondition's implementation
/// are looked for among `cfgs`.
pub fn violated_site(program: &hir::Program, cfg: &Cfg, cfgs: &[Cfg], violation: &Violation) -> CheckSite {
    let span = violation.span;
    let in_any_loop = || cfgs.iter().find_map(|graph| loop_span(graph, span));
    match &violation.kind {
        ViolationKind::Assert => CheckSite::Assertion { span },
        ViolationKind::Invariant { iterations: 0, .. } => {
            CheckSite::InvariantOnEntry { invariant: span, loop_span: in_any_loop() }
        }
        ViolationKind::Invariant { .. } => CheckSite::InvariantMaintained { invariant: span, loop_span: in_any_loop() },
        ViolationKind::Requires { callee, .. } => CheckSite::Precondition {
            callee: program.procedures[callee.index()].name.clone(),
            call: violation.call.unwrap_or(span),
            clause: span,
        },
        ViolationKind::Ensures { procedure, .. } => {
            let implementation = std::iter::once(cfg)
                .chain(cfgs)
                .find(|graph| graph.procedure == *procedure)
                .map_or(cfg.span, |graph| graph.span);
            CheckSite::Postcondition { clause: span, implementation }
        }
    }
}

/// A run of `cfg` the interpreter made, its values written as `verify` writes a
/// failing test's (without caveats: the run is the program's own).
pub fn run_as_test(program: &hir::Program, cfg: &Cfg, input: &TestInput) -> FailingTest {
    failing_test::Names::new(program, cfg).run(input)
}

/// The loop whose head (in the cyclic graph) holds the invariant at `invariant`.
fn loop_span(cfg: &Cfg, invariant: Span) -> Option<Span> {
    cfg.loops
        .iter()
        .find(|found| {
            cfg.block(found.header)
                .cmds
                .iter()
                .any(|cmd| cmd.span == invariant && matches!(cmd.kind, CmdKind::Assert { .. }))
        })
        .map(|found| found.span)
}
