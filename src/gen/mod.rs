//! Test generation for one program: every implementation through unrolling, inlining,
//! the loop cut, goals, seeding, the encoding and one solver session ([`enumerate`]).
//!
//! ```text
//! Cfg ─unroll_loops─▶ Unrolled ─inline_calls─▶ ─cut_loops─▶ acyclic ─goals, seed─▶
//!   SeededCfg ─vc::encode─▶ Encoding ─smt::Session─▶ enumerate ─▶ ImplementationRun
//! ```
//!
//! Goals a model reached only through the abstraction of iterations past the unrolling
//! bound, and whose replay missed them, are asked again once on a deeper unrolling
//! (`--max-unroll`), and goals a replay missed in an implementation with calls
//! once with one more level of calls inlined: the retry's tests count for the
//! goals their runs enter, followed on the first graph.
//!
//! In a session that validates candidates, the tests are shrunk only then, once every
//! goal was asked on every graph and while the run's time allows
//! ([`Enumeration::shrink_deferred`]): shrinking a driver model's test is some 64
//! replays, and done after the first graph it held back the deeper graphs that cover
//! its loops' goals. Last, the tests whose goals other tests enter too are dropped
//! ([`reduce`]).
//! Everything here is per implementation: its session, its tests and their numbering
//! depend on no other implementation (only on the callees it inlines), so an edit to
//! one procedure leaves the others' tests as they were.

mod complete;
mod deepen;
pub mod enumerate;
mod operands;
mod reduce;
pub mod replay;
pub mod search;
mod shrink;

use crate::cfg::unroll::{unroll_loops, Unrolled};
use crate::cfg::{self, Cfg, Segment};
use crate::interp::Machine;
use crate::seed::goals::{goals_counted, Goal, GoalId, GoalSelection, UnrollGoals};
use crate::seed::seeded::{seed, visible_names, SeededCfg};
use crate::sema::hir;
use crate::smt::{Session, SessionOptions};
use enumerate::{Enumeration, GoalStatus, NotCovered, Strategy};
use replay::Replayer;
use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Options of a generation run.
#[derive(Clone, Debug)]
pub struct GenOptions {
    pub goals: GoalSelection,
    /// Only implementations with these names (`--proc`); all when empty.
    pub procedures: Vec<String>,
    pub session: SessionOptions,
    /// Levels of calls to procedures with a body inlined (`--inline-depth`).
    pub inline_depth: u32,
    /// Loop iterations unrolled exactly (`--unroll`; 0: loops by their invariants).
    pub unroll: u32,
    /// The unrolling of the retry of goals missed past the bound (`--max-unroll`).
    pub max_unroll: u32,
    /// How the goals of nested unrolled loops count (`--unroll-goals`).
    pub unroll_goals: UnrollGoals,
    /// Ask for small input values along each test's path (`--no-minimize` turns it off).
    pub minimize: bool,
    /// Search around each new test by replay (`--no-search` turns it off).
    pub search: bool,
}

impl GenOptions {
    /// How the enumeration finds tests. The search runs around every model at any
    /// depth; from the all-defaults input only with unrolling, where a goal per
    /// iteration count makes many goals one step from it and the first check is the
    /// most expensive. Without unrolling the first check is cheap, and a search from
    /// the defaults would leave the solver only the goals the search cannot reach
    /// (`corpus/sc/`'s insertion and bubble sorts: alone, z3 gave up on them).
    /// Input-to-state correspondence too runs only with unrolling: without it, suites
    /// stay as they were (it found `queue`'s `Contains` a second test at 1 check
    /// instead of 3, but with the first's large values).
    fn strategy(&self) -> Strategy {
        let unrolled = self.unroll > 0;
        Strategy { minimize: self.minimize, search: self.search, search_from_defaults: unrolled, operands: unrolled }
    }
}

impl Default for GenOptions {
    fn default() -> GenOptions {
        GenOptions {
            goals: GoalSelection::default(),
            procedures: Vec::new(),
            session: SessionOptions::default(),
            inline_depth: 0,
            unroll: 0,
            max_unroll: 0,
            unroll_goals: UnrollGoals::default(),
            minimize: true,
            search: true,
        }
    }
}

