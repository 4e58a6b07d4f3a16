//! One incremental z3 session per implementation: the VC is asserted once, then each
//! query is a check under an assumption.
//!
//! Input: an [`Encoding`]. Output: for each query, [`Reach::Sat`] with a decoded
//! [`Model`], [`Reach::Unsat`], or [`Reach::Unknown`] with the reason.
//!
//! **A thread per session.** The z3 crate keeps one z3 context per thread, and z3's
//! answers depend on the context's history (AST ids, hash tables). Were sessions to
//! share a thread's context, the models of one procedure would change with what was
//! solved before it: an edit to one procedure could change another's tests, and the
//! order of a parallel run would leak into the suite. So each session owns a worker
//! thread, hence a fresh context; the handle talks to it over channels. This also makes
//! sessions of different procedures run in parallel for free.
//!
//! **Queries.** `check_reach(goals)` asks for an execution reaching the start of one of
//! `goals` (the disjunction: CBMC-style, one check per test, the caller reads the model's
//! whole path for collateral coverage, seeds/000). Each query gets a fresh guard literal
//! `%query@n`: the session asserts `%query@n ⇒ goal` and checks under the assumption
//! `%query@n`, then asserts `¬%query@n` to retire the clause; the VC itself is never
//! asserted again.
//!
//! **First look.** A query for one goal is first checked with at most
//! [`FIRST_LOOK_MBQI_ITERATIONS`] rounds of model-based quantifier instantiation
//! ([`Session::first_look`]). z3 consults that bound only when a round would pass it, so
//! a `sat` or `unsat` answer within it is the full check's, search for search; an
//! `unknown` one carries the candidate z3 had then, which the caller replays and, when
//! it does not make a test entering the goal, asks for again with every round
//! ([`Session::look_again`]). Only replay can judge a candidate, so the caller decides;
//! a query for several goals never uses its candidate and is checked in full at once
//! (a first look there was seen to cost `corpus/sc/`'s bubble sort a goal).
//!
//! **Axiom-heavy encodings.** An encoding with [`AXIOM_HEAVY_QUANTIFIERS`] quantifiers or
//! more is solved with Boogie 2.4.1's configuration of z3 ([`Profile::AxiomHeavy`]), and
//! its first look at every query, of one goal or several, uses E-matching alone
//! ([`Profile::EMatchingOnly`], Boogie's `smt.mbqi=false`): z3 answers `unsat` (a proof)
//! or `unknown` with a candidate that may break an axiom, which the caller replays, as
//! Dafny's test generation validates Boogie's counterexamples; model-based
//! instantiation comes only with [`Session::look_again`] and the retries of goals a
//! replay missed ([`Session::validates_candidates`]), and never over maps encoded
//! without the array theory ([`Profile::checking`]).
//!
//! **Proofs.** Every `unsat` answer passes [`Worker::vouch`]: at the first, the
//! session's [`Footing`] is found ([`super::footing`]); with axioms and precondition
//! that refute themselves by their triggers no answer is `unsat`, and a refutation
//! found with model-based instantiation, of axioms z3 has no model of, is a proof only
//! when E-matching alone finds it again. A check of `verify` in an encoding with
//! quantifiers is asked by E-matching first ([`Worker::by_triggers_first`]), as Boogie
//! asks it.
//!
//! **First iterations.** A query may be asked by executions that start each loop they
//! enter in the state they enter it with ([`Session::first_look_first_iterations`]):
//! the state a loop's invariant abstraction chooses is then the first iteration's, the
//! real run's, so a candidate's replay follows it into the loop's body where one through
//! the abstraction of a later iteration leaves it at the loop's head.
//!
//! **Simple maps.** An axiom-heavy session's first look also assumes its map inputs
//! simple (entry maps constant, a call's modified maps changed at one index at most),
//! dropping what unsat cores blame ([`super::simple_maps`]), and its small integer
//! ranges of quantifiers are expanded once ([`super::ranges`]).
//!
//! **Refinement.** In an axiom-heavy session the caller may answer a candidate whose
//! replay breaks a quantified axiom or precondition at a binding with that instance
//! ([`Session::refine`], [`super::refine`]): asserted for good (it is implied), then
//! the last query asked again as a first look.
//!
//! **Small scope.** A query z3 answers `unknown` can be asked once more with every
//! integer input within `±10` ([`check_small_scope`]); a `sat` answer there is a model
//! like any other. A reachability query is retried when the caller asks
//! ([`Session::retry_small_scope`]: only replay tells whether the candidate model of the
//! `unknown` answer already makes a test), a failure of `verify` at once. Past
//! [`MAX_SMALL_SCOPE_FAILURES`] retries that did not help, a session stops.
//!
//! **Start-up cost** (the target: a whole run of a small program under 50 ms). A session's fixed cost is z3's:
//! a fresh context touches some 17 MB of fresh memory (about 4,400 page faults in 4 KiB
//! pages, 15 ms of system time on the benchmark machine), and z3's default solver builds
//! its whole default tactic the first time it is used (30 million instructions, 6–8 ms),
//! for a non-incremental mode that checks under assumptions never enter.
//! [`configure_process`], once per process, spares the tactic and keeps freed memory;
//! each worker thread advises its arena for huge pages before its context exists
//! ([`super::memory`]). The solver that answers is the same.
//!
//! **Determinism.** Fixed `random_seed`; the same encoding and the same queries in the
//! same order give the same models. `rlimit` bounds each check by z3's deterministic
//! resource counter (z3 4.8.12 ignores the wall-clock `timeout` in nonlinear integer
//! arithmetic, but honours `rlimit`); `timeout` is the wall-clock safety net; a bound on
//! model-based quantifier instantiation rounds keeps axioms z3 cannot model from eating
//! the whole timeout, and `unknown` answers carry z3's candidate model (Boogie's
//! behaviour: a counterexample that may violate an axiom, to be checked by replay).

use super::closed_points;
use super::detach;
use super::footing::{self, Footing};
use super::ground::{Oracle, Question, GROUND_RLIMIT};
use super::interrupt::{self, Watchdog};
use super::memory;
use super::minimize::Minimizer;
use super::model::{decode, decode_candidate};
use super::ranges;
use super::refine::{self, Grounding, Instance};
use super::simple_maps::SimpleMaps;
use super::translate::{MapEncoding, Z3Terms};
use crate::cfg::BlockId;
use crate::vc::{Assignment, Encoding, FailureId, InputKind, Model, Value};
use std::sync::mpsc;
use std::sync::{Arc, Once};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use z3::ast::{Bool, Dynamic, Int};
use z3::{Params, SatResult, Solver};

/// Solver settings of a [`Session`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SessionOptions {
    /// Wall-clock limit per check, in milliseconds (z3's `timeout`).
    pub timeout_ms: Option<u32>,
    /// Deterministic resource limit per check (z3's `rlimit`).
    pub rlimit: Option<u32>,
    /// z3's `random_seed`.
    pub random_seed: u32,
    /// How many model-based quantifier instantiation rounds z3 may try before it answers
    /// `unknown` (`mbqi.max_iterations`). z3's default, 1000, turns a simple axiom such
    /// as `forall x :: g(x) > x` into a 20 s search that fails anyway (100 rounds: 2.5 s,
    /// 10 rounds: 35 ms, z3 4.8.12); axioms z3 can model (`g(x) >= 0`, finite types)
    /// need a few rounds.
    pub mbqi_max_iterations: u32,
    /// The whole run's end (`--time-limit`): each check's `timeout` is cut to the time
    /// left, and once it has passed a query is answered `unknown` ([`TIME_LIMIT`])
    /// without asking z3, so a run over its limit ends in milliseconds, its open goals
    /// "not covered" with that reason.
    pub deadline: Option<Instant>,
}

