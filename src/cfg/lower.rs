//! Lowering: one [`hir::Implementation`] → its [`Cfg`] of basic blocks, as Boogie does.
//!
//! Input: a checked program (the invariants of [`hir`]); Boogie bodies mix structured
//! statements (`if`, `while`, `break`) with unstructured ones (labels, `goto`, `return`),
//! and both are lowered here. Output: a [`Cfg`] with the invariants listed in
//! [`super::graph`], or [`CfgError::Irreducible`] for a loop with two entries.
//!
//! The rules:
//! - Straight-line commands accumulate in the current block; a map update `a[i][j] := e`
//!   becomes the whole-variable store `a := a[i := a[i][j := e]]`, and a parallel
//!   assignment stays one simultaneous [`CmdKind::Assign`].
//! - `if (g) {A} else {B}` ends the current block with `goto then, else`; `then` starts
//!   with `assume g`, `else` with `assume !g`, and both jump to a join block. An absent
//!   `else` becomes an empty one, because it is a branch outcome a test must cover
//!   (seeds/001 §4 case B). `else if` is an `if` nested in the `else` (seeds/001 Fig. 3).
//!   A `*` guard gives no `assume`; a negated guard is spelled as Boogie spells it
//!   (`!(a < b)` is `b <= a`, see `negation`).
//! - `while (g) invariant I; {B}` jumps to a head block holding `assert I` per invariant,
//!   which branches to the body (`assume g; B; goto head`) and the exit (`assume !g`).
//!   `break` jumps past the exit to the continuation of the loop (or of the statement
//!   its label names), without assuming `!g`.
//! - A label starts a block; `goto` ends one; `return` ends one with a return. Code after
//!   them up to the next label is unreachable and dropped.
//! - Origins: `if`/`while` statements are numbered from 1 among those of their statement
//!   list; a branch block gets `…/if#n/then`, `…/if#n/else`, `…/while#n/body` or
//!   `…/while#n/exit` and starts a branch; the head gets `…/while#n`, join blocks the
//!   enclosing path (neither starts a branch); a label that a multi-target `goto` names
//!   starts the branch `…/goto:L`; the entry block is `entry` and starts a branch (the goal
//!   of a branch-free body, seeds/001 §4 case A).
//! - `where` clauses are assumed as Boogie does: those of globals, parameters and locals at
//!   the entry, and a variable's again after each `havoc` of it. A call's effects stay
//!   inside the [`CmdKind::Call`]: assuming what they imply is the encoder's business.
//! - Loops are found afterwards from back edges ([`super::loops`]), for structured and
//!   `goto` code alike; the leading `assert`s of a loop header are its invariants
//!   (Boogie's convention), marked [`AssertReason::Invariant`].
//!
//! An empty join block that lowering made up and that only jumps on to another join is
//! skipped (its predecessors jump straight to the next join), so an `else if` chain
//! does not leave a trail of empty blocks. Blocks that start at a user's label are
//! always kept: Boogie would find a loop header there, and so must we.

use super::error::CfgError;
use super::graph::{
    AssertReason, AssumeReason, Block, BlockId, Cfg, Cmd, CmdKind, Loop, Origin, Segment, StructPath, Terminator,
};
use super::loops;
use crate::sema::hir::{self, LabelId, Stmt, StmtKind};
use crate::source::Span;
use std::collections::BTreeSet;

/// Lowers one implementation of `program` to its control-flow graph.
pub fn lower(program: &hir::Program, implementation: hir::ImplId) -> Result<Cfg, Vec<CfgError>> {
    let body = &program.implementations[implementation.index()];
    let mut builder = Builder::new(program, body);
    builder.entry();
    builder.stmts(&body.body, &StructPath::default());
    builder.finish(body.span);
    let assembled = assemble(builder.drafts, &builder.labels, &builder.later);
    let mut cfg = Cfg {
        implementation,
        procedure: body.proc,
        name: body.name.clone(),
        locals: builder.locals,
        blocks: assembled.blocks,
        entry: BlockId(0),
        loops: Vec::new(),
        span: body.span,
    };
    match loops::find_loops(program, &cfg) {
        Ok(found) => {
            mark_invariants(&mut cfg, &found);
            cfg.loops = found;
            Ok(cfg)
        }
        Err(edges) => {
            let spans: BTreeSet<Span> = edges.iter().map(|(from, _)| assembled.exit_spans[from.index()]).collect();
            Err(spans.into_iter().map(|span| CfgError::Irreducible { span }).collect())
        }
    }
}

/// Lowers every implementation, in order of [`hir::ImplId`]; an implementation with an
/// error has no graph.
pub fn lower_all(program: &hir::Program) -> (Vec<Cfg>, Vec<CfgError>) {
    let unsupported = super::support::unsupported(program);
    if !unsupported.is_empty() {
        return (Vec::new(), unsupported);
    }
    let mut cfgs = Vec::with_capacity(program.implementations.len());
    let mut errors = Vec::new();
    for index in 0..program.implementations.len() {
        match lower(program, hir::ImplId::from_index(index)) {
            Ok(cfg) => cfgs.push(cfg),
            Err(found) => errors.extend(found),
        }
    }
    (cfgs, errors)
}

// ---------------------------------------------------------------------------------------
// Blocks under construction

/// Where a jump goes, written before every block exists.
#[derive(Clone, Copy, Debug)]
enum Jump {
    Block(BlockId),
    Label(LabelId),
    /// A block created later (an `else`, a join, a loop's exit or continuation): an
    /// index into [`Builder::later`].
    Later(usize),
}

enum Exit {
    Goto(Vec<Jump>),
    Return,
}