/// What generation established for one implementation.
#[derive(Clone, Debug)]
pub struct ImplementationRun {
    pub implementation: hir::ImplId,
    pub name: String,
    /// The seeded, acyclic graph the tests were generated on.
    pub seeded: SeededCfg,
    pub enumeration: Enumeration,
    /// The encoding had no loop cut and no call modelled by its contract: an unsatisfiable
    /// goal is dead without further proof.
    pub exact: bool,
    /// How many tests generation kept before the suite reduction dropped the redundant
    /// ones (`enumeration.candidates` holds those left).
    pub generated_tests: usize,
    pub time: Duration,
}

impl ImplementationRun {
    pub fn goals(&self) -> &[Goal] {
        &self.seeded.goals
    }

    /// Whether some goal is unreachable only as far as the encoding's abstractions go:
    /// its proof still needs them verified.
    pub fn needs_proof(&self) -> bool {
        !self.exact && self.enumeration.status.contains(&GoalStatus::Unreachable)
    }

    /// The abstractions this run relied on are not verified: its unsatisfiable goals are
    /// no proof of deadness, only "not covered".
    pub fn withdraw_unreachable(&mut self) {
        for status in &mut self.enumeration.status {
            if *status == GoalStatus::Unreachable {
                *status = GoalStatus::NotCovered { reason: NotCovered::UnverifiedAbstraction };
            }
        }
    }
}

/// The graphs of the implementations `options.procedures` names (all when empty).
pub fn select<'a>(cfgs: &'a [Cfg], options: &GenOptions) -> Vec<&'a Cfg> {
    let selected = |cfg: &&Cfg| options.procedures.is_empty() || options.procedures.contains(&cfg.name);
    cfgs.iter().filter(selected).collect()
}

/// The graph a session runs on, and how runs of the program map onto it.
struct Prepared {
    unrolled: Unrolled,
    /// The goals, their blocks numbered as in `unrolled` (before seeding renumbers them).
    goals: Vec<Goal>,
    seeded: SeededCfg,
    encoding: Arc<crate::vc::Encoding>,
    exact: bool,
}

fn prepare(program: &hir::Program, machine: &Machine, original: &Cfg, options: &GenOptions, bound: u32) -> Prepared {
    let (unrolled, goals, seeded, cuts_loops) = lower(program, machine, original, options, bound);
    let encoding = Arc::new(crate::vc::encode(program, &seeded.cfg));
    // UNSAT proves a goal dead only over a sound over-approximation: with no loop cut
    // and no call replaced by its contract the encoding is exact.
    let exact = !cuts_loops && encoding.abstractions.is_empty();
    Prepared { unrolled, goals, seeded, encoding, exact }
}

/// The graph of `original` a session would run on, before its encoding: unrolled,
/// inlined, cut and seeded; also whether loops were cut.
fn lower(
    program: &hir::Program,
    machine: &Machine,
    original: &Cfg,
    options: &GenOptions,
    bound: u32,
) -> (Unrolled, Vec<Goal>, SeededCfg, bool) {
    let unrolled = unroll_loops(program, original, bound);
    let inlined = cfg::inline::inline_calls(program, machine.cfgs(), &unrolled.cfg, options.inline_depth);
    let acyclic = cfg::cut::cut_loops(program, &inlined);
    let goals = goals_counted(&acyclic, options.unroll_goals);
    let seeded = seed(&acyclic, &goals, options.goals, &visible_names(program, &acyclic));
    (unrolled, goals, seeded, !inlined.loops.is_empty())
}

/// Whether the run's `--time-limit` has passed: work not started by then (an
/// implementation's encoding, a retry's) is not started at all, since on a front end's
/// file each encoding of its prelude costs a second or more.
fn past_deadline(options: &GenOptions) -> bool {
    options.session.deadline.is_some_and(|deadline| Instant::now() >= deadline)
}

