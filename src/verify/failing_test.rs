//! Counterexamples → failing tests: a [`Model`] of a failed check rendered as the
//! `name = value` text of a [`FailingTest`].
//!
//! Input: the model of one failure query, the encoding it answers, and the graphs the
//! encoding came from (the cyclic one names the loops, the acyclic one the blocks of the
//! path). Output: the test's inputs (in-parameters, locals read before written, the
//! globals and constants the implementation reads), its choice trace (the havocs, the
//! results of body-less calls, the branches the inputs do not decide), and the tables
//! of the uninterpreted functions it uses. Values: integers in decimal, maps as
//! `[1 := 5, default 0]` (a two-index map as a map of maps), elements of an
//! uninterpreted type `T` as `T#0`, `T#1`, … numbered in order of appearance (different
//! numbers: different elements).
//!
//! A run the interpreter made (its [`TestInput`]) is written the same way by [`Names`],
//! which needs no encoding: a run `verify`'s search finds, and a test of a suite that
//! violates a contract (`prove-tests`' findings, `crate::report::findings`).

use super::error::FailingTest;
use crate::cfg::{AssertReason, AssumeReason, BlockId, Cfg, CmdKind, Segment};
use crate::interp::{TestInput, TraceItem};
use crate::sema::hir::{self, ConstId, FunctionId, GlobalId, TypeId};
use crate::vc::{
    Abstraction, Choice, Encoding, FunctionModel, Input, InputKind, Model, Obligation, ObligationKind, Value,
};
use std::collections::{BTreeMap, BTreeSet};

/// What one implementation's failing tests are rendered with.
pub(super) struct TestContext<'a> {
    names: Names<'a>,
    /// The graph the encoding was made from (same block ids, plus the cut blocks).
    acyclic: &'a Cfg,
    encoding: &'a Encoding,
}

