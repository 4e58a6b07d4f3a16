//! Running a test: entry checks, blocks, calls, contracts, the trace and coverage.
//!
//! Input: a [`Machine`] and a [`TestInput`]. Output: a [`Replay`]. The run is one loop
//! over an explicit stack of [`Frame`]s, one per active procedure call, so a long run
//! or a deep call chain never deepens the native stack; only expression evaluation
//! recurses (see [`super::eval`]).
//!
//! Order of a run (the rules are those of the module header of [`super`]):
//! 1. the inputs are checked against the program's types ([`Outcome::Invalid`]);
//! 2. the axioms are evaluated on the constants and function tables (one that cannot be
//!    evaluated is skipped; a false one is judged again when the run ends, on the points
//!    of the tables the run read: false there, the test is invalid, else the run is
//!    undecided, see [`Runner::axioms`]);
//! 3. the entry procedure's `requires`, free ones too, must hold on the inputs (a false
//!    one judged as a false axiom is);
//! 4. blocks run from the entry; the run ends at the entry implementation's `return`
//!    (after its `ensures` are checked) or at the first check, assumption or choice that
//!    stops it.

use super::define::definition_holds;
use super::distance::distance;
use super::eval::{admit, as_bool, default_value, EvalError, Evaluator, Reads, State, MAX_COUNTEREXAMPLES};
use super::flips;
use super::inputs::{entry, Entry};
use super::writes::{self, TableWrite};
use super::{
    branch_name, CellFlip, Checks, Coverage, Limits, Machine, Outcome, Refutation, RefutedCheck, Replay, Stop,
    TestInput, TraceItem, TraceMode, Violation, ViolationKind,
};
use crate::cfg::print::print_expr;
use crate::cfg::uninit::read_before_written;
use crate::cfg::{AssertReason, AssumeReason, BlockId, Cfg, Cmd, CmdKind, Terminator};
use crate::sema::hir::{self, ExprKind, LocalId, ProcId, Quantifier};
use crate::sema::relevance::{self, Relevant};
use crate::source::Span;
use crate::vc::{FunctionModel, MapValue, Value};
use num_bigint::BigInt;
use num_traits::Zero;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

/// What a run needs to know about one graph, computed once per [`Machine`].
pub(super) struct Shape<'a> {
    pub cfg: &'a Cfg,
    /// Per loop header, the loop's blocks as a membership table by block index.
    loops: BTreeMap<BlockId, Vec<bool>>,
    /// The outs and locals a callee frame of this graph takes from the trace.
    unset: Vec<LocalId>,
    /// The name a `Goto` trace entry gives each block.
    branch_names: Vec<String>,
    /// The axioms a run of this graph is checked against: those the encoding asserts.
    relevant: Relevant,
}

impl<'a> Shape<'a> {
    pub(super) fn new(program: &hir::Program, axioms: &relevance::AxiomSymbols, cfg: &'a Cfg) -> Shape<'a> {
        let loops = cfg
            .loops
            .iter()
            .map(|found| {
                let mut body = vec![false; cfg.blocks.len()];
                found.body.iter().for_each(|block| body[block.index()] = true);
                (found.header, body)
            })
            .collect();
        let branch_names = cfg.blocks.iter().map(|block| branch_name(&block.origin.path)).collect();
        let relevant = relevance::relevant_among(program, axioms, cfg.implementation);
        Shape { cfg, loops, unset: read_before_written(cfg), branch_names, relevant }
    }
}

/// What the relevant axioms of an implementation say on one test's constants, tables
/// and universes ([`Runner::axiom_verdict`]).
#[derive(Clone, Default)]
pub(super) struct AxiomVerdict {
    /// The steps their evaluation took.
    steps: u64,
    /// The first the interpreter could not decide.
    undecided: Option<Stop>,
    /// Those false on the tables, by index into the program's axioms.
    falsified: Vec<usize>,
    /// The budget or the time ran out (never kept in the cache).
    exhausted: Option<Outcome>,
}

/// A check on a test's inputs that its tables break, judged again when the run ends on
/// the points the run read ([`Runner::judge_falsified`]).
enum Falsified<'r> {
    /// By index into the program's axioms.
    Axiom(usize),
    /// A `requires` of the entry procedure, with the state it was evaluated in (the
    /// contract's locals, the globals).
    Requires { clause: &'r hir::Clause, procedure: ProcId, entry: (Vec<Value>, Vec<Value>) },
}

impl Falsified<'_> {
    /// Where it is, and what it is (for messages).
    fn describe(&self, program: &hir::Program) -> (Span, String) {
        match self {
            Falsified::Axiom(index) => {
                let axiom = &program.axioms[*index];
                (axiom.span, format!("axiom `{}`", print_expr(program, &[], &axiom.expr)))
            }
            Falsified::Requires { clause, procedure, .. } => {
                let procedure = &program.procedures[procedure.index()];
                let text = print_expr(program, &procedure.locals, &clause.expr);
                (clause.span, format!("precondition `{text}` of `{}`", procedure.name))
            }
        }
    }

    /// The closed formula, and which check it is.
    fn formula<'s>(&'s self, program: &'s hir::Program) -> (&'s hir::Expr, RefutedCheck) {
        match self {
            Falsified::Axiom(index) => (&program.axioms[*index].expr, RefutedCheck::Axiom(*index)),
            Falsified::Requires { clause, procedure, .. } => {
                let clauses = &program.procedures[procedure.index()].requires;
                let position = clauses.iter().position(|candidate| std::ptr::eq(candidate, *clause));
                (&clause.expr, RefutedCheck::Requires(position.expect("an entry precondition is one of its clauses")))
            }
        }
    }

    /// Whether it is false on `evaluator`'s values, and if so, when it is a `forall` or
    /// a conjunction with one, the bindings the evaluator found false
    /// ([`Evaluator::counterexamples`]), up to [`MAX_COUNTEREXAMPLES`].
    fn refute(&self, evaluator: &mut Evaluator<'_>) -> Result<Option<Option<Refutation>>, EvalError> {
        evaluator.counterexamples.clear();
        evaluator.collect_counterexamples = MAX_COUNTEREXAMPLES;
        let holds = self.eval(evaluator);
        evaluator.collect_counterexamples = 1;
        if holds? {
            return Ok(None);
        }
        let (expr, check) = self.formula(evaluator.program());
        let found = std::mem::take(&mut evaluator.counterexamples);
        // A precondition is often a conjunction of `forall`s (a driver model's pair of
        // ownership invariants): the first conjunct found false is the one refuted. The
        // instances of a type-quantified `forall` (`forall <U> o: ref, f: Field U`, one
        // per type in the monomorphic program) share their body's span: a binding is
        // the conjunct's whose variables' types it fits.
        let mut conjuncts = Vec::new();
        super::members::formula_conjuncts(evaluator.program(), expr, &mut conjuncts);
        let refutation = conjuncts.iter().enumerate().find_map(|(conjunct, expr)| {
            let ExprKind::Quant { quantifier: Quantifier::Forall, vars, body, .. } = &expr.kind else { return None };
            let fits = |values: &&Vec<Value>| {
                values.len() == vars.len()
                    && vars.iter().zip(values.iter()).all(|(var, value)| super::eval::admit(value, &var.ty).is_some())
            };
            let (_, bindings) = found.iter().find(|(span, _)| *span == body.span)?;
            let bindings: Vec<Vec<Value>> = bindings.iter().filter(fits).cloned().collect();
            (!bindings.is_empty()).then_some(Refutation { check, conjunct, bindings })
        });
        Ok(Some(refutation))
    }

    fn eval(&self, evaluator: &mut Evaluator<'_>) -> Result<bool, EvalError> {
        match self {
            Falsified::Axiom(index) => evaluator.eval_bool(State::empty(), &evaluator.program().axioms[*index].expr),
            Falsified::Requires { clause, entry: (locals, globals), .. } => {
                evaluator.eval_bool(State { locals, globals, old_globals: globals }, &clause.expr)
            }
        }
    }
}

/// What an [`AxiomVerdict`] depends on.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct AxiomKey {
    implementation: hir::ImplId,
    consts: Vec<Value>,
    functions: Vec<FunctionModel>,
    universes: BTreeMap<hir::TypeId, BTreeSet<u32>>,
}