/// A block under construction.
struct Draft {
    cmds: Vec<Cmd>,
    /// `None` while the block is open.
    exit: Option<Exit>,
    /// The statement that ends the block (`goto`, `break`, ...), or the construct it
    /// falls through into; irreducibility is reported there.
    exit_span: Span,
    origin: Origin,
    span: Span,
    /// A join made up by lowering, which may be skipped when empty.
    join: bool,
}

/// An enclosing statement `break` can leave.
struct Breakable {
    /// The labels written right before the statement (`break L;`).
    labels: Vec<LabelId>,
    is_loop: bool,
    /// The continuation after the statement, a [`Jump::Later`] slot.
    after: usize,
}

struct Builder<'a> {
    program: &'a hir::Program,
    body: &'a hir::Implementation,
    /// The implementation's locals, its formals with the procedure's `where` clauses.
    locals: Vec<hir::Local>,
    drafts: Vec<Draft>,
    /// The open block, if the code here is reachable in the graph.
    current: Option<BlockId>,
    /// The block each label starts, once lowering has met the label.
    labels: Vec<Option<BlockId>>,
    /// The labels some `goto` with several targets names: each starts a branch.
    multi_targets: BTreeSet<LabelId>,
    /// The blocks [`Jump::Later`] stands for, once created.
    later: Vec<Option<BlockId>>,
    breakables: Vec<Breakable>,
}

impl<'a> Builder<'a> {
    fn new(program: &'a hir::Program, body: &'a hir::Implementation) -> Builder<'a> {
        let mut multi_targets = BTreeSet::new();
        collect_multi_targets(&body.body, &mut multi_targets);
        Builder {
            program,
            body,
            locals: locals_with_formal_wheres(program, body),
            drafts: Vec::new(),
            current: None,
            labels: vec![None; body.labels.len()],
            multi_targets,
            later: Vec::new(),
            breakables: Vec::new(),
        }
    }

    fn new_block(&mut self, origin: Origin, span: Span, join: bool) -> BlockId {
        let id = BlockId::from_index(self.drafts.len());
        self.drafts.push(Draft { cmds: Vec::new(), exit: None, exit_span: span, origin, span, join });
        id
    }

    /// Ends the open block, if any, with a jump.
    fn jump(&mut self, targets: Vec<Jump>, span: Span) {
        if let Some(open) = self.current.take() {
            let draft = &mut self.drafts[open.index()];
            draft.exit = Some(Exit::Goto(targets));
            draft.exit_span = span;
        }
    }

    /// Makes `block` the open block; the previous one (if any) falls through into it.
    fn fall_into(&mut self, block: BlockId, span: Span) {
        self.jump(vec![Jump::Block(block)], span);
        self.current = Some(block);
    }

    /// Reserves a block that jumps name before it is created; see [`Jump::Later`].
    fn reserve(&mut self) -> usize {
        self.later.push(None);
        self.later.len() - 1
    }

    /// Creates the block reserved as `slot` and falls through into it.
    fn place(&mut self, slot: usize, origin: Origin, span: Span, join: bool) {
        let block = self.new_block(origin, span, join);
        self.later[slot] = Some(block);
        self.fall_into(block, span);
    }

    /// Appends a command to the open block. After a `goto`, `break` or `return` the code
    /// is unreachable: it still gets a block, which [`assemble`] drops.
    fn push(&mut self, kind: CmdKind, span: Span, path: &StructPath) {
        let open = match self.current {
            Some(open) => open,
            None => {
                let dead = self.new_block(Origin { path: path.clone(), starts_branch: false }, span, false);
                self.current = Some(dead);
                dead
            }
        };
        self.drafts[open.index()].cmds.push(Cmd { kind, span });
    }

    fn finish(&mut self, span: Span) {
        if let Some(open) = self.current.take() {
            let draft = &mut self.drafts[open.index()];
            draft.exit = Some(Exit::Return);
            draft.exit_span = span;
        }
    }
}

/// The implementation's locals. A procedure's `where` clauses on its formals hold for
/// every implementation; they speak of the same positions (ins, then outs), so they are
/// copied over unchanged.
fn locals_with_formal_wheres(program: &hir::Program, body: &hir::Implementation) -> Vec<hir::Local> {
    let procedure = &program.procedures[body.proc.index()];
    let mut locals = body.locals.clone();
    for (local, formal) in locals.iter_mut().zip(&procedure.locals) {
        if local.kind != hir::LocalKind::Local && local.where_clause.is_none() {
            local.where_clause = formal.where_clause.clone();
        }
    }
    locals
}

/// Statements nest only through braces, which the parser bounds, so recursion is safe.
fn collect_multi_targets(stmts: &[Stmt], found: &mut BTreeSet<LabelId>) {
    for stmt in stmts {
        match &stmt.kind {
            StmtKind::Goto { targets } => {
                let distinct: BTreeSet<LabelId> = targets.iter().copied().collect();
                if distinct.len() > 1 {
                    found.extend(distinct);
                }
            }
            StmtKind::If { branches, else_block } => {
                for branch in branches {
                    collect_multi_targets(&branch.block, found);
                }
                if let Some(block) = else_block {
                    collect_multi_targets(block, found);
                }
            }
            StmtKind::While { body, .. } => collect_multi_targets(body, found),
            _ => {}
        }
    }
}

// ---------------------------------------------------------------------------------------
// Statements

