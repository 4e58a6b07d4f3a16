//! Replay inside generation (DESIGN.md §1, honesty): a model is only a test once it
//! runs. Each model becomes an [`interp::TestInput`] and is executed by the interpreter
//! on the program as written (loops iterate, calls execute); the goals it covers are
//! the ones the run entered, and its outputs become the test's expected outcome.
//!
//! Input: a [`Model`] over the encoding of the seeded graph (calls inlined, loops cut)
//! and the lowered graphs of the program. Output: a [`ReplayedTest`].

use crate::cfg::uninit::for_each_var;
use crate::cfg::unroll::Unrolled;
use crate::cfg::{BlockId, Cfg, CmdKind};
use crate::interp::{self, branch_name, Machine, TestInput, TraceItem, TraceMode};
use crate::seed::goals::{Goal, GoalId};
use crate::sema::hir;
use crate::vc::{Choice, InputKind, Model};
use num_bigint::BigInt;
use std::collections::{BTreeMap, BTreeSet};

/// One model, replayed.
#[derive(Clone, Debug)]
pub struct ReplayedTest {
    /// The test as replay ran it: the model's values, and its trace completed with the
    /// choices the interpreter made past the model's path.
    pub input: TestInput,
    pub replay: interp::Replay,
    /// The goals of the implementation under test the run entered.
    pub covers: Vec<GoalId>,
}

/// What a run without checks says of an input ([`Replayer::may_enter`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Prospect {
    /// Its checked run enters at most these goals (indices into [`Replayer::goals`]).
    AtMost(Vec<usize>),
    /// Nothing: the run ended where the checked one may not have (an expression it
    /// cannot evaluate, a trace that does not fit); only the checked run tells.
    Unknown,
    /// The run took more than the steps it was given.
    TooLong,
}

/// [`Replayer::describe`]'s reason when the run ends normally on another path.
const OTHER_PATH: &str = "the run takes another path";
/// The start of its reason when a check or an assumption stops the run first.
const STOPS_BEFORE: &str = "the run stops before it";

/// The start of its reason when the run left the path its model's trace was made for
/// (a branch point other than the one the trace names next).
const LEAVES_ITS_PATH: &str = "the run leaves its model's path";

/// Whether a miss described by [`Replayer::describe`] is one of the path the run took
/// (another path, stopped before the goal, or left the model's path where the model
/// went through an abstraction the run does not follow), which the same question on a
/// more exact graph may answer; not a run that could not be evaluated or ran out of
/// steps.
pub fn missed_on_its_path(reason: &str) -> bool {
    reason == OTHER_PATH || reason.starts_with(STOPS_BEFORE) || reason.starts_with(LEAVES_ITS_PATH)
}

/// Replays models of one implementation.
pub struct Replayer<'a> {
    pub machine: &'a Machine<'a>,
    pub program: &'a hir::Program,
    /// The implementation as lowered (loops, calls): where coverage is measured.
    pub original: &'a Cfg,
    /// The graph the models are paths of (seeded, calls inlined, loops cut).
    pub seeded: &'a Cfg,
    /// `original` unrolled: runs are followed on it to see which goals they enter.
    pub unrolled: &'a Unrolled,
    /// The goals, their blocks numbered as in `unrolled`.
    pub goals: &'a [Goal],
}

