//! Loop unrolling (`--unroll N`, seeds/001 §2.3): every loop replaced by its first `N`
//! iterations, exactly, followed by the invariant abstraction of the rest — at a cost
//! linear in `N`.
//!
//! Input: a graph as [`super::lower`] returns it (reducible, `loops` filled in). Output:
//! an [`Unrolled`] graph whose remaining `loops` are the abstractions of the iterations
//! past the bound (for [`super::cut`] to cut by their invariants), and, per block, the
//! block of the input it copies, so that a run of the input can be followed on it
//! ([`Unrolled::walk`]).
//!
//! For a loop with header `H`, body blocks `S` (`H` included) and bound `N`:
//!
//! ```text
//! ─▶ H₀ ─▶ S₁ ─▶ H₁ ─▶ S₂ ─▶ … ─▶ S_N ─▶ H_N ─▶ G ─▶ H (the loop itself: iterations N+1…,
//!     │            │                        │           abstracted when it is cut)
//!     ▼            ▼                        ▼
//!   X@0          X@1          …           X@N   ─▶ X  (each exit edge of the header)
//! ```
//!
//! - `S_k` is a copy of the body blocks for iteration `k`; its back edges go to the next
//!   header copy `H_k` (the header after `k` iterations). Its branches are goals with
//!   the iteration in their id: `while#1/body@3/if#1/then`.
//! - Each exit edge of `H_k` goes through a block `X@k` holding a copy of the exit
//!   target's leading `assume`s (the negated loop guard), then to the target itself,
//!   which is shared: what follows the loop is never duplicated. `X@k` is the goal
//!   "left the loop after exactly `k` iterations": `while#1/exit@2`.
//! - `H_N`'s edges into the body go, through a copy `G` of their target's leading
//!   `assume`s (the guard: iteration `N+1` starts), to the original loop, which stays a
//!   loop and is abstracted by [`super::cut`] (havoc its targets, assume its
//!   invariants, exit). So code after the loop stays reachable in the encoding, and an
//!   UNSAT answer still proves a goal dead: the abstraction over-approximates every
//!   iteration past `N` when the invariants hold, and a loop without invariants is
//!   abstracted by `true`, which always does. Its blocks start no branch and carry the
//!   mark `@>N`: no goal lies past the bound, and a model that goes there is a candidate
//!   whose replay decides.
//!
//! Nested loops are unrolled inside each copy of their enclosing loop's body, so they
//! multiply only their own bodies; each copy carries the marks of every loop around it
//! (`body@2/while#1/body@3`), and [`crate::seed::goals`] counts its goals per loop (the
//! copies merged, the default) or per combination of iteration counts. The
//! exits of other body blocks (`break`, a `goto` out) are shared edges to their target.
//! Growth is capped at [`MAX_BLOCKS`]; a loop that would pass it keeps its plain goals.
//!
//! Marks (`@k`, `@>N`) go after the `body`/`exit` segment of a structured loop's blocks
//! and at the end of the path of a `goto` loop's blocks (`goto:L@2`); a header copy of
//! a `goto` loop is marked with the iterations done before it (`goto:L@0` … `goto:L@N`).

use super::graph::{AssertReason, Block, BlockId, Cfg, CmdKind, Loop, Origin, Segment, StructPath, Terminator};
use super::loops::{depth_first, find_loops, Dominators};
use crate::sema::hir;
use std::collections::{BTreeMap, BTreeSet};

/// The largest graph unrolling builds; loops past it keep their plain goals.
pub const MAX_BLOCKS: usize = 20_000;

/// A graph with its loops unrolled, and where each block comes from.
#[derive(Clone, Debug)]
pub struct Unrolled {
    /// Loops past the bound are still loops here (`cfg.loops`), for the cut.
    pub cfg: Cfg,
    /// Per block, the block of the input graph it copies; `None` for a block unrolling
    /// put on an edge (an exit `X@k`, a guard `G`), which a run of the input does not
    /// enter but passes.
    pub source: Vec<Option<BlockId>>,
    pub bound: u32,
}

