//! Inlining: calls to procedures with a body replaced by a copy of the callee's graph,
//! up to a depth (`--inline-depth K`, DESIGN.md §1), so that tests see through calls
//! instead of trusting their contracts.
//!
//! Input: a graph as [`super::lower`] returns it (loops not cut) and the graphs of every
//! implementation. Output: the same kind of graph with each inlinable call replaced:
//!
//! ```text
//! B: pre; call o := P(a); post; T     ─▶   B: pre; p_in := a; old_g := g (g ∈ P.modifies);
//!                                              havoc u (P's locals it may read unset);
//!                                              assert P.requires;  goto P'.entry
//!                                         P' (P's blocks, locals renamed, old(g) := old_g),
//!                                              each `return` → assert P.ensures; o := p_out;
//!                                              goto K
//!                                         K: post; T
//! ```
//!
//! This is Boogie's semantics of a call to an implementation, executed: the callee's
//! preconditions are checked (as assertions, which goal queries assume), its outs and
//! locals start arbitrary (only those some path reads before writing are havocked, so a
//! test's trace names no value it never uses — the interpreter takes exactly the same
//! havocs when it enters a callee), its postconditions hold at its returns. Calls in
//! the copy are inlined to depth `K - 1`, then modelled by their contracts; a call whose
//! callee has several implementations, or that would grow the graph beyond
//! [`MAX_BLOCKS`], stays a call.
//!
//! The copied blocks keep the callee's structural paths (a trace names a choice inside
//! the callee by them) but start no branch of the caller, so the caller's goals are
//! unchanged: the callee's branches are goals of the callee's own suite.

use super::graph::{AssertReason, AssumeReason, Block, BlockId, Cfg, Cmd, CmdKind, Origin, Terminator};
use super::loops::find_loops;
use super::uninit::read_before_written;
use crate::sema::hir::{self, Expr, ExprKind, LocalId, Var};
use std::collections::BTreeMap;

/// The largest graph inlining builds; beyond it the remaining calls stay calls.
pub const MAX_BLOCKS: usize = 20_000;

/// The deepest `--inline-depth` accepted: a recursive procedure inlined deeper only
/// makes graphs no solver session can take.
pub const MAX_DEPTH: u32 = 64;

/// `cfg` with its calls inlined up to `depth` levels. `cfgs` are the graphs of every
/// implementation (as [`super::lower::lower_all`] returns them).
pub fn inline_calls(program: &hir::Program, cfgs: &[Cfg], cfg: &Cfg, depth: u32) -> Cfg {
    inline_within(program, cfgs, cfg, depth, MAX_BLOCKS)
}

/// [`inline_calls`] into a graph of at most `limit` blocks. A callee's copy is built
/// within the room its caller has left, so the work is bounded by the size of the result
/// at each level: a procedure calling itself twice does not take exponential time.
fn inline_within(program: &hir::Program, cfgs: &[Cfg], cfg: &Cfg, depth: u32, limit: usize) -> Cfg {
    if depth == 0 || !has_inlinable_call(program, cfgs, cfg) {
        return cfg.clone();
    }
    let mut inliner = Inliner { program, cfgs, cfg: cfg.clone(), limit };
    for block in cfg.block_ids() {
        // The callee's copy is inlined to `depth - 1` already; the rest of the block,
        // moved to a continuation, may hold more calls.
        let mut next = Some(block);
        while let Some(block) = next {
            next = inliner.inline_block(block, depth);
        }
    }
    let mut inlined = inliner.cfg;
    // A copy of a reducible graph spliced between two blocks keeps the graph reducible.
    inlined.loops = find_loops(program, &inlined).unwrap_or_default();
    inlined
}

/// The implementation a call to `callee` would be inlined from, if any.
fn inlinable<'a>(program: &hir::Program, cfgs: &'a [Cfg], callee: hir::ProcId) -> Option<&'a Cfg> {
    match program.procedures[callee.index()].implementations.as_slice() {
        [only] => cfgs.iter().find(|cfg| cfg.implementation == *only),
        _ => None,
    }
}

/// Whether `cfg` calls a procedure a call could be inlined from (one implementation
/// among `cfgs`).
pub fn has_inlinable_call(program: &hir::Program, cfgs: &[Cfg], cfg: &Cfg) -> bool {
    cfg.blocks.iter().flat_map(|block| &block.cmds).any(|cmd| match &cmd.kind {
        CmdKind::Call { callee, .. } => inlinable(program, cfgs, *callee).is_some(),
        _ => false,
    })
}

struct Inliner<'a> {
    program: &'a hir::Program,
    cfgs: &'a [Cfg],
    cfg: Cfg,
    /// The most blocks `cfg` may grow to.
    limit: usize,
}