/// The reason of an `unknown` answer given because the run's `--time-limit` had passed.
pub const TIME_LIMIT: &str = "the run's time limit was reached";

impl Default for SessionOptions {
    fn default() -> SessionOptions {
        SessionOptions {
            timeout_ms: Some(10_000),
            rlimit: None,
            random_seed: 0,
            mbqi_max_iterations: 10,
            deadline: None,
        }
    }
}

/// The answer to a query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reach {
    /// An execution doing what was asked, with its inputs.
    Sat(Model),
    /// No execution does (of the encoded program: see [`crate::vc::Abstraction`]).
    Unsat,
    /// The solver gave up: `reason` is `"timeout"`, `"resource limit"`, or z3's own (e.g.
    /// `incomplete quantifiers`); `candidate` is the model z3 was looking at, if it has
    /// one: every ground constraint holds in it but some quantified axiom may not, so it
    /// is a candidate test for replay, as Boogie reports counterexamples from `unknown`.
    Unknown { reason: String, candidate: Option<Model> },
}

impl Reach {
    /// The answer to a query the run's time limit cut off ([`TIME_LIMIT`]).
    fn past_time_limit() -> Reach {
        Reach::Unknown { reason: TIME_LIMIT.to_string(), candidate: None }
    }
}

enum Request {
    Reach {
        goals: Vec<BlockId>,
        avoid: Vec<Vec<Assignment>>,
        forbid: Vec<BlockId>,
        rounds: Rounds,
        /// By executions in the first iteration of every loop they enter.
        first: bool,
    },
    /// The last `Reach` query again, with all rounds.
    Again,
    /// The last `Reach` query again, in the small scope.
    SmallScope,
    Failure(FailureId),
    /// A check asked for a proof only: no small-scope retry.
    Proof(FailureId),
    /// Instances asserted, then the last `Reach` query again (a first look).
    Refine(Vec<Instance>),
    /// Instances asserted, then the check again as `SimplestFailure` does.
    RefineFailure(FailureId, Vec<Instance>),
    /// A check by E-matching alone with the entry maps wished simple.
    SimplestFailure(FailureId),
    Minimize {
        path: Vec<BlockId>,
    },
    /// Predicates at concrete points, decided by the axioms ([`super::ground`]).
    Decide(Vec<Question>),
    /// The session's footing, if an `unsat` answer made it look.
    Footing,
}

/// The worker's reply to a [`Request`].
enum Reply {
    Reach(Reach),
    Decided(Vec<Option<bool>>),
    Footing(Option<Footing>),
}

/// How many rounds of model-based quantifier instantiation a check may take.
#[derive(Clone, Copy)]
enum Rounds {
    /// [`SessionOptions::mbqi_max_iterations`].
    All,
    /// At most [`FIRST_LOOK_MBQI_ITERATIONS`].
    FirstLook,
}

/// The rounds of model-based quantifier instantiation of a first look: axioms z3 can
/// model (finite types, `g(x) >= 0`) take one or two; on one it cannot (`forall x ::
/// g(x) > x`) each further round only adds a point to a table replay does not read, at
/// about a millisecond each (half of `types_axioms`' `Grow`).
pub const FIRST_LOOK_MBQI_ITERATIONS: u32 = 2;

/// How a session configures z3, chosen from its encoding ([`Profile::of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Profile {
    /// z3's own configuration (`auto_config`), model-based quantifier instantiation
    /// bounded by [`SessionOptions::mbqi_max_iterations`].
    Default,
    /// Boogie 2.4.1's configuration of z3 (`Source/Provers/SMTLib/Z3.cs`), for encodings
    /// with [`AXIOM_HEAVY_QUANTIFIERS`] quantifiers or more: no automatic
    /// configuration, relevancy-based case splits, no restart on each learned unit,
    /// eager instantiation of every quantifier match up to cost 100. On a driver model
    /// of 372 axioms (Boogie's `Test/havoc0`) z3 answers a reachability query in
    /// seconds with it and does not answer within a minute without it; each of
    /// `auto_config=false`, `case_split=3` and `delay_units=true` is needed (measured
    /// with the z3 4.8.12 binary on the dumped encoding).
    AxiomHeavy,
    /// [`Profile::AxiomHeavy`] without model-based quantifier instantiation (Boogie's
    /// `smt.mbqi=false`): E-matching only, as Boogie looks for counterexamples. z3
    /// then answers `unsat` (a proof: instantiation is only ever sound) or `unknown`
    /// with a candidate model that may violate an axiom, for replay to judge: the
    /// first look of an axiom-heavy session.
    EMatchingOnly,
}

/// The number of quantified terms from which an encoding is [`Profile::AxiomHeavy`]. The
/// programs of `corpus/` have at most 26 in an implementation (sorting programs with
/// quantified invariants, where z3's own configuration and model-based instantiation
/// serve well); the driver models of Boogie's `Test/havoc0` have 600 and more.
const AXIOM_HEAVY_QUANTIFIERS: usize = 100;

impl Profile {
    fn of(encoding: &Encoding) -> Profile {
        if encoding.terms.count_quantifiers() >= AXIOM_HEAVY_QUANTIFIERS {
            Profile::AxiomHeavy
        } else {
            Profile::Default
        }
    }

    /// How the profile's sessions encode maps ([`MapEncoding::for_encoding`] keeps the
    /// arrays for an encoding with a lambda): an axiom-heavy one as Boogie 2.4.1 does
    /// without the array theory, which z3 answers Boogie's queries on the driver models
    /// with 25 times faster (0.8 s against 20.7 s on the queries of
    /// `Test/havoc0/KeyboardClassFindMorePorts.bpl`, Boogie's own encoding each way).
    fn maps(self) -> MapEncoding {
        match self {
            Profile::Default => MapEncoding::Arrays,
            Profile::AxiomHeavy | Profile::EMatchingOnly => MapEncoding::Uninterpreted,
        }
    }

    /// The profile a session's checks run with once its maps are encoded `maps`: over
    /// uninterpreted maps an axiom-heavy session never uses model-based instantiation,
    /// as Boogie 2.4.1, whose encoding of maps this is, never does. E-matching alone
    /// answers `unsat` or gives candidates for replay to judge, as the first looks do;
    /// the driver models of Boogie's `Test/havoc0` decide as much either way, and a
    /// Viper heap of `Test/monomorphize/viper` leaves 2 checks undecided where the
    /// arrays with model-based instantiation left 32. (Model-based instantiation there
    /// was also where z3 4.8.12 ended the process under the step bound that
    /// [`super::interrupt`] explains.)
    fn checking(self, maps: MapEncoding) -> Profile {
        match (self, maps) {
            (Profile::AxiomHeavy, MapEncoding::Uninterpreted) => Profile::EMatchingOnly,
            _ => self,
        }
    }

    /// The profile's solver parameters, beside those of [`SessionOptions`]: Boogie's
    /// (its `nnf.sk_hack` and `type_check` are not solver parameters, and z3 ignores a
    /// whole set with one it does not know).
    fn set(self, params: &mut Params) {
        // For the default profile, z3's own defaults, stated: z3 keeps a parameter a
        // solver was once given, so a session of this profile back from a check by
        // E-matching alone (`Worker::vouch`) must be given them again.
        let boogie = self != Profile::Default;
        let pick = |default, axiom_heavy| if boogie { axiom_heavy } else { default };
        params.set_bool("auto_config", !boogie);
        params.set_u32("phase_selection", pick(3, 0));
        params.set_u32("restart_strategy", pick(1, 0));
        params.set_f64("restart_factor", if boogie { 1.5 } else { 1.1 });
        params.set_bool("arith.random_initial_value", boogie);
        params.set_u32("case_split", pick(1, 3));
        params.set_bool("delay_units", boogie);
        params.set_f64("qi.eager_threshold", if boogie { 100.0 } else { 10.0 });
        params.set_bool("mbqi", self != Profile::EMatchingOnly);
    }
}

