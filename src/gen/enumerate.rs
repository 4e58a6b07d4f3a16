//! One solver session, one counterexample per test (seeds/001 §2.2, seeds/000).
//!
//! Input: a [`Session`] over the encoding of a seeded, acyclic graph (every goal's seed
//! point is the start of its block) and the graph's goals. Output: an [`Enumeration`]:
//! the candidate tests and a [`GoalStatus`] per goal.
//!
//! The loop: ask for an execution reaching *any* goal still open (leaves first: a path
//! to a leaf passes its enclosing goals); from the model, read every goal the path
//! reaches — collateral coverage (seeds/000) — and close them all; repeat until the
//! query is unsatisfiable. That takes about one check per test plus one, on a VC
//! asserted once. When the solver gives up on the disjunction, each open goal is asked
//! alone, so one hard goal does not hide the others. In an axiom-heavy session whose
//! graph cuts a loop, the open goals are first asked by executions in the first
//! iteration of each loop they enter ([`Enumerator::ask_first_iterations`]): what that
//! covers is covered, and it decides nothing else.
//!
//! With [`Strategy::search`], every new test (and, with unrolled loops, the all-defaults
//! input) is first searched around by replay ([`super::search`]): a neighbour whose run
//! enters an open goal is a test too, found without a check, and the query loop asks
//! only for the goals the search leaves open. A model whose replay missed the goals it
//! claimed is searched around as well: it went past a loop through the loop's
//! invariants, and a real run to its goal is often a few steps from its input.
//!
//! Honesty (DESIGN.md §1): a model is only a candidate. Each one is replayed
//! ([`super::replay`]) on the program as written — a path through a loop cut by its
//! invariants or a call modelled by its contract may not be a real execution — and
//! only the goals the run enters count as covered, collateral ones included. A target
//! the model reaches but the run misses is "not covered: replay missed", never covered.
//! Unsatisfiability proves a goal dead only when every abstraction the encoding used is
//! itself verified, which the caller settles ([`super::ImplementationRun::needs_proof`]);
//! a timeout or unknown answer is "not covered", with the reason.

use super::complete;
use super::operands;
use super::replay::{Prospect, ReplayedTest, Replayer};
use super::search;
use crate::cfg::BlockId;
use crate::interp::{Outcome, TestInput};
use crate::seed::goals::{Goal, GoalId};
use crate::smt::refine::{self, Instance};
use crate::smt::{Reach, Session, SMALL_SCOPE_BOUND};
use crate::vc::{Assignment, Model};
use num_bigint::BigInt;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::time::Instant;

/// What the enumeration established about one goal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoalStatus {
    /// Entered by the replay of test `test`.
    Covered {
        test: usize,
    },
    /// Entered by a test kept from an existing suite (`prove-tests --existing`,
    /// seeds/002 conditional testing): never asked for.
    Kept,
    /// No execution reaches it: unsatisfiable over a sound over-approximation.
    Unreachable,
    NotCovered {
        reason: NotCovered,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotCovered {
    /// The solver answered `unknown` (a timeout, a resource limit, incompleteness).
    Unknown(String),
    /// Unsatisfiable, but only under loop invariants or callee contracts that are not
    /// verified, so no proof of deadness.
    UnverifiedAbstraction,
    /// A model reaches it, but the model's replay does not (it went through an
    /// abstraction the real execution does not follow, or could not run): the reason.
    ReplayMissed(String),
    /// Models reach it only by running a loop past the unrolling bound, through the
    /// abstraction of the iterations beyond it, and their replays miss it:
    /// never "unreachable", since the abstraction proves nothing dead here.
    BeyondBound { bound: u32, reason: String },
}

impl GoalStatus {
    /// Whether the goal needs no further test: entered by one, or dead.
    pub fn is_closed(&self) -> bool {
        matches!(self, GoalStatus::Covered { .. } | GoalStatus::Kept | GoalStatus::Unreachable)
    }
}

impl NotCovered {
    pub fn describe(&self) -> String {
        match self {
            NotCovered::Unknown(reason) => format!("solver gave up: {reason}"),
            NotCovered::UnverifiedAbstraction => {
                "unreachable only under loop invariants or contracts that are not verified".to_string()
            }
            NotCovered::ReplayMissed(reason) => format!("replay missed: {reason}"),
            NotCovered::BeyondBound { bound, reason } => {
                // Past the bound the loop is abstracted by its invariants: a goal may also
                // be dead but beyond what they prove, so the text says both.
                format!(
                    "needs more than {bound} iterations of a loop, or stronger loop invariants to be proved dead \
                     (replay missed: {reason})"
                )
            }
        }
    }
}

/// One test: the model of one query, or a neighbour the search found, replayed.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// Indices of the goals the query asked for (any one of them); for a test the search
    /// found, the goals still open that its run entered.
    pub targets: Vec<usize>,
    /// Indices of every goal the replay entered.
    pub covers: Vec<usize>,
    /// The solver answered `unknown` and this was its best-effort model.
    pub unconfirmed: Option<String>,
    pub test: ReplayedTest,
}

#[derive(Clone, Debug)]
pub struct Enumeration {
    pub status: Vec<GoalStatus>,
    /// The tests kept: each covers a goal no earlier test covered.
    pub candidates: Vec<Candidate>,
    /// How many satisfiability checks the session ran.
    pub checks: u32,
    /// The tests are not shrunk yet: their session validates candidates, where
    /// shrinking waits until every goal was asked, on every graph
    /// ([`Enumeration::shrink_deferred`]).
    pub shrinking_deferred: bool,
}