impl Builder<'_> {
    /// The entry block: the `where` clauses of every global and local hold initially.
    fn entry(&mut self) {
        let origin = Origin { path: StructPath(vec![Segment::Entry]), starts_branch: true };
        let entry = self.new_block(origin, self.body.span, false);
        self.current = Some(entry);
        let globals = self.program.globals.iter().filter_map(|global| global.where_clause.clone());
        let locals = self.locals.iter().filter_map(|local| local.where_clause.clone());
        let wheres: Vec<hir::Expr> = globals.chain(locals).collect();
        for expr in wheres {
            let span = expr.span;
            self.push(CmdKind::Assume { expr, reason: AssumeReason::Where }, span, &StructPath::default());
        }
    }

    /// Lowers a statement list whose constructs live under `path`.
    fn stmts(&mut self, stmts: &[Stmt], path: &StructPath) {
        let (mut ifs, mut whiles) = (0, 0);
        // The labels written right before the current statement, which `break L;` names.
        let mut labels = Vec::new();
        for stmt in stmts {
            match &stmt.kind {
                StmtKind::Label(label) => {
                    self.label(*label, path);
                    labels.push(*label);
                    continue;
                }
                StmtKind::If { branches, else_block } => {
                    ifs += 1;
                    let shape = IfShape { branches, else_block: else_block.as_deref(), span: stmt.span };
                    self.if_stmt(shape, path.child(Segment::If(ifs)), path, std::mem::take(&mut labels));
                }
                StmtKind::While { guard, invariants, body } => {
                    whiles += 1;
                    let shape = WhileShape { guard, invariants, body, span: stmt.span };
                    self.while_stmt(shape, path.child(Segment::While(whiles)), path, std::mem::take(&mut labels));
                }
                _ => self.simple(stmt, path),
            }
            labels.clear();
        }
    }

    fn label(&mut self, label: LabelId, path: &StructPath) {
        let declared = &self.body.labels[label.index()];
        let origin = if self.multi_targets.contains(&label) {
            Origin { path: path.child(Segment::Goto(declared.name.clone())), starts_branch: true }
        } else {
            Origin { path: path.clone(), starts_branch: false }
        };
        let block = self.new_block(origin, declared.span, false);
        self.labels[label.index()] = Some(block);
        self.fall_into(block, declared.span);
    }

    fn simple(&mut self, stmt: &Stmt, path: &StructPath) {
        let span = stmt.span;
        match &stmt.kind {
            StmtKind::Assert { expr, attrs } => {
                let reason = if unsubsumed(attrs) { AssertReason::Unsubsumed } else { AssertReason::User };
                self.push(CmdKind::Assert { expr: expr.clone(), reason }, span, path)
            }
            StmtKind::Assume { expr, .. } => {
                self.push(CmdKind::Assume { expr: expr.clone(), reason: AssumeReason::User }, span, path)
            }
            StmtKind::Havoc { vars } => {
                self.push(CmdKind::Havoc { vars: vars.clone(), loop_cut: false }, span, path);
                for expr in self.where_clauses(vars) {
                    self.push(CmdKind::Assume { expr, reason: AssumeReason::Where }, span, path);
                }
            }
            StmtKind::Assign { lhs, rhs } => {
                let targets = lhs.iter().map(|target| target.var).collect();
                let values = lhs.iter().zip(rhs).map(|(target, value)| self.whole_value(target, value, span)).collect();
                self.push(CmdKind::Assign { targets, values }, span, path);
            }
            StmtKind::Call { callee, args, outs, free, .. } => {
                let kind = CmdKind::Call { callee: *callee, args: args.clone(), outs: outs.clone(), free: *free };
                self.push(kind, span, path);
            }
            StmtKind::Break { label } => {
                let after = self.break_target(*label);
                self.jump(vec![Jump::Later(after)], span);
            }
            StmtKind::Return => {
                if let Some(open) = self.current.take() {
                    let draft = &mut self.drafts[open.index()];
                    draft.exit = Some(Exit::Return);
                    draft.exit_span = span;
                }
            }
            StmtKind::Goto { targets } => {
                let mut distinct = BTreeSet::new();
                let jumps = targets.iter().filter(|label| distinct.insert(**label)).map(|&label| Jump::Label(label));
                self.jump(jumps.collect(), span);
            }
            StmtKind::Label(_) | StmtKind::If { .. } | StmtKind::While { .. } => {
                unreachable!("`stmts` lowers labels and statements with blocks")
            }
        }
    }

    /// The `where` clauses of the havocked variables that have one.
    fn where_clauses(&self, vars: &[hir::Var]) -> Vec<hir::Expr> {
        let clause = |var: &hir::Var| match *var {
            hir::Var::Local(id) => self.locals[id.index()].where_clause.clone(),
            hir::Var::Global(id) => self.program.globals[id.index()].where_clause.clone(),
            hir::Var::Const(_) | hir::Var::Bound(_) => None,
        };
        vars.iter().filter_map(clause).collect()
    }

    /// The `break` target: the innermost loop, or the statement labelled `label`.
    fn break_target(&self, label: Option<LabelId>) -> usize {
        let mut enclosing = self.breakables.iter().rev();
        let found = match label {
            None => enclosing.find(|breakable| breakable.is_loop),
            Some(label) => enclosing.find(|breakable| breakable.labels.contains(&label)),
        };
        found.expect("the checker accepts `break` only inside what it leaves").after
    }

    /// The value a whole variable gets from `target := value`: `a[i][j] := e` stores
    /// `a[i := a[i][j := e]]` into `a`.
    fn whole_value(&self, target: &hir::Lhs, value: &hir::Expr, span: Span) -> hir::Expr {
        if target.indices.is_empty() {
            return value.clone();
        }
        let var = hir::Expr { kind: hir::ExprKind::Var(target.var), ty: self.var_type(target.var), span };
        store(var, &target.indices, value.clone(), span)
    }

    fn var_type(&self, var: hir::Var) -> hir::Type {
        match var {
            hir::Var::Local(id) => self.locals[id.index()].ty.clone(),
            hir::Var::Global(id) => self.program.globals[id.index()].ty.clone(),
            hir::Var::Const(id) => self.program.consts[id.index()].ty.clone(),
            hir::Var::Bound(_) => unreachable!("statements are outside every binder"),
        }
    }
}