/// A z3 solver holding one [`Encoding`]; see the module documentation.
pub struct Session {
    encoding: Arc<Encoding>,
    profile: Profile,
    deadline: Option<Instant>,
    requests: Option<mpsc::Sender<Request>>,
    replies: mpsc::Receiver<Reply>,
    worker: Option<JoinHandle<()>>,
    /// Closed by the worker thread as it ends, after its z3 context is freed
    /// ([`announce_exit`]).
    finished: mpsc::Receiver<()>,
    /// The worker did not answer by the deadline's margin and was left to itself
    /// ([`super::detach`]): every later query is answered [`TIME_LIMIT`] at once.
    abandoned: bool,
}

impl Session {
    /// Starts a session; the encoding is asserted (once) by the worker before it answers
    /// the first query.
    pub fn new(encoding: Arc<Encoding>, options: SessionOptions) -> Session {
        configure_process();
        let (requests, inbox) = mpsc::channel();
        let (outbox, replies) = mpsc::channel();
        let profile = Profile::of(&encoding);
        let (finishing, finished) = mpsc::channel::<()>();
        let shared = Arc::clone(&encoding);
        let worker = std::thread::Builder::new()
            .name(format!("smt:{}", encoding.name))
            .spawn(move || {
                announce_exit(finishing);
                serve(&shared, (options, profile), inbox, outbox);
            })
            .expect("the system can start a solver thread");
        let deadline = options.deadline;
        let worker = Some(worker);
        Session { encoding, profile, deadline, requests: Some(requests), replies, worker, finished, abandoned: false }
    }

    pub fn encoding(&self) -> &Encoding {
        &self.encoding
    }

    /// Whether the session is [`Profile::AxiomHeavy`]: every query, of one goal or
    /// several, deserves a [`Session::first_look`], and its candidate a replay, before a
    /// full check.
    pub fn validates_candidates(&self) -> bool {
        self.profile == Profile::AxiomHeavy
    }

    /// When the run's time limit ends, if it has one: work done beside the session (a
    /// search by replay) stops then too.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// An execution reaching the start of one of `goals`; `Unsat` when `goals` is empty.
    pub fn check_reach(&mut self, goals: &[BlockId]) -> Reach {
        self.reach(goals, Rounds::All, false)
    }

    /// [`Session::check_reach`] with at most [`FIRST_LOOK_MBQI_ITERATIONS`] rounds of
    /// model-based quantifier instantiation (see the module documentation): a `sat` or
    /// `unsat` answer is the one `check_reach` gives, an `unknown` one may come sooner.
    pub fn first_look(&mut self, goals: &[BlockId]) -> Reach {
        self.reach(goals, Rounds::FirstLook, false)
    }

    /// [`Session::first_look`] by executions that start every loop they enter in the
    /// state they enter it with: the state each loop's invariant abstraction chooses is
    /// its first iteration's ([`crate::vc::Input::before`]). Such an execution passes
    /// no abstraction of a loop before its back edge, so its replay follows it through
    /// the first iteration; an `Unsat` answer says only that no execution reaches a goal
    /// in the first iteration of the loops on its way (or with none).
    pub fn first_look_first_iterations(&mut self, goals: &[BlockId]) -> Reach {
        self.reach(goals, Rounds::FirstLook, true)
    }

    fn reach(&mut self, goals: &[BlockId], rounds: Rounds, first: bool) -> Reach {
        if goals.is_empty() {
            return Reach::Unsat;
        }
        self.ask(Request::Reach { goals: goals.to_vec(), avoid: Vec::new(), forbid: Vec::new(), rounds, first })
    }

    /// The last reachability query once more, with every round its options allow: after
    /// a [`Session::first_look`] whose candidate model does not do. `Unknown` when there
    /// was no such query.
    pub fn look_again(&mut self) -> Reach {
        self.ask(Request::Again)
    }

    /// [`Session::check_reach`] with the entry values of earlier models excluded: each
    /// set in `avoid` is a conjunction of input values (integers and Booleans; others
    /// are ignored) the model must not agree with entirely. An `Unsat` answer then says
    /// nothing about reachability.
    pub fn check_reach_avoiding(&mut self, goals: &[BlockId], avoid: &[Vec<Assignment>]) -> Reach {
        if goals.is_empty() {
            return Reach::Unsat;
        }
        self.check_reach_restricted(goals, avoid, &[])
    }

    /// [`Session::check_reach_avoiding`] by executions that also enter none of the
    /// blocks `forbid` (the abstraction past an unrolling bound: what remains is the
    /// exact unrolling). An `Unsat` answer says only that no such execution exists.
    pub fn check_reach_restricted(
        &mut self,
        goals: &[BlockId],
        avoid: &[Vec<Assignment>],
        forbid: &[BlockId],
    ) -> Reach {
        if goals.is_empty() {
            return Reach::Unsat;
        }
        let (goals, avoid, forbid) = (goals.to_vec(), avoid.to_vec(), forbid.to_vec());
        self.ask(Request::Reach { goals, avoid, forbid, rounds: Rounds::All, first: false })
    }

    /// An execution along `path` (the blocks of an earlier model, in order) with inputs
    /// as small as a few checks can make them ([`super::minimize`]); `None` when none
    /// was found within the budget.
    pub fn minimize(&mut self, path: &[BlockId]) -> Option<Model> {
        match self.ask(Request::Minimize { path: path.to_vec() }) {
            Reach::Sat(model) => Some(model),
            Reach::Unsat | Reach::Unknown { .. } => None,
        }
    }

    /// The last reachability query once more, in the small scope (see the module
    /// documentation): for a query z3 gave up on whose candidate model does not do. The
    /// caller decides, since only replay tells whether a candidate does; `Unknown` when
    /// there was no such query, nothing to bound, or the session stopped trying.
    pub fn retry_small_scope(&mut self) -> Reach {
        self.ask(Request::SmallScope)
    }

    /// Asserts the ground `instances` of asserted quantified formulas that a replay
    /// found the last candidate breaks, and asks the last reachability query again, as
    /// a first look ([`super::refine`]); `Unknown` without a candidate when none of them
    /// could be grounded or all were asserted before (nothing would change), or there
    /// was no such query. Every answer is exact: the instances are implied.
    pub fn refine(&mut self, instances: Vec<Instance>) -> Reach {
        self.ask(Request::Refine(instances))
    }

    /// The check `failure` (for `verify`) by E-matching alone, with the entry maps of an
    /// axiom-heavy session wished simple ([`super::simple_maps`]): for a check whose
    /// candidate replay does not run. The candidate of a free map holds only at the keys
    /// E-matching touched, so replay finds an axiom such as AutoProof's `forall o: ref
    /// :: universe[o]` false on it; a constant map holds at every key. Its `unsat` is
    /// exact (the wishes are assumptions).
    pub fn simplest_failure(&mut self, failure: FailureId) -> Reach {
        self.ask(Request::SimplestFailure(failure))
    }

    /// [`Session::refine`] for `verify`: the `instances` asserted (found broken by the
    /// candidate of the session's last check, which was of `failure`), then `failure`
    /// checked again as [`Session::simplest_failure`] does. `Unknown` without a
    /// candidate when none of them could be grounded or all were asserted before.
    pub fn refine_failure(&mut self, failure: FailureId, instances: Vec<Instance>) -> Reach {
        self.ask(Request::RefineFailure(failure, instances))
    }

    /// An execution violating the check `failure` (for `verify`).
    pub fn check_failure(&mut self, failure: FailureId) -> Reach {
        self.ask(Request::Failure(failure))
    }