impl Enumeration {
    /// Takes a test found on another graph of the same implementation (a deeper
    /// unrolling) whose run, followed on this enumeration's graph, enters the goals its
    /// `test.covers` names of `goals`, asked for `targets`: kept when it covers a goal
    /// still open.
    pub fn adopt(&mut self, goals: &[Goal], mut candidate: Candidate, targets: &[GoalId]) {
        candidate.covers = goal_indices(goals, &candidate.test.covers);
        candidate.targets = goal_indices(goals, targets);
        let number = self.candidates.len();
        let mut useful = false;
        for &index in &candidate.covers {
            if !self.status[index].is_closed() {
                self.status[index] = GoalStatus::Covered { test: number };
                useful = true;
            }
        }
        if useful {
            self.candidates.push(candidate);
        }
    }

    /// The tests whose shrinking was deferred ([`Enumeration::shrinking_deferred`]),
    /// shrunk now by `replayer` (whose goals their `covers` are), each while the run's
    /// time allows (a test left as it is still enters its goals).
    pub fn shrink_deferred(&mut self, replayer: &Replayer, deadline: Option<Instant>) {
        if !std::mem::take(&mut self.shrinking_deferred) {
            return;
        }
        let out_of_time = || deadline.is_some_and(|end| Instant::now() >= end);
        self.candidates = (std::mem::take(&mut self.candidates).into_iter())
            .map(|mut candidate| {
                if !out_of_time() {
                    candidate.test = replayer.shrink(candidate.test);
                }
                candidate
            })
            .collect();
    }
}

/// For each of `from`, the index of the goal of `to` with its id, if any.
fn same_goals(from: &[Goal], to: &[Goal]) -> Vec<Option<usize>> {
    let index: BTreeMap<&GoalId, usize> = to.iter().enumerate().map(|(index, goal)| (&goal.id, index)).collect();
    from.iter().map(|goal| index.get(&goal.id).copied()).collect()
}

/// The indices in `goals` of the goals `ids` names, in order.
fn goal_indices(goals: &[Goal], ids: &[GoalId]) -> Vec<usize> {
    let ids: BTreeSet<&GoalId> = ids.iter().collect();
    (0..goals.len()).filter(|&index| ids.contains(&goals[index].id)).collect()
}

/// How an enumeration finds its tests beside one solver check per test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strategy {
    /// Whether each model is first made small ([`Enumerator::smallest`]).
    pub minimize: bool,
    /// Whether the neighbourhood of each new test is searched by replay before the
    /// solver is asked again ([`super::search`]).
    pub search: bool,
    /// Whether the search starts from the all-defaults input, before the first check
    /// (with unrolling, where that check is the most expensive).
    pub search_from_defaults: bool,
    /// Whether input-to-state correspondence is tried before each check
    /// ([`super::operands`]; with the search, and with unrolling, where checks are
    /// costly and a goal per iteration may need a value the run computes).
    pub operands: bool,
}

struct Enumerator<'a> {
    session: &'a mut Session,
    strategy: Strategy,
    replayer: &'a Replayer<'a>,
    goals: &'a [Goal],
    status: Vec<Option<GoalStatus>>,
    /// Per goal, the entry values of the models that claimed it but whose replay missed
    /// it; a goal with misses is asked again alone, avoiding them.
    misses: Vec<Vec<Vec<Assignment>>>,
    /// Per goal, why the last replay missed it.
    miss_reason: Vec<String>,
    /// Per goal, whether the last model that missed it ran a loop past the bound.
    miss_beyond: Vec<bool>,
    /// The blocks past the unrolling bound, which a retry of a goal missed there forbids.
    beyond: Vec<BlockId>,
    /// The alternatives of each nondeterministic branch, for the search (computed once).
    branches: &'a BTreeMap<String, BTreeSet<String>>,
    /// For each of the replayer's goals, the index of the same goal here, if any.
    replayed_goals: Vec<Option<usize>>,
    stall_limit: usize,
    /// The first of `candidates` whose comparisons [`Enumerator::try_operands`] has not
    /// observed yet.
    observed: usize,
    candidates: Vec<Candidate>,
    checks: u32,
}

/// How many models may claim a goal and miss it on replay before it is given up.
const MAX_REPLAY_ATTEMPTS: usize = 4;

/// How [`Enumerator::refine`] ended.
enum Refined {
    /// A candidate was replayed and recorded.
    Recorded,
    /// z3's answer after refinement, other than a new candidate (`sat`, `unsat`).
    Answered(Reach),
    /// No candidate to go on with (or none claiming a goal of the query).
    GaveUp,
}

/// A search around new tests ends after this many replays in a row entered no open goal
/// ([`stall_limit`]). Most cost a run without checks ([`Replayer::may_enter`]); at
/// `--unroll 15`, 64 left `control_flow`'s `FindInSquare` 190 goals short and cost
/// `binary_search` a check of 0.6 s, 256 decides both; 1,024 doubles `FindInSquare`'s
/// time, spent on replays where a check of 20 to 80 ms would do.
const SEARCH_STALL: usize = 256;

/// The stall limit of input-to-state correspondence ([`Enumerator::try_operands`]) and
/// of the searches around the tests it finds: its candidates are few per test, and a
/// value that matters lands on a goal or one step from it (a perfect square's neighbour
/// leaves the bisection by its exit); longer searches cost `binary_search --unroll 8`,
/// whose runs check a sortedness precondition over every pair of cells, seconds.
const OPERANDS_STALL: usize = 64;

/// [`SEARCH_STALL`] where the encoding has a universal quantifier (a quantified loop
/// invariant, postcondition or axiom). Each check then instantiates it and costs
/// seconds once unrolled (`bubble_sort` at `--unroll 9`: 7 s for one model, then
/// `unknown` after 10 s on the last 10 goals), while its search, allowed 1,024 replays
/// without a find, covers every reachable goal with no check but the one that proves the
/// rest dead (`--unroll 9`: 1.3 s; `--unroll 15`: 11.6 s, where 256 stops at 826 of 946
/// goals decided after 20 s).
const SEARCH_STALL_QUANTIFIED: usize = 1024;