/// The verdicts of recent runs, shared by a machine's runs (and threads): a run's
/// axioms cost it most of its time on a program of hundreds of axioms, and the runs
/// of one search share their tables.
#[derive(Default)]
pub(super) struct AxiomCache {
    verdicts: Mutex<BTreeMap<AxiomKey, AxiomVerdict>>,
}

/// How many verdicts an [`AxiomCache`] keeps before it starts afresh.
const AXIOM_CACHE_ENTRIES: usize = 64;

impl AxiomCache {
    fn get(&self, key: &AxiomKey) -> Option<AxiomVerdict> {
        self.verdicts.lock().expect("no run panics holding the cache").get(key).cloned()
    }

    fn insert(&self, key: AxiomKey, verdict: AxiomVerdict) {
        let mut verdicts = self.verdicts.lock().expect("no run panics holding the cache");
        if verdicts.len() >= AXIOM_CACHE_ENTRIES {
            verdicts.clear();
        }
        verdicts.insert(key, verdict);
    }
}

/// The value of a trace item that only names the choice the run needs (see
/// [`Runner::choose_value`]).
const PLACEHOLDER: Value = Value::Bool(false);

/// One active procedure call.
struct Frame<'r> {
    shape: &'r Shape<'r>,
    procedure: ProcId,
    /// By the graph's `LocalId`s.
    locals: Vec<Value>,
    /// The globals when the frame started: what `old` reads.
    old_globals: Vec<Value>,
    block: BlockId,
    /// The next command of `block` to run; past the end: its terminator.
    next_cmd: usize,
    /// Per loop header entered in this frame: which entry of [`Coverage::loops`] counts
    /// its current iterations (a recursive call runs the same loop in another frame).
    loop_entries: BTreeMap<BlockId, usize>,
    /// The call that started the frame; `None` for the entry implementation.
    call: Option<CallSite<'r>>,
    /// Set when the frame moved to `block` (from this predecessor; `None` at the
    /// frame's start) and has not yet passed the block's leading `assume`s: the entry is
    /// recorded only then, since a goal's seed point lies after them
    /// (`seed::seeded`), and a run stopped by them has not reached the goal.
    arriving: Option<Option<BlockId>>,
}

struct CallSite<'r> {
    /// The caller's variables receiving the outs.
    outs: &'r [hir::Var],
    /// `free call`: the callee's preconditions are neither checked nor assumed.
    free: bool,
    span: Span,
}

pub(super) fn run(
    machine: &Machine<'_>,
    input: &TestInput,
    mode: TraceMode,
    (checks, limits): (Checks, Limits),
) -> Replay {
    run_observing(machine, input, mode, (checks, limits), Notes::default(), None).0
}

/// What a run notes beside its replay.
#[derive(Clone, Copy, Default)]
pub(super) struct Notes<'n> {
    /// The integer operands of the comparisons it evaluates ([`Machine::run_observing`]).
    pub operands: bool,
    /// The points off their tables at which it reads predicates, given those whose
    /// tables were completed ([`Machine::run_noting_off_table`]).
    pub off_table: Option<&'n BTreeSet<hir::FunctionId>>,
}

/// [`run`], and the integer operands of the comparisons it evaluated when `notes` asks
/// (see [`Machine::run_observing`]); with a `target`, the distance of the check there
/// from failing ([`Replay::target_distance`]).
pub(super) fn run_observing(
    machine: &Machine<'_>,
    input: &TestInput,
    mode: TraceMode,
    (checks, limits): (Checks, Limits),
    notes: Notes<'_>,
    target: Option<Span>,
) -> (Replay, Vec<(num_bigint::BigInt, num_bigint::BigInt)>) {
    let entry = match entry(machine, input) {
        Ok(entry) => entry,
        Err(outcome) => {
            let coverage = Coverage::default();
            let (path, outputs, trace, distances) = (Vec::new(), Vec::new(), Vec::new(), BTreeMap::new());
            let (beyond_reads, refutation, target_distance, unconfirmed) = (false, None, None, None);
            let replay = Replay {
                outcome,
                coverage,
                path,
                outputs,
                trace,
                steps: 0,
                distances,
                cell_flips: BTreeMap::new(),
                table_writes: Vec::new(),
                beyond_reads,
                refutation,
                target_distance,
                unconfirmed,
                stopped_unconfirmed: false,
                left_trace: None,
                off_table_reads: Vec::new(),
            };
            return (replay, Vec::new());
        }
    };
    let mut eval = Evaluator::new(machine.program, limits, entry.consts.clone(), &entry.functions);
    eval.definitions = &machine.definitions;
    eval.universes = universes(machine.program, &entry, input);
    eval.operands = notes.operands.then(Vec::new);
    eval.off_table_reads = notes.off_table.map(|_| BTreeSet::new());
    eval.completing = notes.off_table.cloned().unwrap_or_default();
    let mut runner = Runner {
        machine,
        program: machine.program,
        input,
        mode,
        checks,
        eval,
        globals: entry.globals.clone(),
        frames: Vec::new(),
        next: 0,
        trace: Vec::new(),
        coverage: Coverage::default(),
        path: Vec::new(),
        distances: BTreeMap::new(),
        cell_flips: BTreeMap::new(),
        table_writes: Vec::new(),
        undecided_axiom: None,
        falsified: Vec::new(),
        refutation: None,
        target,
        target_distance: None,
        unconfirmed: None,
        stopped_unconfirmed: false,
        left_trace: None,
    };
    let span = entry.shape.cfg.span;
    let outcome = match runner.start(entry) {
        Ok(()) => runner.execute(),
        Err(outcome) => outcome,
    };
    runner.judge_sets_read_off_definition();
    let outcome = match (outcome, runner.undecided_axiom.take()) {
        (Outcome::Failed(violation), Some(axiom)) => {
            let outcome = runner.only_if(violation.span, &violation.message, &axiom.message);
            runner.unconfirmed = Some(violation);
            outcome
        }
        // A pass is judged when the run ends ([`Runner::finish`]).
        (outcome, undecided) => {
            runner.undecided_axiom = undecided;
            outcome
        }
    };
    let operands = runner.eval.operands.take().unwrap_or_default();
    (runner.finish(outcome, span), operands)
}

/// The elements of each uninterpreted type the test mentions (in any input, table or
/// trace value), and element 0: the finite universe the test's run lives in.
fn universes(program: &hir::Program, entry: &Entry<'_>, input: &TestInput) -> BTreeMap<hir::TypeId, BTreeSet<u32>> {
    let mut universes: BTreeMap<hir::TypeId, BTreeSet<u32>> =
        (0..program.types.len()).map(|index| (hir::TypeId::from_index(index), BTreeSet::from([0]))).collect();
    let mut pending: Vec<&Value> = entry.consts.iter().chain(&entry.globals).chain(&input.params).collect();
    pending.extend(input.uninitialized.iter().map(|(_, value)| value));
    for table in &entry.functions {
        pending.push(&table.default);
        for (args, result) in &table.entries {
            pending.extend(args);
            pending.push(result);
        }
    }
    pending.extend(input.trace.iter().filter_map(|item| match item {
        TraceItem::Havoc { value, .. } | TraceItem::CallOut { value, .. } | TraceItem::CallModifies { value, .. } => {
            Some(value)
        }
        TraceItem::Goto { .. } => None,
    }));
    while let Some(value) = pending.pop() {
        match value {
            Value::Elem { ty, index } => {
                universes.entry(*ty).or_default().insert(*index);
            }
            Value::Map(map) => {
                pending.push(&map.default);
                for (key, value) in &map.entries {
                    pending.push(key);
                    pending.push(value);
                }
            }
            Value::Bool(_) | Value::Int(_) | Value::Real(_) | Value::BitVec { .. } | Value::Opaque(_) => {}
        }
    }
    universes
}

