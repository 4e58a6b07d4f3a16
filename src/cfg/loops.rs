//! Loop structure of a control-flow graph: depth-first order, dominators and natural
//! loops, for structured and `goto`-based code alike.
//!
//! Input: a [`Cfg`] whose blocks are all reachable from its entry. Output: its natural
//! loops ([`find_loops`]), or the edges that make it irreducible.
//!
//! A graph is reducible exactly when every *retreating* edge of a depth-first search (an
//! edge to a block still on the search stack) is a *back edge*: its target dominates its
//! source. Each back edge `latch → header` closes a natural loop: the header plus every
//! block that reaches the latch without passing through the header. Back edges sharing
//! a header make one loop, as in Boogie.
//!
//! Dominators are computed by the iterative algorithm of Cooper, Harvey and Kennedy ("A
//! Simple, Fast Dominance Algorithm", 2001) over reverse postorder. Every traversal here
//! is iterative, so a long chain of blocks cannot overflow the stack.

use super::graph::{BlockId, Cfg, CmdKind, Loop};
use crate::sema::hir;
use std::collections::BTreeSet;

/// A depth-first search from the entry: the reverse postorder and the retreating edges.
pub struct DepthFirst {
    /// Every reachable block, each before its successors except along retreating edges.
    pub reverse_postorder: Vec<BlockId>,
    /// Edges `(from, to)` whose target was on the search stack, in discovery order.
    pub retreating: Vec<(BlockId, BlockId)>,
}

/// Searches `cfg` depth-first from its entry, visiting successors in their listed order.
pub fn depth_first(cfg: &Cfg) -> DepthFirst {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        New,
        OnStack,
        Done,
    }
    let mut state = vec![State::New; cfg.blocks.len()];
    let mut postorder = Vec::with_capacity(cfg.blocks.len());
    let mut retreating = Vec::new();
    // Each frame is a block and the index of its next successor to look at.
    let mut stack = vec![(cfg.entry, 0usize)];
    state[cfg.entry.index()] = State::OnStack;
    while let Some(frame) = stack.last_mut() {
        let (block, next) = *frame;
        match cfg.successors(block).get(next) {
            Some(&succ) => {
                frame.1 += 1;
                match state[succ.index()] {
                    State::New => {
                        state[succ.index()] = State::OnStack;
                        stack.push((succ, 0));
                    }
                    State::OnStack => retreating.push((block, succ)),
                    State::Done => {}
                }
            }
            None => {
                state[block.index()] = State::Done;
                postorder.push(block);
                stack.pop();
            }
        }
    }
    postorder.reverse();
    DepthFirst { reverse_postorder: postorder, retreating }
}

/// The dominator tree of the blocks reachable from the entry.
pub struct Dominators {
    /// Each block's interval `(enter, exit)` in a depth-first walk of the dominator tree
    /// (`None` for an unreachable block): `a` dominates `b` exactly when `a`'s interval
    /// contains `b`'s, so [`Dominators::dominates`] is constant time even on a chain of
    /// thousands of blocks.
    interval: Vec<Option<(u32, u32)>>,
}

impl Dominators {
    /// Cooper–Harvey–Kennedy: iterate `idom(b) = ⋂ idom(preds)` in reverse postorder
    /// until nothing changes, intersecting by walking up the partial tree.
    pub fn compute(cfg: &Cfg, reverse_postorder: &[BlockId]) -> Dominators {
        let mut order = vec![usize::MAX; cfg.blocks.len()];
        for (position, block) in reverse_postorder.iter().enumerate() {
            order[block.index()] = position;
        }
        let preds = cfg.predecessors();
        let mut idom: Vec<Option<BlockId>> = vec![None; cfg.blocks.len()];
        idom[cfg.entry.index()] = Some(cfg.entry);
        let mut changed = true;
        while changed {
            changed = false;
            for &block in reverse_postorder.iter().filter(|&&block| block != cfg.entry) {
                let mut processed = preds[block.index()].iter().copied().filter(|pred| idom[pred.index()].is_some());
                let Some(first) = processed.next() else { continue };
                let new_idom = processed.fold(first, |a, b| intersect(&idom, &order, a, b));
                if idom[block.index()] != Some(new_idom) {
                    idom[block.index()] = Some(new_idom);
                    changed = true;
                }
            }
        }
        Dominators { interval: tree_intervals(cfg.entry, &idom) }
    }