    /// Whether the check `failure` holds (unsatisfiable violation), without the
    /// small-scope retry of [`Session::check_failure`]: for a proof, which every other
    /// answer fails alike.
    pub fn proves(&mut self, failure: FailureId) -> bool {
        matches!(self.ask(Request::Proof(failure)), Reach::Unsat)
    }

    /// What the axioms force each predicate of `questions` to at its point, `None`
    /// where they do not (see [`super::ground`]), in order; all `None` past the run's
    /// time limit.
    pub fn decide(&mut self, questions: Vec<Question>) -> Vec<Option<bool>> {
        let count = questions.len();
        match self.exchange(Request::Decide(questions)) {
            Some(Reply::Decided(answers)) => answers,
            Some(Reply::Reach(_) | Reply::Footing(_)) | None => vec![None; count],
        }
    }

    /// What the session's `unsat` answers stand on ([`super::footing`]), found now if no
    /// answer needed it yet: `None` once the session was left to itself.
    pub fn footing(&mut self) -> Option<Footing> {
        match self.exchange(Request::Footing) {
            Some(Reply::Footing(footing)) => footing,
            Some(Reply::Reach(_) | Reply::Decided(_)) | None => None,
        }
    }

    fn ask(&mut self, request: Request) -> Reach {
        match self.exchange(request) {
            Some(Reply::Reach(reach)) => reach,
            Some(Reply::Decided(_) | Reply::Footing(_)) | None => Reach::past_time_limit(),
        }
    }

    /// The worker's reply to `request`; `None` once the session was left to itself.
    fn exchange(&mut self, request: Request) -> Option<Reply> {
        if self.abandoned {
            return None;
        }
        if self.requests.as_ref().expect("requests stay open until drop").send(request).is_err() {
            self.worker_panicked();
        }
        let Some(deadline) = self.deadline else {
            return Some(self.replies.recv().unwrap_or_else(|_| self.worker_panicked()));
        };
        let patience = (deadline + detach::MARGIN).saturating_duration_since(Instant::now());
        match self.replies.recv_timeout(patience) {
            Ok(reply) => Some(reply),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                // z3 is past the deadline and its margin in work it does not interrupt
                // (see `super::detach`): the query is answered, the worker left behind.
                self.abandoned = true;
                detach::worker(self.worker.take());
                None
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => self.worker_panicked(),
        }
    }

    /// The worker hung up, which it only does by panicking: re-raise its panic here.
    fn worker_panicked(&mut self) -> ! {
        let worker = self.worker.take().expect("a worker that died is joined once");
        match worker.join() {
            Err(payload) => std::panic::resume_unwind(payload),
            Ok(()) => panic!("the solver thread stopped without answering"),
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // Closing the request channel ends the worker's loop.
        self.requests = None;
        let Some(worker) = self.worker.take() else { return };
        // Freeing a context that holds gigabytes takes z3 a second or more: it is waited
        // for until the deadline's margin only (then the worker frees it on its own).
        if let Some(deadline) = self.deadline {
            let patience = (deadline + detach::MARGIN).saturating_duration_since(Instant::now());
            if let Err(mpsc::RecvTimeoutError::Timeout) = self.finished.recv_timeout(patience) {
                detach::worker(Some(worker));
                return;
            }
        }
        // A worker panic was already re-raised by `ask`, or nobody asked: ignore it.
        let _ = worker.join();
    }
}

thread_local! {
    /// The worker's end, announced by dropping it: set first, so that it is destroyed
    /// after the thread's z3 context (thread-local values are destroyed in the reverse
    /// order of their first use).
    static EXIT_ANNOUNCEMENT: std::cell::RefCell<Option<mpsc::Sender<()>>> = const { std::cell::RefCell::new(None) };
}

/// Has `sender` dropped when the calling thread has ended, its z3 context freed: the
/// session's handle waits for that, at most until the deadline's margin.
fn announce_exit(sender: mpsc::Sender<()>) {
    EXIT_ANNOUNCEMENT.with(|announcement| *announcement.borrow_mut() = Some(sender));
}

/// The worker: asserts the encoding, then answers requests until the handle drops.
fn serve(
    encoding: &Encoding,
    (options, profile): (SessionOptions, Profile),
    inbox: mpsc::Receiver<Request>,
    outbox: mpsc::Sender<Reply>,
) {
    if options.deadline.is_some_and(|deadline| Instant::now() >= deadline) {
        // Past the deadline the encoding is not even translated (a front end's prelude
        // takes z3 a second or more): every query is answered at once.
        let cut_off = |request| match request {
            Request::Decide(questions) => Reply::Decided(vec![None; questions.len()]),
            Request::Footing => Reply::Footing(None),
            _ => Reply::Reach(Reach::past_time_limit()),
        };
        inbox.into_iter().map_while(|request| outbox.send(cut_off(request)).ok()).for_each(drop);
        return;
    }
    memory::advise_huge_pages();
    if profile == Profile::AxiomHeavy {
        refine::keep_models();
    }
    let _watchdog = Watchdog::arm(options.deadline);
    let solver = Solver::new();
    let maps = MapEncoding::for_encoding(profile.maps(), encoding);
    let checking = profile.checking(maps);
    solver.set_params(&params(options, checking));
    if has_lambda(encoding) {
        solver.set_params(&lambda_workaround());
    }
    let mut image = Z3Terms::new(encoding, maps);
    assert_encoding(&solver, encoding, &mut image);
    if profile == Profile::AxiomHeavy {
        ranges::small_range_instances(encoding, &mut image).iter().for_each(|instance| solver.assert(instance));
        closed_points::closed_point_instances(encoding, &mut image).iter().for_each(|instance| solver.assert(instance));
    }
    let mut worker = Worker {
        solver,
        encoding,
        image,
        options,
        profile,
        minimizer: None,
        small_scope_failures: 0,
        last: None,
        grounding: Grounding::default(),
        simple_maps: None,
        oracle: None,
        footing: None,
    };
    // A panic inside the z3 crate (it unwraps the null z3 returns from a failed call,
    // seen on a Viper heap near the deadline) ends the session's use of its context:
    // this and every later request are answered "z3 failed", never a proof.
    let mut failed: Option<String> = None;
    for (query, request) in inbox.into_iter().enumerate() {
        let shape = ReplyShape::of(&request);
        let reply = match &failed {
            Some(reason) => shape.failed(reason),
            None => {
                let params = params_now(options, checking);
                let answer =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| worker.reply(request, query, params)));
                answer.unwrap_or_else(|panic| {
                    let reason = z3_failure(panic.as_ref());
                    let reply = shape.failed(&reason);
                    failed = Some(reason);
                    reply
                })
            }
        };
        if outbox.send(reply).is_err() {
            break;
        }
    }
}

/// The reason of every answer of a session whose z3 calls panicked.
fn z3_failure(panic: &(dyn std::any::Any + Send)) -> String {
    let message =
        panic.downcast_ref::<&str>().map(|text| text.to_string()).or_else(|| panic.downcast_ref::<String>().cloned());
    format!(
        "z3 failed ({}); the session's later checks are not asked",
        message.unwrap_or_else(|| "a panic".to_string())
    )
}

/// What kind of reply a request takes, for [`ReplyShape::failed`].
enum ReplyShape {
    Footing,
    Decided(usize),
    Reach,
}

impl ReplyShape {
    fn of(request: &Request) -> ReplyShape {
        match request {
            Request::Footing => ReplyShape::Footing,
            Request::Decide(questions) => ReplyShape::Decided(questions.len()),
            _ => ReplyShape::Reach,
        }
    }

    /// The reply of a session whose z3 calls panicked: nothing decided.
    fn failed(&self, reason: &str) -> Reply {
        match self {
            ReplyShape::Footing => Reply::Footing(None),
            ReplyShape::Decided(count) => Reply::Decided(vec![None; *count]),
            ReplyShape::Reach => Reply::Reach(Reach::Unknown { reason: reason.to_string(), candidate: None }),
        }
    }
}