struct Runner<'r> {
    machine: &'r Machine<'r>,
    program: &'r hir::Program,
    input: &'r TestInput,
    mode: TraceMode,
    checks: Checks,
    eval: Evaluator<'r>,
    globals: Vec<Value>,
    frames: Vec<Frame<'r>>,
    /// The next entry of `input.trace`.
    next: usize,
    /// The entries consumed, and the choices made in [`TraceMode::Complete`].
    trace: Vec<TraceItem>,
    coverage: Coverage,
    /// The blocks the entry implementation's frame entered, in order.
    path: Vec<BlockId>,
    /// See [`Replay::distances`].
    distances: BTreeMap<BlockId, BigInt>,
    /// See [`Replay::cell_flips`].
    cell_flips: BTreeMap<BlockId, Vec<CellFlip>>,
    /// See [`Replay::table_writes`].
    table_writes: Vec<TableWrite>,
    /// The first relevant axiom (or entry precondition) the run could not decide on
    /// the test's values (a quantifier over maps, say): the run goes on, but whatever
    /// it ends in (a pass, a failure) holds only if that axiom does, so it is reported
    /// as undecided (`unchecked`, with the reason).
    undecided_axiom: Option<Stop>,
    /// The relevant axioms and entry preconditions false on the test's tables, to be
    /// judged on the points the run reads when it ends ([`Runner::axioms`]).
    falsified: Vec<Falsified<'r>>,
    /// See [`Replay::refutation`].
    refutation: Option<Refutation>,
    /// The check whose distance from failing is measured ([`Replay::target_distance`]):
    /// an `assert` or an entry `ensures` clause by its span, a callee's `requires` by its
    /// call's.
    target: Option<Span>,
    target_distance: Option<BigInt>,
    /// See [`Replay::unconfirmed`].
    unconfirmed: Option<Violation>,
    /// See [`Replay::stopped_unconfirmed`].
    stopped_unconfirmed: bool,
    /// See [`Replay::left_trace`].
    left_trace: Option<Stop>,
}

/// Why a run's outcome holds only if `axiom` does: replay cannot decide it (`why`).
fn undecided_axiom(program: &hir::Program, axiom: &hir::Axiom, why: &str) -> Stop {
    let text = print_expr(program, &[], &axiom.expr);
    Stop::new(axiom.span, format!("axiom `{text}` holds, which replay cannot decide ({why})"))
}

/// The outcome of an expression that has no value, blamed on the command at `span`
/// when it is over budget.
fn halt(error: EvalError, span: Span) -> Outcome {
    match error {
        EvalError::Cannot { span, message } => Outcome::CannotEvaluate(Stop { span, message }),
        EvalError::Budget { message } => Outcome::BudgetExhausted(Stop { span, message }),
    }
}

// ---------------------------------------------------------------------------------------
// The run

impl<'r> Runner<'r> {
    fn start(&mut self, entry: Entry<'r>) -> Result<(), Outcome> {
        self.axioms(entry.shape, &entry.functions)?;
        let Entry { shape, implementation, locals, .. } = entry;
        let frame = Frame {
            shape,
            procedure: implementation.proc,
            locals,
            old_globals: self.globals.clone(),
            block: shape.cfg.entry,
            next_cmd: 0,
            loop_entries: BTreeMap::new(),
            call: None,
            arriving: None,
        };
        let procedure = &self.program.procedures[implementation.proc.index()];
        let contract = contract_locals(procedure, implementation, &frame.locals);
        for clause in &procedure.requires {
            let state = State { locals: &contract, globals: &self.globals, old_globals: &self.globals };
            let holds = match self.eval.eval_bool(state, &clause.expr) {
                // Assumed, as an axiom replay cannot decide is: the run goes on, and
                // its outcome is undecided unless something else decides it.
                Err(EvalError::Cannot { message, .. }) if self.checks != Checks::None => {
                    let text = print_expr(self.program, &procedure.locals, &clause.expr);
                    let message = format!(
                        "precondition `{text}` of `{}` holds, which replay cannot decide ({message})",
                        procedure.name
                    );
                    self.undecided_axiom.get_or_insert(Stop::new(clause.span, message));
                    true
                }
                holds => holds.map_err(|error| halt(error, clause.span))?,
            };
            if !holds {
                let falsified = Falsified::Requires {
                    clause,
                    procedure: implementation.proc,
                    entry: (contract.clone(), self.globals.clone()),
                };
                if self.checks == Checks::None || self.false_on_no_table(&falsified) {
                    let text = print_expr(self.program, &procedure.locals, &clause.expr);
                    let message =
                        format!("precondition `{text}` of `{}` does not hold on the test's inputs", procedure.name);
                    return Err(Outcome::Invalid(Stop::new(clause.span, message)));
                }
                // Judged again on the points the run reads, as a false axiom is.
                self.eval.reads.get_or_insert_with(Reads::new);
                self.falsified.push(falsified);
            }
        }
        self.frames.push(frame);
        self.enter(None, shape.cfg.entry);
        Ok(())
    }

    /// A false axiom makes the test invalid unless the run never reads where it is
    /// false; one the interpreter cannot evaluate (an unbounded quantifier, typically) is
    /// skipped, and remembered: a failure is then not confirmed (see
    /// [`Runner::undecided_axiom`]). Only the axioms of `relevant` are checked: the
    /// others speak of nothing the run reads, and the test leaves their symbols out
    /// ([`crate::sema::relevance`]).
    ///
    /// **Axioms no finite table satisfies.** A test's tables are finite (entries and a
    /// default), and some axioms hold in no finite table: `x <= y && Rep(n,x) ==
    /// Rep(n,y) ==> AtLeast(n,x)[y]` beside its converse needs the set `AtLeast(n,x)` to
    /// hold infinitely many `y` and not all. The solver's candidate for such a program
    /// breaks it at some point, which makes the tables no model; but the run only
    /// reads some points of them, and the program behaves the same in every
    /// interpretation that agrees there. So an axiom false on the tables is judged again
    /// when the run ends, on the points the run read alone ([`Evaluator::on_reads`]):
    /// false there, it is false in every such interpretation, and the test is invalid;
    /// otherwise whether one satisfies it is not decided, and the run's outcome says so
    /// (its checks are recorded `unchecked`, see [`Runner::judge_falsified`]).
    fn axioms(&mut self, shape: &Shape<'_>, functions: &[FunctionModel]) -> Result<(), Outcome> {
        let verdict = self.axiom_verdict(shape, functions);
        if let Some(exhausted) = verdict.exhausted {
            return Err(exhausted);
        }
        if self.undecided_axiom.is_none() {
            self.undecided_axiom = verdict.undecided;
        }
        if self.checks != Checks::None && self.machine.definitions.iter().any(|definition| definition.is_membership()) {
            // A set read off its definition is judged on the points the run read
            // (`Runner::judge_sets_read_off_definition`).
            self.eval.reads.get_or_insert_with(Reads::new);
        }
        let Some(&first) = verdict.falsified.first() else { return Ok(()) };
        // A filter's run (a test whose tables break an axiom is no test the search keeps
        // unless a checked run says so) enters nothing, and neither does a run whose
        // axiom is false whatever the tables (`N > 0` on its constants).
        let refuted = verdict.falsified.iter().copied().find(|&index| self.false_on_no_table(&Falsified::Axiom(index)));
        if self.checks == Checks::None || refuted.is_some() {
            let axiom = &self.program.axioms[refuted.unwrap_or(first)];
            let text = print_expr(self.program, &[], &axiom.expr);
            let message = format!("axiom `{text}` is false on the test's constants and functions");
            return Err(Outcome::Invalid(Stop::new(axiom.span, message)));
        }
        self.eval.reads = Some(Reads::new());
        self.falsified = verdict.falsified.into_iter().map(Falsified::Axiom).collect();
        Ok(())
    }