impl Replayer<'_> {
    pub fn replay(&self, model: &Model) -> ReplayedTest {
        self.run(self.test_input(model))
    }

    /// Replays a candidate (a model of an `unknown` answer, which may break axioms),
    /// the tables of the functions axioms define first made to agree with their
    /// definitions ([`Machine::agree_with_definitions`]).
    pub fn replay_candidate(&self, model: &Model) -> ReplayedTest {
        let mut input = self.test_input(model);
        self.machine.agree_with_definitions(&mut input);
        self.run(input)
    }

    /// Runs `input`, its trace completed by the interpreter's own choices where it ends.
    pub fn run(&self, input: TestInput) -> ReplayedTest {
        self.replayed(input, |input| self.machine.run(input, TraceMode::Complete))
    }

    /// [`Replayer::run`], noting where the run reads predicates off their tables
    /// ([`interp::Machine::run_noting_off_table`]).
    pub fn run_noting_off_table(&self, input: TestInput, completing: &BTreeSet<hir::FunctionId>) -> ReplayedTest {
        self.replayed(input, |input| self.machine.run_noting_off_table(input, TraceMode::Complete, completing))
    }

    fn replayed(&self, input: TestInput, run: impl FnOnce(&TestInput) -> interp::Replay) -> ReplayedTest {
        let replay = run(&input);
        let covers = self.covers(&replay);
        let input = TestInput { trace: replay.trace.clone(), ..input };
        ReplayedTest { input, replay, covers }
    }

    /// The input every value of which is its type's default ([`default_input`]).
    pub fn default_input(&self) -> TestInput {
        default_input(self.program, self.original)
    }

    /// The type of each of `input`'s [`TestInput::values_mut`], where known (the trace's
    /// values have none).
    pub fn value_types(&self, input: &TestInput) -> Vec<Option<hir::Type>> {
        value_types(self.program, self.original, input)
    }

    /// The branches of the implementation's nondeterministic choices ([`branches`]).
    pub fn branches(&self) -> BTreeMap<String, BTreeSet<String>> {
        branches(self.original)
    }

    /// What a run of `input` that checks no assertion ([`Machine::run_unchecked`]), in
    /// at most `max_steps` steps, says of the goals its checked run enters.
    pub fn may_enter(&self, input: &TestInput, max_steps: u64) -> Prospect {
        let replay = self.machine.run_unchecked(input, max_steps);
        match replay.outcome {
            interp::Outcome::Passed
            | interp::Outcome::Failed(_)
            | interp::Outcome::Infeasible(_)
            | interp::Outcome::Invalid(_) => Prospect::AtMost(self.entered(&replay)),
            interp::Outcome::ReplayError { .. } | interp::Outcome::CannotEvaluate(_) => Prospect::Unknown,
            interp::Outcome::BudgetExhausted(_) => Prospect::TooLong,
        }
    }

    /// The integer operands of the comparisons `input`'s run evaluates, in at most
    /// `max_steps` steps and without checks ([`interp::Machine::run_observing`]).
    pub fn observe(&self, input: &TestInput, max_steps: u64) -> Vec<(num_bigint::BigInt, num_bigint::BigInt)> {
        self.machine.run_observing(input, max_steps).1
    }

    /// The goals a run enters: with unrolling, the run is followed on the unrolled
    /// graph, so a goal of iteration `k` counts only for a run in which the loop really
    /// iterates `k` times ([`interp::Replay::passed`]).
    pub fn covers(&self, replay: &interp::Replay) -> Vec<GoalId> {
        self.entered(replay).into_iter().map(|index| self.goals[index].id.clone()).collect()
    }

    /// [`Replayer::covers`], as indices into [`Replayer::goals`].
    pub fn entered(&self, replay: &interp::Replay) -> Vec<usize> {
        let passed = replay.passed(self.unrolled);
        (0..self.goals.len()).filter(|&index| self.goals[index].entered_by(&passed)).collect()
    }

    /// The smallest branch distance, on a run of `input` without checks in at most
    /// `max_steps` steps, of the guard of one of the goals `open` (indices into
    /// [`Replayer::goals`]) at a branch the run reached and did not take.
    pub fn open_distance(&self, input: &TestInput, max_steps: u64, open: &[usize]) -> Option<BigInt> {
        let replay = self.machine.run_unchecked(input, max_steps);
        open.iter().filter_map(|&index| replay.distances.get(&self.branch_of(index)?)).min().cloned()
    }

    /// The tests one cell flip from `test` toward the goals `open` (indices into
    /// [`Replayer::goals`]) at branches its run reached and did not take
    /// ([`interp::Machine::flipped`]), by branch.
    pub fn flipped(&self, test: &ReplayedTest, open: &[usize]) -> Vec<TestInput> {
        let branches: BTreeSet<crate::cfg::BlockId> = open.iter().filter_map(|&index| self.branch_of(index)).collect();
        let flips = branches.iter().filter_map(|branch| test.replay.cell_flips.get(branch)).flatten();
        flips.filter_map(|flip| self.machine.flipped(&test.input, flip)).collect()
    }

    /// The block of the implementation's graph that goal `index` is a branch into.
    fn branch_of(&self, index: usize) -> Option<crate::cfg::BlockId> {
        self.unrolled.source.get(self.goals[index].block.index()).copied().flatten()
    }

    /// Whether `model` runs a loop past the unrolling bound (through its abstraction).
    pub fn beyond_bound(&self, model: &Model) -> bool {
        model.path.iter().any(|&block| self.seeded.block(block).origin.path.is_beyond_bound())
    }

    /// The blocks of the seeded graph past the unrolling bound.
    pub fn beyond_blocks(&self) -> Vec<BlockId> {
        self.seeded.block_ids().filter(|&block| self.seeded.block(block).origin.path.is_beyond_bound()).collect()
    }

    /// Why a run that misses its target missed it, for "replay missed: …".
    pub fn describe(&self, replay: &interp::Replay) -> String {
        let outcome = &replay.outcome;
        // An unconfirmed stop (one that holds only if an axiom replay cannot decide
        // does) is a stop all the same: a more exact graph may lead past it.
        let stopped = matches!(outcome, interp::Outcome::Failed(_) | interp::Outcome::Infeasible(_));
        // Where the run left its trace is where it parted from its model's path,
        // whatever it met afterwards.
        if let Some(left) = &replay.left_trace {
            return format!("{LEAVES_ITS_PATH}: {}", left.message);
        }
        match outcome {
            interp::Outcome::Passed => OTHER_PATH.to_string(),
            _ if stopped || replay.stopped_unconfirmed => format!("{STOPS_BEFORE}: {}", outcome.message()),
            interp::Outcome::ReplayError { .. } => format!("{LEAVES_ITS_PATH}: {}", outcome.message()),
            _ => outcome.message().to_string(),
        }
    }

    pub fn test_input(&self, model: &Model) -> TestInput {
        test_input(self.program, self.original, self.seeded, model)
    }
}