/// The most replays a climb by branch distance makes ([`Enumerator::climb`]).
const CLIMB_REPLAYS: usize = 1_024;

/// The most cell flips tried from one test ([`Enumerator::flip_cells`]): a few per open
/// goal at a branch its run passed.
const MAX_FLIPS: usize = 16;

/// What one step of a climb by branch distance found.
enum Climb {
    /// The run entered an open goal: the test kept, its input and steps.
    Entered((TestInput, u64)),
    /// The run brought an open goal's guard closer: the input and its distance.
    Closer(TestInput, BigInt),
    NoCloser,
}

/// Whether `model`'s path enters `goal` (one of its blocks).
fn reaches(model: &Model, goal: &Goal) -> bool {
    goal.blocks().any(|block| model.reaches(block))
}

/// The stall limit in a session that validates candidates (an axiom-heavy encoding):
/// z3's first look answers there in 10 to 50 ms, and each replay evaluates the axioms the
/// run reads, 5 to 40 ms on Boogie's havoc0 driver models, where searches of 1,024
/// fruitless replays took 0.7 to 4.7 s around each test, 95 % of a run, and found no
/// goal. With 64 (and shrinking deferred, [`Enumerator::shrinks_now`]) the six files
/// decide 3 to 18 goals within 4 s, where they decided 1 to 4; 64 replays of 35 ms still
/// cost the `Create` files 2 s per test, and 16 decides 19 goals of each within 3 s
/// where 64 decides 17 and 16 (no search at all decides as 16 does). Such a session no
/// longer searches around its tests ([`Enumerator::record_replayed`]); the limit holds
/// for its other searches (from the all-defaults input with `--unroll`).
const SEARCH_STALL_CANDIDATES: usize = 16;

/// How many fruitless replays in a row end a search in `session`'s implementation.
fn stall_limit(session: &Session) -> usize {
    if session.validates_candidates() {
        SEARCH_STALL_CANDIDATES
    } else if session.encoding().terms.has_forall() {
        SEARCH_STALL_QUANTIFIED
    } else {
        SEARCH_STALL
    }
}

/// A neighbour's run without checks may take this many times the steps of its seed's
/// run (doubling `n` under a cubic loop takes 8 times as many), and at least
/// [`SEARCH_MIN_STEPS`]; a run that takes more is no test the search keeps. Without a
/// bound of its own, every neighbour of a test of an endless loop would spend the
/// whole budget of a test (10 million steps), twice.
const SEARCH_STEP_FACTOR: u64 = 16;
const SEARCH_MIN_STEPS: u64 = 100_000;

/// The steps a neighbour of a seed whose run took `steps` may take.
fn search_budget(steps: u64) -> u64 {
    steps.saturating_mul(SEARCH_STEP_FACTOR).max(SEARCH_MIN_STEPS)
}

/// Enumerates tests for `goals` (whose blocks are seed points of the session's graph),
/// replaying each model with `replayer`.
pub fn enumerate(session: &mut Session, replayer: &Replayer, goals: &[Goal], strategy: Strategy) -> Enumeration {
    enumerate_open(session, replayer, goals, strategy, &vec![false; goals.len()])
}

/// [`enumerate`] for the goals not `kept[i]`: those are entered by tests kept from an
/// existing suite, so they are excluded from every query up front, as collateral
/// coverage excludes the goals of earlier tests.
pub fn enumerate_open(
    session: &mut Session,
    replayer: &Replayer,
    goals: &[Goal],
    strategy: Strategy,
    kept: &[bool],
) -> Enumeration {
    let branches = if strategy.search { replayer.branches() } else { BTreeMap::new() };
    let stall_limit = stall_limit(session);
    let mut enumerator = Enumerator {
        session,
        strategy,
        replayer,
        goals,
        status: kept.iter().map(|&kept| kept.then_some(GoalStatus::Kept)).collect(),
        misses: vec![Vec::new(); goals.len()],
        miss_reason: vec![String::new(); goals.len()],
        miss_beyond: vec![false; goals.len()],
        beyond: replayer.beyond_blocks(),
        branches: &branches,
        replayed_goals: same_goals(replayer.goals, goals),
        stall_limit,
        observed: 0,
        candidates: Vec::new(),
        checks: 0,
    };
    enumerator.run();
    let shrinking_deferred = strategy.minimize && !enumerator.shrinks_now();
    let status = enumerator.status.into_iter().map(|status| status.expect("every goal is decided")).collect();
    Enumeration { status, candidates: enumerator.candidates, checks: enumerator.checks, shrinking_deferred }
}

impl<'a> Enumerator<'a> {
    fn run(&mut self) {
        if self.strategy.search && self.strategy.search_from_defaults {
            // The all-defaults input is a seed even when it is no execution (a
            // precondition `n >= 1`): its neighbours may be.
            self.explore(self.replayer.default_input(), 0);
        }
        self.ask_first_iterations();
        for leaves_only in [true, false] {
            while let Some(open) = self.open(leaves_only) {
                if self.strategy.search && self.strategy.operands && self.try_operands() {
                    continue;
                }
                if !self.ask(&open) {
                    self.ask_one_by_one(&open);
                }
            }
        }
        self.retry_missed();
    }