impl Inliner<'_> {
    /// Inlines the first inlinable call of `block`; the rest of the block moves to a
    /// continuation block, which is returned.
    fn inline_block(&mut self, block: BlockId, depth: u32) -> Option<BlockId> {
        let found = self.cfg.block(block).cmds.iter().enumerate().find_map(|(position, cmd)| match &cmd.kind {
            CmdKind::Call { callee, .. } => {
                inlinable(self.program, self.cfgs, *callee).map(|callee| (position, callee))
            }
            _ => None,
        });
        let (position, callee_cfg) = found?;
        // The copy goes beside the caller's blocks and the continuation.
        let room = self.limit.saturating_sub(self.cfg.blocks.len() + 1);
        if callee_cfg.blocks.len() > room {
            return None;
        }
        let callee = inline_within(self.program, self.cfgs, callee_cfg, depth - 1, room);
        let caller = &mut self.cfg.blocks[block.index()];
        let rest = caller.cmds.split_off(position + 1);
        let call = caller.cmds.pop().expect("the call is at `position`");
        let continuation = Block {
            cmds: rest,
            terminator: std::mem::replace(&mut caller.terminator, Terminator::Return),
            origin: Origin { path: caller.origin.path.clone(), starts_branch: false },
            span: caller.span,
        };
        let continuation_id = BlockId::from_index(self.cfg.blocks.len() + callee.blocks.len());
        let copy = self.splice(block, &call, &callee, continuation_id);
        self.cfg.blocks.extend(copy);
        self.cfg.blocks.push(continuation);
        Some(continuation_id)
    }

    /// Adds the call's entry commands to `block`, the callee's locals to the caller, and
    /// returns the callee's blocks renumbered after the caller's, each `return` turned
    /// into the call's exit and a jump to `continuation`.
    fn splice(&mut self, block: BlockId, call: &Cmd, callee: &Cfg, continuation: BlockId) -> Vec<Block> {
        let CmdKind::Call { callee: proc_id, args, outs, free } = &call.kind else { unreachable!("a call") };
        let procedure = &self.program.procedures[proc_id.index()];
        let frame = Frame::new(self.program, &mut self.cfg.locals, callee, procedure);
        let offset = u32::try_from(self.cfg.blocks.len()).expect("fewer than 2^32 blocks");
        let span = call.span;
        let body = &self.program.implementations[callee.implementation.index()];
        let mut entry =
            vec![Cmd { kind: CmdKind::Assign { targets: frame.vars(&body.ins), values: args.clone() }, span }];
        if !frame.old.is_empty() {
            let (targets, values) = frame
                .old
                .iter()
                .map(|(&global, &old)| (Var::Local(old), global_expr(self.program, global, span)))
                .unzip();
            entry.push(Cmd { kind: CmdKind::Assign { targets, values }, span });
        }
        let unset = read_before_written(callee);
        if !unset.is_empty() {
            entry.push(Cmd { kind: CmdKind::Havoc { vars: frame.vars(&unset), loop_cut: false }, span });
        }
        // As in Boogie, a call neither checks nor assumes a free precondition (the
        // callee's implementation assumes it), and a `free call` none of them.
        let checked = procedure.requires.iter().enumerate().filter(|(_, clause)| !free && !clause.free);
        entry.extend(checked.map(|(index, clause)| {
            let reason = AssertReason::Requires { callee: *proc_id, clause: index as u32 };
            frame.check(clause, reason, span)
        }));
        let caller = &mut self.cfg.blocks[block.index()];
        caller.cmds.extend(entry);
        caller.terminator = Terminator::Goto(vec![BlockId(callee.entry.0 + offset)]);
        let exit = |frame: &Frame| -> Vec<Cmd> {
            let mut cmds: Vec<Cmd> = procedure
                .ensures
                .iter()
                .enumerate()
                .map(|(index, clause)| {
                    frame.check(clause, AssertReason::Ensures { callee: *proc_id, clause: index as u32 }, span)
                })
                .collect();
            if !outs.is_empty() {
                let values = frame.vars(&body.outs).into_iter().map(|var| frame.var_expr(var, span)).collect();
                cmds.push(Cmd { kind: CmdKind::Assign { targets: outs.clone(), values }, span });
            }
            cmds
        };
        callee
            .blocks
            .iter()
            .map(|original| {
                let mut cmds: Vec<Cmd> = original.cmds.iter().map(|cmd| frame.cmd(cmd)).collect();
                let terminator = match &original.terminator {
                    Terminator::Goto(targets) => {
                        Terminator::Goto(targets.iter().map(|target| BlockId(target.0 + offset)).collect())
                    }
                    Terminator::Return => {
                        cmds.extend(exit(&frame));
                        Terminator::Goto(vec![continuation])
                    }
                };
                let origin = Origin { path: original.origin.path.clone(), starts_branch: false };
                Block { cmds, terminator, origin, span: original.span }
            })
            .collect()
    }
}