/// `cfg` with every loop unrolled `bound` times (see the module comment); `bound == 0`
/// leaves the graph as it is. `program` gives the loops' targets (callees' `modifies`).
pub fn unroll_loops(program: &hir::Program, cfg: &Cfg, bound: u32) -> Unrolled {
    let source = cfg.block_ids().map(Some).collect();
    let mut unrolled = Unrolled { cfg: cfg.clone(), source, bound };
    if bound == 0 {
        return unrolled;
    }
    // Headers already dealt with: abstractions past the bound, and loops kept plain.
    let mut done: BTreeSet<BlockId> = BTreeSet::new();
    loop {
        // A reducible graph stays reducible: copies are spliced between blocks.
        let loops = find_loops(program, &unrolled.cfg).unwrap_or_default();
        // Reverse postorder of headers: an enclosing loop comes before the loops in it,
        // so the first loop not done is outermost among those left.
        let Some(next) = loops.iter().find(|found| !done.contains(&found.header)) else {
            unrolled.cfg.loops = loops;
            return unrolled;
        };
        done.extend(next.body.iter().copied().filter(|&block| loops.iter().any(|lp| lp.header == block)));
        if unrolled.cfg.blocks.len() + (bound as usize + 1) * next.body.len() > MAX_BLOCKS {
            continue;
        }
        unrolled.unroll(next);
    }
}

/// How a loop's blocks are marked: after the `body`/`exit` segment that follows the
/// header's `while#n` path (a structured loop), or at the end (a `goto` loop, and any
/// block of a structured loop outside that shape, so that copies never share an id).
#[derive(Clone)]
struct Marker {
    /// A structured loop's header path.
    anchor: Option<StructPath>,
}

impl Marker {
    fn of(header: &Block) -> Marker {
        let path = &header.origin.path;
        let structured = !header.origin.starts_branch && matches!(path.0.last(), Some(Segment::While(_)));
        Marker { anchor: structured.then(|| path.clone()) }
    }

    fn mark(&self, path: &StructPath, segment: Segment) -> StructPath {
        let mut segments = path.0.clone();
        match &self.anchor {
            Some(anchor) if path == anchor => {}
            Some(anchor)
                if path.starts_with(anchor) && matches!(segments[anchor.0.len()], Segment::Body | Segment::Exit) =>
            {
                segments.insert(anchor.0.len() + 1, segment)
            }
            _ => segments.push(segment),
        }
        StructPath(segments)
    }

    /// The header copy after `done` iterations: a `goto` loop's header may be a goal of
    /// its own; a structured loop's never is, and keeps its path.
    fn mark_header(&self, path: &StructPath, done: u32) -> StructPath {
        self.mark(path, Segment::Iteration(done))
    }
}

/// The loop being unrolled: its header, the blocks one iteration runs, and how their
/// paths are marked.
struct LoopShape {
    header: BlockId,
    region: BTreeSet<BlockId>,
    marker: Marker,
}

impl Unrolled {
    fn unroll(&mut self, found: &Loop) {
        let bound = self.bound;
        let header = found.header;
        let before = self.cfg.blocks.len();
        let marker = Marker::of(self.cfg.block(header));
        let shape = LoopShape { header, region: self.region(found, &marker), marker };
        let marker = &shape.marker;
        let header_path = self.cfg.block(header).origin.path.clone();
        let exits_only_from_header = self.exits_only_from_header(&shape);
        // copies[k][b]: the copy of loop block `b` in iteration k+1 (its header: after k).
        let copies: Vec<BTreeMap<BlockId, BlockId>> = (0..bound)
            .map(|k| {
                let copy = self.copy_blocks(&shape.region, |path| marker.mark(path, Segment::Iteration(k + 1)));
                self.cfg.blocks[copy[&header].index()].origin.path = marker.mark_header(&header_path, k);
                copy
            })
            .collect();
        let last_header = self.copy_block(header, marker.mark_header(&header_path, bound));
        let header_after = |k: u32| if k < bound { copies[k as usize][&header] } else { last_header };
        for k in 0..=bound {
            self.drop_invariant_checks(header_after(k));
        }
        for (k, copy) in (0..bound).zip(&copies) {
            for (&original, &block) in copy {
                let terminator = self.copy_terminator(original, &shape, copy, header_after(k + 1), k);
                self.cfg.blocks[block.index()].terminator = terminator;
            }
        }
        // After N iterations: leave (X@N), or go on into the abstraction through G.
        let mut last_targets = Vec::new();
        for target in self.cfg.successors(header).to_vec() {
            last_targets.push(if shape.region.contains(&target) {
                let path = marker.mark(&self.cfg.block(target).origin.path, Segment::Beyond(bound));
                self.edge_block(target, path, header, false)
            } else {
                self.exit_block(target, marker, bound)
            });
        }
        self.cfg.blocks[last_header.index()].terminator = Terminator::Goto(last_targets);
        self.enter_at(&shape, before, header_after(0));
        // The exit targets reached only from the header are continuations now: their
        // goals are the `X@k`.
        for target in exits_only_from_header {
            self.cfg.blocks[target.index()].origin.starts_branch = false;
        }
        self.abstract_past_bound(&shape);
    }