    /// In a session that validates candidates and cuts loops, the open goals are first
    /// asked by executions in the first iteration of each loop they enter
    /// ([`Session::first_look_first_iterations`]), while that finds tests. A candidate
    /// through a loop's abstraction chooses the state of some later iteration, which the
    /// real run does not have at the loop's head: its replay leaves it there, and on
    /// Boogie's driver models every goal of a loop body went so, one check of 50 to 100
    /// ms each, to the exact unrollings, whose sessions cost seconds more (`deepen`).
    /// The state a loop is entered with is the real run's, so these candidates replay
    /// through the first iteration. Nothing this phase does not cover is decided by it
    /// (an `Unsat` answer says nothing of later iterations): the goals are asked after
    /// it as before, on the whole abstraction.
    fn ask_first_iterations(&mut self) {
        if !self.session.validates_candidates() || !self.session.encoding().has_first_iterations() {
            return;
        }
        let before = self.status.clone();
        while let Some(open) = self.open(false) {
            let blocks: Vec<BlockId> = open.iter().flat_map(|&index| self.goals[index].blocks()).collect();
            self.checks += 1;
            let reach = match self.session.first_look_first_iterations(&blocks) {
                Reach::Unknown { reason, candidate } => match self.refine(&open, reason, candidate) {
                    Refined::Answered(reach) => reach,
                    Refined::Recorded => continue,
                    Refined::GaveUp => break,
                },
                reach => reach,
            };
            // Each model closes or misses a goal it claims, which leaves the open ones.
            let Reach::Sat(model) = reach else { break };
            if !self.record(&open, model, None) {
                break;
            }
        }
        // A miss here is no miss on the abstraction.
        for (index, status) in self.status.iter_mut().enumerate() {
            if matches!(status, Some(GoalStatus::NotCovered { .. })) {
                *status = before[index].clone();
            }
            if status.is_none() {
                self.misses[index].clear();
                self.miss_reason[index].clear();
                self.miss_beyond[index] = false;
            }
        }
    }

    /// The goals still undecided and not missed by a replay yet (only leaves, in the
    /// first round), or `None`.
    fn open(&self, leaves_only: bool) -> Option<Vec<usize>> {
        let open: Vec<usize> = (0..self.goals.len())
            .filter(|&index| {
                self.status[index].is_none()
                    && self.misses[index].is_empty()
                    && (self.goals[index].leaf || !leaves_only)
            })
            .collect();
        (!open.is_empty()).then_some(open)
    }

    /// Asks for any of `open`; false when the solver gave up on the disjunction.
    fn ask(&mut self, open: &[usize]) -> bool {
        let Some(reach) = self.check(open) else { return true };
        match reach {
            Reach::Sat(model) => {
                if !self.record(open, model, None) {
                    // A model that reaches none of the goals it was asked for would be a
                    // solver or decoder bug; deciding goal by goal still terminates.
                    return false;
                }
            }
            Reach::Unsat => {
                for &index in open {
                    self.status[index] = Some(GoalStatus::Unreachable);
                }
            }
            Reach::Unknown { .. } if open.len() > 1 => match self.session.retry_small_scope() {
                Reach::Sat(model) => return self.record(open, model, None),
                Reach::Unsat | Reach::Unknown { .. } => return false,
            },
            Reach::Unknown { reason, candidate } => {
                // The solver's best-effort model may still reach the goal: keep it as
                // a candidate (never as covered), for replay to confirm.
                let recorded = match self.after_unknown(open, candidate) {
                    Some((model, true)) => self.record(open, model, None),
                    Some((model, false)) => self.record(open, model, Some(reason.clone())),
                    None => false,
                };
                if !recorded {
                    self.status[open[0]] = Some(GoalStatus::NotCovered { reason: NotCovered::Unknown(reason) });
                }
            }
        }
        true
    }

    /// The solver's answer for `open`, or `None` when a test was recorded already. One
    /// goal gets a first look ([`Session::first_look`]), and a full check only when z3
    /// gave up there and its candidate does not make a test entering the goal (as after
    /// any `unknown` answer, such a candidate is as good as another check could give).
    fn check(&mut self, open: &[usize]) -> Option<Reach> {
        let blocks: Vec<BlockId> = open.iter().flat_map(|&index| self.goals[index].blocks()).collect();
        self.checks += 1;
        let validates = self.session.validates_candidates();
        if open.len() > 1 && !validates {
            return Some(self.session.check_reach(&blocks));
        }
        match self.session.first_look(&blocks) {
            Reach::Unknown { reason, candidate: Some(model) } if self.suffices(open, &model) => {
                self.record(open, model, Some(reason));
                None
            }
            Reach::Unknown { reason, candidate } => {
                // An axiom-heavy session's candidate is replayed as it is, as Boogie
                // reports counterexamples, and refined while its replay breaks an
                // instance of a quantified axiom or precondition: the goals its run
                // misses are asked again later, with model-based instantiation
                // ([`Enumerator::retry_missed`]).
                if validates {
                    match self.refine(open, reason, candidate) {
                        Refined::Recorded => return None,
                        Refined::Answered(reach) => return Some(reach),
                        Refined::GaveUp => {}
                    }
                }
                self.checks += 1;
                Some(self.session.look_again())
            }
            reach => Some(reach),
        }
    }

    /// Replays `candidate` (for `open`, z3 having given up with `reason`); while the
    /// replay finds it breaking a quantified axiom or precondition at a binding, that
    /// instance is asserted and the query asked again ([`crate::smt::refine`]), at most
    /// [`refine::MAX_ROUNDS`] times. A candidate whose replay breaks no instance the
    /// session can assert is recorded as [`Enumerator::record`] does.
    fn refine(&mut self, open: &[usize], mut reason: String, mut candidate: Option<Model>) -> Refined {
        for round in 0..=refine::MAX_ROUNDS {
            let Some(model) = candidate.take() else { return Refined::GaveUp };
            let claimed = self.claimed(open, &model);
            if claimed.is_empty() {
                return Refined::GaveUp;
            }
            let test = self.replay_completed(&model, &claimed);
            let instances = (test.replay.refutation.as_ref())
                .filter(|_| round < refine::MAX_ROUNDS)
                .map(|refutation| Instance::of(self.session.encoding(), refutation))
                .unwrap_or_default();
            if instances.is_empty() {
                self.record_replayed(open, &claimed, (model, test), Some(reason));
                return Refined::Recorded;
            }
            self.checks += 1;
            match self.session.refine(instances) {
                Reach::Unknown { reason: again, candidate: next } if next.is_some() => {
                    (reason, candidate) = (again, next)
                }
                // Nothing new to assert, or z3 had no candidate: the replayed one is
                // recorded (its goals missed), as without refinement.
                Reach::Unknown { .. } => {
                    self.record_replayed(open, &claimed, (model, test), Some(reason));
                    return Refined::Recorded;
                }
                reach => return Refined::Answered(reach),
            }
        }
        Refined::GaveUp
    }

