//! Control-flow graphs of basic blocks: the IR every later stage works on.
//!
//! A [`Cfg`] is one implementation lowered to blocks of straight-line commands, each
//! ending in a `goto` (one or more targets, chosen nondeterministically; guards are
//! `assume` commands at the start of the targets, as in Boogie) or a `return`.
//!
//! Invariants (established by [`crate::cfg::lower`]):
//! - `blocks[entry]` is the entry; every block is reachable from it in the graph;
//! - assignments are simultaneous and target whole variables: `a[i][j] := e` has become
//!   `a := a[i := a[i][j := e]]`;
//! - structured constructs are gone, but every block keeps its [`Origin`]: the
//!   structural path of the branch it starts (if any), which goal ids are made of;
//! - `loops` lists the natural loops (found from back edges, for structured and
//!   goto-based code alike); a loop's invariants are the `assert`s that start its header
//!   (Boogie's convention), marked [`AssertReason::Invariant`];
//! - the graph is reducible (lowering reports an irreducible one as a diagnostic).
//!
//! Per-pass data (dominators, topological orders, incarnations) lives in side tables of
//! the passes that need it, never in these nodes.

use crate::sema::hir;
use crate::source::Span;
use std::fmt;

/// A block of a [`Cfg`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BlockId(pub u32);

impl BlockId {
    pub fn index(self) -> usize {
        self.0 as usize
    }

    pub fn from_index(index: usize) -> BlockId {
        BlockId(u32::try_from(index).expect("fewer than 2^32 blocks per implementation"))
    }
}

#[derive(Clone, Debug)]
pub struct Cfg {
    pub implementation: hir::ImplId,
    pub procedure: hir::ProcId,
    /// The implementation's name, the first segment of every goal id.
    pub name: String,
    /// The implementation's locals (ins, outs, declared locals), then temporaries added
    /// by lowering (their `span` is that of the construct that needed them).
    pub locals: Vec<hir::Local>,
    pub blocks: Vec<Block>,
    pub entry: BlockId,
    /// The natural loops, one per header, in reverse postorder of their headers: a loop
    /// comes before the loops nested in it. Empty once [`crate::cfg::cut`] has run.
    pub loops: Vec<Loop>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Block {
    pub cmds: Vec<Cmd>,
    pub terminator: Terminator,
    pub origin: Origin,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Terminator {
    /// Continue at one of the targets (several: a nondeterministic choice).
    Goto(Vec<BlockId>),
    /// Leave the implementation (postconditions are checked at the procedure level).
    Return,
}

#[derive(Clone, Debug)]
pub struct Cmd {
    pub kind: CmdKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum CmdKind {
    /// Simultaneous assignment of whole variables (locals or globals).
    Assign {
        targets: Vec<hir::Var>,
        values: Vec<hir::Expr>,
    },
    Havoc {
        vars: Vec<hir::Var>,
        /// Made by [`crate::cfg::cut`]: the arbitrary state a loop's invariant
        /// abstraction starts from, not a choice of the program.
        loop_cut: bool,
    },
    Assume {
        expr: hir::Expr,
        reason: AssumeReason,
    },
    Assert {
        expr: hir::Expr,
        reason: AssertReason,
    },
    Call {
        callee: hir::ProcId,
        args: Vec<hir::Expr>,
        outs: Vec<hir::Var>,
        /// `free call`: the callee's preconditions are neither checked nor assumed, as
        /// in Boogie.
        free: bool,
    },
}

/// Why an `assume` is there; reports and printers use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssumeReason {
    /// Written by the user.
    User,
    /// The guard of the branch this block starts (`then`, loop body).
    Guard,
    /// The negated guard (`else`, loop exit).
    NegatedGuard,
    /// A `where` clause of a variable, assumed where the variable gets an arbitrary value:
    /// at the entry and after a `havoc` (as Boogie does).
    Where,
    /// Clause `index` of the invariants of a cut loop, assumed after its targets were
    /// havocked at the header ([`crate::cfg::cut`]).
    Invariant { index: u32 },
    /// The `assume false` that ends a cut back edge: the path has checked that the
    /// invariants are maintained and goes no further ([`crate::cfg::cut`]).
    LoopCut,
}

/// Why an `assert` is there; verification failures name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssertReason {
    /// Written by the user.
    User,
    /// Written by the user with `{:subsumption 0}`: checked, and not assumed after it by
    /// Boogie's verification condition (`verify` counts the checks after it as Boogie
    /// does; an execution still stops where it fails). Dafny writes it on its
    /// well-formedness checks.
    Unsubsumed,
    /// Clause `index` of the invariants of the loop whose header this block is. A `free`
    /// invariant is never checked, only assumed (Boogie prints it as an `assume`).
    Invariant { free: bool, index: u32 },
    /// After [`crate::cfg::cut`]: invariant `index` holds when the loop is entered.
    InvariantOnEntry { index: u32 },
    /// After [`crate::cfg::cut`]: invariant `index` is maintained by an iteration that
    /// started in a state satisfying every invariant.
    InvariantMaintained { index: u32 },
    /// After [`crate::cfg::inline`]: clause `clause` of the `requires` of an inlined
    /// callee, at the call.
    Requires { callee: hir::ProcId, clause: u32 },
    /// After [`crate::cfg::inline`]: clause `clause` of the `ensures` of an inlined
    /// callee, at its return.
    Ensures { callee: hir::ProcId, clause: u32 },
}

/// A natural loop.
#[derive(Clone, Debug)]
pub struct Loop {
    pub header: BlockId,
    /// The blocks whose edges to `header` close the loop.
    pub latches: Vec<BlockId>,
    /// Every block of the loop, header included, sorted.
    pub body: Vec<BlockId>,
    /// The variables the loop may change (assigned, havocked, call outputs and the
    /// callees' `modifies`), sorted (locals by id, then globals by id); the invariant
    /// abstraction havocs them.
    pub targets: Vec<hir::Var>,
    /// The `while` statement, or the header's label, for reports.
    pub span: Span,
}

/// Where a block came from: the structural path of the branch it starts, if it starts
/// one. Goal ids are made of these paths, so they survive edits elsewhere in the file.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Origin {
    /// The enclosing constructs, outermost first: `[Entry]` for the entry block, empty
    /// for plain continuation blocks at the top level.
    pub path: StructPath,
    /// Whether this block is the first block of the branch `path` names (the place a
    /// seed goes). Continuation blocks (after a join) have `false`.
    pub starts_branch: bool,
}