impl<'a> TestContext<'a> {
    pub(super) fn new(
        program: &'a hir::Program,
        cyclic: &'a Cfg,
        acyclic: &'a Cfg,
        encoding: &'a Encoding,
    ) -> TestContext<'a> {
        TestContext { names: Names::new(program, cyclic), acyclic, encoding }
    }

    /// The failing test of `model`, a counterexample to `obligation`.
    pub(super) fn failing_test(&self, model: &Model, obligation: &Obligation) -> FailingTest {
        let elements = &mut Elements::default();
        let inputs = self.inputs(model, elements);
        let choices = self.choices(model, elements);
        let functions = self.functions(model, elements);
        FailingTest { inputs, choices, functions, caveats: self.caveats(model, obligation) }
    }

    /// The failing test of a run the interpreter made (the solver answered `unknown`
    /// for `reason` and a run fails at the check; see `verify::search`): its values,
    /// its trace (the branches it chose, the values it took), the tables it used;
    /// `unchecked` says what replay could not decide, when it could not.
    pub(super) fn failing_run(&self, input: &TestInput, reason: &str, unchecked: Option<&str>) -> FailingTest {
        let mut test = self.names.run(input);
        test.caveats.push(format!(
            "the solver gave up ({reason}); replay runs this test, found near its candidate, into this failure"
        ));
        if let Some(unchecked) = unchecked {
            test.caveats.push(format!("unconfirmed: the run fails here only if {unchecked}"));
        }
        test
    }

    /// In-parameters, locals read before written, then the globals and constants the
    /// implementation reads (the others cannot matter to the failure).
    fn inputs(&self, model: &Model, elements: &mut Elements) -> Vec<(String, String)> {
        let rank = |kind: &InputKind| match kind {
            InputKind::Param(id) => Some((0, id.index())),
            InputKind::Uninit(id) => Some((1, id.index())),
            InputKind::Global(id) if self.names.reads.globals.contains(id) => Some((2, id.index())),
            InputKind::Const(id) if self.names.reads.consts.contains(id) => Some((3, id.index())),
            _ => None,
        };
        let mut ranked: Vec<_> =
            model.entry.iter().filter_map(|assignment| Some((rank(&assignment.kind)?, assignment))).collect();
        ranked.sort_by_key(|(rank, _)| *rank);
        ranked
            .into_iter()
            .map(|(_, assignment)| {
                let value = self.names.value(&assignment.value, elements);
                match assignment.kind {
                    // An out-parameter or local read before written: not an argument.
                    InputKind::Uninit(_) => {
                        (self.names.entry_name(&assignment.kind), format!("{value} (initial value)"))
                    }
                    _ => (self.names.entry_name(&assignment.kind), value),
                }
            })
            .collect()
    }

    /// The choice trace: values made at the same command are grouped
    /// (`havoc x = 1, y = 2`), branches the guards decide are left out.
    fn choices(&self, model: &Model, elements: &mut Elements) -> Vec<String> {
        let mut items = Vec::new();
        let mut group: Option<(&Input, String, Vec<String>)> = None;
        for choice in &model.choices {
            match choice {
                Choice::Value(assignment) => {
                    let input = &self.encoding.inputs[assignment.input];
                    let (head, name) = self.choice_name(input);
                    let part = format!("{name} = {}", self.names.value(&assignment.value, elements));
                    match &mut group {
                        Some((open, open_head, parts)) if same_site(open, input) && *open_head == head => {
                            parts.push(part);
                        }
                        _ => {
                            flush(&mut items, group.take());
                            group = Some((input, head, vec![part]));
                        }
                    }
                }
                Choice::Goto { to, .. } => {
                    flush(&mut items, group.take());
                    items.extend(self.branch(*to));
                }
            }
        }
        flush(&mut items, group);
        items
    }

    /// How a chosen value is introduced (`havoc`, `loop head:`, `call P:`) and the name
    /// of what it sets.
    fn choice_name(&self, input: &Input) -> (String, String) {
        match &input.kind {
            InputKind::LoopState(var) => ("loop head:".to_string(), self.names.var_name(*var)),
            InputKind::Havoc(var) => ("havoc".to_string(), self.names.var_name(*var)),
            InputKind::CallOut { callee, var } => (self.names.call_head(*callee), self.names.var_name(*var)),
            InputKind::CallModifies { callee, global } => {
                (self.names.call_head(*callee), self.names.var_name(hir::Var::Global(*global)))
            }
            other => panic!("{other:?} is an entry value, not a choice"),
        }
    }

    /// The branch a `goto` takes, unless its guard decides it (a test's inputs already
    /// do): `branch if#1/then` for a `*` guard, `goto L` for a label.
    fn branch(&self, to: BlockId) -> Option<String> {
        let block = self.acyclic.block(to);
        let guarded = block.cmds.first().is_some_and(|cmd| {
            matches!(cmd.kind, CmdKind::Assume { reason: AssumeReason::Guard | AssumeReason::NegatedGuard, .. })
        });
        if guarded {
            return None;
        }
        // Blocks past the lowered ones are the cut's replacements of back edges.
        if to.index() >= self.names.cyclic.blocks.len() {
            return Some("back to the loop head".to_string());
        }
        Some(match block.origin.path.0.last() {
            Some(Segment::Goto(label)) => format!("goto {label}"),
            Some(_) => format!("branch {}", block.origin.path),
            None => format!("goto block {}", to.index()),
        })
    }

    /// Where the counterexample runs through an abstraction (DESIGN.md §1, honesty): a
    /// loop head's values are any the invariants allow, a call's results any its
    /// callee's contract allows, so the real program may not fail on this test.
    fn caveats(&self, model: &Model, obligation: &Obligation) -> Vec<String> {
        let mut caveats = Vec::new();
        if model.choices.iter().any(|choice| match choice {
            Choice::Value(assignment) => matches!(assignment.kind, InputKind::LoopState(_)),
            Choice::Goto { .. } => false,
        }) {
            caveats.push(
                "a loop head takes any values its invariants allow; if no run reaches these, strengthen the invariants"
                    .to_string(),
            );
        }
        let mut callees: Vec<hir::ProcId> = Vec::new();
        for abstraction in &self.encoding.abstractions {
            if self.calls_before_failure(model, abstraction, obligation) && !callees.contains(&abstraction.callee) {
                callees.push(abstraction.callee);
            }
        }
        for callee in callees {
            let name = &self.names.program.procedures[callee.index()].name;
            caveats.push(format!(
                "`{name}` is known by its contract only; if its body cannot cause this failure, strengthen its \
                 postcondition"
            ));
        }
        if self.passes_unsubsumed_assertion(model, obligation) {
            caveats.push(
                "the path passes an `assert {:subsumption 0}`, which is checked but not assumed after it (as Boogie \
                 does): this test may fail at that assertion first"
                    .to_string(),
            );
        }
        caveats
    }

    /// Whether the counterexample's path passes an assertion with `{:subsumption 0}`
    /// before the failing check ([`crate::vc::encode_verification`]).
    fn passes_unsubsumed_assertion(&self, model: &Model, obligation: &Obligation) -> bool {
        let Some(last) = model.path.len().checked_sub(1) else { return false };
        self.encoding.failures.iter().any(|failure| {
            failure.obligation.kind == ObligationKind::Assert(AssertReason::Unsubsumed)
                && match model.path.iter().position(|&block| block == failure.block) {
                    Some(position) if position < last => true,
                    Some(_) => failure.obligation.span.start < obligation.span.start,
                    None => false,
                }
        })
    }

    /// Whether the counterexample makes the abstracted call before its failing check:
    /// in an earlier block of its path, or earlier in the last block (commands keep
    /// source order within a block; `ensures` and maintained invariants are checked at
    /// the block's end; a call's own `requires` is checked before the call).
    fn calls_before_failure(&self, model: &Model, abstraction: &Abstraction, obligation: &Obligation) -> bool {
        let Some(position) = model.path.iter().position(|&block| block == abstraction.block) else {
            return false;
        };
        if position + 1 < model.path.len() {
            return true;
        }
        match obligation.kind {
            ObligationKind::Ensures { .. } | ObligationKind::Assert(AssertReason::InvariantMaintained { .. }) => true,
            _ => abstraction.span.start < obligation.span.start,
        }
    }

    /// The uninterpreted functions the implementation uses, as tables.
    fn functions(&self, model: &Model, elements: &mut Elements) -> Vec<String> {
        model
            .functions
            .iter()
            .filter(|table| self.names.reads.functions.contains(&table.function))
            .map(|table| self.names.function_table(table, elements))
            .collect()
    }
}