    /// The replay of the candidate `model`, its open predicates decided by the solver
    /// while its run misses a goal of `claimed` ([`complete`]).
    fn replay_completed(&mut self, model: &Model, claimed: &[usize]) -> ReplayedTest {
        let (goals, input) = (self.goals, self.replayer.test_input(model));
        let enters_claimed = |test: &ReplayedTest| claimed.iter().all(|&index| test.covers.contains(&goals[index].id));
        complete::completed(self.replayer, self.session, input, enters_claimed)
    }

    /// The model to go on with after z3 gave up on `open` (one goal), and whether it is
    /// a genuine model: the candidate itself when it already makes a small test that
    /// enters its goal, else the small-scope retry's model when z3 finds one there, else
    /// the candidate. Asking the small scope only when the candidate does not do spares
    /// a second give-up on axioms no bound on the inputs tames (`forall x :: g(x) > x`:
    /// twice 25 ms, of a 50 ms budget for a whole run).
    fn after_unknown(&mut self, open: &[usize], candidate: Option<Model>) -> Option<(Model, bool)> {
        if candidate.as_ref().is_some_and(|model| self.suffices(open, model)) {
            return candidate.map(|model| (model, false));
        }
        match self.session.retry_small_scope() {
            Reach::Sat(model) => Some((model, true)),
            Reach::Unsat | Reach::Unknown { .. } => candidate.map(|model| (model, false)),
        }
    }

    /// Whether `model` is as good a test as the small scope could give: its inputs are
    /// already within its bounds, and its replay enters every goal of `open` it reaches.
    fn suffices(&self, open: &[usize], model: &Model) -> bool {
        let claimed: Vec<usize> = open.iter().copied().filter(|&index| reaches(model, &self.goals[index])).collect();
        if claimed.is_empty() || !model.is_small(SMALL_SCOPE_BOUND) {
            return false;
        }
        let test = self.replayer.replay_candidate(model);
        matches!(test.replay.outcome, Outcome::Passed | Outcome::Failed(_))
            && claimed.iter().all(|&index| test.covers.contains(&self.goals[index].id))
    }

    /// Goals a model claimed but its replay missed (a path through a cut loop or a
    /// contract the real run does not follow): asked alone, with the entry values of the
    /// failed models excluded (and, for a miss past the unrolling bound, the iterations
    /// past it), until a replay enters them or the attempts run out. An `Unsat` here
    /// proves nothing (the exclusions are not the program's). In a session that
    /// validates candidates they are "replay missed" at once, for the exact unrollings
    /// (`super::deepen`).
    fn retry_missed(&mut self) {
        if self.session.validates_candidates() {
            // z3 answers such a retry under E-matching alone with a candidate like the
            // first: the exact unrollings (`deepen`) ask the goal again instead.
            for index in 0..self.goals.len() {
                if self.status[index].is_none() {
                    self.give_up(index);
                }
            }
        }
        while let Some(index) = (0..self.goals.len()).find(|&index| self.status[index].is_none()) {
            self.checks += 1;
            let blocks: Vec<BlockId> = self.goals[index].blocks().collect();
            // A goal missed past the bound is asked on the exact unrolling: paths
            // through the abstraction of later iterations are cut.
            let forbid: &[BlockId] = if self.miss_beyond[index] { &self.beyond } else { &[] };
            match self.session.check_reach_restricted(&blocks, &self.misses[index], forbid) {
                Reach::Sat(model) => {
                    if !self.record(&[index], model, None) {
                        self.give_up(index);
                    }
                }
                Reach::Unsat => self.give_up(index),
                // The solver gave up on the retry, and on it in the small scope: the goal
                // is undecided, and the run incomplete, whatever the earlier replays missed.
                Reach::Unknown { reason, .. } => {
                    let recorded = match self.session.retry_small_scope() {
                        Reach::Sat(model) => self.record(&[index], model, None),
                        Reach::Unsat | Reach::Unknown { .. } => false,
                    };
                    if !recorded {
                        self.status[index] = Some(GoalStatus::NotCovered { reason: NotCovered::Unknown(reason) });
                    }
                }
            }
        }
    }

    fn give_up(&mut self, index: usize) {
        let missed = self.miss_reason[index].clone();
        let reason = if self.miss_beyond[index] {
            NotCovered::BeyondBound { bound: self.replayer.unrolled.bound, reason: missed }
        } else {
            NotCovered::ReplayMissed(missed)
        };
        self.status[index] = Some(GoalStatus::NotCovered { reason });
    }

    fn ask_one_by_one(&mut self, open: &[usize]) {
        for &index in open {
            if self.status[index].is_none() {
                self.ask(&[index]);
                if self.status[index].is_none() && self.misses[index].is_empty() {
                    let reason = NotCovered::Unknown("the model reached none of the goals asked for".to_string());
                    self.status[index] = Some(GoalStatus::NotCovered { reason });
                }
            }
        }
    }

