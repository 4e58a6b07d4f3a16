//! Passification: an acyclic [`Cfg`] → SSA constraints per block (Boogie's passify).
//!
//! Input: a checked program, and an ACYCLIC `Cfg` of one of its implementations (loops
//! already cut: `cfg.loops` is empty and the graph has no cycle; a cycle is a bug of an
//! earlier stage and panics). Output: a [`Passive`] program: per block, a list of
//! [`Step`]s over *incarnations* — one constant `x@k` per value a variable takes — and
//! per edge the join fix-ups. Nothing is assigned any more: every command became a
//! constraint, so a later stage can reason about all blocks at once.
//!
//! Blocks are visited in a topological order (Kahn's algorithm, smallest block index
//! first, so the numbering is deterministic). The rules, one per command:
//! - `passify(x, y := e, f) = x@k+1 == e[cur] ∧ y@m+1 == f[cur]` (every right side is
//!   read in the state before the assignment: it is simultaneous);
//!   a right side containing a lambda is not named: `x` stands for that term itself;
//! - `passify(havoc x) = fresh x@k+1, unconstrained`, recorded as an [`Input`] (a choice
//!   of the test's trace);
//! - `passify(assume e) = e[cur]`;
//! - `passify(assert e) = check e[cur]`: a [`Step::Check`], assumed by executions that go
//!   on, and a verification obligation; free loop invariants are plain assumptions;
//! - `passify(call o := P(a)) = check P.requires[a]` (the free ones, and all of a `free
//!   call`, neither checked nor assumed, as in Boogie); fresh incarnations for
//!   `P.modifies` then for `o`; `assume P.ensures[a, o, old := pre-call]` (free or not).
//!   A body-less `P`'s results are inputs, like a havoc; a call of a `P` that has an
//!   implementation is an [`Abstraction`] (the contract replaces the code);
//! - at a block with several predecessors, a variable whose incarnations differ gets a
//!   fresh join incarnation `x@j`, and each incoming edge `P → S` the fix-up
//!   `x@j == x@P` (the incarnation at the end of `P`);
//! - `old(e)` reads the entry incarnations `g@0` of globals;
//! - (lambda) a join of two different lambda-valued terms still gets `x@j == λ…` fix-ups,
//!   on which z3 4.8.12 may answer `unknown`;
//! - at a `return`, each non-free `ensures` is a check over the final incarnations.
//!
//! The implementation starts in incarnation 0 of every variable: in-parameters and globals
//! are inputs of the test, constrained by the procedure's `requires` (free ones too), see
//! [`Passive::precondition`]. Outs and locals get their `x@0` lazily, when a path reads
//! them before writing them: those reads are of an arbitrary initial value, an input too.

use crate::cfg::{AssertReason, BlockId, Cfg, CmdKind, Terminator};
use crate::sema::hir::{self, GlobalId, LocalId, LocalKind, ProcId};
use crate::source::Span;
use crate::vc::expr::{Env, Translator};
use crate::vc::term::{Sort, TermId, Terms};

/// The passive form of one implementation.
#[derive(Clone, Debug)]
pub struct Passive {
    /// The variable of each incarnation slot: the globals, then `cfg.locals`.
    pub vars: Vec<hir::Var>,
    /// By [`BlockId`].
    pub blocks: Vec<PassiveBlock>,
    /// The topological order the blocks were passified in.
    pub order: Vec<BlockId>,
    /// The procedure's `requires` (free ones too) over incarnation 0.
    pub precondition: Vec<TermId>,
    pub inputs: Vec<Input>,
    pub abstractions: Vec<Abstraction>,
    /// The equations `x@k+1 == e` of the assignments, in passification order: each is
    /// the one constraint that defines its incarnation (and is also a step of its block).
    pub definitions: Vec<TermId>,
}