/// `map[i := map[i][j := value]]` for the index groups `[[i], [j]]`. Recursion is as
/// deep as the target has selections, which the parser bounds.
fn store(map: hir::Expr, groups: &[Vec<hir::Expr>], value: hir::Expr, span: Span) -> hir::Expr {
    let Some((indices, rest)) = groups.split_first() else { return value };
    let inner = if rest.is_empty() {
        value
    } else {
        let hir::Type::Map(map_type) = &map.ty else { unreachable!("the checker typed every selection") };
        let kind = hir::ExprKind::Select { map: Box::new(map.clone()), indices: indices.clone() };
        let selected = hir::Expr { kind, ty: map_type.range.clone(), span };
        store(selected, rest, value, span)
    };
    let ty = map.ty.clone();
    let kind = hir::ExprKind::Store { map: Box::new(map), indices: indices.clone(), value: Box::new(inner) };
    hir::Expr { kind, ty, span }
}

// ---------------------------------------------------------------------------------------
// Branches and loops

struct IfShape<'s> {
    branches: &'s [hir::IfBranch],
    else_block: Option<&'s [Stmt]>,
    span: Span,
}

struct WhileShape<'s> {
    guard: &'s hir::Guard,
    invariants: &'s [hir::Clause],
    body: &'s [Stmt],
    span: Span,
}

impl Builder<'_> {
    /// An `if` with its `else if` chain. Each `else if` is an `if` nested in the previous
    /// `else` (path `…/if#n/else/if#1`), with its own join; the chain is walked in a loop,
    /// not by recursion, because the parser keeps long chains flat.
    fn if_stmt(&mut self, shape: IfShape, if_path: StructPath, enclosing: &StructPath, labels: Vec<LabelId>) {
        let outer_join = self.reserve();
        self.breakables.push(Breakable { labels, is_loop: false, after: outer_join });
        let (mut if_path, mut join, mut join_path) = (if_path, outer_join, enclosing.clone());
        let mut joins = Vec::new();
        for (position, branch) in shape.branches.iter().enumerate() {
            let then_path = if_path.child(Segment::Then);
            let else_path = if_path.child(Segment::Else);
            let else_slot = self.reserve();
            let then_block =
                self.new_block(Origin { path: then_path.clone(), starts_branch: true }, branch.span, false);
            if self.current.is_none() {
                // An unreachable `if`: its blocks are built and then dropped.
                self.push_nothing(&join_path, branch.span);
            }
            self.jump(vec![Jump::Block(then_block), Jump::Later(else_slot)], branch.span);
            self.current = Some(then_block);
            self.assume_guard(&branch.guard, false, &then_path);
            self.stmts(&branch.block, &then_path);
            self.jump(vec![Jump::Later(join)], branch.span);
            let next = shape.branches.get(position + 1);
            let else_span = match (next, shape.else_block) {
                (Some(next), _) => next.span,
                (None, Some([first, .., last])) => first.span.to(last.span),
                (None, Some([only])) => only.span,
                (None, _) => shape.span,
            };
            self.place(else_slot, Origin { path: else_path.clone(), starts_branch: true }, else_span, false);
            self.assume_guard(&branch.guard, true, &else_path);
            if next.is_some() {
                joins.push((join, join_path));
                (join, join_path) = (self.reserve(), else_path.clone());
                if_path = else_path.child(Segment::If(1));
            } else if let Some(block) = shape.else_block {
                self.stmts(block, &else_path);
            }
        }
        joins.push((join, join_path));
        // The innermost join first: each falls through into the next enclosing one.
        for (slot, path) in joins.into_iter().rev() {
            self.place(slot, Origin { path, starts_branch: false }, shape.span, true);
        }
        self.breakables.pop();
    }

    fn while_stmt(&mut self, shape: WhileShape, while_path: StructPath, enclosing: &StructPath, labels: Vec<LabelId>) {
        let head = self.new_block(Origin { path: while_path.clone(), starts_branch: false }, shape.span, false);
        if self.current.is_some() {
            self.fall_into(head, shape.span);
        } else {
            // An unreachable loop: its blocks are built and then dropped.
            self.current = Some(head);
        }
        for (index, invariant) in shape.invariants.iter().enumerate() {
            let index = u32::try_from(index).expect("fewer than 2^32 invariants per loop");
            let reason = AssertReason::Invariant { free: invariant.free, index };
            self.push(CmdKind::Assert { expr: invariant.expr.clone(), reason }, invariant.span, &while_path);
        }
        let body_path = while_path.child(Segment::Body);
        let body_span = match shape.body {
            [first, .., last] => first.span.to(last.span),
            [only] => only.span,
            [] => shape.span,
        };
        let body = self.new_block(Origin { path: body_path.clone(), starts_branch: true }, body_span, false);
        let (exit, after) = (self.reserve(), self.reserve());
        self.jump(vec![Jump::Block(body), Jump::Later(exit)], shape.span);
        self.current = Some(body);
        self.assume_guard(shape.guard, false, &body_path);
        self.breakables.push(Breakable { labels, is_loop: true, after });
        self.stmts(shape.body, &body_path);
        self.breakables.pop();
        // The back edge.
        self.jump(vec![Jump::Block(head)], shape.span);
        let exit_path = while_path.child(Segment::Exit);
        self.place(exit, Origin { path: exit_path.clone(), starts_branch: true }, shape.span, false);
        self.assume_guard(shape.guard, true, &exit_path);
        self.place(after, Origin { path: enclosing.clone(), starts_branch: false }, shape.span, true);
    }

    /// Opens an (unreachable) block so that a construct in dead code has a block to
    /// branch from.
    fn push_nothing(&mut self, path: &StructPath, span: Span) {
        let dead = self.new_block(Origin { path: path.clone(), starts_branch: false }, span, false);
        self.current = Some(dead);
    }

    /// `assume g` (or `assume !g` when `negated`) at the start of a branch; nothing for `*`.
    fn assume_guard(&mut self, guard: &hir::Guard, negated: bool, path: &StructPath) {
        let hir::Guard::Expr(expr) = guard else { return };
        let (expr, reason) =
            if negated { (negation(expr), AssumeReason::NegatedGuard) } else { (expr.clone(), AssumeReason::Guard) };
        self.push(CmdKind::Assume { expr, reason }, guard_span(guard), path);
    }
}