/// The state of a session's worker thread between requests.
struct Worker<'e> {
    solver: Solver,
    encoding: &'e Encoding,
    image: Z3Terms,
    options: SessionOptions,
    /// The encoding's profile: what a first look assumes and refines (the checks use
    /// [`Profile::checking`]'s parameters).
    profile: Profile,
    minimizer: Option<Minimizer>,
    small_scope_failures: u32,
    /// The goal of the last `Reach` query, for a `SmallScope` request.
    last: Option<Bool>,
    /// The instances asserted by refinement, and the terms that name elements.
    grounding: Grounding,
    /// The wishes for constant entry maps of an axiom-heavy session's first looks, made
    /// at its first.
    simple_maps: Option<SimpleMaps>,
    /// The axioms' own solver, made at the first question ([`super::ground`]).
    oracle: Option<Oracle>,
    /// What the `unsat` answers stand on, found at the first ([`super::footing`]).
    footing: Option<Footing>,
}

impl Worker<'_> {
    /// The reply to `request`, the session's `query`th, with the parameters of its
    /// checks now (`None` past the run's time limit).
    fn reply(&mut self, request: Request, query: usize, params: Option<Params>) -> Reply {
        match (request, params) {
            (Request::Footing, _) => Reply::Footing(Some(self.footing().clone())),
            (Request::Decide(questions), params) => Reply::Decided(match params {
                Some(_) => self.decide(&questions),
                None => vec![None; questions.len()],
            }),
            (request, Some(params)) => Reply::Reach(self.answer(request, query, &params)),
            (_, None) => Reply::Reach(Reach::past_time_limit()),
        }
    }

    fn answer(&mut self, request: Request, query: usize, params: &Params) -> Reach {
        if self.options.deadline.is_some() {
            self.solver.set_params(params);
        }
        // Whether a full check of this session instantiates quantifiers by models.
        let model_based = self.profile.checking(self.image.maps()) != Profile::EMatchingOnly;
        let first_look_model_based = self.profile == Profile::Default;
        let request = match request {
            Request::Refine(instances) => {
                let reach = match self.last.clone() {
                    Some(goal) if self.assert_instances(&instances) => self.first_look(&goal, query, params),
                    _ => Reach::Unknown { reason: String::new(), candidate: None },
                };
                let goal = self.last.clone();
                return self.vouch(reach, goal.as_ref().map(|goal| (goal, None)), first_look_model_based, params);
            }
            Request::RefineFailure(failure, instances) => {
                if !self.assert_instances(&instances) {
                    return Reach::Unknown { reason: String::new(), candidate: None };
                }
                return self.simplest_failure(failure, params);
            }
            Request::SimplestFailure(failure) => return self.simplest_failure(failure, params),
            other => other,
        };
        let terms = (self.encoding, &self.image);
        match request {
            Request::Minimize { path } => {
                let minimizer = self.minimizer.get_or_insert_with(|| Minimizer::new(self.encoding));
                minimizer.minimize(&self.solver, terms, &path, params).map_or(Reach::Unsat, Reach::Sat)
            }
            Request::Reach { goals, avoid, forbid, rounds, first } => {
                let execs: Vec<Bool> = goals.iter().map(|&goal| self.image.bool(self.encoding.exec(goal))).collect();
                let mut conjuncts = vec![Bool::or(&execs)];
                conjuncts.extend(avoid.iter().filter_map(|values| differs(self.encoding, &self.image, values)));
                conjuncts.extend(forbid.iter().map(|&block| self.image.bool(self.encoding.exec(block)).not()));
                if first {
                    conjuncts.extend(first_iterations(self.encoding, &self.image));
                }
                let goal = Bool::and(&conjuncts);
                let (reach, model_based) = match rounds {
                    Rounds::All => (check(&self.solver, terms, &goal, None, query), model_based),
                    Rounds::FirstLook => (self.first_look(&goal, query, params), first_look_model_based),
                };
                self.last = Some(goal.clone());
                self.vouch(reach, Some((&goal, None)), model_based, params)
            }
            Request::Again => match self.last.clone() {
                Some(goal) => {
                    let reach = check(&self.solver, terms, &goal, None, query);
                    self.vouch(reach, Some((&goal, None)), model_based, params)
                }
                None => Reach::Unknown { reason: String::new(), candidate: None },
            },
            Request::SmallScope => match self.last.take() {
                Some(goal) => {
                    let reach = self.small_scope(&goal, None, params);
                    self.vouch(reach, Some((&goal, None)), model_based, params)
                }
                None => Reach::Unknown { reason: String::new(), candidate: None },
            },
            Request::Failure(failure) => {
                // `verify` has no replay to judge a candidate by: a failure z3 gives up on
                // is asked in the small scope at once.
                let (goal, stop, reach, model_based) = self.failure_check(failure, query, params, model_based);
                let reach = match reach {
                    Reach::Unknown { reason, candidate } => match self.small_scope(&goal, stop, params) {
                        small @ Reach::Sat(_) => small,
                        _ => Reach::Unknown { reason, candidate },
                    },
                    reach => reach,
                };
                self.vouch(reach, Some((&goal, stop)), model_based, params)
            }
            Request::Proof(failure) => {
                let (goal, stop, reach, model_based) = self.failure_check(failure, query, params, model_based);
                self.vouch(reach, Some((&goal, stop)), model_based, params)
            }
            Request::Refine(_) | Request::RefineFailure(..) | Request::SimplestFailure(_) => {
                unreachable!("a refinement is answered before the other requests")
            }
            Request::Decide(_) => unreachable!("questions are answered by `Worker::decide`"),
            Request::Footing => unreachable!("the footing is answered by `serve`"),
        }
    }

    /// `reach`, unless it is `Unsat` and not a proof (see [`super::footing`]): with the
    /// axioms and the precondition refuting themselves, an answer saying so; found by
    /// `model_based` instantiation of axioms z3 has no model of, the `query` (a goal,
    /// and the check's stop) checked again by E-matching alone, whose `unsat` is a
    /// proof and whose candidate, if any, is the answer's.
    fn vouch(
        &mut self,
        reach: Reach,
        query: Option<(&Bool, Option<(BlockId, usize)>)>,
        model_based: bool,
        restore: &Params,
    ) -> Reach {
        if reach != Reach::Unsat {
            return reach;
        }
        let footing = self.footing().clone();
        if let Footing::Contradictory(_) = footing {
            return Reach::Unknown { reason: footing::CONTRADICTORY.to_string(), candidate: None };
        }
        if !model_based || footing.trusts_model_based() {
            return reach;
        }
        let Some((goal, stop)) = query else {
            return Reach::Unknown { reason: footing::MODEL_BASED_ONLY.to_string(), candidate: None };
        };
        let terms = (self.encoding, &self.image);
        let by_triggers = (self.options, Profile::EMatchingOnly);
        let again =
            with_options(&self.solver, by_triggers, restore, || check_scoped(&self.solver, terms, goal, stop, &[]));
        match again {
            Some(Reach::Unsat) => Reach::Unsat,
            Some(Reach::Sat(model)) => {
                Reach::Unknown { reason: footing::MODEL_BASED_ONLY.to_string(), candidate: Some(model) }
            }
            Some(Reach::Unknown { candidate, .. }) => {
                Reach::Unknown { reason: footing::MODEL_BASED_ONLY.to_string(), candidate }
            }
            None => Reach::past_time_limit(),
        }
    }

    /// The check `failure` of `verify`: its goal and stop, and its answer
    /// ([`Worker::by_triggers_first`], else the session's own check) with whether
    /// model-based instantiation may have given it.
    fn failure_check(
        &mut self,
        failure: FailureId,
        query: usize,
        params: &Params,
        model_based: bool,
    ) -> (Bool, Option<(BlockId, usize)>, Reach, bool) {
        let failure = self.encoding.failure(failure);
        let (goal, stop) = (self.image.bool(failure.condition), Some((failure.block, failure.step)));
        let (reach, model_based) = match self.by_triggers_first(&goal, stop, params) {
            Some(reach) => (reach, false),
            None => (check(&self.solver, (self.encoding, &self.image), &goal, stop, query), model_based),
        };
        (goal, stop, reach, model_based)
    }

    /// A check of `verify` (`goal`, stopping at `stop`) asked first by E-matching alone,
    /// Boogie's instantiation, for which front ends write their preludes, when the
    /// encoding has quantifiers: its `unsat` is Boogie's proof, its model or candidate
    /// Boogie's counterexample. The answer, when it is the check's: `None` when the
    /// encoding has no quantifier (the full check is as fast), or when E-matching gave
    /// up in a session whose own checks instantiate by models and which is not
    /// axiom-heavy (a quantified invariant of a sorting program, which model-based
    /// instantiation decides); an axiom-heavy session keeps E-matching's candidate,
    /// where model-based instantiation would spend the check's whole timeout.
    fn by_triggers_first(&mut self, goal: &Bool, stop: Option<(BlockId, usize)>, restore: &Params) -> Option<Reach> {
        if self.encoding.terms.count_quantifiers() == 0 {
            return None;
        }
        let terms = (self.encoding, &self.image);
        let by_triggers = (self.options, Profile::EMatchingOnly);
        let reach =
            with_options(&self.solver, by_triggers, restore, || check_scoped(&self.solver, terms, goal, stop, &[]))
                .unwrap_or_else(Reach::past_time_limit);
        let model_based = self.profile.checking(self.image.maps()) != Profile::EMatchingOnly;
        match reach {
            Reach::Unknown { .. } if model_based && self.profile == Profile::Default => None,
            reach => Some(reach),
        }
    }

    /// The session's [`Footing`], found at its first `unsat` answer.
    fn footing(&mut self) -> &Footing {
        if self.footing.is_none() {
            let base = SessionOptions { rlimit: Some(footing::FOOTING_RLIMIT), ..self.options };
            let model_based = match self.profile {
                Profile::Default => Profile::Default,
                Profile::AxiomHeavy | Profile::EMatchingOnly => Profile::AxiomHeavy,
            };
            let checking = self.profile.checking(self.image.maps());
            // A session that checks by E-matching alone needs no model of its axioms
            // (its `unsat` answers are Boogie's), and is spared a model-based check
            // z3 4.8.12 does not always stop at its limits (nested quantifiers).
            let limited = |by_models: bool| match by_models {
                true if checking == Profile::EMatchingOnly => None,
                true => params_now(base, model_based),
                false => params_now(base, Profile::EMatchingOnly),
            };
            let restore = params_now(self.options, checking).unwrap_or_else(|| params(self.options, checking));
            let session = (&self.solver, &restore);
            self.footing = Some(footing::footing(session, (self.encoding, &mut self.image), limited));
        }
        self.footing.as_ref().expect("found above")
    }

    /// `goal` checked with at most [`FIRST_LOOK_MBQI_ITERATIONS`] rounds of model-based
    /// quantifier instantiation, then the session's parameters `restore`d. In an
    /// axiom-heavy session the entry maps are first asked to be constant
    /// ([`SimpleMaps`]).
    fn first_look(&mut self, goal: &Bool, query: usize, restore: &Params) -> Reach {
        let rounds = FIRST_LOOK_MBQI_ITERATIONS.min(self.options.mbqi_max_iterations);
        let limited = SessionOptions { mbqi_max_iterations: rounds, ..self.options };
        let profile = match self.profile {
            Profile::Default => Profile::Default,
            Profile::AxiomHeavy | Profile::EMatchingOnly => Profile::EMatchingOnly,
        };
        self.make_simple_maps();
        let (solver, terms) = (&self.solver, (self.encoding, &self.image));
        let simple_maps = self.simple_maps.as_ref().filter(|maps| !maps.is_empty());
        with_options(solver, (limited, profile), restore, || match simple_maps {
            Some(maps) => check_guarded(solver, terms, (goal, None, query), |guard| maps.check(solver, guard)),
            None => check(solver, terms, goal, None, query),
        })
        .unwrap_or_else(Reach::past_time_limit)
    }

    /// The wishes of [`SimpleMaps`], made at their first use in an axiom-heavy session
    /// (they assert definitions of fresh constants, so a session that never asks for
    /// them keeps its solver as it was).
    fn make_simple_maps(&mut self) {
        if self.profile == Profile::AxiomHeavy && self.simple_maps.is_none() {
            self.simple_maps = Some(SimpleMaps::new(&self.solver, self.encoding, &mut self.image));
            self.image.take_map_axioms().iter().for_each(|axiom| self.solver.assert(axiom));
        }
    }

    /// See [`Session::simplest_failure`]: E-matching alone, the wishes assumed in a
    /// scope of the check's own; the plain E-matching check when there is nothing to
    /// wish.
    fn simplest_failure(&mut self, failure: FailureId, restore: &Params) -> Reach {
        self.make_simple_maps();
        let failure = self.encoding.failure(failure);
        let (goal, stop) = (self.image.bool(failure.condition), Some((failure.block, failure.step)));
        let maps = self.simple_maps.as_ref().filter(|maps| !maps.is_empty());
        let (solver, terms) = (&self.solver, (self.encoding, &self.image));
        let by_triggers = (self.options, Profile::EMatchingOnly);
        let reach = with_options(solver, by_triggers, restore, || {
            decide_scoped(solver, terms, (&goal, stop), &[], || match maps {
                Some(maps) => maps.check(solver, &Bool::from_bool(true)),
                None => solver.check(),
            })
        })
        .unwrap_or_else(Reach::past_time_limit);
        self.vouch(reach, Some((&goal, stop)), false, restore)
    }

    /// See [`Session::decide`]: each question under its own deterministic resource
    /// limit, and the run's time limit.
    fn decide(&mut self, questions: &[Question]) -> Vec<Option<bool>> {
        let limited = SessionOptions { rlimit: Some(GROUND_RLIMIT), ..self.options };
        let (encoding, image) = (self.encoding, &mut self.image);
        let oracle = self.oracle.get_or_insert_with(|| {
            let params = params(limited, Profile::EMatchingOnly);
            Oracle::new(encoding, image, &params)
        });
        let mut answers = Vec::with_capacity(questions.len());
        for question in questions {
            let Some(params) = params_now(limited, Profile::EMatchingOnly) else {
                answers.resize(questions.len(), None);
                break;
            };
            oracle.set_params(&params);
            answers.push(oracle.decide(encoding, image, question));
        }
        answers
    }

    /// Asserts the ground formulas of `instances` ([`Session::refine`]); whether there
    /// was any new one.
    fn assert_instances(&mut self, instances: &[Instance]) -> bool {
        let (encoding, image, grounding) = (self.encoding, &mut self.image, &mut self.grounding);
        let (formulas, _) =
            interrupt::with_evaluation_budget(EVALUATION_BUDGET, || grounding.formulas(encoding, image, instances));
        formulas.iter().for_each(|formula| self.solver.assert(formula));
        !formulas.is_empty()
    }

    /// [`check_small_scope`], until [`MAX_SMALL_SCOPE_FAILURES`] retries did not help.
    fn small_scope(&mut self, goal: &Bool, stop: Option<(BlockId, usize)>, params: &Params) -> Reach {
        if self.small_scope_failures >= MAX_SMALL_SCOPE_FAILURES {
            return Reach::Unknown { reason: String::new(), candidate: None };
        }
        let minimizer = self.minimizer.get_or_insert_with(|| Minimizer::new(self.encoding));
        let terms = (self.encoding, &self.image);
        let options = (self.options, self.profile.checking(self.image.maps()));
        let reach = check_small_scope(&self.solver, terms, minimizer, (goal, stop), (options, params));
        if !matches!(reach, Reach::Sat(_)) {
            self.small_scope_failures += 1;
        }
        reach
    }
}