/// The run of an implementation reached after the deadline: its goals not kept are
/// open, "the run's time limit was reached", and nothing was encoded or asked.
fn cut_off(original: &Cfg, seeded: SeededCfg, kept: &BTreeSet<GoalId>, start: Instant) -> ImplementationRun {
    let status = (seeded.goals.iter())
        .map(|goal| match kept.contains(&goal.id) {
            true => GoalStatus::Kept,
            false => GoalStatus::NotCovered { reason: NotCovered::Unknown(crate::smt::TIME_LIMIT.to_string()) },
        })
        .collect();
    ImplementationRun {
        implementation: original.implementation,
        name: original.name.clone(),
        seeded,
        enumeration: Enumeration { status, candidates: Vec::new(), checks: 0, shrinking_deferred: false },
        exact: false,
        generated_tests: 0,
        time: start.elapsed(),
    }
}

impl Prepared {
    fn replayer<'a>(&'a self, machine: &'a Machine<'a>, program: &'a hir::Program, original: &'a Cfg) -> Replayer<'a> {
        Replayer { machine, program, original, seeded: &self.seeded.cfg, unrolled: &self.unrolled, goals: &self.goals }
    }
}

/// Generates tests for one implementation, `original` as lowered; `machine` (which
/// holds every implementation's graph) replays every model.
///
/// A goal whose query is unsatisfiable comes back `Unreachable`; when the encoding
/// abstracts (`!exact`), that holds only once the invariants and contracts it relied on
/// are verified, which the caller checks lazily — most runs prove nothing dead, so they
/// never pay for a verification ([`ImplementationRun::withdraw_unreachable`]).
pub fn generate(program: &hir::Program, machine: &Machine, original: &Cfg, options: &GenOptions) -> ImplementationRun {
    generate_open(program, machine, original, options, &BTreeSet::new())
}

/// [`generate`] for the goals not in `kept`, which tests kept from an existing suite
/// enter (`prove-tests --existing`, seeds/002): they are `GoalStatus::Kept` and never
/// asked for.
pub fn generate_open(
    program: &hir::Program,
    machine: &Machine,
    original: &Cfg,
    options: &GenOptions,
    kept: &BTreeSet<GoalId>,
) -> ImplementationRun {
    let start = Instant::now();
    if past_deadline(options) {
        let (_, _, seeded, _) = lower(program, machine, original, options, options.unroll);
        return cut_off(original, seeded, kept, start);
    }
    let prepared = prepare(program, machine, original, options, options.unroll);
    let mut session = Session::new(prepared.encoding.clone(), options.session);
    let replayer = prepared.replayer(machine, program, original);
    let goals = &prepared.seeded.goals;
    let kept: Vec<bool> = goals.iter().map(|goal| kept.contains(&goal.id)).collect();
    let mut enumeration = enumerate::enumerate_open(&mut session, &replayer, goals, options.strategy(), &kept);
    // Goals missed past the unrolling bound: once more on a deeper exact unrolling.
    if options.max_unroll > options.unroll {
        let beyond = |reason: &NotCovered| matches!(reason, NotCovered::BeyondBound { .. });
        retry(program, machine, original, (options, options.max_unroll), &replayer, &mut enumeration, beyond);
        for status in &mut enumeration.status {
            if let GoalStatus::NotCovered { reason: NotCovered::BeyondBound { bound, .. } } = status {
                *bound = options.max_unroll;
            }
        }
    }
    // Goals whose models went through a callee's contract and whose replays missed:
    // once more with one more level of calls inlined.
    if has_calls(program, machine, original) {
        let deeper = GenOptions { inline_depth: options.inline_depth + 1, ..options.clone() };
        let missed = |reason: &NotCovered| matches!(reason, NotCovered::ReplayMissed(_));
        retry(program, machine, original, (&deeper, options.unroll), &replayer, &mut enumeration, missed);
    }
    // Goals still missed: on exact unrollings, deepening, within a budget.
    let tried = options.unroll.max(options.max_unroll);
    deepen::deepen(program, machine, original, (options, tried), &replayer, &mut enumeration);
    enumeration.shrink_deferred(&replayer, options.session.deadline);
    let generated_tests = enumeration.candidates.len();
    reduce::reduce(&mut enumeration);
    ImplementationRun {
        implementation: original.implementation,
        name: original.name.clone(),
        seeded: prepared.seeded,
        enumeration,
        exact: prepared.exact,
        generated_tests,
        time: start.elapsed(),
    }
}