/// `!e`, spelled as Boogie's `Expr.Not` spells it: a comparison is flipped (`!(i > 10)`
/// is `10 >= i`), a negation dropped. The meaning is the same, but Boogie 2.4.1 infers
/// loop invariants by interval analysis, which reads the flipped form only; with it a
/// printed graph verifies exactly as the structured original.
fn negation(expr: &hir::Expr) -> hir::Expr {
    use hir::BinaryOp::{Eq, Ge, Gt, Le, Lt, Neq};
    let kind = match &expr.kind {
        hir::ExprKind::Unary { op: hir::UnaryOp::Not, operand } => return (**operand).clone(),
        hir::ExprKind::Binary { op, lhs, rhs } if matches!(op, Eq | Neq | Lt | Le | Gt | Ge) => {
            let (op, lhs, rhs) = match op {
                Eq => (Neq, lhs, rhs),
                Neq => (Eq, lhs, rhs),
                Lt => (Le, rhs, lhs),
                Le => (Lt, rhs, lhs),
                Gt => (Ge, rhs, lhs),
                _ => (Gt, rhs, lhs),
            };
            hir::ExprKind::Binary { op, lhs: lhs.clone(), rhs: rhs.clone() }
        }
        _ => hir::ExprKind::Unary { op: hir::UnaryOp::Not, operand: Box::new(expr.clone()) },
    };
    hir::Expr { kind, ty: hir::Type::Bool, span: expr.span }
}

fn guard_span(guard: &hir::Guard) -> Span {
    match guard {
        hir::Guard::Expr(expr) => expr.span,
        hir::Guard::Star(span) => *span,
    }
}

// ---------------------------------------------------------------------------------------
// Assembly

struct Assembled {
    blocks: Vec<Block>,
    /// Where each block's jump was written, by new block id.
    exit_spans: Vec<Span>,
}

/// Resolves the jumps, skips empty joins, drops the blocks unreachable from the entry
/// (draft 0) and numbers the rest in creation order.
fn assemble(drafts: Vec<Draft>, labels: &[Option<BlockId>], later: &[Option<BlockId>]) -> Assembled {
    let resolve = |jump: &Jump| match *jump {
        Jump::Block(block) => block,
        Jump::Label(label) => labels[label.index()].expect("lowering met every label of the body"),
        Jump::Later(slot) => later[slot].expect("lowering created every reserved block"),
    };
    let targets: Vec<Option<Vec<BlockId>>> = drafts
        .iter()
        .map(|draft| match draft.exit.as_ref().expect("every block is closed when lowering ends") {
            Exit::Goto(jumps) => Some(jumps.iter().map(resolve).collect()),
            Exit::Return => None,
        })
        .collect();
    let forward = forwarding(&drafts, &targets);
    let targets: Vec<Option<Vec<BlockId>>> = targets
        .into_iter()
        .map(|jumps| {
            jumps.map(|jumps| {
                let mut distinct = BTreeSet::new();
                jumps.into_iter().map(|block| forward[block.index()]).filter(|block| distinct.insert(*block)).collect()
            })
        })
        .collect();
    let reachable = reachable_from_entry(&targets);
    let mut renumber = vec![None; drafts.len()];
    for (new, old) in reachable.iter().enumerate() {
        renumber[*old] = Some(BlockId::from_index(new));
    }
    let mut blocks = Vec::with_capacity(reachable.len());
    let mut exit_spans = Vec::with_capacity(reachable.len());
    for ((draft, jumps), new) in drafts.into_iter().zip(targets).zip(&renumber) {
        if new.is_none() {
            continue;
        }
        let terminator = match jumps {
            Some(jumps) => Terminator::Goto(
                jumps.iter().map(|block| renumber[block.index()].expect("a successor of a reachable block")).collect(),
            ),
            None => Terminator::Return,
        };
        exit_spans.push(draft.exit_span);
        blocks.push(Block { cmds: draft.cmds, terminator, origin: draft.origin, span: draft.span });
    }
    Assembled { blocks, exit_spans }
}