    /// The blocks one iteration runs: the natural loop, and for a structured loop the
    /// blocks of its body that leave it (a `break` or `return` branch is no part of the
    /// natural loop, but is a branch of the iteration it happens in).
    fn region(&self, found: &Loop, marker: &Marker) -> BTreeSet<BlockId> {
        let mut region: BTreeSet<BlockId> = found.body.iter().copied().collect();
        if let Some(anchor) = &marker.anchor {
            let body = anchor.child(Segment::Body);
            let dominators = Dominators::compute(&self.cfg, &depth_first(&self.cfg).reverse_postorder);
            region.extend(self.cfg.block_ids().filter(|&block| {
                self.cfg.block(block).origin.path.starts_with(&body) && dominators.dominates(found.header, block)
            }));
        }
        region
    }

    /// A header copy runs on the concrete state after `k` iterations, where a verified
    /// invariant holds anyway; checked there, each quantified invariant becomes one more
    /// assumption every goal query carries (they made nested loops with quantified
    /// invariants time out). The invariants stay where they matter: on entry to the
    /// abstraction past the bound, which assumes them. The interpreter still checks them
    /// on every iteration of a replay, and `verify` proves them.
    fn drop_invariant_checks(&mut self, header: BlockId) {
        let cmds = &mut self.cfg.blocks[header.index()].cmds;
        cmds.retain(|cmd| !matches!(cmd.kind, CmdKind::Assert { reason: AssertReason::Invariant { .. }, .. }));
    }

    /// The header's exit targets whose every predecessor is the header.
    fn exits_only_from_header(&self, shape: &LoopShape) -> Vec<BlockId> {
        let preds = self.cfg.predecessors();
        let exits = self.cfg.successors(shape.header).iter().copied().filter(|target| !shape.region.contains(target));
        exits.filter(|target| preds[target.index()].iter().all(|&pred| pred == shape.header)).collect()
    }

    /// The targets of `original`'s copy in iteration k+1: back edges to the next header
    /// copy, edges inside the loop to this iteration's copies, the header's exits
    /// through `X@k`, other exits to their shared target.
    fn copy_terminator(
        &mut self,
        original: BlockId,
        shape: &LoopShape,
        copy: &BTreeMap<BlockId, BlockId>,
        next_header: BlockId,
        k: u32,
    ) -> Terminator {
        let Terminator::Goto(targets) = self.cfg.block(original).terminator.clone() else {
            return Terminator::Return;
        };
        let targets = targets
            .into_iter()
            .map(|target| match (target == shape.header, shape.region.contains(&target)) {
                (true, _) => next_header,
                (false, true) => copy[&target],
                (false, false) if original == shape.header => self.exit_block(target, &shape.marker, k),
                (false, false) => target,
            })
            .collect();
        Terminator::Goto(targets)
    }

    /// `X@k`: the exit edge header → `target` after `k` iterations.
    fn exit_block(&mut self, target: BlockId, marker: &Marker, k: u32) -> BlockId {
        let path = marker.mark(&self.cfg.block(target).origin.path, Segment::Iteration(k));
        let starts_branch = self.cfg.block(target).origin.starts_branch;
        self.edge_block(target, path, target, starts_branch)
    }

    /// A block on an edge into `target`: a copy of `target`'s leading `assume`s (the
    /// branch's guard), then `goto next`.
    fn edge_block(&mut self, target: BlockId, path: StructPath, next: BlockId, starts_branch: bool) -> BlockId {
        let block = self.cfg.block(target);
        let cmds = block.cmds.iter().take_while(|cmd| matches!(cmd.kind, CmdKind::Assume { .. })).cloned().collect();
        let edge = Block {
            cmds,
            terminator: Terminator::Goto(vec![next]),
            origin: Origin { path, starts_branch },
            span: block.span,
        };
        self.push(edge, None)
    }

    /// Copies of `blocks` (terminators still the originals'), their paths marked.
    fn copy_blocks(
        &mut self,
        blocks: &BTreeSet<BlockId>,
        mark: impl Fn(&StructPath) -> StructPath,
    ) -> BTreeMap<BlockId, BlockId> {
        blocks.iter().map(|&block| (block, self.copy_block(block, mark(&self.cfg.block(block).origin.path)))).collect()
    }