/// Each loop target's state where its loop's abstraction starts an iteration, equal to
/// its state on entry to the loop ([`crate::vc::Input::before`]).
fn first_iterations(encoding: &Encoding, image: &Z3Terms) -> Vec<Bool> {
    (encoding.inputs.iter())
        .filter(|input| matches!(input.kind, InputKind::LoopState(_)))
        .filter_map(|input| Some(image.ast(input.term).eq(image.ast(input.before?))))
        .collect()
}

/// "Some input of `values` has another value", over the integer and Boolean ones.
fn differs(encoding: &Encoding, image: &Z3Terms, values: &[Assignment]) -> Option<Bool> {
    let equalities: Vec<Bool> = values
        .iter()
        .filter_map(|assignment| {
            let term = image.ast(encoding.inputs[assignment.input].term);
            let value: Dynamic = match &assignment.value {
                Value::Int(value) => <Int as std::str::FromStr>::from_str(&value.to_string()).ok()?.into(),
                Value::Bool(value) => Bool::from_bool(*value).into(),
                _ => return None,
            };
            Some(term.eq(&value))
        })
        .collect();
    (!equalities.is_empty()).then(|| Bool::and(&equalities).not())
}

/// The longest a model's decoding (or a refinement's search of a model for terms) may
/// take z3's evaluation ([`interrupt::with_evaluation_budget`]); past it the decoding is
/// cut off and the query answered `unknown` ([`EVALUATION_LIMIT`]). On a heap of
/// sequences (Boogie's `Test/textbook/BQueue.bpl`) one evaluation of
/// `Length(H[q, abstractValue])` in a candidate model took z3 11 s and 3.6 GB; the
/// decodings of the corpus's models take milliseconds. A bound in z3's steps would not
/// depend on the machine, but z3 4.8.12 cannot be given one safely (see
/// [`super::interrupt`]); this one is far enough above what a decoding needs that only a
/// runaway evaluation meets it.
const EVALUATION_BUDGET: Duration = Duration::from_secs(2);