/// Where a jump to each block really goes: an empty join that only jumps on to another
/// join is skipped. The last join of such a chain stays, even when empty, so that a loop
/// body ending in a branch still has one latch (and the cut one copy of the invariants).
fn forwarding(drafts: &[Draft], targets: &[Option<Vec<BlockId>>]) -> Vec<BlockId> {
    let skip_to = |block: BlockId| {
        let draft = &drafts[block.index()];
        match targets[block.index()].as_deref() {
            Some(&[next]) if draft.join && draft.cmds.is_empty() && drafts[next.index()].join && next != block => {
                Some(next)
            }
            _ => None,
        }
    };
    (0..drafts.len())
        .map(|index| {
            let mut block = BlockId::from_index(index);
            // Joins only jump forward, so a chain ends; the bound guards against a cycle.
            for _ in 0..drafts.len() {
                match skip_to(block) {
                    Some(next) => block = next,
                    None => break,
                }
            }
            block
        })
        .collect()
}

/// The drafts reachable from draft 0, in increasing order.
fn reachable_from_entry(targets: &[Option<Vec<BlockId>>]) -> Vec<usize> {
    let mut seen = vec![false; targets.len()];
    let mut pending = vec![0];
    seen[0] = true;
    while let Some(index) = pending.pop() {
        for block in targets[index].iter().flatten() {
            if !seen[block.index()] {
                seen[block.index()] = true;
                pending.push(block.index());
            }
        }
    }
    (0..targets.len()).filter(|&index| seen[index]).collect()
}

/// Boogie's convention: the `assert`s among the leading `assert`/`assume` commands of a
/// loop header are the loop's invariants. Those of a `while` are marked already.
fn mark_invariants(cfg: &mut Cfg, loops: &[Loop]) {
    for found in loops {
        let mut index = 0;
        for cmd in &mut cfg.blocks[found.header.index()].cmds {
            match &mut cmd.kind {
                CmdKind::Assert { reason, .. } => {
                    if matches!(reason, AssertReason::User | AssertReason::Unsubsumed) {
                        *reason = AssertReason::Invariant { free: false, index };
                    }
                    index += 1;
                }
                CmdKind::Assume { .. } => {}
                CmdKind::Assign { .. } | CmdKind::Havoc { .. } | CmdKind::Call { .. } => break,
            }
        }
    }
}