    fn copy_block(&mut self, block: BlockId, path: StructPath) -> BlockId {
        let mut copy = self.cfg.block(block).clone();
        copy.origin.path = path;
        let source = self.source[block.index()];
        self.push(copy, source)
    }

    fn push(&mut self, block: Block, source: Option<BlockId>) -> BlockId {
        let id = BlockId::from_index(self.cfg.blocks.len());
        self.cfg.blocks.push(block);
        self.source.push(source);
        id
    }

    /// Edges from outside the loop into its header now enter the first copy. Only the
    /// blocks that existed `before` this loop was unrolled can have such edges: every
    /// block made since points where it should (the guards `G` at the header on purpose).
    fn enter_at(&mut self, shape: &LoopShape, before: usize, first: BlockId) {
        let header = shape.header;
        for block in (0..before).map(BlockId::from_index).filter(|block| !shape.region.contains(block)) {
            if let Terminator::Goto(targets) = &mut self.cfg.blocks[block.index()].terminator {
                targets.iter_mut().filter(|target| **target == header).for_each(|target| *target = first);
            }
        }
        if self.cfg.entry == header {
            self.cfg.entry = first;
        }
    }

    /// The loop's own blocks now run the iterations past the bound: they start no
    /// branch and are marked `@>N`.
    fn abstract_past_bound(&mut self, shape: &LoopShape) {
        for &block in &shape.region {
            let origin = &mut self.cfg.blocks[block.index()].origin;
            origin.path = shape.marker.mark(&origin.path, Segment::Beyond(self.bound));
            origin.starts_branch = false;
        }
    }

    /// Follows a run of the input graph on the unrolled one: `path` is the sequence of
    /// input blocks the run entered (entry first). Returns the blocks of the unrolled
    /// graph it passes, edge blocks included; stops where the run leaves the graph's
    /// edges (it cannot, for a run of the input).
    pub fn walk(&self, path: &[BlockId]) -> BTreeSet<BlockId> {
        let mut passed = BTreeSet::new();
        let Some((first, rest)) = path.split_first() else { return passed };
        let mut at = self.cfg.entry;
        if self.source[at.index()] != Some(*first) {
            return passed;
        }
        passed.insert(at);
        for &next in rest {
            let Some((through, to)) = self.step(at, next) else { break };
            passed.extend(through);
            passed.insert(to);
            at = to;
        }
        passed
    }