    /// `model`, or a model of its path with small values ([`Session::minimize`])
    /// when its replay still enters every goal in `claimed`; with the replay of the one
    /// returned. Minimizing first also makes replay cheap: a raw model's loop bound of
    /// 11,208 runs the loop, and checks its invariants, that many times.
    fn smallest(&mut self, model: Model, claimed: &[usize], confirmed: bool) -> (Model, ReplayedTest) {
        if self.strategy.minimize && confirmed {
            if let Some(small) = self.session.minimize(&model.path) {
                let test = self.replayer.replay(&small);
                if claimed.iter().all(|&index| test.covers.contains(&self.goals[index].id)) {
                    return (small, test);
                }
            }
        }
        let test = if confirmed { self.replayer.replay(&model) } else { self.replay_completed(&model, claimed) };
        (model, test)
    }

    /// Replays `model`: the goals the run enters are covered (the test is kept when one
    /// of them was open); the targets the model reaches but the run misses are closed as
    /// "replay missed". False if the model reaches none of `targets`.
    fn record(&mut self, targets: &[usize], model: Model, unconfirmed: Option<String>) -> bool {
        let claimed = self.claimed(targets, &model);
        if claimed.is_empty() {
            return false;
        }
        let replayed = self.smallest(model, &claimed, unconfirmed.is_none());
        self.record_replayed(targets, &claimed, replayed, unconfirmed);
        true
    }

    /// The goals of `targets` `model` reaches.
    fn claimed(&self, targets: &[usize], model: &Model) -> Vec<usize> {
        targets.iter().copied().filter(|&index| reaches(model, &self.goals[index])).collect()
    }

    /// [`Enumerator::record`] of `model` claiming `claimed`, replayed as `test`.
    fn record_replayed(
        &mut self,
        targets: &[usize],
        claimed: &[usize],
        (model, test): (Model, ReplayedTest),
        unconfirmed: Option<String>,
    ) {
        let covers = self.entered(&test);
        let useful = self.cover(&covers);
        for &index in claimed.iter().filter(|&index| !covers.contains(index)) {
            if self.status[index].is_none() {
                self.misses[index].push(model.entry.clone());
                self.miss_reason[index] = self.replayer.describe(&test.replay);
                self.miss_beyond[index] = self.replayer.beyond_bound(&model);
                if self.misses[index].len() >= MAX_REPLAY_ATTEMPTS {
                    self.give_up(index);
                }
            }
        }
        if useful {
            // Map entries the run does not depend on go (replay-checked).
            let test = if self.shrinks_now() { self.replayer.shrink(test) } else { test };
            // No search around a test of a session that validates candidates: its
            // neighbours' replays cost as much as its own, found no goal on Boogie's
            // havoc0 driver models, and held back the exact unrollings (`deepen`), which
            // decide the goals of loop bodies there (`KeyboardClassUnload`: 13 goals
            // within three times Boogie's time where it decided 9).
            let seed = (self.strategy.search && !self.session.validates_candidates())
                .then(|| (test.input.clone(), test.replay.steps));
            self.candidates.push(Candidate { targets: targets.to_vec(), covers, unconfirmed, test });
            let kept = self.candidates.len() - 1;
            if let Some((seed, steps)) = seed {
                self.explore(seed, steps);
            }
            if self.strategy.search {
                self.flip_cells(kept);
            }
        } else if self.strategy.search
            && !self.session.validates_candidates()
            && !matches!(test.replay.outcome, Outcome::BudgetExhausted(_))
        {
            // A model that claimed a goal its replay missed (the solver went past a loop
            // through its invariants) still points near it: the goal may be a few
            // steps from its input. Not so a candidate z3 gave under E-matching alone
            // (a session that validates candidates): its tables break the axioms, and so
            // do its neighbours'.
            self.explore(test.input, test.replay.steps);
        }
    }

    /// The goals `test`'s run enters; none when the run is no execution. A run stopped
    /// at a check the interpreter cannot decide was an execution up to it: the goals it
    /// entered count, and the suite records the check as `unchecked` with the reason.
    ///
    /// A run whose tables break an axiom or precondition only where it does not read
    /// them ([`crate::interp::Replay::beyond_reads`]) counts only in a session that
    /// validates candidates (an axiom-heavy encoding, whose checks z3 answers with
    /// candidates alone): elsewhere z3's full check gives models that satisfy every
    /// axiom, and a test whose checks replay decided is worth another check.
    fn entered(&self, test: &ReplayedTest) -> Vec<usize> {
        if test.replay.beyond_reads && !self.session.validates_candidates() {
            return Vec::new();
        }
        match test.replay.outcome {
            Outcome::Passed | Outcome::Failed(_) | Outcome::Infeasible(_) | Outcome::CannotEvaluate(_) => {
                goal_indices(self.goals, &test.covers)
            }
            Outcome::Invalid(_) | Outcome::ReplayError { .. } | Outcome::BudgetExhausted(_) => Vec::new(),
        }
    }

    /// Closes the goals of `covers` still open as covered by the next test; whether
    /// there was one (the test is then worth keeping).
    fn cover(&mut self, covers: &[usize]) -> bool {
        let number = self.candidates.len();
        let mut useful = false;
        for &index in covers {
            if !self.status[index].as_ref().is_some_and(GoalStatus::is_closed) {
                self.status[index] = Some(GoalStatus::Covered { test: number });
                useful = true;
            }
        }
        useful
    }

    /// Searches around `seed` ([`super::search`]): each neighbour whose run enters a goal
    /// still open is kept as a test and searched around in turn, breadth first, until
    /// [`stall_limit`] replays in a row enter none, every goal is closed, or the run's
    /// time is up. A step that found a test is first taken again from it, while that
    /// keeps finding tests ([`Enumerator::follow`]). When no neighbour of `seed` itself
    /// enters an open goal, `seed` sits on a plateau (`n = 0` and `n = 1` both skip a
    /// loop that `n = 2` enters), so its neighbours are searched around once, as if they
    /// had been found: a goal two steps away is still cheaper than a check.
    fn explore(&mut self, seed: TestInput, steps: u64) {
        let mut next = Some((seed, steps));
        while let Some((seed, steps)) = next.take() {
            let budget = search_budget(steps);
            self.explore_around(seed.clone(), budget);
            next = self.climb(seed, budget);
        }
    }