/// The test a model of `seeded` (a graph of `original`'s implementation: seeded, calls
/// inlined, loops cut) stands for: its entry values and functions' tables, and the
/// choices along its path as the trace the interpreter runs `original` with.
pub fn test_input(program: &hir::Program, original: &Cfg, seeded: &Cfg, model: &Model) -> TestInput {
    let graphs = Graphs { program, seeded };
    let mut input = TestInput::new(original.implementation);
    let ins = &program.implementations[original.implementation.index()].ins;
    input.params = ins
        .iter()
        .map(|&id| {
            let ty = &original.locals[id.index()].ty;
            model.entry_value(&InputKind::Param(id)).cloned().unwrap_or_else(|| interp::default_value(ty))
        })
        .collect();
    for assignment in &model.entry {
        let value = assignment.value.clone();
        match assignment.kind {
            InputKind::Global(id) => input.globals.push((id, value)),
            InputKind::Const(id) => input.consts.push((id, value)),
            // Locals added by inlining are never read unset (their unset ones are
            // havocked at the call), so every such input is the implementation's own.
            InputKind::Uninit(id) if id.index() < original.locals.len() => input.uninitialized.push((id, value)),
            _ => {}
        }
    }
    input.functions = model.functions.clone();
    input.trace = model.choices.iter().filter_map(|choice| graphs.trace_item(choice)).collect();
    input
}

/// The program and the graph a model is a path of: what a model's choices are named by.
struct Graphs<'a> {
    program: &'a hir::Program,
    seeded: &'a Cfg,
}

impl Graphs<'_> {
    /// The trace entry of a choice; `None` for the branch of a deterministic
    /// conditional, which replay decides by evaluating its guard.
    fn trace_item(&self, choice: &Choice) -> Option<TraceItem> {
        match choice {
            Choice::Goto { from, to } => {
                let decided = self.seeded.successors(*from).iter().all(|&target| self.seeded.starts_with_guard(target));
                let target = branch_name(&self.seeded.block(*to).origin.path.in_source());
                (!decided).then_some(TraceItem::Goto { target })
            }
            Choice::Value(assignment) => {
                let value = assignment.value.clone();
                Some(match &assignment.kind {
                    InputKind::CallOut { callee, var } => {
                        TraceItem::CallOut { callee: self.procedure(*callee), var: self.var(*var), value }
                    }
                    InputKind::CallModifies { callee, global } => TraceItem::CallModifies {
                        callee: self.procedure(*callee),
                        global: self.var(hir::Var::Global(*global)),
                        value,
                    },
                    InputKind::Havoc(var) => TraceItem::Havoc { var: self.var(*var), value },
                    // Entry values never appear among choices, and a loop abstraction's
                    // state is no choice of the program: replay iterates the loop.
                    InputKind::Param(_)
                    | InputKind::Global(_)
                    | InputKind::Const(_)
                    | InputKind::Uninit(_)
                    | InputKind::LoopState(_) => return None,
                })
            }
        }
    }

    fn var(&self, var: hir::Var) -> String {
        match var {
            hir::Var::Local(id) => self.seeded.locals[id.index()].name.clone(),
            hir::Var::Global(id) => self.program.globals[id.index()].name.clone(),
            hir::Var::Const(id) => self.program.consts[id.index()].name.clone(),
            hir::Var::Bound(id) => format!("bound#{}", id.0),
        }
    }

    fn procedure(&self, id: hir::ProcId) -> String {
        self.program.procedures[id.index()].name.clone()
    }
}

