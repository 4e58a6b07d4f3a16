//! The concrete interpreter: runs one test (entry values and a choice trace) on the
//! lowered control-flow graphs and reports what really happened — the replay that makes
//! generated tests honest (DESIGN.md §1).
//!
//! Input: a checked [`hir::Program`], the graphs of its implementations as
//! [`crate::cfg::lower::lower_all`] returns them (loops not cut: loops really iterate),
//! and a [`TestInput`]. Output: a [`Replay`]: the [`Outcome`], the [`Coverage`] (blocks,
//! edges, loop iterations), the final values of the outputs, and the trace the run
//! consumed (completed with the interpreter's own choices in [`TraceMode::Complete`]).
//!
//! The semantics, in one place (the code cites these rules):
//! - integers are unbounded; `div`/`mod` are SMT-LIB's (Euclidean: `a = b*q + r`,
//!   `0 <= r < |b|`), and dividing by zero cannot be evaluated (SMT-LIB leaves it
//!   unspecified); `&&`, `||`, `==>` and `if then else` short-circuit;
//! - reals are exact rationals and bit-vectors wrap at their width, each operation as
//!   SMT-LIB defines it ([`theory`]); `x / 0.0` and `**` (uninterpreted, as Boogie
//!   encodes it) cannot be evaluated; a function bound to a builtin computes it;
//! - maps are canonical [`MapValue`]s (curried for arity > 1), so map equality is
//!   structural; the default value of a type is `0`, `0.0`, `0bvN`, `false`, element 0 of an
//!   uninterpreted type, or the constant map of the range's default;
//! - a function with a body is evaluated (depth-limited); a body-less one reads the
//!   test's table, else, when axioms define it, its definition ([`define`]), else returns
//!   its result type's default;
//! - `forall`/`exists` over `bool` variables, bit-vectors of at most 8 bits and `int`
//!   variables bounded by the body (`lo <= i && i < hi ==> P`, `lo <= i && i < hi &&
//!   P`) are evaluated exhaustively; any other quantifier, a lambda, `<:` or an [`Value::Opaque`] used by
//!   an operation cannot be evaluated, and the run says so (never silently true);
//! - a `havoc`, a body-less callee's results (its `modifies` globals, then its outs)
//!   and the initial values of a really executed callee's outs and locals that
//!   [`read_before_written`](crate::cfg::uninit::read_before_written) lists take the
//!   next trace entry; a multi-target `goto` takes a `Goto` entry when the trace has
//!   one next, else the one target whose leading `assume`s hold (see [`TraceMode`] for
//!   what a run completing its trace does where the trace does not fit);
//! - a call to a procedure with an implementation runs its first implementation in a
//!   new frame (`old` = the globals at the call); a body-less callee is replaced by its
//!   contract, in the order the symbolic engine uses (`vc::passify`).
//!
//! Runs are bounded by [`Limits`]; calls use an explicit frame stack, so only
//! expression nesting and function-body recursion (bounded by `max_depth`) recurse.
//! [`run`] never panics on any input.

mod clauses;
mod define;
mod distance;
mod eval;
mod exec;
mod flips;
mod inputs;
mod members;
mod monotone;
mod points;
mod quant;
mod support;
#[cfg(test)]
mod tests;
mod theory;
mod writes;

pub use eval::{default_value, row_type};
pub use writes::TableWrite;

use crate::cfg::unroll::Unrolled;
use crate::cfg::{BlockId, Cfg, StructPath};
use crate::seed::goals::{goals, GoalId};
use crate::sema::hir;
use crate::source::{SourceDb, Span};
use crate::vc::{FunctionModel, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

#[cfg(doc)]
use crate::vc::MapValue;

/// Bounds on one run. Expression evaluation recurses (function bodies inside
/// applications), so, like every stage after parsing, the interpreter expects the big
/// stack `main` gives the pipeline; the defaults fit in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Executed commands, terminators and evaluated expression nodes.
    pub max_steps: u64,
    /// Nested calls of procedures plus nested applications of functions with a body.
    pub max_depth: u32,
    /// The whole command's end (`--time-limit`): a run still going then stops as over
    /// budget, so a run's time limit is kept within a few thousand steps.
    pub deadline: Option<std::time::Instant>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { max_steps: 10_000_000, max_depth: 1000, deadline: None }
    }
}