    /// The blocks from `from` to the successor that copies `next`: through an edge block
    /// `X@k`, or through a guard `G` and the abstraction's header, which the unrolled
    /// graph enters once more where the run goes straight on into iteration `N+1`.
    fn step(&self, from: BlockId, next: BlockId) -> Option<(Vec<BlockId>, BlockId)> {
        let copies_next = |block: &BlockId| self.source[block.index()] == Some(next);
        let successors = self.cfg.successors(from);
        if let Some(&to) = successors.iter().find(|block| copies_next(block)) {
            return Some((Vec::new(), to));
        }
        let edges = || successors.iter().copied().filter(|block| self.source[block.index()].is_none());
        for edge in edges() {
            if let Some(&to) = self.cfg.successors(edge).iter().find(|block| copies_next(block)) {
                return Some((vec![edge], to));
            }
        }
        for edge in edges() {
            for &header in self.cfg.successors(edge) {
                if let Some(&to) = self.cfg.successors(header).iter().find(|block| copies_next(block)) {
                    return Some((vec![edge, header], to));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{assert_outline, lowered, outline};
    use super::*;

    fn check_unroll(source: &str, bound: u32) -> (String, Unrolled) {
        let (program, cfg) = lowered(source);
        let unrolled = unroll_loops(&program, &cfg, bound);
        (outline(&program, &unrolled.cfg), unrolled)
    }

    const COUNT: &str = "procedure P(n: int) returns (i: int) {
        i := 0;
        while (i < n) invariant i >= 0; { if (i == 3) { i := i + 2; } i := i + 1; }
    }";

    #[test]
    fn a_while_loop_unrolls_into_iterations_exits_and_the_abstraction_past_the_bound() {
        let (outline, unrolled) = check_unroll(COUNT, 2);
        assert_outline(
            &outline,
            "
            b0 entry*: i := 0; -> b8
            b1 while#1: assert{inv 0} i >= 0; -> b2, b6
            b2 while#1/body@>2: assume i < n; -> b3, b4
            b3 while#1/body@>2/if#1/then: assume i == 3; i := i + 2; -> b5
            b4 while#1/body@>2/if#1/else: assume i != 3; -> b5
            b5 while#1/body@>2: i := i + 1; -> b1
            b6 while#1/exit: assume n <= i; -> b7
            b7 : return
            b8 while#1: -> b9, b19
            b9 while#1/body@1*: assume i < n; -> b10, b11
            b10 while#1/body@1/if#1/then*: assume i == 3; i := i + 2; -> b12
            b11 while#1/body@1/if#1/else*: assume i != 3; -> b12
            b12 while#1/body@1: i := i + 1; -> b13
            b13 while#1: -> b14, b20
            b14 while#1/body@2*: assume i < n; -> b15, b16
            b15 while#1/body@2/if#1/then*: assume i == 3; i := i + 2; -> b17
            b16 while#1/body@2/if#1/else*: assume i != 3; -> b17
            b17 while#1/body@2: i := i + 1; -> b18
            b18 while#1: -> b21, b22
            b19 while#1/exit@0*: assume n <= i; -> b6
            b20 while#1/exit@1*: assume n <= i; -> b6
            b21 while#1/body@>2: assume i < n; -> b1
            b22 while#1/exit@2*: assume n <= i; -> b6
            ",
        );
        assert_eq!(unrolled.cfg.loops.len(), 1, "the abstraction past the bound stays a loop");
        assert_eq!(unrolled.cfg.loops[0].header, BlockId(1));
        assert!(depth_first(&unrolled.cfg).retreating.len() == 1);
    }

    #[test]
    fn a_run_of_the_input_is_followed_iteration_by_iteration() {
        let (_, unrolled) = check_unroll(COUNT, 2);
        let ids = |blocks: &[u32]| blocks.iter().map(|&b| BlockId(b)).collect::<Vec<_>>();
        let passed = |path: &[u32]| unrolled.walk(&ids(path)).into_iter().map(|b| b.0).collect::<Vec<_>>();
        // n = 0: the loop is left at once.
        assert_eq!(passed(&[0, 1, 6, 7]), [0, 6, 7, 8, 19]);
        // Two iterations (else, else), then out: exit@2.
        assert_eq!(passed(&[0, 1, 2, 4, 5, 1, 2, 4, 5, 1, 6, 7]), [0, 6, 7, 8, 9, 11, 12, 13, 14, 16, 17, 18, 22]);
        // Three iterations: the third runs in the abstraction, no goal of it is passed.
        let three = passed(&[0, 1, 2, 4, 5, 1, 2, 4, 5, 1, 2, 3, 5, 1, 6, 7]);
        assert_eq!(three, [0, 1, 2, 3, 5, 6, 7, 8, 9, 11, 12, 13, 14, 16, 17, 18, 21]);
    }

    #[test]
    fn nested_loops_unroll_inside_each_copy_of_the_outer_body() {
        let source = "procedure P(n: int) { var i, j: int;
            while (i < n) { j := 0; while (j < i) { j := j + 1; } i := i + 1; } }";
        let (outline, unrolled) = check_unroll(source, 2);
        for id in ["while#1/body@2/while#1/body@1*", "while#1/body@2/while#1/exit@2*", "while#1/body@1/while#1/exit@0*"]
        {
            assert!(outline.contains(&format!(" {id}:")), "{id} in\n{outline}");
        }
        assert!(!outline.contains("while#1/body@3"));
        // The outer abstraction and the inner loop in it, and the inner loop's abstraction
        // in each of the two outer copies.
        assert_eq!(unrolled.cfg.loops.len(), 4);
    }

    #[test]
    fn a_goto_loop_marks_its_blocks_at_the_end_of_their_paths() {
        let (outline, _) =
            check_unroll("procedure P() { var x: int; L: x := x + 1; goto A, M; A: goto L; M: return; }", 1);
        for id in ["goto:A@1*", "goto:M@0*", "goto:M@1*", "goto:A@>1:"] {
            assert!(outline.contains(id), "{id} in\n{outline}");
        }
    }

    #[test]
    fn no_bound_leaves_the_graph_alone() {
        let (outline, unrolled) = check_unroll(COUNT, 0);
        let (program, cfg) = lowered(COUNT);
        assert_eq!(outline, super::super::tests::outline(&program, &cfg));
        assert_eq!(unrolled.walk(&[BlockId(0), BlockId(1)]).len(), 2);
    }
}