    /// [`Enumerator::explore`]'s breadth-first search around `seed`, each run within
    /// `budget` steps.
    fn explore_around(&mut self, seed: TestInput, budget: u64) {
        let mut seeds = VecDeque::new();
        let mut stalled = 0;
        let fruitless = self.search_around(&seed, budget, &mut seeds, &mut stalled);
        if seeds.is_empty() {
            seeds.extend(fruitless.iter().filter_map(|step| Some((self.take(&seed, step)?, budget))));
        }
        while let Some((seed, budget)) = seeds.pop_front() {
            if stalled >= self.stall_limit || self.search_done() {
                return;
            }
            self.search_around(&seed, budget, &mut seeds, &mut stalled);
        }
    }

    /// Runs the neighbours of `seed` (within `budget` steps each) until the search is
    /// done or has stalled; queues each test found, and those that taking its step
    /// again finds. Returns the steps that found none.
    fn search_around(
        &mut self,
        seed: &TestInput,
        budget: u64,
        seeds: &mut VecDeque<(TestInput, u64)>,
        stalled: &mut usize,
    ) -> Vec<search::Step> {
        let mut fruitless = Vec::new();
        let shape = self.shape(seed);
        for step in search::steps_from(seed, &shape) {
            if *stalled >= self.stall_limit || self.search_done() {
                break;
            }
            let Some(input) = search::take(seed, &step, &shape) else { continue };
            match self.try_neighbour(input, budget) {
                Some((found, steps)) => {
                    *stalled = 0;
                    let budget = search_budget(steps);
                    seeds.push_back((found.clone(), budget));
                    seeds.extend(self.follow(found, &step, budget));
                }
                None => {
                    *stalled += 1;
                    fruitless.push(step);
                }
            }
        }
        fruitless
    }

    /// Takes `step` again and again from `from`, while each run enters a goal still
    /// open: `n + 1` after `n + 1`, an entry moved one key further each time, one more
    /// entry continuing a run of values, the next iteration's exit each time. The tests
    /// found, each a seed for the breadth-first search with its step budget.
    fn follow(&mut self, from: TestInput, step: &search::Step, budget: u64) -> Vec<(TestInput, u64)> {
        let mut found = Vec::new();
        let (mut current, mut budget) = (from, budget);
        while !self.search_done() {
            let Some(next) = self.take(&current, step) else { break };
            let Some((test, steps)) = self.try_neighbour(next, budget) else { break };
            budget = search_budget(steps);
            found.push((test.clone(), budget));
            current = test;
        }
        found
    }

    /// `seed`'s neighbour by `step`, if it has one.
    fn take(&self, seed: &TestInput, step: &search::Step) -> Option<TestInput> {
        search::take(seed, step, &self.shape(seed))
    }