/// A program and its graphs, ready to run tests.
pub struct Machine<'a> {
    program: &'a hir::Program,
    cfgs: &'a [Cfg],
    limits: Limits,
    /// Per implementation, what the runs need to know about its graph.
    shapes: BTreeMap<hir::ImplId, exec::Shape<'a>>,
    /// The verdicts of the axioms on recent tests' tables.
    axioms: exec::AxiomCache,
    /// The functions axioms define ([`Machine::agree_with_definitions`]).
    definitions: Vec<define::Definition<'a>>,
    /// Those whose definitions read themselves ([`define::circular`]).
    circular: BTreeSet<hir::FunctionId>,
}

impl<'a> Machine<'a> {
    /// `cfgs` are the graphs of `program`'s implementations (any order; an
    /// implementation without a graph cannot be run or called).
    pub fn new(program: &'a hir::Program, cfgs: &'a [Cfg], limits: Limits) -> Machine<'a> {
        let axioms = crate::sema::relevance::AxiomSymbols::of(program);
        let shapes = cfgs.iter().map(|cfg| (cfg.implementation, exec::Shape::new(program, &axioms, cfg))).collect();
        let definitions = define::definitions(program);
        let circular = define::circular(&definitions);
        Machine { program, cfgs, limits, shapes, axioms: exec::AxiomCache::default(), definitions, circular }
    }

    /// Runs one test.
    pub fn run(&self, input: &TestInput, mode: TraceMode) -> Replay {
        exec::run(self, input, mode, (Checks::All, self.limits))
    }

    /// Runs `input` ([`TraceMode::Complete`]) checking no assertion: no `assert`, loop
    /// invariant, or callee `requires` and `ensures` of any frame is evaluated, so the
    /// run stops only where an assumption, a choice or the budget stops it. Every block
    /// a checked run of `input` enters, this run enters too (a check can only end a run
    /// early), at a fraction of the cost when the checks quantify over large ranges: a
    /// filter, for inputs that matter only by what they enter (the search of
    /// `gen::search`). Its outcome says nothing of the test. It stops after at most
    /// `max_steps` steps (and the machine's own limit): a filter must not spend the
    /// budget of a test on an input that loops.
    pub fn run_unchecked(&self, input: &TestInput, max_steps: u64) -> Replay {
        let limits = Limits { max_steps: max_steps.min(self.limits.max_steps), ..self.limits };
        exec::run(self, input, TraceMode::Complete, (Checks::None, limits))
    }

    /// [`Machine::run_unchecked`], recording the integer operands of every comparison
    /// the run evaluates (`==`, `!=`, `<`, `<=`, `>`, `>=`), in order, up to 4,096: the
    /// values a branch compares an input with, for input-to-state correspondence
    /// (`gen::operands`).
    pub fn run_observing(
        &self,
        input: &TestInput,
        max_steps: u64,
    ) -> (Replay, Vec<(num_bigint::BigInt, num_bigint::BigInt)>) {
        let limits = Limits { max_steps: max_steps.min(self.limits.max_steps), ..self.limits };
        let notes = exec::Notes { operands: true, ..exec::Notes::default() };
        exec::run_observing(self, input, TraceMode::Complete, (Checks::None, limits), notes, None)
    }

    /// [`Machine::run`], measuring how far the check at `target` is from failing each
    /// time the run evaluates it and it holds ([`Replay::target_distance`]): an
    /// `assert` (a loop invariant, an inlined contract) or an `ensures` clause of the
    /// entry procedure by its span, a `requires` of a callee by the span of the entry
    /// implementation's call. What a search for a run failing there steers by
    /// (`verify`).
    pub fn run_toward(&self, input: &TestInput, mode: TraceMode, target: Span) -> Replay {
        exec::run_observing(self, input, mode, (Checks::All, self.limits), exec::Notes::default(), Some(target)).0
    }

    /// [`Machine::run`], noting the points at which the run reads a body-less Boolean
    /// function and finds no value (neither its table nor its definition gives one), and
    /// those off the tables of the predicates `completing` ([`Replay::off_table_reads`]):
    /// where a candidate's tables say nothing, for the solver to decide from the axioms
    /// (`crate::gen::complete`).
    pub fn run_noting_off_table(
        &self,
        input: &TestInput,
        mode: TraceMode,
        completing: &BTreeSet<hir::FunctionId>,
    ) -> Replay {
        let notes = exec::Notes { off_table: Some(completing), ..exec::Notes::default() };
        exec::run_observing(self, input, mode, (Checks::All, self.limits), notes, None).0
    }

    /// `input` with the cell of `flip` set to the value it wants ([`flips`]) wherever
    /// the test sets it and it holds the value the run read there (a cell nobody
    /// writes is the same in all of them): a global's entry value and the values the
    /// trace gives it; a parameter's or an unset local's value and the values the
    /// trace's `havoc`s and calls give the local. The run of the result follows the
    /// trace where it fits the path the flip leads to ([`TraceMode::Complete`]).
    /// `None` when no value changes.
    pub fn flipped(&self, input: &TestInput, flip: &CellFlip) -> Option<TestInput> {
        let mut flipped = input.clone();
        let (name, mut set) = match flip.var {
            hir::Var::Global(id) => {
                let global = &self.program.globals[id.index()];
                if !flipped.globals.iter().any(|(given, _)| *given == id) {
                    flipped.globals.push((id, default_value(&global.ty)));
                }
                let values = flipped.globals.iter_mut().filter(|(given, _)| *given == id).map(|(_, value)| value);
                (global.name.as_str(), values.collect::<Vec<_>>())
            }
            hir::Var::Local(id) => {
                let cfg = self.cfgs.iter().find(|cfg| cfg.implementation == input.implementation)?;
                let ins = &self.program.implementations[input.implementation.index()].ins;
                let param = ins.iter().position(|&param| param == id);
                let param = param.and_then(|position| flipped.params.get_mut(position));
                let unset = flipped.uninitialized.iter_mut().filter(|(given, _)| *given == id).map(|(_, value)| value);
                (cfg.locals[id.index()].name.as_str(), param.into_iter().chain(unset).collect())
            }
            _ => return None,
        };
        set.extend(flipped.trace.iter_mut().filter_map(|item| match item {
            TraceItem::Havoc { var, value }
            | TraceItem::CallOut { var, value, .. }
            | TraceItem::CallModifies { global: var, value, .. }
                if *var == name =>
            {
                Some(value)
            }
            _ => None,
        }));
        let mut changed = false;
        for value in set {
            changed |= eval::set_cell(value, &flip.keys, &flip.read, &flip.wanted);
        }
        changed.then_some(flipped)
    }

    /// The graphs the machine runs.
    pub fn cfgs(&self) -> &'a [Cfg] {
        self.cfgs
    }
}