/// A structural path such as `while#1/body/if#2/else`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct StructPath(pub Vec<Segment>);

/// One step of a [`StructPath`]. `if` and `while` statements are numbered from 1 among
/// the statements of the same kind in the same statement list; `else if` is an `if`
/// nested in the `else` (as the paper and Boogie desugar it).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Segment {
    If(u32),
    Then,
    Else,
    While(u32),
    Body,
    Exit,
    /// A target of a multi-target `goto`, by its label.
    Goto(String),
    /// The implementation's first block (the goal of a branch-free procedure).
    Entry,
    /// After [`crate::cfg::unroll`]: the copy of the preceding segment's branch in
    /// iteration `k` of its loop (`body@3`: the third iteration; `exit@2`: the loop left
    /// after two). Printed attached to that segment.
    Iteration(u32),
    /// After [`crate::cfg::unroll`]: the loop's iterations past the bound `n`, abstracted
    /// (`body@>3`); no goal lies there.
    Beyond(u32),
    /// In a goal id of `--unroll-goals per-loop`: the copies of the preceding segment's
    /// branch in every iteration of its loop, merged (`body@*/while#1/body@2`: the inner
    /// loop's second iteration, whichever iteration of the outer loop it ran in).
    AnyIteration,
}

impl Segment {
    /// Whether the segment marks an unrolled copy rather than a construct of the source.
    pub fn is_iteration(&self) -> bool {
        matches!(self, Segment::Iteration(_) | Segment::Beyond(_) | Segment::AnyIteration)
    }
}

impl fmt::Display for Segment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Segment::If(n) => write!(f, "if#{n}"),
            Segment::Then => f.write_str("then"),
            Segment::Else => f.write_str("else"),
            Segment::While(n) => write!(f, "while#{n}"),
            Segment::Body => f.write_str("body"),
            Segment::Exit => f.write_str("exit"),
            Segment::Goto(label) => write!(f, "goto:{label}"),
            Segment::Entry => f.write_str("entry"),
            Segment::Iteration(k) => write!(f, "@{k}"),
            Segment::Beyond(n) => write!(f, "@>{n}"),
            Segment::AnyIteration => f.write_str("@*"),
        }
    }
}

impl fmt::Display for StructPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, segment) in self.0.iter().enumerate() {
            if index > 0 && !segment.is_iteration() {
                f.write_str("/")?;
            }
            write!(f, "{segment}")?;
        }
        Ok(())
    }
}