    /// The relevant axioms evaluated on the test's constants and tables; taken from the
    /// machine's [`AxiomCache`] when a run of the same implementation had the same ones
    /// (the search replays hundreds of inputs that differ only in parameters and
    /// choices), its steps charged again so the run counts the same.
    fn axiom_verdict(&mut self, shape: &Shape<'_>, functions: &[FunctionModel]) -> AxiomVerdict {
        let relevant = &shape.relevant;
        if !(0..self.program.axioms.len()).any(|index| relevant.has_axiom(index)) {
            return AxiomVerdict::default();
        }
        // A run observing its operands records the axioms' comparisons too.
        let key = self.eval.operands.is_none().then(|| AxiomKey {
            implementation: shape.cfg.implementation,
            consts: self.eval.values_in_scope().cloned().collect(),
            functions: functions.to_vec(),
            universes: self.eval.universes.clone(),
        });
        if let Some(verdict) = key.as_ref().and_then(|key| self.machine.axioms.get(key)) {
            let span = self.program.axioms.first().map_or(shape.cfg.span, |axiom| axiom.span);
            return match self.eval.charge(verdict.steps) {
                Ok(()) => verdict,
                Err(error) => AxiomVerdict { exhausted: Some(halt(error, span)), ..AxiomVerdict::default() },
            };
        }
        let start = self.eval.steps;
        let mut verdict = AxiomVerdict::default();
        let axioms = self.program.axioms.iter().enumerate().filter(|&(index, _)| relevant.has_axiom(index));
        for (index, axiom) in axioms {
            match self.axiom_holds(index, functions) {
                Ok(true) => {}
                // Only the first is reported; printing an axiom of a front end's prelude
                // costs more than deciding it (Viper's `knownfolded.bpl`: most of a run).
                Err(EvalError::Cannot { message, .. }) if verdict.undecided.is_none() => {
                    verdict.undecided = Some(undecided_axiom(self.program, axiom, &message));
                }
                Err(EvalError::Cannot { .. }) => {}
                Ok(false) => verdict.falsified.push(index),
                Err(error) => {
                    verdict.exhausted = Some(halt(error, axiom.span));
                    return verdict;
                }
            }
        }
        verdict.steps = self.eval.steps - start;
        if let Some(key) = key {
            self.machine.axioms.insert(key, verdict.clone());
        }
        verdict
    }

    /// The defining axioms of a set the run read from the candidate's table where its
    /// definition could not tabulate it (`Evaluator::off_table`), judged as written:
    /// they were judged on the table's entries alone, and the run read more. False on
    /// the tables, each is judged again on the points the run read when it ends, as any
    /// axiom the tables break; undecided, the run's outcome holds only if it does.
    fn judge_sets_read_off_definition(&mut self) {
        let Some(function) = self.eval.set_read_off_definition.take() else { return };
        let machine = self.machine;
        let Some(definition) = machine.definitions.iter().find(|definition| definition.function == function) else {
            return;
        };
        for &index in &definition.axioms {
            let axiom = &self.program.axioms[index];
            match self.eval.eval_bool(State::empty(), &axiom.expr) {
                Ok(true) => {}
                Ok(false) => self.falsified.push(Falsified::Axiom(index)),
                Err(EvalError::Cannot { message, .. }) if self.undecided_axiom.is_none() => {
                    self.undecided_axiom = Some(undecided_axiom(self.program, axiom, &message));
                }
                Err(_) => {}
            }
        }
    }

    /// Whether the axiom `index` holds on the test; one that defines a function whose
    /// table has no default (the run evaluates the definition off the table), or a set
    /// by its members (evaluated the same way where the points tabulate it), is checked
    /// on the table's entries ([`super::define`]).
    fn axiom_holds(&mut self, index: usize, functions: &[FunctionModel]) -> Result<bool, EvalError> {
        let machine = self.machine;
        let definition = machine.definitions.iter().find(|definition| definition.axioms.contains(&index));
        // The entries a definition is judged on: a table that leaves the rest to it, or
        // none at all (the function is then its definition everywhere).
        let entries = definition.and_then(|definition| {
            match functions.iter().find(|table| table.function == definition.function) {
                Some(table) if matches!(table.default, Value::Opaque(_)) || definition.is_membership() => {
                    Some((definition, &table.entries[..]))
                }
                Some(_) => None,
                None => Some((definition, &[][..])),
            }
        });
        match entries {
            Some((definition, entries)) => match definition_holds(&mut self.eval, definition, entries) {
                // An entry the points cannot tabulate (an infinite set): the axiom is
                // judged on the table, as any function's.
                Err(EvalError::Cannot { .. }) if definition.is_membership() => {
                    self.eval.eval_bool(State::empty(), &self.program.axioms[index].expr)
                }
                verdict => verdict,
            },
            None => self.eval.eval_bool(State::empty(), &self.program.axioms[index].expr),
        }
    }

    /// Whether `falsified` is false knowing no point of any function table (functions
    /// axioms define still evaluated by their definitions): false however the run goes,
    /// so the run need not be made.
    /// When it is, the binding found is the run's [`Runner::refutation`].
    fn false_on_no_table(&mut self, falsified: &Falsified<'_>) -> bool {
        let consts = self.eval.values_in_scope().cloned().collect();
        let mut on_nothing = Evaluator::on_reads(self.program, self.machine.limits, consts, &Reads::new());
        on_nothing.definitions = &self.machine.definitions;
        on_nothing.universes = self.eval.universes.clone();
        match falsified.refute(&mut on_nothing) {
            Ok(Some(refutation)) => {
                self.refutation = refutation;
                true
            }
            Ok(None) | Err(_) => false,
        }
    }

    /// The outcome of a run that ended as `outcome`, its tables breaking the axioms
    /// [`Runner::falsified`]: invalid when one is false on the points the run read
    /// (no interpretation agreeing with the run satisfies it), else `outcome` made
    /// undecided, with the first such axiom as the reason; and whether it was.
    fn judge_falsified(&mut self, outcome: Outcome) -> (Outcome, bool) {
        let Some(reads) = self.eval.reads.take() else { return (outcome, false) };
        if self.falsified.is_empty()
            || matches!(outcome, Outcome::Invalid(_) | Outcome::ReplayError { .. } | Outcome::BudgetExhausted(_))
        {
            return (outcome, false);
        }
        let consts = self.eval.values_in_scope().cloned().collect();
        let mut on_reads = Evaluator::on_reads(self.program, self.machine.limits, consts, &reads);
        on_reads.definitions = &self.machine.definitions;
        on_reads.universes = std::mem::take(&mut self.eval.universes);
        let mut unrefuted = None;
        for falsified in &self.falsified {
            let (span, what) = falsified.describe(self.program);
            match falsified.refute(&mut on_reads) {
                Ok(Some(refutation)) => {
                    let message = format!("{what} is false on the points of the test's functions its run reads");
                    self.refutation = refutation;
                    return (Outcome::Invalid(Stop::new(span, message)), false);
                }
                Err(error @ EvalError::Budget { .. }) => return (halt(error, span), false),
                Ok(None) | Err(EvalError::Cannot { .. }) => {
                    unrefuted.get_or_insert((span, what));
                }
            }
        }
        let (span, what) = unrefuted.expect("a check the tables break was judged");
        let reason = format!(
            "{what} holds, which replay cannot decide (the test's tables break it only at points its run does not read)"
        );
        let outcome = match outcome {
            Outcome::Passed => Outcome::CannotEvaluate(Stop::new(span, reason)),
            Outcome::Failed(violation) => {
                let outcome = self.only_if(violation.span, &violation.message, &reason);
                self.unconfirmed = Some(violation);
                outcome
            }
            Outcome::Infeasible(Stop { span, message }) => self.only_if(span, &message, &reason),
            other => other,
        };
        (outcome, true)
    }

    fn execute(&mut self) -> Outcome {
        loop {
            match self.step() {
                Ok(false) => {}
                Ok(true) => return Outcome::Passed,
                Err(outcome) => return outcome,
            }
        }
    }