#[derive(Clone, Debug)]
pub struct PassiveBlock {
    pub steps: Vec<Step>,
    /// The successors, without duplicates, in `goto` order, with their fix-ups.
    pub edges: Vec<PassiveEdge>,
    /// The incarnation of each slot at the end of the block; `None`: still the initial
    /// value, which no path to here read.
    pub exit: Vec<Option<TermId>>,
    /// The inputs this block's commands introduce (indices into [`Passive::inputs`]),
    /// in command order.
    pub inputs: Vec<usize>,
}

#[derive(Clone, Debug)]
pub struct PassiveEdge {
    pub to: BlockId,
    /// Join equalities `x@j == x@P`, true on every execution taking this edge.
    pub fixups: Vec<TermId>,
}

#[derive(Clone, Debug)]
pub enum Step {
    /// A constraint every execution through this point satisfies.
    Assume(TermId),
    /// A condition an execution must satisfy to go on; checked by `verify`.
    Check(TermId, Obligation),
}

impl Step {
    pub fn term(&self) -> TermId {
        match self {
            Step::Assume(term) | Step::Check(term, _) => *term,
        }
    }
}

/// What a [`Step::Check`] checks, for reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Obligation {
    pub kind: ObligationKind,
    /// The assertion, the call, or the `ensures` clause.
    pub span: Span,
    /// The callee's `requires` clause at a call; the implementation at an `ensures`.
    pub related: Option<Span>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObligationKind {
    Assert(AssertReason),
    /// Clause `clause` of the callee's `requires`.
    Requires {
        callee: ProcId,
        clause: usize,
    },
    /// Clause `clause` of the procedure's `ensures`.
    Ensures {
        clause: usize,
    },
}

/// A value the test chooses: entry values and nondeterministic choices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub kind: InputKind,
    /// The incarnation (or constant) holding the value.
    pub term: TermId,
    /// Where the choice is made; `None` for entry values.
    pub block: Option<BlockId>,
    /// How many of its block's steps come before the choice (0 for entry values): a
    /// failure at step k happens after the choices at positions ≤ k only.
    pub position: usize,
    pub span: Span,
    /// For a global a body-less call modifies ([`InputKind::CallModifies`]), its
    /// incarnation before the call: what the solver compares the choice with; for a
    /// loop's state at its cut ([`InputKind::LoopState`]), its incarnation on entry to
    /// the loop: equal, the state is the first iteration's.
    pub before: Option<TermId>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// An in-parameter's value.
    Param(LocalId),
    /// A global's value at entry.
    Global(GlobalId),
    /// A program constant.
    Const(hir::ConstId),
    /// The initial value of an out-parameter or local that a path reads before writing.
    Uninit(LocalId),
    /// The value a `havoc` gives.
    Havoc(hir::Var),
    /// A loop target's value where the invariant abstraction of its loop starts an
    /// iteration ([`crate::cfg::cut`]): the abstraction's choice, not the program's.
    LoopState(hir::Var),
    /// An output of a call to a procedure without implementation.
    CallOut { callee: ProcId, var: hir::Var },
    /// A global such a call modifies.
    CallModifies { callee: ProcId, global: GlobalId },
}

/// A call whose callee has an implementation, encoded by its contract: models through it
/// may not be real executions (DESIGN.md §1, honesty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Abstraction {
    pub block: BlockId,
    pub callee: ProcId,
    pub span: Span,
}

/// Passifies `cfg` (acyclic) with `translator`'s program and arena.
pub(crate) fn passify(translator: &mut Translator<'_>, cfg: &Cfg) -> Passive {
    assert!(cfg.loops.is_empty(), "passify needs an acyclic Cfg: cut its loops first");
    let order = topological_order(cfg);
    let mut passifier = Passifier::new(translator, cfg);
    let precondition = passifier.precondition();
    let mut blocks: Vec<Option<PassiveBlock>> = vec![None; cfg.blocks.len()];
    let preds = unique_predecessors(cfg);
    for &id in &order {
        let state = passifier.join(&mut blocks, &preds[id.index()], id);
        blocks[id.index()] = Some(passifier.block(id, state));
    }
    let blocks = blocks.into_iter().map(|block| block.expect("the order visits every block")).collect();
    let Passifier { vars, abstractions, definitions, .. } = passifier;
    Passive { vars: vars.vars, blocks, order, precondition, inputs: vars.inputs, abstractions, definitions }
}