/// Whether `cfg` calls a procedure inlining can replace by its body: a retry with one
/// more level of calls inlined changes nothing else (a body-less callee stays its
/// contract).
fn has_calls(program: &hir::Program, machine: &Machine, cfg: &Cfg) -> bool {
    cfg::inline::has_inlinable_call(program, machine.cfgs(), cfg)
}

/// Asks the goals whose status is "not covered" for a reason `wanted` selects again, on
/// the graph `options` and `bound` make (deeper unrolling or inlining); each new test's
/// run is followed on the first graph (`replayer`'s) to see which of its goals it enters.
/// Returns what the retry said of each goal asked (its index among `replayer.goals`).
fn retry(
    program: &hir::Program,
    machine: &Machine,
    original: &Cfg,
    (options, bound): (&GenOptions, u32),
    replayer: &Replayer,
    enumeration: &mut Enumeration,
    wanted: fn(&NotCovered) -> bool,
) -> Vec<(usize, GoalStatus)> {
    let missed: Vec<&Goal> = replayer
        .goals
        .iter()
        .zip(&enumeration.status)
        .filter(|(_, status)| matches!(status, GoalStatus::NotCovered { reason } if wanted(reason)))
        .map(|(goal, _)| goal)
        .collect();
    if missed.is_empty() || past_deadline(options) {
        return Vec::new();
    }
    let deeper = prepare(program, machine, original, options, bound);
    let asked: Vec<Goal> =
        deeper.seeded.goals.iter().filter(|goal| missed.iter().any(|missed| asks_for(goal, missed))).cloned().collect();
    let mut session = Session::new(deeper.encoding.clone(), options.session);
    let retried =
        enumerate::enumerate(&mut session, &deeper.replayer(machine, program, original), &asked, options.strategy());
    enumeration.checks += retried.checks;
    enumeration.shrinking_deferred |= retried.shrinking_deferred;
    for mut candidate in retried.candidates {
        let targets: Vec<GoalId> = candidate.targets.iter().map(|&index| asked[index].id.clone()).collect();
        // What the run enters is followed on the first graph, which a deferred
        // shrinking keeps it entering.
        candidate.test.covers = replayer.covers(&candidate.test.replay);
        enumeration.adopt(replayer.goals, candidate, &targets);
    }
    let index_of = |goal: &Goal| replayer.goals.iter().position(|first| first.id == goal.id);
    asked.iter().zip(retried.status).filter_map(|(goal, status)| Some((index_of(goal)?, status))).collect()
}

