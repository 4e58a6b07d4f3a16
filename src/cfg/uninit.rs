//! Variables read before they are written: which out-parameters and locals of a [`Cfg`]
//! a run may read while they still hold their arbitrary initial value.
//!
//! Input: any [`Cfg`] (loops allowed). Output: the out-parameters and declared locals
//! (lowering temporaries included; never in-parameters, which always have a value) that
//! some path from the entry reads before any write to them, sorted by id.
//!
//! It is a forward may-analysis: a variable is *unset* at a point when some path from
//! the entry reaches the point without writing it. Assignment targets, havocked
//! variables and call outputs are written; every expression of every command (`assume`,
//! `assert` and `where` clauses, call arguments, right sides) reads. Joins take the
//! union, so the fixpoint over a graph with loops is reached after finitely many rounds.
//! The interpreter and inlining both take one arbitrary value (a trace entry) for each
//! variable this analysis lists, when a callee's frame starts, so the two agree.

use super::graph::{BlockId, Cfg, Cmd, CmdKind};
use super::loops::depth_first;
use crate::sema::hir::{self, LocalId, LocalKind};
use std::collections::BTreeSet;

/// The outs and locals of `cfg` that some path may read before writing, sorted by id.
pub fn read_before_written(cfg: &Cfg) -> Vec<LocalId> {
    let tracked: Vec<bool> = cfg.locals.iter().map(|local| local.kind != LocalKind::In).collect();
    let mut analysis = Analysis { unset_at_start: vec![None; cfg.blocks.len()], read: vec![false; tracked.len()] };
    analysis.unset_at_start[cfg.entry.index()] = Some(tracked);
    // Blocks are taken in reverse postorder, so an acyclic graph is done in one pass
    // (every predecessor before its successors) and a loop in a few rounds; any other
    // order may revisit a block once per predecessor, which on a graph of thousands of
    // inlined blocks is far too slow.
    let mut position = vec![usize::MAX; cfg.blocks.len()];
    for (index, block) in depth_first(cfg).reverse_postorder.iter().enumerate() {
        position[block.index()] = index;
    }
    let mut pending = BTreeSet::from([(position[cfg.entry.index()], cfg.entry)]);
    while let Some((_, block)) = pending.pop_first() {
        let unset = analysis.run_block(cfg, block);
        for &succ in cfg.successors(block) {
            if analysis.merge_into(succ, &unset) {
                pending.insert((position[succ.index()], succ));
            }
        }
    }
    (0..analysis.read.len()).filter(|&index| analysis.read[index]).map(LocalId::from_index).collect()
}

struct Analysis {
    /// Per block, the variables unset at its start; `None` until a path reaches it.
    unset_at_start: Vec<Option<Vec<bool>>>,
    /// The variables found read while unset. The unset sets only grow, so a read found
    /// in an early round stays a read of the fixpoint.
    read: Vec<bool>,
}

impl Analysis {
    /// Runs `block`'s commands from its start set; returns the set at its end.
    fn run_block(&mut self, cfg: &Cfg, block: BlockId) -> Vec<bool> {
        let mut unset = self.unset_at_start[block.index()].clone().expect("only reached blocks are pending");
        for cmd in &cfg.block(block).cmds {
            self.command(cmd, &mut unset);
        }
        unset
    }

    fn command(&mut self, cmd: &Cmd, unset: &mut [bool]) {
        match &cmd.kind {
            CmdKind::Assign { targets, values } => {
                // Simultaneous: every right side reads the state before any write.
                values.iter().for_each(|value| self.reads(value, unset));
                written(targets, unset);
            }
            CmdKind::Havoc { vars, .. } => written(vars, unset),
            CmdKind::Assume { expr, .. } | CmdKind::Assert { expr, .. } => self.reads(expr, unset),
            CmdKind::Call { args, outs, .. } => {
                args.iter().for_each(|arg| self.reads(arg, unset));
                written(outs, unset);
            }
        }
    }

    fn reads(&mut self, expr: &hir::Expr, unset: &[bool]) {
        for_each_var(expr, &mut |var| {
            if let hir::Var::Local(id) = var {
                if unset.get(id.index()).copied().unwrap_or(false) {
                    self.read[id.index()] = true;
                }
            }
        });
    }

    /// Adds `unset` to the start set of `block`; whether the set grew (or was new).
    fn merge_into(&mut self, block: BlockId, unset: &[bool]) -> bool {
        match &mut self.unset_at_start[block.index()] {
            slot @ None => {
                *slot = Some(unset.to_vec());
                true
            }
            Some(start) => {
                let mut grew = false;
                for (mine, &incoming) in start.iter_mut().zip(unset) {
                    if incoming && !*mine {
                        *mine = true;
                        grew = true;
                    }
                }
                grew
            }
        }
    }
}