/// Which of a run's checks are evaluated ([`Machine::run_unchecked`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Checks {
    All,
    /// None: assertions, invariants and callee contracts' checked clauses hold.
    None,
}

/// Runs one test on `machine` (see [`Machine::run`]).
pub fn run(machine: &Machine, input: &TestInput, mode: TraceMode) -> Replay {
    machine.run(input, mode)
}

/// One test: where it starts, its entry values, and its choices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestInput {
    pub implementation: hir::ImplId,
    /// One per in-parameter, in order.
    pub params: Vec<Value>,
    /// Entry values of globals; a missing global starts with its type's default.
    pub globals: Vec<(hir::GlobalId, Value)>,
    /// Values of constants; a missing one gets its type's default (a missing `unique`
    /// constant the smallest value no other `unique` constant of its type has).
    pub consts: Vec<(hir::ConstId, Value)>,
    /// Initial values of the entry implementation's outs and locals (by its
    /// `LocalId`s); a missing one starts with its type's default.
    pub uninitialized: Vec<(hir::LocalId, Value)>,
    /// Tables of body-less functions; a missing function is its definition when axioms
    /// define it, else returns its result type's default on every argument.
    pub functions: Vec<FunctionModel>,
    pub trace: Vec<TraceItem>,
}

impl TestInput {
    /// A test of `implementation` with no inputs yet: every value is its default.
    pub fn new(implementation: hir::ImplId) -> TestInput {
        TestInput {
            implementation,
            params: Vec::new(),
            globals: Vec::new(),
            consts: Vec::new(),
            uninitialized: Vec::new(),
            functions: Vec::new(),
            trace: Vec::new(),
        }
    }

    /// The values the test sets, in a fixed order: parameters, globals, constants, unset
    /// locals, then the trace's values (function tables are not among them).
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut Value> {
        let named = (self.globals.iter_mut().map(|(_, value)| value))
            .chain(self.consts.iter_mut().map(|(_, value)| value))
            .chain(self.uninitialized.iter_mut().map(|(_, value)| value));
        let trace = self.trace.iter_mut().filter_map(|item| match item {
            TraceItem::Havoc { value, .. }
            | TraceItem::CallOut { value, .. }
            | TraceItem::CallModifies { value, .. } => Some(value),
            TraceItem::Goto { .. } => None,
        });
        self.params.iter_mut().chain(named).chain(trace)
    }
}