    fn frame(&self) -> &Frame<'r> {
        self.frames.last().expect("a run has a frame until it ends")
    }

    fn frame_mut(&mut self) -> &mut Frame<'r> {
        self.frames.last_mut().expect("a run has a frame until it ends")
    }

    /// Runs one command or terminator; `true` when the entry implementation returned.
    fn step(&mut self) -> Result<bool, Outcome> {
        let frame = self.frame();
        let cfg = frame.shape.cfg;
        let (id, block, next_cmd) = (frame.block, cfg.block(frame.block), frame.next_cmd);
        let leading_assume = matches!(block.cmds.get(next_cmd), Some(Cmd { kind: CmdKind::Assume { .. }, .. }));
        if !leading_assume {
            if let Some(from) = self.frame_mut().arriving.take() {
                self.record_entry(from, id);
            }
        }
        if let Some(cmd) = block.cmds.get(next_cmd) {
            self.frame_mut().next_cmd += 1;
            self.eval.tick().map_err(|error| halt(error, cmd.span))?;
            self.command(cmd)?;
            return Ok(false);
        }
        self.eval.tick().map_err(|error| halt(error, block.span))?;
        match &block.terminator {
            Terminator::Goto(targets) => {
                let to = self.choose_target(targets)?;
                self.enter(Some(id), to);
                Ok(false)
            }
            Terminator::Return => self.leave(),
        }
    }

    /// Makes `to` the current block; its entry is recorded once the run passes its
    /// leading `assume`s ([`Frame::arriving`]).
    fn enter(&mut self, from: Option<BlockId>, to: BlockId) {
        let frame = self.frame_mut();
        frame.block = to;
        frame.next_cmd = 0;
        frame.arriving = Some(from);
    }

    /// Records the entry into `to` (coverage, loop iterations): the run passed its
    /// leading `assume`s.
    fn record_entry(&mut self, from: Option<BlockId>, to: BlockId) {
        let top_level = self.frames.len() == 1;
        let frame = self.frames.last_mut().expect("a run has a frame until it ends");
        let implementation = frame.shape.cfg.implementation;
        self.coverage.blocks.entry(implementation).or_default().insert(to);
        if top_level {
            self.path.push(to);
        }
        if let Some(from) = from {
            *self.coverage.edges.entry((implementation, from, to)).or_default() += 1;
        }
        if let Some(body) = frame.shape.loops.get(&to) {
            let counts = self.coverage.loops.entry((implementation, to)).or_default();
            let back_edge = from.is_some_and(|from| body.get(from.index()).copied().unwrap_or(false));
            let current = frame.loop_entries.get(&to).and_then(|&entry| counts.get_mut(entry));
            match current {
                Some(count) if back_edge => *count += 1,
                _ => {
                    counts.push(0);
                    frame.loop_entries.insert(to, counts.len() - 1);
                }
            }
        }
    }

    /// Evaluates `expr` in the current frame; `span` is the command's.
    fn eval_here(&mut self, expr: &hir::Expr, span: Span) -> Result<Value, Outcome> {
        let frame = self.frames.last().expect("a run has a frame until it ends");
        let state = State { locals: &frame.locals, globals: &self.globals, old_globals: &frame.old_globals };
        self.eval.eval(state, expr).map_err(|error| halt(error, span))
    }

    fn holds_here(&mut self, expr: &hir::Expr, span: Span) -> Result<bool, Outcome> {
        let value = self.eval_here(expr, span)?;
        as_bool(value, expr.span).map_err(|error| halt(error, span))
    }

    fn write(&mut self, var: hir::Var, value: Value) {
        let slot = match var {
            hir::Var::Local(id) => self.frame_mut().locals.get_mut(id.index()),
            hir::Var::Global(id) => self.globals.get_mut(id.index()),
            // The checker lets statements assign only locals and globals.
            hir::Var::Const(_) | hir::Var::Bound(_) => None,
        };
        if let Some(slot) = slot {
            *slot = value;
        }
    }

    /// A variable's name (as the trace names it) and type, in the current frame.
    fn var_info(&self, var: hir::Var) -> (&'r str, &'r hir::Type) {
        let cfg: &'r Cfg = self.frame().shape.cfg;
        match var {
            hir::Var::Local(id) => (&cfg.locals[id.index()].name, &cfg.locals[id.index()].ty),
            hir::Var::Global(id) => (&self.program.globals[id.index()].name, &self.program.globals[id.index()].ty),
            hir::Var::Const(id) => (&self.program.consts[id.index()].name, &self.program.consts[id.index()].ty),
            hir::Var::Bound(_) => ("_", &hir::Type::Bool),
        }
    }

    fn print(&self, expr: &hir::Expr) -> String {
        print_expr(self.program, &self.frame().shape.cfg.locals, expr)
    }

    fn command(&mut self, cmd: &'r Cmd) -> Result<(), Outcome> {
        let span = cmd.span;
        match &cmd.kind {
            CmdKind::Assign { targets, values } => {
                // Simultaneous: every right side is read before any target is written.
                let values = values.iter().map(|value| self.eval_here(value, span)).collect::<Result<Vec<_>, _>>()?;
                targets.iter().zip(values).for_each(|(&target, value)| self.write(target, value));
                Ok(())
            }
            CmdKind::Havoc { vars, .. } => {
                for &var in vars {
                    let (name, ty) = self.var_info(var);
                    let value = self.choose_value(
                        TraceItem::Havoc { var: name.to_string(), value: PLACEHOLDER },
                        ty,
                        default_value(ty),
                        span,
                    )?;
                    self.write(var, value);
                }
                Ok(())
            }
            CmdKind::Assume { expr, reason } => {
                if self.holds_here(expr, span)? {
                    return Ok(());
                }
                Err(Outcome::Infeasible(Stop::new(
                    span,
                    format!("{} `{}` does not hold", assumption(*reason), self.print(expr)),
                )))
            }
            CmdKind::Assert { expr, reason } => {
                if self.checks == Checks::None {
                    return Ok(());
                }
                if self.target == Some(span) {
                    let frame = self.frames.last().expect("a run has a frame until it ends");
                    let state =
                        State { locals: &frame.locals, globals: &self.globals, old_globals: &frame.old_globals };
                    measure_distance(&mut self.eval, state, expr, &mut self.target_distance);
                }
                if self.holds_here(expr, span)? {
                    return Ok(());
                }
                Err(self.assertion_failed(expr, *reason, span))
            }
            CmdKind::Call { callee, args, outs, free } => {
                self.call(*callee, args, CallSite { outs, free: *free, span })
            }
        }
    }

    fn assertion_failed(&self, expr: &hir::Expr, reason: AssertReason, span: Span) -> Outcome {
        let text = self.print(expr);
        let (kind, message) = match reason {
            AssertReason::User | AssertReason::Unsubsumed => {
                (ViolationKind::Assert, format!("assertion `{text}` violated"))
            }
            // Boogie never checks a free invariant; it only assumes it.
            AssertReason::Invariant { free: true, .. } => {
                return Outcome::Infeasible(Stop::new(span, format!("free loop invariant `{text}` does not hold")));
            }
            AssertReason::Invariant { index, .. }
            | AssertReason::InvariantOnEntry { index }
            | AssertReason::InvariantMaintained { index } => {
                let iterations = self.iterations(self.frame().block);
                let when =
                    if iterations == 0 { "on entry".to_string() } else { format!("after iteration {iterations}") };
                (ViolationKind::Invariant { index, iterations }, format!("loop invariant `{text}` violated {when}"))
            }
            AssertReason::Requires { callee, clause } => {
                let name = &self.program.procedures[callee.index()].name;
                let kind = ViolationKind::Requires { callee, clause: clause as usize };
                (kind, format!("precondition `{text}` of `{name}` violated"))
            }
            AssertReason::Ensures { callee, clause } => {
                let name = &self.program.procedures[callee.index()].name;
                let kind = ViolationKind::Ensures { procedure: callee, clause: clause as usize };
                (kind, format!("postcondition `{text}` of `{name}` violated"))
            }
        };
        Outcome::Failed(Violation { kind, span, call: None, message })
    }

    /// The iterations of the current entry into the loop headed by `header`.
    fn iterations(&self, header: BlockId) -> u64 {
        let frame = self.frame();
        let key = (frame.shape.cfg.implementation, header);
        let entry = frame.loop_entries.get(&header).and_then(|&entry| self.coverage.loops.get(&key)?.get(entry));
        entry.copied().unwrap_or(0)
    }
}

/// Lowers `nearest` to the distance of `expr` from failing on `state`, measured without
/// a step charged, so the run goes on exactly as it would have.
fn measure_distance(eval: &mut Evaluator<'_>, state: State<'_>, expr: &hir::Expr, nearest: &mut Option<BigInt>) {
    let steps = eval.steps;
    let measured = distance(expr, false, &mut |part| eval.eval(state, part).ok());
    eval.steps = steps;
    if let Some(measured) = measured {
        *nearest = Some(nearest.take().map_or(measured.clone(), |known| known.min(measured)));
    }
}

/// How an `assume` of this reason is called in messages.
fn assumption(reason: AssumeReason) -> &'static str {
    match reason {
        AssumeReason::User | AssumeReason::LoopCut => "assumption",
        AssumeReason::Guard | AssumeReason::NegatedGuard => "branch condition",
        AssumeReason::Where => "where clause",
        AssumeReason::Invariant { .. } => "loop invariant",
    }
}