/// The reason of an `unknown` answer whose model's decoding passed [`EVALUATION_BUDGET`].
const EVALUATION_LIMIT: &str = "the model's evaluation took too long";

/// The most memory, in megabytes, z3 may hold in the whole process (`memory_max_size`;
/// z3 counts every context together): a check or an evaluation that would pass it
/// fails, and the query is answered `unknown` with the reason "memory limit". A safety
/// net for the sessions of a run on a shared machine (two at a time with two cores).
const MAX_MEMORY_MB: u32 = 4096;

/// Process-wide settings that make sessions cheaper to start and bound what z3's work
/// may cost; done once, before the first solver exists.
///
/// - z3's memory is bounded ([`MAX_MEMORY_MB`]; its model evaluation is bounded in
///   time instead, [`EVALUATION_BUDGET`]).
///
/// - `tactic.default_tactic = smt`. z3's default solver (`Z3_mk_solver`) combines an
///   incremental SMT solver with a non-incremental one running z3's default tactic, and
///   builds that tactic when it is first used. A check under assumptions always goes to
///   the incremental solver (z3's `combined_solver::check_sat`), and a session makes no
///   other check, so the tactic never runs: naming the plain `smt` tactic instead spares
///   building it (30 million instructions down to 1.4). The solver that answers is
///   built and fed exactly as before; the one trace inside z3 is that the default tactic
///   kept a term of its own in the context, so terms made after the set-up are numbered
///   one lower (the corpus suites and every snapshot test are unchanged by it). `smt/`
///   is the only user of z3, so nothing else in the process sees the setting.
/// - glibc keeps freed memory and serves z3's large tables from the heap
///   ([`memory::keep_freed_memory`]): a session's memory is reused by the next session
///   whose thread inherits its arena.
fn configure_process() {
    static CONFIGURED: Once = Once::new();
    CONFIGURED.call_once(|| {
        z3::set_global_param("tactic.default_tactic", "smt");
        z3::set_global_param("memory_max_size", &MAX_MEMORY_MB.to_string());
        memory::keep_freed_memory();
    });
}

/// Asserts the map axioms of `image` (see [`MapEncoding::Uninterpreted`]), then the
/// encoding's assertions.
fn assert_encoding(solver: &Solver, encoding: &Encoding, image: &mut Z3Terms) {
    image.take_map_axioms().iter().for_each(|axiom| solver.assert(axiom));
    for &assertion in &encoding.assertions {
        solver.assert(image.bool(assertion));
    }
}

/// The parameters of the next check: [`params`] with the timeout cut to the time left
/// before the deadline; `None` once it has passed.
fn params_now(options: SessionOptions, profile: Profile) -> Option<Params> {
    let Some(deadline) = options.deadline else { return Some(params(options, profile)) };
    let left = deadline.checked_duration_since(Instant::now()).filter(|left| !left.is_zero())?;
    let left_ms = u32::try_from(left.as_millis()).unwrap_or(u32::MAX).max(1);
    let timeout_ms = Some(options.timeout_ms.map_or(left_ms, |timeout| timeout.min(left_ms)));
    Some(params(SessionOptions { timeout_ms, ..options }, profile))
}

/// Whether the encoding has a `lambda` term (a Boogie lambda, a z3 array).
pub(super) fn has_lambda(encoding: &Encoding) -> bool {
    let terms = &encoding.terms;
    terms.ids().any(|id| matches!(terms.get(id), crate::vc::Term::Lambda(..)))
}

/// Model-based instantiation with every quantifier a template of the interpretations it
/// builds (`mbqi.force_template=0`; z3 picks templates by a weight heuristic otherwise),
/// for a session with lambdas. z3 4.8.12's model-based instantiation dereferences a bad
/// pointer (a segmentation fault, which no handler can catch) on a reachability query of
/// a Dafny prelude with its frame `lambda` under the heuristic's choice (Boogie's
/// `Test/test2/IncompleteArithmetic-RealTypes.bpl`) and not with every quantifier a
/// template, where it covers every goal Boogie reaches; on Dafny's other output the
/// coverage is the same. A parameter once set stays on a z3 solver, so this is set once.
fn lambda_workaround() -> Params {
    let mut params = Params::new();
    params.set_u32("mbqi.force_template", 0);
    params
}

/// Only parameter names z3 4.8.12 accepts on a solver: an unknown one makes z3 ignore
/// the whole set silently (and, observed, answer `sat` on unsatisfiable input).
fn params(options: SessionOptions, profile: Profile) -> Params {
    let mut params = Params::new();
    params.set_u32("random_seed", options.random_seed);
    params.set_u32("mbqi.max_iterations", options.mbqi_max_iterations);
    profile.set(&mut params);
    if let Some(timeout) = options.timeout_ms {
        params.set_u32("timeout", timeout);
    }
    // Always set, 0 meaning none: the minimizer's own limit must not outlive it.
    params.set_u32("rlimit", options.rlimit.unwrap_or(0));
    params
}