/// One entry of a choice trace. Variables are named, not numbered: a trace crosses
/// procedures, and names are what a suite file stores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceItem {
    /// The value a `havoc` (or a callee frame's unset variable) gets; `var` is the
    /// local's name in its graph, or the global's name.
    Havoc { var: String, value: Value },
    /// An output of a call to a body-less procedure; `var` names the caller's target.
    CallOut { callee: String, var: String, value: Value },
    /// A global a call to a body-less procedure modifies, its value after the call.
    CallModifies { callee: String, global: String, value: Value },
    /// The target a multi-target `goto` takes: its origin path (`if#1/then`,
    /// `goto:L`), `top level` when the path is empty.
    Goto { target: String },
}

impl fmt::Display for TraceItem {
    /// The entry without its value, for messages: `havoc x`, `goto if#1/then`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraceItem::Havoc { var, .. } => write!(f, "havoc `{var}`"),
            TraceItem::CallOut { callee, var, .. } => write!(f, "output `{var}` of a call to `{callee}`"),
            TraceItem::CallModifies { callee, global, .. } => {
                write!(f, "global `{global}` modified by a call to `{callee}`")
            }
            TraceItem::Goto { target } => write!(f, "goto `{target}`"),
        }
    }
}

/// A variable the test sets (a global or a local of the entry implementation), or a
/// cell of one, that the guard of a branch the run did not take compares, and a value
/// of it under which that comparison holds ([`flips`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellFlip {
    pub var: hir::Var,
    /// The cell's keys; none for the variable itself.
    pub keys: Vec<Value>,
    /// The cell's value on the run.
    pub read: Value,
    pub wanted: Value,
}

/// What to do when the trace runs out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceMode {
    /// Every choice must come from the trace, and a passing run must use all of it.
    Strict,
    /// Missing values are their type's default (a callee's `modifies` globals keep
    /// theirs) and an ambiguous `goto` takes its first feasible target. A trace made for
    /// another path (a candidate's, whose run left it; a test with a cell flipped) is
    /// followed where it fits: an entry for a choice the run does not make is passed
    /// over to the next entry for the choice it makes (none left: the default), a
    /// `goto` entry naming no branch here is left for a later `goto`, a branch it names
    /// whose `assume`s are false here gives way to a feasible one, and a callee's new
    /// globals that break its postconditions to the unchanged ones, or to its new maps
    /// laid over the old ones (a candidate's map is known only at the keys its model
    /// read), when those keep them. [`Replay::trace`] records the choices the run made,
    /// [`Replay::left_trace`] where it first left the trace.
    Complete,
}