/// Whether an assertion's attributes say `{:subsumption 0}`: Boogie then does not assume
/// it after checking it (any other value, or none, keeps its default, which assumes it).
fn unsubsumed(attrs: &[crate::syntax::ast::Attribute]) -> bool {
    use crate::syntax::ast::{AttrArg, Expr, ExprKind};
    attrs.iter().any(|attr| {
        attr.name.name == "subsumption"
            && matches!(attr.args.as_slice(), [AttrArg::Expr(Expr { kind: ExprKind::Int(value), .. })] if *value == 0u32.into())
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{assert_outline, check_lower, lowered, program};
    use super::*;

    #[test]
    fn a_branch_free_body_is_its_entry_block() {
        let outline = check_lower("procedure P() returns (x: int) { x := 1; assert x == 1; }");
        assert_outline(&outline, "b0 entry*: x := 1; assert x == 1; return");
    }

    /// seeds/001 §4 case B: an `if` without `else` gets an empty `else` branch.
    #[test]
    fn an_implicit_else_is_made_explicit() {
        let outline = check_lower("procedure P(a: int) returns (x: int) { if (a > 0) { x := 1; } x := x + 1; }");
        assert_outline(
            &outline,
            "
            b0 entry*: -> b1, b2
            b1 if#1/then*: assume a > 0; x := 1; -> b3
            b2 if#1/else*: assume 0 >= a; -> b3
            b3 : x := x + 1; return
            ",
        );
    }

    /// seeds/001 Fig. 3: `else if` is an `if` nested in the `else`.
    #[test]
    fn else_if_nests_in_the_else() {
        let outline = check_lower(
            "procedure P(a: int) returns (x: int) { if (a > 0) { x := 1; } else if (a < 0) { x := 2; } else { x := 3; } }",
        );
        assert_outline(
            &outline,
            "
            b0 entry*: -> b1, b2
            b1 if#1/then*: assume a > 0; x := 1; -> b5
            b2 if#1/else*: assume 0 >= a; -> b3, b4
            b3 if#1/else/if#1/then*: assume a < 0; x := 2; -> b5
            b4 if#1/else/if#1/else*: assume 0 <= a; x := 3; -> b5
            b5 : return
            ",
        );
    }

    #[test]
    fn negated_guards_are_spelled_as_boogie_spells_them() {
        let outline = check_lower(
            "procedure P(a: int, b: bool) {
               if (a == 1) { } if (a != 1) { } if (a <= 1) { } if (a >= 1) { } if (!b) { } if (b && a < 1) { }
             }",
        );
        let elses: Vec<&str> = outline
            .lines()
            .filter(|line| line.contains("/else*"))
            .filter_map(|line| line.split_once(": ").and_then(|(_, rest)| rest.split_once(" ->")).map(|(cmds, _)| cmds))
            .collect();
        assert_eq!(
            elses,
            [
                "assume a != 1;",
                "assume a == 1;",
                "assume 1 < a;",
                "assume 1 > a;",
                "assume b;",
                "assume !(b && a < 1);"
            ]
        );
    }

    #[test]
    fn ifs_and_whiles_are_numbered_per_statement_list() {
        let (_, cfg) =
            lowered("procedure P(a: int) { if (*) { } while (*) { if (*) { } if (*) { } } if (*) { } while (*) { } }");
        let starts: Vec<String> = cfg
            .blocks
            .iter()
            .filter(|block| block.origin.starts_branch)
            .map(|block| block.origin.path.to_string())
            .collect();
        assert_eq!(
            starts,
            [
                "entry",
                "if#1/then",
                "if#1/else",
                "while#1/body",
                "while#1/body/if#1/then",
                "while#1/body/if#1/else",
                "while#1/body/if#2/then",
                "while#1/body/if#2/else",
                "while#1/exit",
                "if#2/then",
                "if#2/else",
                "while#2/body",
                "while#2/exit",
            ]
        );
    }

    #[test]
    fn a_while_loop_has_a_head_a_body_and_an_exit() {
        let source = "
            procedure P(n: int) returns (i: int) {
              i := 0;
              while (i < n) invariant i >= 0; free invariant i <= n || n < 0; { i := i + 1; }
            }";
        let (program, cfg) = lowered(source);
        assert_outline(
            &super::super::tests::outline(&program, &cfg),
            "
            b0 entry*: i := 0; -> b1
            b1 while#1: assert{inv 0} i >= 0; assert{free inv 1} i <= n || n < 0; -> b2, b3
            b2 while#1/body*: assume i < n; i := i + 1; -> b1
            b3 while#1/exit*: assume n <= i; -> b4
            b4 : return
            ",
        );
        let [found] = cfg.loops.as_slice() else { panic!("one loop: {:?}", cfg.loops) };
        assert_eq!(
            (found.header, found.latches.as_slice(), found.body.as_slice()),
            (BlockId(1), &[BlockId(2)][..], &[BlockId(1), BlockId(2)][..])
        );
        assert_eq!(found.targets, [hir::Var::Local(hir::LocalId(1))]);
    }

    #[test]
    fn star_guards_assume_nothing() {
        let outline = check_lower("procedure P() { while (*) { if (*) { } } }");
        assert_outline(
            &outline,
            "
            b0 entry*: -> b1
            b1 while#1: -> b2, b6
            b2 while#1/body*: -> b3, b4
            b3 while#1/body/if#1/then*: -> b5
            b4 while#1/body/if#1/else*: -> b5
            b5 while#1/body: -> b1
            b6 while#1/exit*: -> b7
            b7 : return
            ",
        );
    }

    #[test]
    fn break_skips_the_exit_and_its_negated_guard() {
        let outline = check_lower(
            "procedure P(n: int) returns (i: int) { while (i < n) { if (i == 5) { break; } i := i + 1; } i := 0; }",
        );
        assert_outline(
            &outline,
            "
            b0 entry*: -> b1
            b1 while#1: -> b2, b6
            b2 while#1/body*: assume i < n; -> b3, b4
            b3 while#1/body/if#1/then*: assume i == 5; -> b7
            b4 while#1/body/if#1/else*: assume i != 5; -> b5
            b5 while#1/body: i := i + 1; -> b1
            b6 while#1/exit*: assume n <= i; -> b7
            b7 : i := 0; return
            ",
        );
    }

    #[test]
    fn a_labelled_break_leaves_the_labelled_statement() {
        let source = "
            procedure P(a: int) returns (x: int) {
              Outer: while (*) { while (*) { break Outer; } x := 1; }
              L: if (a > 0) { if (a > 1) { break L; } x := 2; }
              x := 3;
            }";
        let outline = check_lower(source);
        assert_outline(
            &outline,
            "
            b0 entry*: -> b1
            b1 : -> b2
            b2 while#1: -> b3, b8
            b3 while#1/body*: -> b4
            b4 while#1/body/while#1: -> b5, b6
            b5 while#1/body/while#1/body*: -> b9
            b6 while#1/body/while#1/exit*: -> b7
            b7 while#1/body: x := 1; -> b2
            b8 while#1/exit*: -> b9
            b9 : -> b10
            b10 : -> b11, b15
            b11 if#1/then*: assume a > 0; -> b12, b13
            b12 if#1/then/if#1/then*: assume a > 1; -> b16
            b13 if#1/then/if#1/else*: assume 1 >= a; -> b14
            b14 if#1/then: x := 2; -> b16
            b15 if#1/else*: assume 0 >= a; -> b16
            b16 : x := 3; return
            ",
        );
    }

    #[test]
    fn code_after_return_goto_and_break_is_dropped() {
        let source = "
            procedure P(a: int) returns (x: int) {
              x := 1;
              goto L;
              x := 2; if (a > 0) { x := 3; } while (*) { x := 4; }
              L: if (a > 0) { return; x := 5; }
              while (*) { break; x := 6; }
              return;
              x := 7;
            }";
        let outline = check_lower(source);
        assert!(
            !["x := 2", "x := 3", "x := 4", "x := 5", "x := 6", "x := 7"].iter().any(|cmd| outline.contains(cmd)),
            "{outline}"
        );
        assert_outline(
            &outline,
            "
            b0 entry*: x := 1; -> b1
            b1 : -> b2, b3
            b2 if#2/then*: assume a > 0; return
            b3 if#2/else*: assume 0 >= a; -> b4
            b4 : -> b5
            b5 while#2: -> b6, b7
            b6 while#2/body*: -> b8
            b7 while#2/exit*: -> b8
            b8 : return
            ",
        );
    }

    #[test]
    fn map_updates_store_whole_variables() {
        let source = "
            var g: [int][int]bool;
            procedure P(i: int) returns (m: [int, int]int, x: int) modifies g; {
              g[i][i + 1] := true;
              m[i, 2], x := x, m[1, i];
            }";
        let outline = check_lower(source);
        assert_outline(&outline, "b0 entry*: g := g[i := g[i][i + 1 := true]]; m, x := m[i, 2 := x], m[1, i]; return");
        let (_, cfg) = lowered(source);
        let CmdKind::Assign { values, .. } = &cfg.blocks[0].cmds[0].kind else { panic!("an assignment") };
        let hir::ExprKind::Store { value, .. } = &values[0].kind else { panic!("a store") };
        assert!(matches!(value.ty, hir::Type::Map(_)), "the inner store updates the row `g[i]`");
    }

    #[test]
    fn where_clauses_are_assumed_at_the_entry_and_after_havoc() {
        let source = "
            var g: int where g > 0;
            procedure P(a: int where a > 1) returns (r: int where r > a);
              modifies g;
            implementation P(b: int) returns (s: int) {
              var l: int where l > 2;
              havoc l, g;
              havoc s;
            }";
        let outline = check_lower(source);
        assert_outline(
            &outline,
            "b0 entry*: assume{where} g > 0; assume{where} b > 1; assume{where} s > b; assume{where} l > 2; \
             havoc l, g; assume{where} l > 2; assume{where} g > 0; havoc s; assume{where} s > b; return",
        );
    }

    #[test]
    fn multi_target_goto_labels_start_branches() {
        let source = "
            procedure P(a: int) returns (x: int) {
              goto A, B;
              A: assume a > 0; x := 1; goto C;
              B: assume a <= 0; x := 2; goto C;
              C: return;
            }";
        let outline = check_lower(source);
        assert_outline(
            &outline,
            "
            b0 entry*: -> b1, b2
            b1 goto:A*: assume a > 0; x := 1; -> b3
            b2 goto:B*: assume a <= 0; x := 2; -> b3
            b3 : return
            ",
        );
    }

    #[test]
    fn goto_loops_are_found_and_their_leading_asserts_are_invariants() {
        let source = "
            procedure P(n: int) returns (i: int) {
              i := 0;
              Head: assert i >= 0; assume true; assert i <= n || n < 0; i := i; assert false;
              goto Body, Done;
              Body: assume i < n; i := i + 1; goto Head;
              Done: assume i >= n;
            }";
        let (program, cfg) = lowered(source);
        assert_outline(
            &super::super::tests::outline(&program, &cfg),
            "
            b0 entry*: i := 0; -> b1
            b1 : assert{inv 0} i >= 0; assume true; assert{inv 1} i <= n || n < 0; i := i; assert false; -> b2, b3
            b2 goto:Body*: assume i < n; i := i + 1; -> b1
            b3 goto:Done*: assume i >= n; return
            ",
        );
        assert_eq!(cfg.loops.len(), 1);
        assert_eq!(
            cfg.loops[0].span, program.implementations[0].labels[0].span,
            "a goto loop is reported at its label"
        );
    }

    #[test]
    fn nested_loops_come_outer_first_and_targets_include_callee_modifies() {
        let source = "
            var g: int;
            procedure Q() returns (r: int); modifies g;
            procedure P(n: int) modifies g; {
              var i, j, k: int;
              while (i < n) { j := 0; while (j < i) { call k := Q(); j := j + 1; } i := i + 1; }
            }";
        let (program, cfg) = lowered(source);
        let targets: Vec<Vec<hir::Var>> = cfg.loops.iter().map(|found| found.targets.clone()).collect();
        let local = |index| hir::Var::Local(hir::LocalId(index));
        let g = hir::Var::Global(hir::GlobalId(0));
        assert_eq!(targets, [vec![local(1), local(2), local(3), g], vec![local(2), local(3), g]]);
        assert!(cfg.loops[0].body.len() > cfg.loops[1].body.len());
        assert!(cfg.loops[1].body.iter().all(|block| cfg.loops[0].body.contains(block)));
        assert_eq!(cfg.loops[0].span, program.implementations[0].body[0].span);
    }

    #[test]
    fn a_loop_whose_body_always_leaves_is_no_loop() {
        let (_, cfg) = lowered("procedure P(a: int) { while (a > 0) invariant true; { return; } }");
        assert!(cfg.loops.is_empty());
    }

    #[test]
    fn a_jump_into_a_loop_is_irreducible() {
        let source = "
            procedure P() {
              goto A, B;
              A: goto B;
              B: goto A;
            }";
        let program = program(source);
        let errors = lower(&program, hir::ImplId(0)).expect_err("two entries into the A-B cycle");
        let [CfgError::Irreducible { span }] = errors.as_slice() else { panic!("one error: {errors:?}") };
        assert_eq!(&source[span.range()], "goto A;");
    }

    #[test]
    fn every_implementation_is_lowered_in_order() {
        let good = program(
            "procedure P(); implementation P() { } implementation P() { L: goto M, L; M: goto L; }
             procedure Q() { A: goto B; B: goto A; }",
        );
        let (cfgs, errors) = lower_all(&good);
        assert_eq!(
            cfgs.iter().map(|cfg| cfg.implementation).collect::<Vec<_>>(),
            [hir::ImplId(0), hir::ImplId(1), hir::ImplId(2)]
        );
        assert!(errors.is_empty(), "{errors:?}");
        let bad = program("procedure P() { goto A, B; A: goto B; B: goto A; } procedure Q() { }");
        let (cfgs, errors) = lower_all(&bad);
        assert_eq!((cfgs.len(), errors.len()), (1, 1));
    }

    #[test]
    fn every_block_is_reachable_and_the_entry_has_no_predecessor() {
        let (_, cfg) = lowered("procedure P() { L: goto L, M; M: return; }");
        let preds = cfg.predecessors();
        assert!(preds[cfg.entry.index()].is_empty());
        assert!(cfg.block_ids().filter(|&id| id != cfg.entry).all(|id| !preds[id.index()].is_empty()));
        assert_eq!(cfg.loops.len(), 1);
    }
}