/// The small-scope retry of a query z3 gave up on: the same query, with every integer
/// input and read of an input map within `±10`, in a scope of its own (popped after, so
/// nothing of it stays to slow later queries, as guarded assertions were seen to), under
/// a deterministic resource limit. A quantified precondition over a map (`forall k ::
/// 1 <= k <= n ==> 1 <= a[k] <= 3`) that model-based instantiation cannot satisfy for an
/// unbounded `n` it often can for a small one, and a `sat` answer is a model of the
/// whole encoding all the same (seen: the Dutch flag and quick sort programs of
/// corpus/sc fully covered with it, 7 of 13 and 10 of 11 goals without).
fn check_small_scope(
    solver: &Solver,
    terms: (&Encoding, &Z3Terms),
    minimizer: &Minimizer,
    (goal, stop): (&Bool, Option<(BlockId, usize)>),
    ((options, profile), restore): ((SessionOptions, Profile), &Params),
) -> Reach {
    let bounds = minimizer.small_scope(terms.1);
    let rlimit = options.rlimit.map_or(SMALL_SCOPE_RLIMIT, |rlimit| rlimit.min(SMALL_SCOPE_RLIMIT));
    let limited = (SessionOptions { rlimit: Some(rlimit), ..options }, profile);
    let reach = (!bounds.is_empty())
        .then(|| with_options(solver, limited, restore, || check_scoped(solver, terms, goal, stop, &bounds)));
    reach.flatten().unwrap_or(Reach::Unknown { reason: String::new(), candidate: None })
}

/// A session stops trying the small scope after this many retries that did not help:
/// each may take z3 seconds (model-based instantiation is not counted closely against
/// `rlimit` in z3 4.8.12).
const MAX_SMALL_SCOPE_FAILURES: u32 = 2;

/// z3's deterministic resource limit on the small-scope retry of a query it gave up on
/// (about a quarter of a second of z3 work on the benchmark machine): a retry that does
/// not help costs little, and whether it helps does not depend on the machine's speed.
const SMALL_SCOPE_RLIMIT: u32 = 10_000_000;

/// [`with_params`] with the parameters of `options` now ([`params_now`]); `None`, and
/// `work` not run, once the run's deadline has passed.
fn with_options<T>(
    solver: &Solver,
    (options, profile): (SessionOptions, Profile),
    restore: &Params,
    work: impl FnOnce() -> T,
) -> Option<T> {
    let limited = params_now(options, profile)?;
    Some(with_params(solver, &limited, restore, work))
}

/// Runs `work` with the solver's parameters `limited`, then sets `restore`.
pub(super) fn with_params<T>(solver: &Solver, limited: &Params, restore: &Params, work: impl FnOnce() -> T) -> T {
    solver.set_params(limited);
    let result = work();
    solver.set_params(restore);
    result
}

/// Checks `goal` under a fresh guard, then retires the guard.
fn check(
    solver: &Solver,
    terms: (&Encoding, &Z3Terms),
    goal: &Bool,
    stop: Option<(BlockId, usize)>,
    query: usize,
) -> Reach {
    check_guarded(solver, terms, (goal, stop, query), |guard| solver.check_assumptions(std::slice::from_ref(guard)))
}

/// [`check`] with the check itself made by `decide`, given the guard to assume (a
/// first look with [`SimpleMaps`] assumes more).
fn check_guarded(
    solver: &Solver,
    terms: (&Encoding, &Z3Terms),
    (goal, stop, query): (&Bool, Option<(BlockId, usize)>, usize),
    decide: impl FnOnce(&Bool) -> SatResult,
) -> Reach {
    let guard = Bool::new_const(format!("%query@{query}"));
    solver.assert(guard.implies(goal));
    let result = decide(&guard);
    let reach = answer(solver, terms, result, stop);
    solver.assert(guard.not());
    reach
}

/// Checks `goal` and `extra` in a scope of their own, popped afterwards: nothing of
/// the check stays in the solver (unlike guarded assertions, which z3's later search
/// still sees and which were observed to slow the next queries tenfold).
fn check_scoped(
    solver: &Solver,
    terms: (&Encoding, &Z3Terms),
    goal: &Bool,
    stop: Option<(BlockId, usize)>,
    extra: &[Bool],
) -> Reach {
    decide_scoped(solver, terms, (goal, stop), extra, || solver.check())
}

/// [`check_scoped`], the check made by `decide` (a check under assumptions).
fn decide_scoped(
    solver: &Solver,
    terms: (&Encoding, &Z3Terms),
    (goal, stop): (&Bool, Option<(BlockId, usize)>),
    extra: &[Bool],
    decide: impl FnOnce() -> SatResult,
) -> Reach {
    solver.push();
    solver.assert(goal);
    extra.iter().for_each(|assertion| solver.assert(assertion));
    let result = decide();
    let reach = answer(solver, terms, result, stop);
    solver.pop(1);
    reach
}

/// The answer of the check that returned `result`, its model decoded.
fn answer(
    solver: &Solver,
    (encoding, image): (&Encoding, &Z3Terms),
    result: SatResult,
    stop: Option<(BlockId, usize)>,
) -> Reach {
    let cut_off = |reason: &str| Reach::Unknown { reason: reason.to_string(), candidate: None };
    match result {
        SatResult::Sat => {
            let model = std::rc::Rc::new(solver.get_model().expect("z3 produces a model after `sat`"));
            refine::remember(&model);
            decoded(|| decode(encoding, image, &model, stop)).map_or_else(cut_off, Reach::Sat)
        }
        SatResult::Unsat => Reach::Unsat,
        // The watchdog interrupted the check, or the decoding would be cut off at once.
        SatResult::Unknown if interrupt::passed() => cut_off(TIME_LIMIT),
        SatResult::Unknown => {
            let Some(model) = solver.get_model() else {
                return Reach::Unknown { reason: unknown_reason(solver.get_reason_unknown()), candidate: None };
            };
            let model = std::rc::Rc::new(model);
            refine::remember(&model);
            match decoded(|| decode_candidate(encoding, image, &model, stop)) {
                Ok(candidate) => {
                    Reach::Unknown { reason: unknown_reason(solver.get_reason_unknown()), candidate: Some(candidate) }
                }
                Err(reason) => cut_off(reason),
            }
        }
    }
}

/// `decode` within [`EVALUATION_BUDGET`], or why its decoding was cut off: z3 fails an
/// evaluation when the watchdog interrupted it (at the deadline or at the budget's
/// end), or when it would pass [`MAX_MEMORY_MB`].
pub(super) fn decoded(decode: impl FnOnce() -> Option<Model>) -> Result<Model, &'static str> {
    let (model, over_budget) = interrupt::with_evaluation_budget(EVALUATION_BUDGET, decode);
    model.ok_or(if interrupt::passed() {
        TIME_LIMIT
    } else if over_budget {
        EVALUATION_LIMIT
    } else {
        MEMORY_LIMIT
    })
}

/// The reason of an `unknown` answer given because z3 reached [`MAX_MEMORY_MB`].
const MEMORY_LIMIT: &str = "memory limit";

fn unknown_reason(reason: Option<String>) -> String {
    let reason = reason.unwrap_or_default();
    if reason.contains("timeout") {
        "timeout".to_string()
    } else if reason.contains("memory") {
        MEMORY_LIMIT.to_string()
    } else if reason.contains("canceled") || reason.contains("resource") {
        "resource limit".to_string()
    } else if reason.is_empty() {
        "unknown".to_string()
    } else {
        // z3 wraps some reasons in an s-expression: `(incomplete (theory arithmetic))`.
        let bare = reason.strip_prefix('(').and_then(|inner| inner.strip_suffix(')'));
        bare.unwrap_or(&reason).to_string()
    }
}

/// The encoding as an SMT-LIB 2 script, as z3 sees it (for `--dump smt2` and for
/// replaying a query with the z3 binary). Built in a fresh context, like a session.
pub fn to_smt2(encoding: Arc<Encoding>) -> String {
    configure_process();
    std::thread::spawn(move || {
        let solver = Solver::new();
        let maps = MapEncoding::for_encoding(Profile::of(&encoding).maps(), &encoding);
        assert_encoding(&solver, &encoding, &mut Z3Terms::new(&encoding, maps));
        solver.to_smt2()
    })
    .join()
    .unwrap_or_else(|payload| std::panic::resume_unwind(payload))
}