/// What one run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    pub outcome: Outcome,
    pub coverage: Coverage,
    /// The blocks of the entry implementation's graph its frame entered, in order (the
    /// run followed on an unrolled graph: [`crate::cfg::unroll::Unrolled::walk`]).
    pub path: Vec<BlockId>,
    /// On [`Outcome::Passed`]: the entry implementation's out-parameters (its
    /// `LocalId`s) in order, then the globals its procedure modifies; else empty.
    pub outputs: Vec<(hir::Var, Value)>,
    /// The entries consumed, in order; in [`TraceMode::Complete`] with the choices the
    /// interpreter made itself, so it replays in [`TraceMode::Strict`].
    pub trace: Vec<TraceItem>,
    /// The steps taken (see [`Limits::max_steps`]).
    pub steps: u64,
    /// Per guarded branch of the entry implementation the run reached and did not take,
    /// the smallest branch distance of its guard seen (`distance.rs`): what the search
    /// steers by toward goals not entered yet.
    pub distances: BTreeMap<BlockId, num_bigint::BigInt>,
    /// Per guarded branch of the entry implementation the run reached and did not take,
    /// the cells of global maps its guard compares and the values that would make it
    /// hold ([`flips`]): what the search sets toward goals no step of one reaches.
    pub cell_flips: BTreeMap<BlockId, Vec<CellFlip>>,
    /// When the run stopped at a body-less callee's postcondition over a range of a
    /// function's points (`forall x :: lo <= x && x < hi ==> f(x) == e`) false off the
    /// test's table of `f`: the entries that make it hold there ([`writes`]), for the
    /// caller to write and run the test again.
    pub table_writes: Vec<TableWrite>,
    /// The test's tables break a relevant axiom only at points the run does not read,
    /// and its outcome is [`Outcome::CannotEvaluate`] for it: an execution only if the
    /// tables extend beyond those points to satisfy it, which replay does not decide.
    pub beyond_reads: bool,
    /// When the run is [`Outcome::Invalid`] because a closed `forall` (a relevant axiom,
    /// or a `requires` of the entry procedure) is false on the test: which, and a binding
    /// of its variables where its body is false (for counterexample-guided
    /// instantiation, [`crate::smt::refine`]).
    pub refutation: Option<Refutation>,
    /// On [`Machine::run_toward`]: the smallest branch distance (`distance.rs`) of the
    /// target check's condition from being false, over the times the run evaluated it;
    /// 0 when it failed. `None` when the run never evaluated it (or could not measure it).
    pub target_distance: Option<num_bigint::BigInt>,
    /// A check that failed on the run but is reported [`Outcome::CannotEvaluate`]
    /// because it fails only if an axiom (or entry precondition) replay cannot decide
    /// holds: the failure the run shows, unconfirmed.
    pub unconfirmed: Option<Violation>,
    /// The run stopped at a failed check or a false assumption that stops an execution
    /// only if something replay cannot decide holds (an axiom the tables may break; the
    /// outcome is [`Outcome::CannotEvaluate`] with both reasons): an execution may go on
    /// past it, so another model, on a more exact graph, may reach what lies beyond.
    pub stopped_unconfirmed: bool,
    /// In [`TraceMode::Complete`], where the run first left the path its trace was made
    /// for: an entry for a choice it did not make there, the run's position and what
    /// it made instead (`trace entry 7 is the goto `goto:L`, but the branches here
    /// are …`).
    pub left_trace: Option<Stop>,
    /// On [`Machine::run_noting_off_table`]: the points at which the run read a
    /// body-less Boolean function off its table (the function, its arguments), in
    /// order, at most 256; else empty.
    pub off_table_reads: Vec<(hir::FunctionId, Vec<Value>)>,
}

/// A closed `forall` a run found false (a formula, or a conjunct of one), with bindings of its variables (each in the
/// order they are declared) where its body is false on the test's values: the first
/// found, and up to 15 more.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refutation {
    pub check: RefutedCheck,
    /// Which conjunct of the closed formula, split at its top-level `&&` (`true`
    /// operands dropped, as the encoding drops them), is the `forall`: 0 for a formula
    /// that is one `forall`.
    pub conjunct: usize,
    pub bindings: Vec<Vec<Value>>,
}

/// Which closed formula a [`Refutation`] is of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RefutedCheck {
    /// By index into the program's axioms.
    Axiom(usize),
    /// By index into the entry procedure's `requires` clauses.
    Requires(usize),
}

impl Replay {
    /// The blocks of `unrolled` (the entry implementation's graph, unrolled) the run
    /// passes, which decide the goals it covers. Without unrolling, every block any
    /// frame of the implementation entered (a recursive call covers goals too); with it,
    /// the entry frame's path followed iteration by iteration.
    pub fn passed(&self, unrolled: &Unrolled) -> BTreeSet<BlockId> {
        if unrolled.bound == 0 {
            self.coverage.blocks.get(&unrolled.cfg.implementation).cloned().unwrap_or_default()
        } else {
            unrolled.walk(&self.path)
        }
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The entry implementation returned, and every check on the way held.
    Passed,
    /// A check that is not `free` failed.
    Failed(Violation),
    /// An `assume` (a guard, a `where` clause, a free invariant or precondition, a
    /// body-less callee's postcondition) is false: the path is not a real execution.
    Infeasible(Stop),
    /// The test does not fit the program: a precondition of the entry procedure or an
    /// axiom is false on its inputs, or an input has the wrong type.
    Invalid(Stop),
    /// The trace does not fit the run; `index` is the entry at fault (the trace's
    /// length when an entry is missing).
    ReplayError { index: usize, stop: Stop },
    /// Something the interpreter cannot evaluate exactly (an unbounded quantifier, a
    /// lambda, `<:`, an opaque value, a division by zero).
    CannotEvaluate(Stop),
    /// The run went over [`Limits`]; the span is the command it was executing.
    BudgetExhausted(Stop),
}

/// Where and why a run stopped early.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stop {
    pub span: Span,
    /// A short description: "assumption `x > 0` does not hold".
    pub message: String,
}