/// Kahn's algorithm, always taking the smallest ready block (deterministic).
fn topological_order(cfg: &Cfg) -> Vec<BlockId> {
    let preds = unique_predecessors(cfg);
    let mut waiting: Vec<usize> = preds.iter().map(Vec::len).collect();
    let mut ready: std::collections::BTreeSet<BlockId> =
        cfg.block_ids().filter(|id| waiting[id.index()] == 0).collect();
    let mut order = Vec::with_capacity(cfg.blocks.len());
    while let Some(id) = ready.pop_first() {
        order.push(id);
        for &succ in &unique_successors(cfg, id) {
            waiting[succ.index()] -= 1;
            if waiting[succ.index()] == 0 {
                ready.insert(succ);
            }
        }
    }
    assert_eq!(order.len(), cfg.blocks.len(), "passify needs an acyclic Cfg: cut its loops first");
    order
}

/// A block's successors in `goto` order, each once (`goto L, L` is `goto L`).
pub(crate) fn unique_successors(cfg: &Cfg, id: BlockId) -> Vec<BlockId> {
    let mut succs = Vec::new();
    for &succ in cfg.successors(id) {
        if !succs.contains(&succ) {
            succs.push(succ);
        }
    }
    succs
}

fn unique_predecessors(cfg: &Cfg) -> Vec<Vec<BlockId>> {
    let mut preds = vec![Vec::new(); cfg.blocks.len()];
    for id in cfg.block_ids() {
        for succ in unique_successors(cfg, id) {
            preds[succ.index()].push(id);
        }
    }
    preds
}

/// The incarnation slots of an implementation and their naming.
struct VarTable {
    vars: Vec<hir::Var>,
    /// The base of each slot's incarnation names: the variable's name, made unique
    /// (`x%3` for local 3 when a global or an earlier local is also called `x`).
    names: Vec<String>,
    sorts: Vec<Sort>,
    spans: Vec<Span>,
    kinds: Vec<Option<LocalKind>>,
    /// The last incarnation number handed out per slot.
    last: Vec<u32>,
    /// Incarnation 0 of each slot, once created.
    initial: Vec<Option<TermId>>,
    inputs: Vec<Input>,
    globals: usize,
}

impl VarTable {
    fn new(program: &hir::Program, cfg: &Cfg) -> VarTable {
        let mut table = VarTable {
            vars: Vec::new(),
            names: Vec::new(),
            sorts: Vec::new(),
            spans: Vec::new(),
            kinds: Vec::new(),
            last: Vec::new(),
            initial: Vec::new(),
            inputs: Vec::new(),
            globals: program.globals.len(),
        };
        for (index, global) in program.globals.iter().enumerate() {
            let var = hir::Var::Global(GlobalId::from_index(index));
            table.push(var, global.name.clone(), &global.ty, global.span, None);
        }
        for (index, local) in cfg.locals.iter().enumerate() {
            let taken = table.names.contains(&local.name);
            let name = if taken { format!("{}%{index}", local.name) } else { local.name.clone() };
            table.push(hir::Var::Local(LocalId::from_index(index)), name, &local.ty, local.span, Some(local.kind));
        }
        table
    }

    fn push(&mut self, var: hir::Var, name: String, ty: &hir::Type, span: Span, kind: Option<LocalKind>) {
        self.vars.push(var);
        self.names.push(name);
        self.sorts.push(Sort::of_type(ty));
        self.spans.push(span);
        self.kinds.push(kind);
        self.last.push(0);
        self.initial.push(None);
    }

    fn slot(&self, var: hir::Var) -> usize {
        match var {
            hir::Var::Global(id) => id.index(),
            hir::Var::Local(id) => self.globals + id.index(),
            hir::Var::Const(_) | hir::Var::Bound(_) => panic!("only locals and globals have incarnations"),
        }
    }