fn global_expr(program: &hir::Program, global: hir::GlobalId, span: crate::source::Span) -> Expr {
    let ty = program.globals[global.index()].ty.clone();
    Expr { kind: ExprKind::Var(Var::Global(global)), ty, span }
}

/// One inlined call's view of the callee: where its locals live in the caller, and the
/// caller locals holding the pre-call values of the globals it modifies (its `old`).
struct Frame {
    /// The callee's local `i` is the caller's `first + i`.
    first: u32,
    old: BTreeMap<hir::GlobalId, LocalId>,
    types: Vec<hir::Type>,
}

impl Frame {
    fn new(program: &hir::Program, locals: &mut Vec<hir::Local>, callee: &Cfg, procedure: &hir::Procedure) -> Frame {
        let first = u32::try_from(locals.len()).expect("fewer than 2^32 locals");
        let types = callee.locals.iter().map(|local| local.ty.clone()).collect();
        let mut frame = Frame { first, old: BTreeMap::new(), types };
        // The copies keep their names: a trace names the havocs of a callee's locals.
        locals.extend(callee.locals.iter().map(|local| hir::Local {
            kind: hir::LocalKind::Local,
            where_clause: local.where_clause.as_ref().map(|clause| frame.expr(clause, false)),
            ..local.clone()
        }));
        for &global in &procedure.modifies {
            let declared = &program.globals[global.index()];
            frame.old.insert(global, LocalId::from_index(locals.len()));
            locals.push(hir::Local {
                name: format!("old${}", declared.name),
                ty: declared.ty.clone(),
                kind: hir::LocalKind::Local,
                where_clause: None,
                attrs: Vec::new(),
                span: callee.span,
                instance_of: None,
            });
        }
        frame
    }

    fn local(&self, id: LocalId) -> LocalId {
        LocalId(self.first + id.0)
    }

    fn vars(&self, ids: &[LocalId]) -> Vec<Var> {
        ids.iter().map(|&id| Var::Local(self.local(id))).collect()
    }

    fn var_expr(&self, var: Var, span: crate::source::Span) -> Expr {
        let Var::Local(id) = var else { unreachable!("frame variables are locals") };
        let ty = self.types[(id.0 - self.first) as usize].clone();
        Expr { kind: ExprKind::Var(var), ty, span }
    }

    fn var(&self, var: Var) -> Var {
        match var {
            Var::Local(id) => Var::Local(self.local(id)),
            other => other,
        }
    }

    /// A contract clause of the callee, checked at the call (`free` ones assumed).
    fn check(&self, clause: &hir::Clause, reason: AssertReason, span: crate::source::Span) -> Cmd {
        let expr = self.expr(&clause.expr, false);
        let kind = if clause.free {
            CmdKind::Assume { expr, reason: AssumeReason::User }
        } else {
            CmdKind::Assert { expr, reason }
        };
        Cmd { kind, span }
    }

    fn cmd(&self, cmd: &Cmd) -> Cmd {
        let exprs = |exprs: &[Expr]| exprs.iter().map(|expr| self.expr(expr, false)).collect();
        let vars = |vars: &[Var]| vars.iter().map(|&var| self.var(var)).collect();
        let kind = match &cmd.kind {
            CmdKind::Assign { targets, values } => CmdKind::Assign { targets: vars(targets), values: exprs(values) },
            CmdKind::Havoc { vars: havocked, loop_cut } => CmdKind::Havoc { vars: vars(havocked), loop_cut: *loop_cut },
            CmdKind::Assume { expr, reason } => CmdKind::Assume { expr: self.expr(expr, false), reason: *reason },
            CmdKind::Assert { expr, reason } => CmdKind::Assert { expr: self.expr(expr, false), reason: *reason },
            CmdKind::Call { callee, args, outs, free } => {
                CmdKind::Call { callee: *callee, args: exprs(args), outs: vars(outs), free: *free }
            }
        };
        Cmd { kind, span: cmd.span }
    }