/// The input of `original`'s implementation every value of which is its type's default
/// (`0`, `false`, empty maps), with no choice made: the interpreter makes its own. It
/// lists the globals the implementation reads, so that a search step can change them (a
/// global array to sort).
pub fn default_input(program: &hir::Program, original: &Cfg) -> TestInput {
    let ins = &program.implementations[original.implementation.index()].ins;
    let params = ins.iter().map(|&id| interp::default_value(&original.locals[id.index()].ty)).collect();
    let globals = globals_read(original)
        .into_iter()
        .map(|id| (id, interp::default_value(&program.globals[id.index()].ty)))
        .collect();
    TestInput { params, globals, ..TestInput::new(original.implementation) }
}

/// The globals the commands of `graph` read, in order.
fn globals_read(graph: &Cfg) -> BTreeSet<hir::GlobalId> {
    let mut read = BTreeSet::new();
    let mut note = |expr: &hir::Expr| {
        for_each_var(expr, &mut |var| {
            if let hir::Var::Global(id) = var {
                read.insert(id);
            }
        })
    };
    for cmd in graph.blocks.iter().flat_map(|block| &block.cmds) {
        match &cmd.kind {
            CmdKind::Assign { values: exprs, .. } | CmdKind::Call { args: exprs, .. } => {
                exprs.iter().for_each(&mut note)
            }
            CmdKind::Assume { expr, .. } | CmdKind::Assert { expr, .. } => note(expr),
            CmdKind::Havoc { .. } => {}
        }
    }
    read
}

/// For each branch name of a nondeterministic choice of `original`'s own graph, the
/// names of the other branches it is chosen among (see
/// [`super::search::Shape::branches`]).
pub fn branches(original: &Cfg) -> BTreeMap<String, BTreeSet<String>> {
    let mut branches: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for block in original.block_ids() {
        let mut targets: Vec<BlockId> = original.successors(block).to_vec();
        targets.dedup();
        if targets.len() < 2 || targets.iter().all(|&target| original.starts_with_guard(target)) {
            continue;
        }
        let names: Vec<String> =
            targets.iter().map(|&target| branch_name(&original.block(target).origin.path.in_source())).collect();
        for name in &names {
            branches.entry(name.clone()).or_default().extend(names.iter().filter(|other| *other != name).cloned());
        }
    }
    branches
}

/// The type of each of `input`'s [`TestInput::values_mut`], where known (the trace's
/// values have none); `original` is the lowered graph of `input`'s implementation.
pub fn value_types(program: &hir::Program, original: &Cfg, input: &TestInput) -> Vec<Option<hir::Type>> {
    let local = |id: hir::LocalId| Some(original.locals[id.index()].ty.clone());
    let ins = &program.implementations[original.implementation.index()].ins;
    let params = ins.iter().map(|&id| local(id));
    let globals = input.globals.iter().map(|&(id, _)| Some(program.globals[id.index()].ty.clone()));
    let consts = input.consts.iter().map(|&(id, _)| Some(program.consts[id.index()].ty.clone()));
    let uninitialized = input.uninitialized.iter().map(|&(id, _)| local(id));
    params.chain(globals).chain(consts).chain(uninitialized).collect()
}

#[cfg(test)]
mod tests {
    use super::{missed_on_its_path, LEAVES_ITS_PATH, OTHER_PATH, STOPS_BEFORE};

    /// Another path, a stop before the goal and a run that left its model's trace are
    /// misses a more exact graph may answer; a run that could not be evaluated is not.
    #[test]
    fn a_miss_on_the_run_s_path_is_one_a_more_exact_graph_may_answer() {
        assert!(missed_on_its_path(OTHER_PATH));
        assert!(missed_on_its_path(&format!("{STOPS_BEFORE}: precondition `x > 0` of `P` violated")));
        assert!(missed_on_its_path(&format!("{LEAVES_ITS_PATH}: trace entry 10 is the goto `goto:L`, but …")));
        assert!(!missed_on_its_path("a quantifier with `j` unbounded cannot be evaluated"));
    }
}