/// The procedure's locals (in its own numbering, which contracts use) holding the
/// implementation's ins and outs.
fn contract_locals(procedure: &hir::Procedure, implementation: &hir::Implementation, locals: &[Value]) -> Vec<Value> {
    let mut contract: Vec<Value> = procedure.locals.iter().map(|local| default_value(&local.ty)).collect();
    let ins = procedure.ins.iter().zip(&implementation.ins);
    for (proc_local, impl_local) in ins.chain(procedure.outs.iter().zip(&implementation.outs)) {
        if let (Some(slot), Some(value)) = (contract.get_mut(proc_local.index()), locals.get(impl_local.index())) {
            *slot = value.clone();
        }
    }
    contract
}

// ---------------------------------------------------------------------------------------
// Calls and returns

impl<'r> Runner<'r> {
    fn call(&mut self, callee: ProcId, args: &'r [hir::Expr], call: CallSite<'r>) -> Result<(), Outcome> {
        let program = self.program;
        let procedure = &program.procedures[callee.index()];
        let args = args.iter().map(|arg| self.eval_here(arg, call.span)).collect::<Result<Vec<_>, _>>()?;
        match procedure.implementations.first() {
            Some(&implementation) => self.call_implementation(callee, implementation, args, call),
            None => self.call_contract(callee, args, call),
        }
    }

    /// A callee with a body runs in a new frame: `old` is the globals at the call, the
    /// variables it may read unset take trace entries (the havocs inlining makes, in
    /// the same order: before the preconditions), then its `requires` are checked.
    fn call_implementation(
        &mut self,
        callee: ProcId,
        id: hir::ImplId,
        args: Vec<Value>,
        call: CallSite<'r>,
    ) -> Result<(), Outcome> {
        let program = self.program;
        let implementation = &program.implementations[id.index()];
        let Some(shape) = self.machine.shapes.get(&id) else {
            let message = format!("`{}` has no control-flow graph", implementation.name);
            return Err(Outcome::CannotEvaluate(Stop::new(call.span, message)));
        };
        self.eval.deeper().map_err(|error| halt(error, call.span))?;
        let cfg = shape.cfg;
        let mut locals: Vec<Value> = cfg.locals.iter().map(|local| default_value(&local.ty)).collect();
        for (local, value) in implementation.ins.iter().zip(args) {
            locals[local.index()] = value;
        }
        for &local in &shape.unset {
            let declared = &cfg.locals[local.index()];
            let wanted = TraceItem::Havoc { var: declared.name.clone(), value: PLACEHOLDER };
            locals[local.index()] = self.choose_value(wanted, &declared.ty, default_value(&declared.ty), call.span)?;
        }
        let contract = contract_locals(&program.procedures[callee.index()], implementation, &locals);
        self.requires(callee, &contract, &call)?;
        self.frames.push(Frame {
            shape,
            procedure: callee,
            locals,
            old_globals: self.globals.clone(),
            block: cfg.entry,
            next_cmd: 0,
            loop_entries: BTreeMap::new(),
            call: Some(call),
            arriving: None,
        });
        self.enter(None, cfg.entry);
        Ok(())
    }

    /// A body-less callee is its contract, in `vc::passify`'s order: check `requires`;
    /// new values for the `modifies` globals, then for the outs; assume `ensures` (`old`
    /// = the globals before the call); write the outs after the globals.
    fn call_contract(&mut self, callee: ProcId, args: Vec<Value>, call: CallSite<'_>) -> Result<(), Outcome> {
        let CallSite { outs, span, .. } = call;
        let procedure = &self.program.procedures[callee.index()];
        let mut contract: Vec<Value> = procedure.locals.iter().map(|local| default_value(&local.ty)).collect();
        for (local, value) in procedure.ins.iter().zip(args) {
            contract[local.index()] = value;
        }
        self.requires(callee, &contract, &call)?;
        let before = self.globals.clone();
        let modifies_from = self.trace.len();
        for &global in &procedure.modifies {
            let declared = &self.program.globals[global.index()];
            let wanted = TraceItem::CallModifies {
                callee: procedure.name.clone(),
                global: declared.name.clone(),
                value: PLACEHOLDER,
            };
            // Past the trace, a modified global keeps its value: the havoc every frame
            // condition (`ensures Mem == old(Mem)`, `forall m :: S[m] || g[m] == old(g)[m]`)
            // allows, where the type's default would break them.
            let unchanged = self.globals[global.index()].clone();
            self.globals[global.index()] = self.choose_value(wanted, &declared.ty, unchanged, span)?;
        }
        let mut results = Vec::with_capacity(outs.len());
        for (&param, &target) in procedure.outs.iter().zip(outs) {
            let wanted = TraceItem::CallOut {
                callee: procedure.name.clone(),
                var: self.var_info(target).0.to_string(),
                value: PLACEHOLDER,
            };
            let ty = &procedure.locals[param.index()].ty;
            let value = self.choose_value(wanted, ty, default_value(ty), span)?;
            contract[param.index()] = value.clone();
            results.push((target, value));
        }
        if let Some(clause) = self.false_postcondition(procedure, &contract, &before, span)? {
            if !self.frame_kept(procedure, (&contract, &before), modifies_from, span)? {
                if self.mode == TraceMode::Complete {
                    let state = State { locals: &contract, globals: &self.globals, old_globals: &before };
                    self.table_writes = writes::range_writes(&mut self.eval, state, &clause.expr);
                }
                let text = print_expr(self.program, &procedure.locals, &clause.expr);
                let message = format!("postcondition `{text}` of `{}` does not hold after the call", procedure.name);
                return Err(Outcome::Infeasible(Stop::new(span, message)));
            }
        }
        results.into_iter().for_each(|(target, value)| self.write(target, value));
        Ok(())
    }

    /// In complete mode, after a call to the body-less `procedure` whose new globals
    /// (the trace's, from `modifies_from` on) break a postcondition: whether another
    /// value its havoc may take keeps every one, which then becomes the call's effect and
    /// its trace entries. Two are tried, in order ([`Completion`]): the globals left as
    /// they were `before`, then each map the trace gives laid over its value before.
    /// Off the path its trace was made for (a candidate's run that left it), the
    /// trace's globals may break the callee's frame; and a candidate's map is known only
    /// at the keys its model reads, so its value elsewhere is the decoder's guess.
    fn frame_kept(
        &mut self,
        procedure: &hir::Procedure,
        (contract, before): (&[Value], &[Value]),
        modifies_from: usize,
        span: Span,
    ) -> Result<bool, Outcome> {
        if self.mode == TraceMode::Strict {
            return Ok(false);
        }
        let from_trace = self.globals.clone();
        for completion in [Completion::Unchanged, Completion::Overlaid] {
            for &global in &procedure.modifies {
                let (old, new) = (&before[global.index()], &from_trace[global.index()]);
                self.globals[global.index()] = completion.value(old, new);
            }
            if self.false_postcondition(procedure, contract, before, span)?.is_none() {
                for (item, &global) in self.trace[modifies_from..].iter_mut().zip(&procedure.modifies) {
                    *item = item.clone().with_value(self.globals[global.index()].clone());
                }
                return Ok(true);
            }
        }
        self.globals = from_trace;
        Ok(false)
    }