    /// Whether every path from the entry to `block` passes through `dominator`.
    pub fn dominates(&self, dominator: BlockId, block: BlockId) -> bool {
        match (self.interval[dominator.index()], self.interval[block.index()]) {
            (Some((enter, exit)), Some((inner_enter, inner_exit))) => enter <= inner_enter && inner_exit <= exit,
            _ => false,
        }
    }

    /// The blocks `dominator` strictly dominates, as the range of their `enter` numbers
    /// (see [`Dominators::enter`]); empty for an unreachable block.
    pub fn strictly_dominated(&self, dominator: BlockId) -> std::ops::Range<u32> {
        self.interval[dominator.index()].map_or(0..0, |(enter, exit)| enter + 1..exit)
    }

    /// The block's number in a preorder walk of the dominator tree, `None` when it is
    /// unreachable.
    pub fn enter(&self, block: BlockId) -> Option<u32> {
        self.interval[block.index()].map(|(enter, _)| enter)
    }
}

/// Numbers the dominator tree given by `idom` in preorder, iteratively: each block gets
/// `(enter, exit)`, its own number and one past the last number in its subtree.
fn tree_intervals(entry: BlockId, idom: &[Option<BlockId>]) -> Vec<Option<(u32, u32)>> {
    let mut children: Vec<Vec<BlockId>> = vec![Vec::new(); idom.len()];
    for (index, parent) in idom.iter().enumerate() {
        match parent {
            Some(parent) if parent.index() != index => children[parent.index()].push(BlockId::from_index(index)),
            _ => {}
        }
    }
    let mut interval = vec![None; idom.len()];
    let mut next = 0u32;
    // Each frame is a block and how many of its children are done.
    let mut stack = vec![(entry, 0usize)];
    interval[entry.index()] = Some((next, 0));
    next += 1;
    while let Some(frame) = stack.last_mut() {
        let (block, done) = *frame;
        match children[block.index()].get(done) {
            Some(&child) => {
                frame.1 += 1;
                interval[child.index()] = Some((next, 0));
                next += 1;
                stack.push((child, 0));
            }
            None => {
                let enter = interval[block.index()].expect("numbered on the way down").0;
                interval[block.index()] = Some((enter, next));
                stack.pop();
            }
        }
    }
    interval
}

/// The nearest common dominator of `a` and `b`: walk up from whichever comes later in
/// reverse postorder until the fingers meet.
fn intersect(idom: &[Option<BlockId>], order: &[usize], mut a: BlockId, mut b: BlockId) -> BlockId {
    let parent = |block: BlockId| idom[block.index()].expect("only blocks with a dominator are intersected");
    while a != b {
        while order[a.index()] > order[b.index()] {
            a = parent(a);
        }
        while order[b.index()] > order[a.index()] {
            b = parent(b);
        }
    }
    a
}

/// The natural loops of `cfg`, outer before inner, or the retreating edges that are not
/// back edges (the graph is irreducible). `program` gives the `modifies` clauses of
/// callees, which belong to a loop's targets.
pub fn find_loops(program: &hir::Program, cfg: &Cfg) -> Result<Vec<Loop>, Vec<(BlockId, BlockId)>> {
    let search = depth_first(cfg);
    let dominators = Dominators::compute(cfg, &search.reverse_postorder);
    let (back_edges, irreducible): (Vec<_>, Vec<_>) =
        search.retreating.iter().partition(|(from, to)| dominators.dominates(*to, *from));
    if !irreducible.is_empty() {
        return Err(irreducible);
    }
    // Headers in reverse postorder: a header dominates the headers of the loops nested
    // in its loop, so it comes first.
    let headers: BTreeSet<BlockId> = back_edges.iter().map(|(_, to)| *to).collect();
    let mut order = vec![usize::MAX; cfg.blocks.len()];
    for (position, block) in search.reverse_postorder.iter().enumerate() {
        order[block.index()] = position;
    }
    let mut headers: Vec<BlockId> = headers.into_iter().collect();
    headers.sort_by_key(|header| order[header.index()]);
    let preds = cfg.predecessors();
    let loops = headers
        .into_iter()
        .map(|header| {
            let latches: Vec<BlockId> =
                back_edges.iter().filter(|(_, to)| *to == header).map(|(from, _)| *from).collect();
            natural_loop(program, cfg, &preds, header, latches)
        })
        .collect();
    Ok(loops)
}