    fn global_slot(&self, id: GlobalId) -> usize {
        id.index()
    }

    /// A new incarnation `x@k+1` of `slot`.
    fn fresh(&mut self, terms: &mut Terms, slot: usize) -> TermId {
        self.last[slot] += 1;
        terms.constant(format!("{}@{}", self.names[slot], self.last[slot]), self.sorts[slot].clone())
    }

    /// Incarnation 0 of `slot`, created (and registered as an input) on first use.
    fn initial(&mut self, terms: &mut Terms, slot: usize) -> TermId {
        if let Some(term) = self.initial[slot] {
            return term;
        }
        let term = terms.constant(format!("{}@0", self.names[slot]), self.sorts[slot].clone());
        self.initial[slot] = Some(term);
        let kind = match (self.vars[slot], self.kinds[slot]) {
            (hir::Var::Global(id), _) => InputKind::Global(id),
            (hir::Var::Local(id), Some(LocalKind::In)) => InputKind::Param(id),
            (hir::Var::Local(id), _) => InputKind::Uninit(id),
            (other, _) => panic!("slot of a non-state variable {other:?}"),
        };
        self.inputs.push(Input { kind, term, block: None, position: 0, span: self.spans[slot], before: None });
        term
    }

    fn read(&mut self, terms: &mut Terms, state: &mut [Option<TermId>], slot: usize) -> TermId {
        match state[slot] {
            Some(term) => term,
            None => {
                let term = self.initial(terms, slot);
                state[slot] = Some(term);
                term
            }
        }
    }

    fn record(&mut self, kind: InputKind, term: TermId, (block, position): (BlockId, usize), span: Span) -> usize {
        self.inputs.push(Input { kind, term, block: Some(block), position, span, before: None });
        self.inputs.len() - 1
    }
}

/// Reads the implementation's state: locals and globals at their current incarnation,
/// `old(g)` at `g@0`.
struct StateEnv<'a> {
    vars: &'a mut VarTable,
    state: &'a mut [Option<TermId>],
    entry_globals: &'a [TermId],
}

impl Env for StateEnv<'_> {
    fn read(&mut self, terms: &mut Terms, var: hir::Var, old: bool) -> TermId {
        match var {
            hir::Var::Global(id) if old => self.entry_globals[id.index()],
            _ => {
                let slot = self.vars.slot(var);
                self.vars.read(terms, self.state, slot)
            }
        }
    }
}

/// Reads a procedure contract's variables: the procedure's own parameters (`locals`, by
/// the procedure's `LocalId`s) bound to given terms, globals, and `old` globals.
struct ContractEnv<'a> {
    locals: &'a [Option<TermId>],
    globals: &'a [TermId],
    old_globals: &'a [TermId],
}

impl Env for ContractEnv<'_> {
    fn read(&mut self, _terms: &mut Terms, var: hir::Var, old: bool) -> TermId {
        match var {
            hir::Var::Global(id) if old => self.old_globals[id.index()],
            hir::Var::Global(id) => self.globals[id.index()],
            hir::Var::Local(id) => self.locals[id.index()].expect("requires clauses read in-parameters only"),
            other => panic!("{other:?} is not a state variable"),
        }
    }
}

struct Passifier<'t, 'p> {
    translator: &'t mut Translator<'p>,
    cfg: &'t Cfg,
    vars: VarTable,
    /// `g@0` of every global.
    entry_globals: Vec<TermId>,
    /// The state at entry: globals and in-parameters at incarnation 0, the rest unread.
    entry_state: Vec<Option<TermId>>,
    abstractions: Vec<Abstraction>,
    definitions: Vec<TermId>,
}