impl StructPath {
    pub fn child(&self, segment: Segment) -> StructPath {
        let mut segments = self.0.clone();
        segments.push(segment);
        StructPath(segments)
    }

    pub fn starts_with(&self, prefix: &StructPath) -> bool {
        self.0.starts_with(&prefix.0)
    }

    /// The path in the source program: without the iteration marks unrolling added.
    pub fn in_source(&self) -> StructPath {
        StructPath(self.0.iter().filter(|segment| !segment.is_iteration()).cloned().collect())
    }

    /// The last segment that names a construct (iteration marks skipped).
    pub fn last_construct(&self) -> Option<&Segment> {
        self.0.iter().rev().find(|segment| !segment.is_iteration())
    }

    /// Whether some segment marks an iteration past an unrolling bound.
    pub fn is_beyond_bound(&self) -> bool {
        self.0.iter().any(|segment| matches!(segment, Segment::Beyond(_)))
    }
}

impl Cfg {
    pub fn block(&self, id: BlockId) -> &Block {
        &self.blocks[id.index()]
    }

    pub fn block_ids(&self) -> impl Iterator<Item = BlockId> {
        (0..self.blocks.len()).map(BlockId::from_index)
    }

    pub fn successors(&self, id: BlockId) -> &[BlockId] {
        match &self.block(id).terminator {
            Terminator::Goto(targets) => targets,
            Terminator::Return => &[],
        }
    }

    /// The same graph with its blocks renumbered: `order` lists every block once, in the
    /// new order; returns the graph and the map from old ids to new ones.
    pub fn reordered(&self, order: &[BlockId]) -> (Cfg, Vec<BlockId>) {
        assert_eq!(order.len(), self.blocks.len(), "the order lists every block once");
        let mut new_id = vec![BlockId(u32::MAX); self.blocks.len()];
        for (new, old) in order.iter().enumerate() {
            new_id[old.index()] = BlockId::from_index(new);
        }
        let map = |id: &BlockId| new_id[id.index()];
        let blocks = order
            .iter()
            .map(|old| {
                let mut block = self.block(*old).clone();
                if let Terminator::Goto(targets) = &mut block.terminator {
                    targets.iter_mut().for_each(|target| *target = map(target));
                }
                block
            })
            .collect();
        let loops = self
            .loops
            .iter()
            .map(|lp| {
                let mut body: Vec<BlockId> = lp.body.iter().map(map).collect();
                body.sort();
                Loop { header: map(&lp.header), latches: lp.latches.iter().map(map).collect(), body, ..lp.clone() }
            })
            .collect();
        let cfg = Cfg { blocks, entry: map(&self.entry), loops, ..self.clone() };
        (cfg, new_id)
    }

    /// Whether `block` starts with the guard of a conditional (lowering's `assume`), so
    /// that evaluating the guards decides a branch into it: a trace names only the
    /// branches this does not decide (`if (*)`, `while (*)`, user `goto`s).
    pub fn starts_with_guard(&self, block: BlockId) -> bool {
        matches!(
            self.block(block).cmds.first().map(|cmd| &cmd.kind),
            Some(CmdKind::Assume { reason: AssumeReason::Guard | AssumeReason::NegatedGuard, .. })
        )
    }

    /// Predecessor lists, indexed by block.
    pub fn predecessors(&self) -> Vec<Vec<BlockId>> {
        let mut preds = vec![Vec::new(); self.blocks.len()];
        for id in self.block_ids() {
            for &succ in self.successors(id) {
                preds[succ.index()].push(id);
            }
        }
        preds
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_print_as_goal_ids() {
        let path = StructPath(vec![Segment::While(1), Segment::Body, Segment::If(2), Segment::Else]);
        assert_eq!(path.to_string(), "while#1/body/if#2/else");
        assert!(path.starts_with(&StructPath(vec![Segment::While(1)])));
        let unrolled = StructPath(vec![Segment::While(1), Segment::Body, Segment::Iteration(3), Segment::If(1)]);
        assert_eq!(unrolled.to_string(), "while#1/body@3/if#1");
        assert_eq!(unrolled.in_source().to_string(), "while#1/body/if#1");
        let exit = StructPath(vec![Segment::While(1), Segment::Exit, Segment::Beyond(2)]);
        assert_eq!((exit.to_string(), exit.last_construct()), ("while#1/exit@>2".to_string(), Some(&Segment::Exit)));
    }
}