    /// `expr` in the caller: locals renamed; under `old`, a global the callee modifies
    /// reads its pre-call copy, any other global its current value (the callee cannot
    /// have changed it), and `old` disappears.
    fn expr(&self, expr: &Expr, in_old: bool) -> Expr {
        let boxed = |inner: &Expr| Box::new(self.expr(inner, in_old));
        let all = |exprs: &[Expr]| exprs.iter().map(|inner| self.expr(inner, in_old)).collect();
        let kind = match &expr.kind {
            ExprKind::Var(Var::Global(global)) if in_old => match self.old.get(global) {
                Some(&copy) => ExprKind::Var(Var::Local(copy)),
                None => expr.kind.clone(),
            },
            ExprKind::Var(var) => ExprKind::Var(self.var(*var)),
            ExprKind::Old(inner) => return self.expr(inner, true),
            ExprKind::Bool(_) | ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::BitVector { .. } => expr.kind.clone(),
            ExprKind::Apply { func, type_args, args } => {
                ExprKind::Apply { func: *func, type_args: type_args.clone(), args: all(args) }
            }
            ExprKind::Extract { operand, high, low } => {
                ExprKind::Extract { operand: boxed(operand), high: *high, low: *low }
            }
            ExprKind::Unary { op, operand } => ExprKind::Unary { op: *op, operand: boxed(operand) },
            ExprKind::Binary { op, lhs, rhs } => ExprKind::Binary { op: *op, lhs: boxed(lhs), rhs: boxed(rhs) },
            ExprKind::Select { map, indices } => ExprKind::Select { map: boxed(map), indices: all(indices) },
            ExprKind::Store { map, indices, value } => {
                ExprKind::Store { map: boxed(map), indices: all(indices), value: boxed(value) }
            }
            ExprKind::IfThenElse { cond, then_expr, else_expr } => {
                ExprKind::IfThenElse { cond: boxed(cond), then_expr: boxed(then_expr), else_expr: boxed(else_expr) }
            }
            ExprKind::Quant { quantifier, type_params, vars, triggers, attrs, body } => ExprKind::Quant {
                quantifier: *quantifier,
                type_params: type_params.clone(),
                vars: vars.clone(),
                triggers: triggers.iter().map(|trigger| all(trigger)).collect(),
                attrs: attrs.clone(),
                body: boxed(body),
            },
        };
        Expr { kind, ty: expr.ty.clone(), span: expr.span }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{assert_outline, check_inline};

    const SWAP: &str = "
        var g: int;
        procedure main(a: int) returns (r: int) modifies g; {
            call r := inc(a);
            r := r + 1;
        }
        procedure inc(x: int) returns (y: int)
            requires x >= 0; ensures y == x + 1 && g == old(g) + 1; modifies g;
        {
            if (x > 10) { y := x + 1; } else { y := 1 + x; }
            g := g + 1;
        }";

    #[test]
    fn a_call_becomes_the_callees_blocks_between_entry_and_exit() {
        assert_outline(
            &check_inline(SWAP, 1),
            "
            b0 entry*: x := a; old$g := g; assert{requires 0} x >= 0; -> b1
            b1 entry: -> b2, b3
            b2 if#1/then: assume x > 10; y := x + 1; -> b4
            b3 if#1/else: assume 10 >= x; y := 1 + x; -> b4
            b4 : g := g + 1; assert{ensures 0} y == x + 1 && g == old$g + 1; r := y; -> b5
            b5 entry: r := r + 1; return
            ",
        );
    }

    #[test]
    fn unset_callee_locals_are_havocked_and_loops_found_and_recursion_bounded() {
        let source = "
            procedure main(n: int) returns (r: int) { call r := count(n); }
            procedure count(n: int) returns (c: int) {
                var i: int;
                if (n > 0) { call c := count(n - 1); c := c + 1; return; }
                while (i < n) invariant true; { i := i + 1; }
                c := i;
            }";
        let program = super::super::tests::program(source);
        let (cfgs, _) = super::super::lower::lower_all(&program);
        let inlined = super::inline_calls(&program, &cfgs, &cfgs[0], 2);
        let calls = inlined
            .blocks
            .iter()
            .flat_map(|block| &block.cmds)
            .filter(|cmd| matches!(cmd.kind, super::CmdKind::Call { .. }));
        // Depth 2: main → count → count; the third level stays a call.
        assert_eq!(calls.count(), 1);
        assert_eq!(inlined.loops.len(), 2, "each copy of `count` brings its loop");
        let havocs = inlined
            .blocks
            .iter()
            .flat_map(|block| &block.cmds)
            .filter(|cmd| matches!(&cmd.kind, super::CmdKind::Havoc { vars, .. } if vars.len() == 1));
        assert_eq!(havocs.count(), 2, "`i` is read before written, in each copy");
    }

    #[test]
    fn depth_zero_keeps_the_call() {
        assert_outline(
            &check_inline(SWAP, 0),
            "
            b0 entry*: call r := inc(a); r := r + 1; return
            ",
        );
    }
}