impl<'t, 'p> Passifier<'t, 'p> {
    fn new(translator: &'t mut Translator<'p>, cfg: &'t Cfg) -> Passifier<'t, 'p> {
        let mut vars = VarTable::new(translator.program, cfg);
        let terms = &mut translator.terms;
        let entry_globals: Vec<TermId> = (0..vars.globals).map(|slot| vars.initial(terms, slot)).collect();
        let mut entry_state = vec![None; vars.vars.len()];
        for (slot, term) in entry_globals.iter().enumerate() {
            entry_state[slot] = Some(*term);
        }
        for &local in &translator.program.implementations[cfg.implementation.index()].ins {
            let slot = vars.slot(hir::Var::Local(local));
            entry_state[slot] = Some(vars.initial(terms, slot));
        }
        Passifier {
            translator,
            cfg,
            vars,
            entry_globals,
            entry_state,
            abstractions: Vec::new(),
            definitions: Vec::new(),
        }
    }

    fn implementation(&self) -> &'p hir::Implementation {
        &self.translator.program.implementations[self.cfg.implementation.index()]
    }

    fn procedure(&self) -> &'p hir::Procedure {
        &self.translator.program.procedures[self.cfg.procedure.index()]
    }

    /// The procedure's locals (its ins, and its outs when `with_outs`) bound to the
    /// implementation's incarnations in `state`.
    fn own_contract_locals(&mut self, state: &mut [Option<TermId>], with_outs: bool) -> Vec<Option<TermId>> {
        let procedure = self.procedure();
        let implementation = self.implementation();
        let mut locals = vec![None; procedure.locals.len()];
        let outs = if with_outs { &procedure.outs[..] } else { &[] };
        let pairs = procedure.ins.iter().zip(&implementation.ins).chain(outs.iter().zip(&implementation.outs));
        for (&proc_local, &impl_local) in pairs {
            let slot = self.vars.slot(hir::Var::Local(impl_local));
            locals[proc_local.index()] = Some(self.vars.read(&mut self.translator.terms, state, slot));
        }
        locals
    }

    /// `requires` (free ones too) over incarnation 0: assumed at entry.
    fn precondition(&mut self) -> Vec<TermId> {
        let mut state = self.entry_state.clone();
        let locals = self.own_contract_locals(&mut state, false);
        let globals = self.entry_globals.clone();
        let mut env = ContractEnv { locals: &locals, globals: &globals, old_globals: &globals };
        self.procedure().requires.iter().map(|clause| self.translator.expr(&mut env, &clause.expr)).collect()
    }

    /// The state at the start of `id`, adding the join fix-ups to the predecessors' edges.
    fn join(&mut self, blocks: &mut [Option<PassiveBlock>], preds: &[BlockId], id: BlockId) -> Vec<Option<TermId>> {
        let exit_of = |blocks: &[Option<PassiveBlock>], pred: BlockId| {
            blocks[pred.index()].as_ref().expect("predecessors come first in a topological order").exit.clone()
        };
        match preds {
            [] => self.entry_state.clone(),
            [pred] => exit_of(blocks, *pred),
            _ => {
                let mut exits: Vec<Vec<Option<TermId>>> = preds.iter().map(|&pred| exit_of(blocks, pred)).collect();
                let mut state = exits[0].clone();
                for slot in 0..state.len() {
                    if exits.iter().all(|exit| exit[slot] == exits[0][slot]) {
                        continue;
                    }
                    // passify(join) = x@j fresh; on each edge P → S: x@j == x@P.
                    let joined = self.vars.fresh(&mut self.translator.terms, slot);
                    state[slot] = Some(joined);
                    for (pred, exit) in preds.iter().zip(&mut exits) {
                        let incoming = self.vars.read(&mut self.translator.terms, exit, slot);
                        let fixup = self.translator.terms.eq(joined, incoming);
                        let block = blocks[pred.index()].as_mut().expect("predecessors are passified");
                        let edge = block.edges.iter_mut().find(|edge| edge.to == id).expect("an edge per successor");
                        edge.fixups.push(fixup);
                    }
                }
                state
            }
        }
    }

    fn block(&mut self, id: BlockId, mut state: Vec<Option<TermId>>) -> PassiveBlock {
        let mut out = PassiveBlock { steps: Vec::new(), edges: Vec::new(), exit: Vec::new(), inputs: Vec::new() };
        for cmd in &self.cfg.block(id).cmds {
            match &cmd.kind {
                CmdKind::Assign { targets, values } => self.assign(&mut state, &mut out, targets, values),
                CmdKind::Havoc { vars, loop_cut } => {
                    for &var in vars {
                        let kind = if *loop_cut { InputKind::LoopState(var) } else { InputKind::Havoc(var) };
                        // passify(havoc x) = x@k+1 fresh and unconstrained: an input.
                        let slot = self.vars.slot(var);
                        let term = self.vars.fresh(&mut self.translator.terms, slot);
                        let before = state[slot].replace(term);
                        let site = (id, out.steps.len());
                        let input = self.vars.record(kind, term, site, cmd.span);
                        if *loop_cut {
                            self.vars.inputs[input].before = before;
                        }
                        out.inputs.push(input);
                    }
                }
                CmdKind::Assume { expr, .. } => {
                    // passify(assume e) = e[cur]
                    let term = self.expr(&mut state, expr);
                    out.steps.push(Step::Assume(term));
                }
                CmdKind::Assert { expr, reason } => {
                    let term = self.expr(&mut state, expr);
                    match reason {
                        // A free invariant is assumed, never checked (Boogie).
                        AssertReason::Invariant { free: true, .. } => out.steps.push(Step::Assume(term)),
                        // passify(assert e) = check e[cur]
                        _ => out.steps.push(Step::Check(
                            term,
                            Obligation { kind: ObligationKind::Assert(*reason), span: cmd.span, related: None },
                        )),
                    }
                }
                CmdKind::Call { callee, args, outs, free } => {
                    self.call(id, &mut state, &mut out, (*callee, args, outs, *free), cmd.span);
                }
            }
        }
        if self.cfg.block(id).terminator == Terminator::Return {
            self.ensures(&mut state, &mut out);
        }
        out.edges =
            unique_successors(self.cfg, id).into_iter().map(|to| PassiveEdge { to, fixups: Vec::new() }).collect();
        out.exit = state;
        out
    }

    fn expr(&mut self, state: &mut [Option<TermId>], expr: &hir::Expr) -> TermId {
        let mut env = StateEnv { vars: &mut self.vars, state, entry_globals: &self.entry_globals };
        self.translator.expr(&mut env, expr)
    }

    /// `passify(x, y := e, f) = x@k+1 == e[cur] ∧ y@m+1 == f[cur]`
    fn assign(
        &mut self,
        state: &mut [Option<TermId>],
        out: &mut PassiveBlock,
        targets: &[hir::Var],
        values: &[hir::Expr],
    ) {
        let values: Vec<TermId> = values.iter().map(|value| self.expr(state, value)).collect();
        for (&target, value) in targets.iter().zip(values) {
            let slot = self.vars.slot(target);
            if self.translator.terms.contains_lambda(value) {
                // passify(x := λ…) = x bound to the term itself: z3 4.8.12 beta-reduces
                // selects of a λ, but gives up ("incomplete quantifiers") on an equation
                // x@k == λ… under the encoding's implications.
                state[slot] = Some(value);
                continue;
            }
            let term = self.vars.fresh(&mut self.translator.terms, slot);
            state[slot] = Some(term);
            let equation = self.translator.terms.eq(term, value);
            out.steps.push(Step::Assume(equation));
            self.definitions.push(equation);
        }
    }

    /// `passify(call o := P(a)) = check P.requires[a]; o@, P.modifies@ fresh;`
    /// `assume where(P.modifies@, P.outs@); assume P.ensures[a, o@, old := pre-call]`. As in Boogie, a call neither checks
    /// nor assumes a free `requires` (the callee's implementation assumes it), and a
    /// `free call` none of them.
    fn call(
        &mut self,
        block: BlockId,
        state: &mut [Option<TermId>],
        out: &mut PassiveBlock,
        (callee, args, outs, free_call): (ProcId, &[hir::Expr], &[hir::Var], bool),
        span: Span,
    ) {
        let program = self.translator.program;
        let procedure = &program.procedures[callee.index()];
        let bodiless = procedure.implementations.is_empty();
        let mut locals = vec![None; procedure.locals.len()];
        for (&param, arg) in procedure.ins.iter().zip(args) {
            locals[param.index()] = Some(self.expr(state, arg));
        }
        let pre_globals = self.current_globals(state);
        let checked = procedure.requires.iter().enumerate().filter(|(_, clause)| !free_call && !clause.free);
        for (clause_index, clause) in checked {
            let mut env = ContractEnv { locals: &locals, globals: &pre_globals, old_globals: &pre_globals };
            let term = self.translator.expr(&mut env, &clause.expr);
            let kind = ObligationKind::Requires { callee, clause: clause_index };
            out.steps.push(Step::Check(term, Obligation { kind, span, related: Some(clause.span) }));
        }
        for &global in &procedure.modifies {
            let slot = self.vars.global_slot(global);
            let term = self.vars.fresh(&mut self.translator.terms, slot);
            state[slot] = Some(term);
            if bodiless {
                let kind = InputKind::CallModifies { callee, global };
                let input = self.vars.record(kind, term, (block, out.steps.len()), span);
                self.vars.inputs[input].before = pre_globals.get(slot).copied();
                out.inputs.push(input);
            }
        }
        let post_globals = self.current_globals(state);
        let mut out_terms = Vec::with_capacity(outs.len());
        for (&param, &target) in procedure.outs.iter().zip(outs) {
            let slot = self.vars.slot(target);
            let term = self.vars.fresh(&mut self.translator.terms, slot);
            locals[param.index()] = Some(term);
            out_terms.push((slot, term));
            if bodiless {
                let kind = InputKind::CallOut { callee, var: target };
                out.inputs.push(self.vars.record(kind, term, (block, out.steps.len()), span));
            }
        }
        // Boogie's desugaring of a call havocs the modified globals and the outputs, and
        // a havoc assumes the `where` clauses of what it havocs: the globals' own, and
        // the callee's on its output parameters.
        let global_wheres =
            procedure.modifies.iter().filter_map(|global| program.globals[global.index()].where_clause.as_ref());
        let out_wheres =
            procedure.outs.iter().filter_map(|param| procedure.locals[param.index()].where_clause.as_ref());
        let ensures = procedure.ensures.iter().map(|clause| &clause.expr);
        for expr in global_wheres.chain(out_wheres).chain(ensures) {
            let mut env = ContractEnv { locals: &locals, globals: &post_globals, old_globals: &pre_globals };
            let term = self.translator.expr(&mut env, expr);
            out.steps.push(Step::Assume(term));
        }
        // The outputs are written after the callee's globals: `call g := P()` with `g` in
        // `P`'s modifies leaves `g` holding the out-parameter's value.
        for (slot, term) in out_terms {
            state[slot] = Some(term);
        }
        if !bodiless {
            self.abstractions.push(Abstraction { block, callee, span });
        }
    }

    fn current_globals(&mut self, state: &mut [Option<TermId>]) -> Vec<TermId> {
        (0..self.vars.globals).map(|slot| self.vars.read(&mut self.translator.terms, state, slot)).collect()
    }

    /// At a `return`: check each non-free `ensures` over the final incarnations.
    fn ensures(&mut self, state: &mut [Option<TermId>], out: &mut PassiveBlock) {
        if self.procedure().ensures.iter().all(|clause| clause.free) {
            return;
        }
        let locals = self.own_contract_locals(state, true);
        let globals = self.current_globals(state);
        let implementation_span = self.implementation().span;
        for (clause_index, clause) in self.procedure().ensures.iter().enumerate() {
            if clause.free {
                continue;
            }
            let mut env = ContractEnv { locals: &locals, globals: &globals, old_globals: &self.entry_globals };
            let term = self.translator.expr(&mut env, &clause.expr);
            let kind = ObligationKind::Ensures { clause: clause_index };
            out.steps
                .push(Step::Check(term, Obligation { kind, span: clause.span, related: Some(implementation_span) }));
        }
    }
}