    /// What the search needs to know of `seed`'s values; it borrows nothing of the
    /// enumerator, so it lasts while tests are run.
    fn shape(&self, seed: &TestInput) -> search::Shape<'a> {
        search::Shape { types: self.replayer.value_types(seed), branches: self.branches }
    }

    /// Replays `input`; when its run enters a goal still open, keeps it as a test and
    /// returns its input (its trace completed by the run) and the steps the run took.
    /// Most neighbours enter none, which a run without checks, in at most `budget`
    /// steps, tells first ([`Replayer::may_enter`]): a loop invariant quantified over
    /// pairs of cells costs a replay of `bubble_sort` with `n = 30` some 40 ms when
    /// checked.
    fn try_neighbour(&mut self, input: TestInput, budget: u64) -> Option<(TestInput, u64)> {
        match self.replayer.may_enter(&input, budget) {
            Prospect::AtMost(entered) => {
                let mut here = entered.into_iter().filter_map(|index| self.replayed_goals[index]);
                if here.all(|index| self.status[index].is_some()) {
                    return None;
                }
            }
            Prospect::TooLong => return None,
            Prospect::Unknown => {}
        }
        let test = self.replayer.run(input);
        let covers = self.entered(&test);
        let open: Vec<usize> = covers.iter().copied().filter(|&index| self.status[index].is_none()).collect();
        if open.is_empty() {
            return None;
        }
        self.cover(&covers);
        let found = (test.input.clone(), test.replay.steps);
        self.candidates.push(Candidate { targets: open, covers, unconfirmed: None, test });
        Some(found)
    }

    /// Branch-distance guidance (search-based testing: Korel; McMinn's survey), when the
    /// neighbourhood search around `seed` leaves goals open: a step whose run brings the
    /// guard of an open goal's branch closer to holding ([`crate::interp::Replay::distances`],
    /// `r > 10` from `r = 4` to `r = 6`) is taken, and taken again while it keeps doing
    /// so, before it enters the goal; a goal a few comparisons away is then found by
    /// replay, without the solver. Ends when a run enters an open goal (that test, kept,
    /// and its steps: the search goes on around it), when no step brings a guard closer,
    /// or after [`CLIMB_REPLAYS`] replays.
    fn climb(&mut self, seed: TestInput, budget: u64) -> Option<(TestInput, u64)> {
        let mut replays = 0;
        let mut current = seed;
        let mut distance = self.open_distance(&current, budget)?;
        while replays < CLIMB_REPLAYS && !self.search_done() {
            let shape = self.shape(&current);
            let mut closer = None;
            for step in search::steps_from(&current, &shape) {
                let Some(next) = search::take(&current, &step, &shape) else { continue };
                replays += 1;
                match self.closer(next, budget, &distance) {
                    Climb::Entered(found) => return Some(found),
                    Climb::Closer(next, nearer) => {
                        closer = Some((step, next, nearer));
                        break;
                    }
                    Climb::NoCloser if replays >= CLIMB_REPLAYS => return None,
                    Climb::NoCloser => {}
                }
            }
            let (step, next, nearer) = closer?;
            (current, distance) = (next, nearer);
            // The same step again, while it brings the guard closer.
            while replays < CLIMB_REPLAYS {
                let Some(next) = self.take(&current, &step) else { break };
                replays += 1;
                match self.closer(next, budget, &distance) {
                    Climb::Entered(found) => return Some(found),
                    Climb::Closer(next, nearer) => (current, distance) = (next, nearer),
                    Climb::NoCloser => break,
                }
            }
        }
        None
    }

    /// `input` run: whether it enters an open goal (then kept as a test), or else brings
    /// the guard of one closer than `distance`.
    fn closer(&mut self, input: TestInput, budget: u64, distance: &BigInt) -> Climb {
        if let Some(found) = self.try_neighbour(input.clone(), budget) {
            let (input, steps) = self.shrink_last().unwrap_or(found);
            return Climb::Entered((input, steps));
        }
        match self.open_distance(&input, budget) {
            Some(nearer) if nearer < *distance => Climb::Closer(input, nearer),
            _ => Climb::NoCloser,
        }
    }

    /// The test just kept, shrunk when inputs are minimized (a climb doubles its way to a
    /// guard, past the value it needs); its input and steps.
    fn shrink_last(&mut self) -> Option<(TestInput, u64)> {
        if !self.shrinks_now() {
            return None;
        }
        let mut last = self.candidates.pop()?;
        last.test = self.replayer.shrink(last.test);
        let found = (last.test.input.clone(), last.test.replay.steps);
        self.candidates.push(last);
        Some(found)
    }

    /// The smallest branch distance of an open goal's guard on a run of `input`.
    fn open_distance(&self, input: &TestInput, budget: u64) -> Option<BigInt> {
        self.replayer.open_distance(input, budget, &self.open_replayed())
    }

    /// The goals still open, as indices into the replayer's goals.
    fn open_replayed(&self) -> Vec<usize> {
        (0..self.replayed_goals.len())
            .filter(|&index| self.replayed_goals[index].is_some_and(|here| self.status[here].is_none()))
            .collect()
    }

    /// Cell flips (`interp/flips.rs`) from the tests kept from the `from`-th on, each
    /// test they find flipped in turn: the test with one variable it sets (or a cell of
    /// one) that the guard of an open goal's branch compares set to the value the guard
    /// wants, at most [`MAX_FLIPS`] per test. A branch on a cell the test sets only through its map's
    /// default (a driver model's `Mem[T.PnP][PnP(data)] != 0`) is then entered by
    /// replay, where no search step reaches it and the solver's candidates break the
    /// axioms.
    fn flip_cells(&mut self, from: usize) {
        let mut next = from;
        while next < self.candidates.len() && !self.search_done() {
            let test = &self.candidates[next].test;
            let budget = search_budget(test.replay.steps);
            for flipped in self.replayer.flipped(test, &self.open_replayed()).into_iter().take(MAX_FLIPS) {
                if self.search_done() {
                    return;
                }
                self.try_neighbour(flipped, budget);
            }
            next += 1;
        }
    }

    /// Input-to-state correspondence before a check ([`super::operands`]): each test
    /// not observed yet is run once more, recording the operands of its comparisons, and
    /// its candidates (an integer set to the value it was compared with) are tried as
    /// neighbours; a test found is observed in turn. Ends as a search does, after
    /// [`stall_limit`] fruitless replays in a row. Whether it found a test.
    fn try_operands(&mut self) -> bool {
        let mut seeds: VecDeque<(TestInput, u64)> = self.candidates[self.observed..]
            .iter()
            .map(|candidate| (candidate.test.input.clone(), candidate.test.replay.steps))
            .collect();
        let found_before = self.candidates.len();
        let (mut stalled, mut found_here) = (0, Vec::new());
        // Its searches are short: a replacement lands on a goal or next to one.
        let short = self.stall_limit.min(OPERANDS_STALL);
        let stall_limit = std::mem::replace(&mut self.stall_limit, short);
        'seeds: while let Some((seed, steps)) = seeds.pop_front() {
            let budget = search_budget(steps);
            for input in operands::candidates(&seed, &self.replayer.observe(&seed, budget)) {
                if stalled >= self.stall_limit || self.search_done() {
                    break 'seeds;
                }
                match self.try_neighbour(input, budget) {
                    Some(found) => {
                        stalled = 0;
                        found_here.push(found);
                    }
                    None => stalled += 1,
                }
            }
            // As every new test, those found are searched around (a perfect square's
            // neighbour leaves the bisection by its exit after as many iterations).
            for (found, steps) in found_here.drain(..) {
                seeds.push_back((found.clone(), steps));
                if self.strategy.search {
                    self.explore(found, steps);
                }
            }
        }
        self.observed = self.candidates.len();
        self.stall_limit = stall_limit;
        self.candidates.len() > found_before
    }

    /// Whether a new test is shrunk when it is kept ([`super::shrink`]), rather than once
    /// the goals are decided ([`Enumeration::shrink_deferred`]): in a session that
    /// validates candidates, a test's replay evaluates the axioms its run reads, and
    /// shrinking one of havoc0's driver models (64 replays of 25 to 35 ms) took 1.3 to
    /// 2 s, the time of a hundred first looks, before the next goal was asked.
    fn shrinks_now(&self) -> bool {
        self.strategy.minimize && !self.session.validates_candidates()
    }

    /// Whether a search has nothing left to do: every goal is decided, or the run's time
    /// is up.
    fn search_done(&self) -> bool {
        self.status.iter().all(Option::is_some) || self.out_of_time()
    }

    /// Whether the run's time limit has passed.
    fn out_of_time(&self) -> bool {
        self.session.deadline().is_some_and(|end| Instant::now() >= end)
    }
}