/// What a test's values are written with: the names of the implementation's locals and
/// of the program's globals, constants, functions and types, and what the
/// implementation reads (only those globals, constants and tables can matter to it).
pub(super) struct Names<'a> {
    program: &'a hir::Program,
    /// The graph as lowered: locals' names, loops.
    cyclic: &'a Cfg,
    reads: Reads,
}

impl<'a> Names<'a> {
    pub(super) fn new(program: &'a hir::Program, cyclic: &'a Cfg) -> Names<'a> {
        Names { program, cyclic, reads: Reads::of(program, cyclic) }
    }

    /// A run the interpreter made, as a test without caveats: its values, its trace (the
    /// branches it chose, the values it took), the tables it used.
    pub(super) fn run(&self, input: &TestInput) -> FailingTest {
        let elements = &mut Elements::default();
        let implementation = &self.program.implementations[self.cyclic.implementation.index()];
        let mut inputs: Vec<(String, String)> = implementation
            .ins
            .iter()
            .zip(&input.params)
            .map(|(id, value)| (self.cyclic.locals[id.index()].name.clone(), self.value(value, elements)))
            .collect();
        for (id, value) in &input.uninitialized {
            let value = format!("{} (initial value)", self.value(value, elements));
            inputs.push((self.cyclic.locals[id.index()].name.clone(), value));
        }
        for (id, value) in input.globals.iter().filter(|(id, _)| self.reads.globals.contains(id)) {
            inputs.push((self.program.globals[id.index()].name.clone(), self.value(value, elements)));
        }
        for (id, value) in input.consts.iter().filter(|(id, _)| self.reads.consts.contains(id)) {
            inputs.push((self.program.consts[id.index()].name.clone(), self.value(value, elements)));
        }
        let choices = input.trace.iter().map(|item| self.trace_item(item, elements)).collect();
        let functions = input
            .functions
            .iter()
            .filter(|table| self.reads.functions.contains(&table.function))
            .map(|table| self.function_table(table, elements))
            .collect();
        FailingTest { inputs, choices, functions, caveats: Vec::new() }
    }

    /// A trace entry as a choice: `havoc x = 1`, `call P: r = 2`, `branch if#1/then`,
    /// `goto L`.
    fn trace_item(&self, item: &TraceItem, elements: &mut Elements) -> String {
        match item {
            TraceItem::Havoc { var, value } => format!("havoc {var} = {}", self.value(value, elements)),
            TraceItem::CallOut { callee, var, value } | TraceItem::CallModifies { callee, global: var, value } => {
                format!("call {callee}: {var} = {}", self.value(value, elements))
            }
            TraceItem::Goto { target } => match target.rsplit('/').next().and_then(|last| last.strip_prefix("goto:")) {
                Some(label) => format!("goto {label}"),
                None => format!("branch {target}"),
            },
        }
    }

    fn entry_name(&self, kind: &InputKind) -> String {
        match kind {
            InputKind::Param(id) | InputKind::Uninit(id) => self.cyclic.locals[id.index()].name.clone(),
            InputKind::Global(id) => self.program.globals[id.index()].name.clone(),
            InputKind::Const(id) => self.program.consts[id.index()].name.clone(),
            other => panic!("{other:?} is a choice, not an entry value"),
        }
    }

    /// The invariant abstraction havocs a loop's targets at its head, with the loop's
    /// span: the values are the state at the start of some iteration.
    fn call_head(&self, callee: hir::ProcId) -> String {
        format!("call {}:", self.program.procedures[callee.index()].name)
    }

    fn var_name(&self, var: hir::Var) -> String {
        match var {
            hir::Var::Local(id) => self.cyclic.locals[id.index()].name.clone(),
            hir::Var::Global(id) => self.program.globals[id.index()].name.clone(),
            hir::Var::Const(id) => self.program.consts[id.index()].name.clone(),
            hir::Var::Bound(id) => panic!("bound variable {id:?} is never a choice"),
        }
    }

    fn function_table(&self, table: &FunctionModel, elements: &mut Elements) -> String {
        let function = &self.program.functions[table.function.index()];
        let name = &function.name;
        let mut parts: Vec<String> = table
            .entries
            .iter()
            .map(|(args, result)| {
                let args: Vec<String> = args.iter().map(|arg| self.value(arg, elements)).collect();
                format!("{name}({}) = {}", args.join(", "), self.value(result, elements))
            })
            .collect();
        let default = self.value(&table.default, elements);
        if parts.is_empty() {
            let wildcards = vec!["_"; function.params.len()].join(", ");
            parts.push(format!("{name}({wildcards}) = {default}"));
        } else if table.default != Value::unspecified() {
            parts.push(format!("otherwise {default}"));
        }
        parts.join(", ")
    }

    fn value(&self, value: &Value, elements: &mut Elements) -> String {
        match value {
            Value::Bool(value) => value.to_string(),
            Value::Int(value) => value.to_string(),
            Value::Real(value) => crate::cfg::print::decimal_text(value),
            Value::BitVec { value, width } => format!("{value}bv{width}"),
            Value::Elem { ty, index } => {
                format!("{}#{}", self.program.types[ty.index()].name, elements.number(*ty, *index))
            }
            Value::Map(map) => {
                let mut parts: Vec<String> = map
                    .entries
                    .iter()
                    .map(|(key, value)| format!("{} := {}", self.value(key, elements), self.value(value, elements)))
                    .collect();
                parts.push(format!("default {}", self.value(&map.default, elements)));
                format!("[{}]", parts.join(", "))
            }
            Value::Opaque(text) => text.clone(),
        }
    }
}