impl Stop {
    fn new(span: Span, message: impl Into<String>) -> Stop {
        Stop { span, message: message.into() }
    }
}

/// A failed check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub kind: ViolationKind,
    /// The `assert` command, the invariant, or the contract clause.
    pub span: Span,
    /// The call, for a callee's precondition or a really executed callee's
    /// postcondition.
    pub call: Option<Span>,
    /// "assertion `x > 0` violated".
    pub message: String,
}

/// Which kind of check failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ViolationKind {
    /// An `assert` written by the user.
    Assert,
    /// Invariant `index` of a loop, after `iterations` iterations of the current entry
    /// into the loop (0: on entry).
    Invariant { index: u32, iterations: u64 },
    /// Clause `clause` of the `requires` of `callee`, at a call.
    Requires { callee: hir::ProcId, clause: usize },
    /// Clause `clause` of the `ensures` of `procedure`, at a return.
    Ensures { procedure: hir::ProcId, clause: usize },
}

impl Outcome {
    /// The span the outcome points at, if it is not [`Outcome::Passed`].
    pub fn span(&self) -> Option<Span> {
        match self {
            Outcome::Passed => None,
            Outcome::Failed(violation) => Some(violation.span),
            Outcome::ReplayError { stop, .. } => Some(stop.span),
            Outcome::Infeasible(stop)
            | Outcome::Invalid(stop)
            | Outcome::CannotEvaluate(stop)
            | Outcome::BudgetExhausted(stop) => Some(stop.span),
        }
    }

    /// The outcome's short message ("passed" for [`Outcome::Passed`]).
    pub fn message(&self) -> &str {
        match self {
            Outcome::Passed => "passed",
            Outcome::Failed(violation) => &violation.message,
            Outcome::ReplayError { stop, .. } => &stop.message,
            Outcome::Infeasible(stop)
            | Outcome::Invalid(stop)
            | Outcome::CannotEvaluate(stop)
            | Outcome::BudgetExhausted(stop) => &stop.message,
        }
    }

    /// One line for users: "assertion `x > 0` violated at t.bpl:3:5".
    pub fn describe(&self, db: &SourceDb) -> String {
        match self.span() {
            None => self.message().to_string(),
            Some(span) => {
                let at = db.line_col(span);
                format!("{} at {}:{}:{}", self.message(), db.name(span.file), at.line, at.column)
            }
        }
    }
}

/// What a run executed. Every map is ordered, so coverage prints deterministically.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// The blocks entered, per implementation (a block counts once entered, even if the
    /// run stops inside it).
    pub blocks: BTreeMap<hir::ImplId, BTreeSet<BlockId>>,
    /// How often each edge `(implementation, from, to)` was taken.
    pub edges: BTreeMap<(hir::ImplId, BlockId, BlockId), u64>,
    /// Per loop `(implementation, header)`: one entry per time the loop was entered,
    /// the number of iterations (back edges taken) before it was left.
    pub loops: BTreeMap<(hir::ImplId, BlockId), Vec<u64>>,
}

/// The name a [`TraceItem::Goto`] gives a block with origin path `path`: the path
/// (`if#1/then`), or `top level` when it is empty.
pub fn branch_name(path: &StructPath) -> String {
    if path.0.is_empty() {
        "top level".to_string()
    } else {
        path.to_string()
    }
}

impl Coverage {
    /// Adds what another run executed (a suite's coverage is its runs' union).
    pub fn merge(&mut self, run: &Coverage) {
        for (implementation, blocks) in &run.blocks {
            self.blocks.entry(*implementation).or_default().extend(blocks.iter().copied());
        }
        for (edge, count) in &run.edges {
            *self.edges.entry(*edge).or_default() += count;
        }
        for (header, counts) in &run.loops {
            self.loops.entry(*header).or_default().extend(counts.iter().copied());
        }
    }

    /// The goals of `cfg` whose block the run entered: the coverage a test reports.
    pub fn goals(&self, cfg: &Cfg) -> Vec<GoalId> {
        let Some(entered) = self.blocks.get(&cfg.implementation) else { return Vec::new() };
        goals(cfg).into_iter().filter(|goal| entered.contains(&goal.block)).map(|goal| goal.id).collect()
    }
}