fn written(vars: &[hir::Var], unset: &mut [bool]) {
    for var in vars {
        if let hir::Var::Local(id) = var {
            if let Some(slot) = unset.get_mut(id.index()) {
                *slot = false;
            }
        }
    }
}

/// Calls `f` on every variable `expr` reads (bound variables included; triggers, which
/// are never evaluated, excluded). Expressions are bounded in depth by the parser, so
/// the recursion is safe.
pub(crate) fn for_each_var(expr: &hir::Expr, f: &mut dyn FnMut(hir::Var)) {
    match &expr.kind {
        hir::ExprKind::Bool(_) | hir::ExprKind::Int(_) | hir::ExprKind::Real(_) | hir::ExprKind::BitVector { .. } => {}
        hir::ExprKind::Var(var) => f(*var),
        hir::ExprKind::Apply { args, .. } => args.iter().for_each(|arg| for_each_var(arg, f)),
        hir::ExprKind::Old(inner)
        | hir::ExprKind::Unary { operand: inner, .. }
        | hir::ExprKind::Extract { operand: inner, .. } => for_each_var(inner, f),
        hir::ExprKind::Binary { lhs, rhs, .. } => {
            for_each_var(lhs, f);
            for_each_var(rhs, f);
        }
        hir::ExprKind::Select { map, indices } => {
            for_each_var(map, f);
            indices.iter().for_each(|index| for_each_var(index, f));
        }
        hir::ExprKind::Store { map, indices, value } => {
            for_each_var(map, f);
            indices.iter().for_each(|index| for_each_var(index, f));
            for_each_var(value, f);
        }
        hir::ExprKind::IfThenElse { cond, then_expr, else_expr } => {
            for_each_var(cond, f);
            for_each_var(then_expr, f);
            for_each_var(else_expr, f);
        }
        hir::ExprKind::Quant { body, .. } => for_each_var(body, f),
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::lowered;
    use super::*;

    /// The names of the variables [`read_before_written`] lists for the first
    /// implementation of `source`.
    fn check_uninit(source: &str) -> Vec<String> {
        let (_, cfg) = lowered(source);
        read_before_written(&cfg).into_iter().map(|id| cfg.locals[id.index()].name.clone()).collect()
    }

    #[test]
    fn written_before_read_is_not_listed() {
        assert!(check_uninit("procedure P(a: int) returns (r: int) { var x: int; x := a; r := x + 1; }").is_empty());
    }

    #[test]
    fn in_parameters_are_never_listed() {
        assert!(check_uninit("procedure P(a: int) returns (r: int) { r := a; assert a > 0; }").is_empty());
    }

    #[test]
    fn a_read_on_one_branch_before_the_write_is_listed() {
        let source = "procedure P(a: int) returns (r: int) { var x, y: int; if (a > 0) { x := 1; } r := x; y := 2; }";
        assert_eq!(check_uninit(source), ["x"]);
    }

    #[test]
    fn assumes_asserts_and_call_arguments_read() {
        let source = "
            procedure Q(v: int) returns (w: int);
            procedure P() returns (r: int) {
              var a, b, c, d: int;
              assume a > 0; assert b > 0; call d := Q(c); r := d;
            }";
        assert_eq!(check_uninit(source), ["a", "b", "c"]);
    }

    #[test]
    fn havoc_and_call_outputs_write() {
        let source = "
            procedure Q() returns (w: int);
            procedure P() returns (r: int) { var a, b: int; havoc a; call b := Q(); r := a + b; }";
        assert!(check_uninit(source).is_empty());
    }

    #[test]
    fn a_write_later_in_a_loop_does_not_hide_the_first_read() {
        let source = "
            procedure P(n: int) returns (r: int) {
              var i, s: int;
              i := 0;
              while (i < n) { r := s; s := i; i := i + 1; }
            }";
        assert_eq!(check_uninit(source), ["s"]);
    }

    #[test]
    fn where_clauses_at_the_entry_read_their_variable() {
        let source = "procedure P() returns (r: int where r > 0) { var l: int where l < 0; r := 1; l := 2; }";
        assert_eq!(check_uninit(source), ["r", "l"]);
    }

    #[test]
    fn a_simultaneous_assignment_reads_before_it_writes() {
        let source = "procedure P() returns (r: int) { var x: int; x, r := 1, x; }";
        assert_eq!(check_uninit(source), ["x"]);
    }

    #[test]
    fn the_result_is_sorted_by_id() {
        let source = "procedure P() returns (r: int) { var b, a: int; r := a; r := b; }";
        assert_eq!(check_uninit(source), ["b", "a"], "locals keep their declaration order");
    }
}