/// Whether `goal`, of a deeper graph, asks again for `missed`, of the first: the same
/// goal, or, when the first graph has no copies of loop iterations (`--unroll 0`: a
/// loop body's goal is the branch in any iteration), one of its copies in an iteration
/// (`body@2` for `body`, `exit@0` for `exit`), which a run enters only by entering it.
fn asks_for(goal: &Goal, missed: &Goal) -> bool {
    let iteration = |segment: &Segment| matches!(segment, Segment::Iteration(_) | Segment::AnyIteration);
    let first_has_copies = missed.path.0.iter().any(iteration);
    let without_copies = goal.path.0.iter().filter(|segment| !iteration(segment));
    goal.id == missed.id || (!first_has_copies && without_copies.eq(missed.path.0.iter()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg::lower::lower_all;
    use crate::cfg::StructPath;
    use crate::interp::{Limits, Machine};

    /// A goal of a loop body at `--unroll 0` is asked again through its copies in each
    /// iteration of a deeper graph (the loop's exit after any number of iterations too);
    /// a goal the first graph already names by iteration only as itself.
    #[test]
    fn a_deeper_graph_asks_for_a_loop_body_s_goal_through_its_copies() {
        let goal = |segments: Vec<Segment>| Goal {
            id: GoalId(StructPath(segments.clone()).to_string()),
            block: cfg::BlockId::from_index(0),
            copies: Vec::new(),
            path: StructPath(segments),
            leaf: true,
            span: crate::source::Span::default(),
        };
        let (while_1, then) = (Segment::While(1), Segment::Then);
        let body = goal(vec![while_1.clone(), Segment::Body, Segment::If(1), then.clone()]);
        let body_2 = goal(vec![while_1.clone(), Segment::Body, Segment::Iteration(2), Segment::If(1), then.clone()]);
        let exit = goal(vec![while_1.clone(), Segment::Exit]);
        let exit_0 = goal(vec![while_1.clone(), Segment::Exit, Segment::Iteration(0)]);
        let body_1 = goal(vec![while_1, Segment::Body, Segment::Iteration(1), Segment::If(1), then]);
        assert!(asks_for(&body_2, &body) && asks_for(&body_1, &body) && asks_for(&exit_0, &exit));
        assert!(!asks_for(&exit_0, &body) && !asks_for(&body_2, &body_1), "another branch, another iteration");
        assert!(asks_for(&body_1, &body_1), "the same goal");
    }

    /// A query by executions in the first iteration of each loop sees the state the loop
    /// is entered with at its cut: a branch the abstraction reaches only in a later
    /// iteration is unreachable there, one of the first iteration is reached with the
    /// entry state (`i` = 0).
    #[test]
    fn a_first_iteration_query_starts_each_loop_in_its_entry_state() {
        use crate::smt::Reach;
        use crate::vc::{Choice, InputKind, Value};
        let program = crate::sema::tests::expect_accepted(
            "procedure P(n: int) returns (r: int) { var i: int; i := 0; \
             while (i < n) invariant i >= 0; { if (i == 0) { r := 1; } else { r := 2; } i := i + 1; } }",
        );
        let (cfgs, errors): (Vec<Cfg>, _) = lower_all(&program);
        assert!(errors.is_empty(), "{errors:?}");
        let machine = Machine::new(&program, &cfgs, Limits::default());
        let prepared = prepare(&program, &machine, &cfgs[0], &GenOptions::default(), 0);
        assert!(prepared.encoding.has_first_iterations());
        let block = |suffix: &str| {
            let goal = prepared.seeded.goals.iter().find(|goal| goal.id.0.ends_with(suffix)).expect("the goal");
            goal.blocks().collect::<Vec<_>>()
        };
        let mut session = Session::new(prepared.encoding.clone(), SessionOptions::default());
        assert!(matches!(session.first_look(&block("if#1/else")), Reach::Sat(_)));
        assert_eq!(session.first_look_first_iterations(&block("if#1/else")), Reach::Unsat);
        let Reach::Sat(model) = session.first_look_first_iterations(&block("if#1/then")) else {
            panic!("the first iteration reaches `then`")
        };
        let state = model.choices.iter().find_map(|choice| match choice {
            Choice::Value(assignment) if matches!(assignment.kind, InputKind::LoopState(_)) => {
                Some(assignment.value.clone())
            }
            _ => None,
        });
        assert_eq!(state, Some(Value::Int(0.into())));
    }

    /// An implementation reached after the run's deadline is neither encoded nor asked:
    /// each goal is open with the time limit as its reason, kept goals stay kept.
    #[test]
    fn an_implementation_started_past_the_deadline_asks_nothing() {
        let program = crate::sema::tests::expect_accepted(
            "procedure P(x: int) returns (y: int) { if (x > 0) { y := 1; } else { y := 2; } }",
        );
        let (cfgs, errors): (Vec<Cfg>, _) = lower_all(&program);
        assert!(errors.is_empty(), "{errors:?}");
        let machine = Machine::new(&program, &cfgs, Limits::default());
        let past = Instant::now() - Duration::from_millis(1);
        let options = GenOptions {
            session: SessionOptions { deadline: Some(past), ..SessionOptions::default() },
            ..GenOptions::default()
        };
        let all = generate(&program, &machine, &cfgs[0], &options);
        assert_eq!(all.enumeration.checks, 0);
        assert!(all.enumeration.candidates.is_empty());
        let time_limit = GoalStatus::NotCovered { reason: NotCovered::Unknown(crate::smt::TIME_LIMIT.to_string()) };
        assert!(all.enumeration.status.len() >= 2 && all.enumeration.status.iter().all(|status| *status == time_limit));
        let kept: BTreeSet<GoalId> = [all.seeded.goals[0].id.clone()].into();
        let open = generate_open(&program, &machine, &cfgs[0], &options, &kept);
        assert_eq!(open.enumeration.status[0], GoalStatus::Kept);
        assert_eq!(open.enumeration.status[1], time_limit);
    }
}