fn natural_loop(
    program: &hir::Program,
    cfg: &Cfg,
    preds: &[Vec<BlockId>],
    header: BlockId,
    mut latches: Vec<BlockId>,
) -> Loop {
    latches.sort();
    latches.dedup();
    let mut body = BTreeSet::from([header]);
    let mut pending: Vec<BlockId> = latches.clone();
    while let Some(block) = pending.pop() {
        if body.insert(block) {
            pending.extend(preds[block.index()].iter().copied());
        }
    }
    let body: Vec<BlockId> = body.into_iter().collect();
    let targets = targets(program, cfg, &body);
    Loop { header, latches, body, targets, span: cfg.block(header).span }
}

/// The variables the blocks of `body` may write, sorted by [`var_key`].
fn targets(program: &hir::Program, cfg: &Cfg, body: &[BlockId]) -> Vec<hir::Var> {
    let mut written = BTreeSet::new();
    for cmd in body.iter().flat_map(|&block| &cfg.block(block).cmds) {
        match &cmd.kind {
            CmdKind::Assign { targets: vars, .. } | CmdKind::Havoc { vars, .. } => {
                written.extend(vars.iter().map(|&var| var_key(var)))
            }
            CmdKind::Call { callee, outs, .. } => {
                written.extend(outs.iter().map(|&var| var_key(var)));
                let modifies = &program.procedures[callee.index()].modifies;
                written.extend(modifies.iter().map(|&global| var_key(hir::Var::Global(global))));
            }
            CmdKind::Assume { .. } | CmdKind::Assert { .. } => {}
        }
    }
    written.into_iter().map(var_from_key).collect()
}

/// A sort key for variables (`hir::Var` has no `Ord` of its own): locals by id, then
/// globals, constants and bound variables, each by id.
pub fn var_key(var: hir::Var) -> (u8, u32) {
    match var {
        hir::Var::Local(id) => (0, id.0),
        hir::Var::Global(id) => (1, id.0),
        hir::Var::Const(id) => (2, id.0),
        hir::Var::Bound(id) => (3, id.0),
    }
}

fn var_from_key((kind, id): (u8, u32)) -> hir::Var {
    match kind {
        0 => hir::Var::Local(hir::LocalId(id)),
        1 => hir::Var::Global(hir::GlobalId(id)),
        2 => hir::Var::Const(hir::ConstId(id)),
        _ => hir::Var::Bound(hir::BoundId(id)),
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::lowered;
    use super::*;

    #[test]
    fn dominators_of_a_diamond() {
        // b0 → b1, b2 → b3
        let (_, cfg) =
            lowered("procedure P(a: int) returns (x: int) { if (a > 0) { x := 1; } else { x := 2; } x := 3; }");
        let search = depth_first(&cfg);
        assert_eq!(search.reverse_postorder.len(), 4);
        assert_eq!(search.reverse_postorder[0], cfg.entry);
        assert!(search.retreating.is_empty());
        let dominators = Dominators::compute(&cfg, &search.reverse_postorder);
        let (entry, then, otherwise, join) = (BlockId(0), BlockId(1), BlockId(2), BlockId(3));
        assert!(cfg.block_ids().all(|block| dominators.dominates(entry, block)));
        assert!(dominators.dominates(then, then));
        assert!(!dominators.dominates(then, join) && !dominators.dominates(otherwise, join));
        assert!(!dominators.dominates(join, entry));
    }

    #[test]
    fn a_retreating_edge_into_a_loop_head_is_a_back_edge() {
        let (program, cfg) = lowered("procedure P() { L: goto L, M; M: goto L; }");
        let search = depth_first(&cfg);
        assert_eq!(search.retreating.len(), 2);
        let found = find_loops(&program, &cfg).expect("reducible");
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].header, found[0].latches.as_slice()), (BlockId(1), &[BlockId(1), BlockId(2)][..]));
    }

    #[test]
    fn a_second_entry_into_a_cycle_is_reported() {
        let (program, cfg) = {
            let program = super::super::tests::program("procedure P() { goto A, B; A: goto B; B: goto A; }");
            // Lowering refuses this graph, so build it by hand from a reducible one.
            let (_, mut cfg) = lowered("procedure P() { goto A, B; A: goto B; B: return; }");
            cfg.blocks[2].terminator = super::super::graph::Terminator::Goto(vec![BlockId(1)]);
            (program, cfg)
        };
        let edges = find_loops(&program, &cfg).expect_err("irreducible");
        assert_eq!(edges, [(BlockId(2), BlockId(1))]);
    }

    #[test]
    fn variables_sort_locals_first() {
        let local = hir::Var::Local(hir::LocalId(7));
        let global = hir::Var::Global(hir::GlobalId(0));
        assert!(var_key(local) < var_key(global));
        assert_eq!(var_from_key(var_key(global)), global);
    }
}