    /// The first of `procedure`'s postconditions false after a call, `old` being
    /// `before`.
    fn false_postcondition<'p>(
        &mut self,
        procedure: &'p hir::Procedure,
        contract: &[Value],
        before: &[Value],
        span: Span,
    ) -> Result<Option<&'p hir::Clause>, Outcome> {
        for clause in &procedure.ensures {
            let state = State { locals: contract, globals: &self.globals, old_globals: before };
            if !self.eval.eval_bool(state, &clause.expr).map_err(|error| halt(error, span))? {
                return Ok(Some(clause));
            }
        }
        Ok(None)
    }

    /// A callee's `requires` at a call: a false one fails, a false free one is assumed.
    fn requires(&mut self, callee: ProcId, contract: &[Value], call: &CallSite<'_>) -> Result<(), Outcome> {
        let span = call.span;
        if self.checks == Checks::None || call.free {
            return Ok(());
        }
        let procedure = &self.program.procedures[callee.index()];
        // As in Boogie, a call neither checks nor assumes a free precondition.
        for (index, clause) in procedure.requires.iter().enumerate().filter(|(_, clause)| !clause.free) {
            let state = State { locals: contract, globals: &self.globals, old_globals: &self.globals };
            if self.target == Some(span) && self.frames.len() == 1 {
                measure_distance(&mut self.eval, state, &clause.expr, &mut self.target_distance);
            }
            if self.eval.eval_bool(state, &clause.expr).map_err(|error| halt(error, span))? {
                continue;
            }
            let text = print_expr(self.program, &procedure.locals, &clause.expr);
            let name = &procedure.name;
            let kind = ViolationKind::Requires { callee, clause: index };
            let message = format!("precondition `{text}` of `{name}` violated");
            return Err(Outcome::Failed(Violation { kind, span: clause.span, call: Some(span), message }));
        }
        Ok(())
    }

    /// A `return`: the `ensures` are checked; a callee's outs go to the caller's
    /// targets. `true` when the entry implementation returned.
    fn leave(&mut self) -> Result<bool, Outcome> {
        self.ensures()?;
        if self.frames.len() == 1 {
            return Ok(true);
        }
        let frame = self.frames.pop().expect("a callee frame above the entry frame");
        self.eval.shallower();
        let implementation = &self.program.implementations[frame.shape.cfg.implementation.index()];
        let call = frame.call.expect("every frame above the entry frame has a call");
        for (&target, out) in call.outs.iter().zip(&implementation.outs) {
            let value = frame.locals[out.index()].clone();
            self.write(target, value);
        }
        Ok(false)
    }

    /// The current frame's `ensures` at its return. A free one is not checked (Boogie);
    /// in a callee it is assumed, as inlining does.
    fn ensures(&mut self) -> Result<(), Outcome> {
        if self.checks == Checks::None {
            return Ok(());
        }
        let frame = self.frames.last().expect("a run has a frame until it ends");
        let procedure = &self.program.procedures[frame.procedure.index()];
        let implementation = &self.program.implementations[frame.shape.cfg.implementation.index()];
        let contract = contract_locals(procedure, implementation, &frame.locals);
        let call = frame.call.as_ref().map(|call| call.span);
        for (index, clause) in procedure.ensures.iter().enumerate() {
            if clause.free && call.is_none() {
                continue;
            }
            let state = State { locals: &contract, globals: &self.globals, old_globals: &frame.old_globals };
            if call.is_none() && self.target == Some(clause.span) {
                measure_distance(&mut self.eval, state, &clause.expr, &mut self.target_distance);
            }
            let at = call.unwrap_or(clause.span);
            if self.eval.eval_bool(state, &clause.expr).map_err(|error| halt(error, at))? {
                continue;
            }
            let text = print_expr(self.program, &procedure.locals, &clause.expr);
            let name = &procedure.name;
            return Err(if clause.free {
                Outcome::Infeasible(Stop::new(
                    clause.span,
                    format!("free postcondition `{text}` of `{name}` does not hold"),
                ))
            } else {
                let kind = ViolationKind::Ensures { procedure: frame.procedure, clause: index };
                let message = format!("postcondition `{text}` of `{name}` violated");
                Outcome::Failed(Violation { kind, span: clause.span, call, message })
            });
        }
        Ok(())
    }
}

/// A value a body-less callee's havoc of a modified global may take in place of the
/// trace's ([`Runner::frame_kept`]).
#[derive(Clone, Copy)]
enum Completion {
    /// The global as it was before the call.
    Unchanged,
    /// The trace's map laid over the global's value before the call
    /// ([`overlay`]): the keys the candidate's model gives keep their values, every
    /// other key keeps the old one. Without the array theory a model knows a map only
    /// at the keys it selects, so its table elsewhere is a guess; the old value there is
    /// what a frame condition (`forall x :: x == new || old(alloc)[x] == alloc[x]`) asks.
    Overlaid,
}

impl Completion {
    fn value(self, before: &Value, from_trace: &Value) -> Value {
        match self {
            Completion::Unchanged => before.clone(),
            Completion::Overlaid => overlay(before, from_trace),
        }
    }
}

/// `top` laid over `base`: for maps, `base` with each entry of `top` laid over `base`'s
/// value at its key (rows of curried maps alike), `base`'s default elsewhere; any other
/// value is `top`.
fn overlay(base: &Value, top: &Value) -> Value {
    let (Value::Map(base), Value::Map(top)) = (base, top) else { return top.clone() };
    let laid = top.entries.iter().map(|(key, value)| (key.clone(), overlay(base.get(key), value)));
    Value::Map(MapValue::new(base.entries.iter().cloned().chain(laid).collect(), (*base.default).clone()))
}

// ---------------------------------------------------------------------------------------
// The trace

impl TraceItem {
    /// Whether `self` and `other` are entries for the same choice (values aside).
    fn same_choice(&self, other: &TraceItem) -> bool {
        match (self, other) {
            (TraceItem::Havoc { var: a, .. }, TraceItem::Havoc { var: b, .. }) => a == b,
            (TraceItem::CallOut { callee: c, var: a, .. }, TraceItem::CallOut { callee: d, var: b, .. }) => {
                c == d && a == b
            }
            (
                TraceItem::CallModifies { callee: c, global: a, .. },
                TraceItem::CallModifies { callee: d, global: b, .. },
            ) => c == d && a == b,
            (TraceItem::Goto { target: a }, TraceItem::Goto { target: b }) => a == b,
            _ => false,
        }
    }

    fn value(&self) -> Option<&Value> {
        match self {
            TraceItem::Havoc { value, .. }
            | TraceItem::CallOut { value, .. }
            | TraceItem::CallModifies { value, .. } => Some(value),
            TraceItem::Goto { .. } => None,
        }
    }

    fn with_value(mut self, new: Value) -> TraceItem {
        if let TraceItem::Havoc { value, .. }
        | TraceItem::CallOut { value, .. }
        | TraceItem::CallModifies { value, .. } = &mut self
        {
            *value = new;
        }
        self
    }
}

impl<'r> Runner<'r> {
    fn replay_error(&self, span: Span, message: String) -> Outcome {
        Outcome::ReplayError { index: self.next, stop: Stop::new(span, message) }
    }

    /// The value of the choice `wanted` (its value is ignored) of type `ty`, at `span`:
    /// the next trace entry, which must be for this choice, or in complete mode once the
    /// trace has run out, `unset`.
    fn choose_value(&mut self, wanted: TraceItem, ty: &hir::Type, unset: Value, span: Span) -> Result<Value, Outcome> {
        let Some(given) = self.input.trace.get(self.next) else {
            if self.mode == TraceMode::Strict {
                return Err(self.replay_error(span, format!("the trace has no entry for the {wanted} here")));
            }
            let value = unset;
            self.trace.push(wanted.with_value(value.clone()));
            return Ok(value);
        };
        if !wanted.same_choice(given) {
            let message = format!("trace entry {} is the {given}, but the run needs the {wanted}", self.next);
            if self.mode == TraceMode::Strict {
                return Err(self.replay_error(span, message));
            }
            self.left_trace.get_or_insert(Stop::new(span, message));
            // A trace made for another path (a candidate's whose run left it, a test
            // with a cell flipped): its next entry for this choice, past those for
            // choices this run does not make; else, as past its end, `unset`.
            let Some(offset) = self.input.trace[self.next..].iter().position(|item| wanted.same_choice(item)) else {
                self.trace.push(wanted.with_value(unset.clone()));
                return Ok(unset);
            };
            self.next += offset;
        }
        let given = &self.input.trace[self.next];
        let Some(value) = given.value().and_then(|value| admit(value, ty)) else {
            return Err(self
                .replay_error(span, format!("trace entry {} gives the {given} a value of the wrong type", self.next)));
        };
        self.trace.push(wanted.with_value(value.clone()));
        self.next += 1;
        Ok(value)
    }