/// The elements of uninterpreted types numbered per test, in order of appearance: z3's
/// own numbering is arbitrary, and `x = T#0, y = T#1` reads better than the reverse.
#[derive(Default)]
struct Elements {
    numbers: BTreeMap<(TypeId, u32), u32>,
    used: BTreeMap<TypeId, u32>,
}

impl Elements {
    fn number(&mut self, ty: TypeId, index: u32) -> u32 {
        let used = &mut self.used;
        *self.numbers.entry((ty, index)).or_insert_with(|| {
            let next = used.entry(ty).or_insert(0);
            *next += 1;
            *next - 1
        })
    }
}

/// Whether two choices are made by the same command.
fn same_site(first: &Input, second: &Input) -> bool {
    (first.block, first.position, first.span) == (second.block, second.position, second.span)
}

fn flush(items: &mut Vec<String>, group: Option<(&Input, String, Vec<String>)>) {
    if let Some((_, head, parts)) = group {
        items.push(format!("{head} {}", parts.join(", ")));
    }
}

/// The globals, constants and functions an implementation reads: in its commands, its
/// procedure's contract, its callees' contracts, and (transitively) the bodies of the
/// functions it applies.
#[derive(Default)]
struct Reads {
    globals: BTreeSet<GlobalId>,
    consts: BTreeSet<ConstId>,
    functions: BTreeSet<FunctionId>,
}