    /// The target of a `goto`: the only one; the one a `Goto` entry names (unless guards
    /// decide the branch: the trace lists no such choice); the only one whose leading
    /// `assume`s hold; or, in complete mode, the first of those.
    fn choose_target(&mut self, targets: &[BlockId]) -> Result<BlockId, Outcome> {
        let mut distinct: Vec<BlockId> = Vec::with_capacity(targets.len());
        targets.iter().for_each(|target| {
            if !distinct.contains(target) {
                distinct.push(*target)
            }
        });
        let shape = self.frame().shape;
        let span = distinct.first().map_or(shape.cfg.span, |&first| shape.cfg.block(first).span);
        if let [only] = distinct.as_slice() {
            return Ok(*only);
        }
        let decided = distinct.iter().all(|&target| shape.cfg.starts_with_guard(target));
        let entry = if decided { None } else { self.input.trace.get(self.next) };
        if let Some(given @ TraceItem::Goto { target }) = entry {
            let named = distinct.iter().find(|block| shape.branch_names[block.index()] == *target);
            let Some(&chosen) = named else {
                let names: Vec<&str> =
                    distinct.iter().map(|block| shape.branch_names[block.index()].as_str()).collect();
                let message =
                    format!("trace entry {} is the {given}, but the branches here are {}", self.next, names.join(", "));
                if self.mode == TraceMode::Strict {
                    return Err(self.replay_error(span, message));
                }
                self.left_trace.get_or_insert(Stop::new(span, message));
                // The entry is for a `goto` of another path: left for it, and this one
                // takes a feasible branch.
                return self.first_feasible(shape, &distinct, span);
            };
            // A candidate's run that left the path its trace was made for (through a
            // cut loop, say) may find the named branch's `assume`s false: in complete
            // mode it takes a feasible one instead, and goes on with the trace.
            let strict = self.mode == TraceMode::Strict;
            if strict || self.leading_assumes_hold(shape.cfg, chosen)? {
                if self.frames.len() == 1 {
                    // The branches the trace passes by are where a flip leads off it.
                    for &other in distinct.iter().filter(|&&other| other != chosen) {
                        self.note_untaken(shape.cfg, other, false);
                    }
                }
                self.trace.push(given.clone());
                self.next += 1;
                return Ok(chosen);
            }
            self.next += 1;
        }
        self.first_feasible(shape, &distinct, span)
    }

    /// The one branch of `distinct` whose leading `assume`s hold, or in complete mode
    /// the first of those; the others' distances and cell flips noted.
    fn first_feasible(&mut self, shape: &Shape, distinct: &[BlockId], span: Span) -> Result<BlockId, Outcome> {
        let mut feasible = Vec::new();
        for &target in distinct {
            if self.leading_assumes_hold(shape.cfg, target)? {
                feasible.push(target);
            } else if self.frames.len() == 1 {
                self.note_untaken(shape.cfg, target, true);
            }
        }
        match (feasible.as_slice(), self.mode) {
            ([], _) => Err(Outcome::Infeasible(Stop::new(span, "no branch here is feasible"))),
            ([only], _) => Ok(*only),
            (_, TraceMode::Strict) => Err(self.replay_error(
                span,
                format!(
                    "a nondeterministic choice between {} branches needs a goto entry in the trace",
                    feasible.len()
                ),
            )),
            ([first, ..], TraceMode::Complete) => {
                self.trace.push(TraceItem::Goto { target: shape.branch_names[first.index()].clone() });
                Ok(*first)
            }
        }
    }

    /// Records the cell flips toward `block`, a branch the entry frame did not take
    /// ([`Replay::cell_flips`]), and when `measure` (its leading `assume`s are false)
    /// how far they are from holding ([`Replay::distances`]): evaluated without a step
    /// charged, so the run goes on exactly as it would have.
    fn note_untaken(&mut self, cfg: &Cfg, block: BlockId, measure: bool) {
        let steps = self.eval.steps;
        let frame = self.frames.last().expect("a run has a frame until it ends");
        let state = State { locals: &frame.locals, globals: &self.globals, old_globals: &frame.old_globals };
        let eval = &mut self.eval;
        let mut total = measure.then(BigInt::zero);
        let flips = self.cell_flips.entry(block).or_default();
        for cmd in &cfg.block(block).cmds {
            let CmdKind::Assume { expr, .. } = &cmd.kind else { break };
            if total.is_some() {
                let measured = distance(expr, true, &mut |part| eval.eval(state, part).ok());
                total = total.zip(measured).map(|(total, measured)| total + measured);
            }
            flips::collect(expr, true, (eval, state), flips);
        }
        if flips.is_empty() {
            self.cell_flips.remove(&block);
        }
        self.eval.steps = steps;
        if let Some(total) = total {
            let slot = self.distances.entry(block).or_insert_with(|| total.clone());
            *slot = slot.clone().min(total);
        }
    }

    fn leading_assumes_hold(&mut self, cfg: &Cfg, block: BlockId) -> Result<bool, Outcome> {
        for cmd in &cfg.block(block).cmds {
            let CmdKind::Assume { expr, .. } = &cmd.kind else { break };
            if !self.holds_here(expr, cmd.span)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// A run that stopped at `span` (`what`: a failed check, a false assumption) as it
    /// would only if `reason` holds, an axiom or a check replay cannot decide:
    /// unchecked, with both reasons ([`Replay::stopped_unconfirmed`]).
    fn only_if(&mut self, span: Span, what: &str, reason: &str) -> Outcome {
        self.stopped_unconfirmed = true;
        Outcome::CannotEvaluate(Stop { span, message: format!("{what} only if {reason}") })
    }

    fn finish(mut self, outcome: Outcome, span: Span) -> Replay {
        let unused = self.input.trace.len().saturating_sub(self.next);
        let outcome = match outcome {
            Outcome::Passed if unused > 0 && self.mode == TraceMode::Strict => {
                self.replay_error(span, format!("the trace has {unused} unused entries"))
            }
            other => other,
        };
        let mut outputs = if outcome == Outcome::Passed { self.outputs() } else { Vec::new() };
        let pending = !self.falsified.is_empty();
        let (outcome, beyond_reads) = self.judge_falsified(outcome);
        let outcome = match (outcome, self.undecided_axiom.take()) {
            // The run is an execution only if the axiom it could not decide holds: its
            // checks are unchecked, with that reason, not passed; and an assumption
            // that stopped it stopped an execution only if the axiom holds.
            (Outcome::Passed, Some(axiom)) => Outcome::CannotEvaluate(axiom),
            (Outcome::Infeasible(stop), Some(axiom)) => self.only_if(stop.span, &stop.message, &axiom.message),
            (outcome, _) => outcome,
        };
        if pending && !beyond_reads {
            // A check on the inputs failed, on what the run read or before it could be
            // judged: the run was no execution, and enters nothing.
            (self.coverage, self.path, self.distances) = (Coverage::default(), Vec::new(), BTreeMap::new());
            self.cell_flips.clear();
            outputs.clear();
        }
        let refutation = self.refutation.take().filter(|_| matches!(outcome, Outcome::Invalid(_)));
        let (coverage, path, trace, distances) = (self.coverage, self.path, self.trace, self.distances);
        let steps = self.eval.steps;
        let (target_distance, unconfirmed, stopped_unconfirmed) =
            (self.target_distance, self.unconfirmed, self.stopped_unconfirmed);
        Replay {
            outcome,
            coverage,
            path,
            outputs,
            trace,
            steps,
            distances,
            cell_flips: self.cell_flips,
            table_writes: self.table_writes,
            beyond_reads,
            refutation,
            target_distance,
            unconfirmed,
            stopped_unconfirmed,
            left_trace: self.left_trace,
            off_table_reads: self.eval.off_table_reads.take().into_iter().flatten().collect(),
        }
    }

    /// The entry implementation's outs, then the globals its procedure modifies.
    fn outputs(&self) -> Vec<(hir::Var, Value)> {
        let Some(frame) = self.frames.first() else { return Vec::new() };
        let implementation = &self.program.implementations[frame.shape.cfg.implementation.index()];
        let procedure = &self.program.procedures[frame.procedure.index()];
        let outs = implementation.outs.iter().map(|&id| (hir::Var::Local(id), frame.locals[id.index()].clone()));
        let globals = procedure.modifies.iter().map(|&id| (hir::Var::Global(id), self.globals[id.index()].clone()));
        outs.chain(globals).collect()
    }
}