impl Reads {
    fn of(program: &hir::Program, cfg: &Cfg) -> Reads {
        let mut reads = Reads::default();
        reads.contract(&program.procedures[cfg.procedure.index()]);
        for cmd in cfg.blocks.iter().flat_map(|block| &block.cmds) {
            match &cmd.kind {
                CmdKind::Assign { values, .. } => values.iter().for_each(|value| reads.expr(value)),
                CmdKind::Havoc { .. } => {}
                CmdKind::Assume { expr, .. } | CmdKind::Assert { expr, .. } => reads.expr(expr),
                CmdKind::Call { callee, args, .. } => {
                    args.iter().for_each(|arg| reads.expr(arg));
                    reads.contract(&program.procedures[callee.index()]);
                }
            }
        }
        let mut visited = BTreeSet::new();
        while let Some(function) = reads.functions.difference(&visited).next().copied() {
            visited.insert(function);
            if let Some(body) = &program.functions[function.index()].body {
                reads.expr(body);
            }
        }
        reads
    }

    fn contract(&mut self, procedure: &hir::Procedure) {
        for clause in procedure.requires.iter().chain(&procedure.ensures) {
            self.expr(&clause.expr);
        }
    }

    /// Recursion is bounded: the parser limits expression depth (ARCHITECTURE.md).
    fn expr(&mut self, expr: &hir::Expr) {
        match &expr.kind {
            hir::ExprKind::Bool(_)
            | hir::ExprKind::Int(_)
            | hir::ExprKind::Real(_)
            | hir::ExprKind::BitVector { .. } => {}
            hir::ExprKind::Var(hir::Var::Global(id)) => {
                self.globals.insert(*id);
            }
            hir::ExprKind::Var(hir::Var::Const(id)) => {
                self.consts.insert(*id);
            }
            hir::ExprKind::Var(_) => {}
            hir::ExprKind::Apply { func, args, .. } => {
                self.functions.insert(*func);
                args.iter().for_each(|arg| self.expr(arg));
            }
            hir::ExprKind::Old(operand)
            | hir::ExprKind::Unary { operand, .. }
            | hir::ExprKind::Extract { operand, .. } => self.expr(operand),
            hir::ExprKind::Binary { lhs, rhs, .. } => {
                self.expr(lhs);
                self.expr(rhs);
            }
            hir::ExprKind::Select { map, indices } => {
                self.expr(map);
                indices.iter().for_each(|index| self.expr(index));
            }
            hir::ExprKind::Store { map, indices, value } => {
                self.expr(map);
                indices.iter().for_each(|index| self.expr(index));
                self.expr(value);
            }
            hir::ExprKind::IfThenElse { cond, then_expr, else_expr } => {
                self.expr(cond);
                self.expr(then_expr);
                self.expr(else_expr);
            }
            hir::ExprKind::Quant { body, .. } => self.expr(body),
        }
    }
}
