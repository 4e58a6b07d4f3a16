//! Coverage goals: the blocks a suite must reach (DESIGN.md §1, seeds/001 §4).
//!
//! Input: a [`Cfg`] whose blocks carry their [`Origin`]. Output: its [`Goal`]s, in block
//! order, each with a stable id made of the implementation's name and the structural
//! path of the branch (`binary_search/while#1/body/if#2/else`), so ids survive edits
//! elsewhere in the file.
//!
//! Which blocks are goals (seeds/001 §4): the first block of every branch outcome — the
//! `then` and `else` of every conditional (lowering made implicit elses explicit, case
//! B), the body and the exit of every loop, every target of a multi-target `goto` — and,
//! in a procedure without any of those, its entry block (case A).
//!
//! Leaves (case D): a goal is a leaf when no other goal lies inside its branch (no
//! other goal's path extends its path) and no other goal needs to pass through it (it
//! dominates no other goal: `goto body` before `goto small, large` in unstructured
//! code). Any execution reaching a nested or dominated goal passes through the other,
//! so seeding the leaves alone still covers every goal; `--goals all` seeds them all.
//!
//! Loops nested in unrolled loops (`--unroll-goals`, seeds/001 §2.3): unrolling copies an
//! inner loop into every iteration of the loops around it, so its blocks carry one
//! iteration mark per enclosing loop (`while#1/body@2/while#1/body@3`). With
//! [`UnrollGoals::Combinations`] each copy is a goal of its own, and goals grow with the
//! product of the bounds. With [`UnrollGoals::PerLoop`], the default, a goal counts only
//! its own loop's iterations: every mark but the last becomes `@*` and the copies with
//! the same id make one goal ([`Goal::copies`]), entered when any copy is. An inner
//! loop's `body@3` is then "some execution of it ran a third iteration", in whichever
//! iteration of the outer loops (within their bounds), and goals grow linearly in the
//! bound at any depth. A goal without marks before its last is the same in both modes,
//! so only merged goals get new ids, and no id of one mode means another thing in the
//! other.

use crate::cfg::loops::{depth_first, Dominators};
use crate::cfg::{BlockId, Cfg, Origin, Segment, StructPath};
use crate::source::Span;
use std::fmt;

/// A goal's stable id: `<implementation>/<structural path>`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GoalId(pub String);

impl fmt::Display for GoalId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Goal {
    pub id: GoalId,
    /// The goal's block; with [`UnrollGoals::PerLoop`], the first of its copies.
    pub block: BlockId,
    /// The goal's other blocks, in block order: the copies of its branch in other
    /// iterations of the loops around its own ([`UnrollGoals::PerLoop`]). Empty for a
    /// goal of one block, which is every goal but those of nested unrolled loops.
    pub copies: Vec<BlockId>,
    pub path: StructPath,
    /// No other goal lies inside this goal's branch.
    pub leaf: bool,
    pub span: Span,
}

impl Goal {
    /// Every block of the goal: it is entered when one of them is.
    pub fn blocks(&self) -> impl Iterator<Item = BlockId> + '_ {
        std::iter::once(self.block).chain(self.copies.iter().copied())
    }

    /// Whether a run that passed `passed` entered the goal.
    pub fn entered_by(&self, passed: &std::collections::BTreeSet<BlockId>) -> bool {
        self.blocks().any(|block| passed.contains(&block))
    }
}

/// How the goals of loops nested in unrolled loops are counted (`--unroll-goals`; see
/// the module comment).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum UnrollGoals {
    /// A loop's goals count its own iterations, whatever the iterations of the loops
    /// around it: goals linear in the bound.
    #[default]
    PerLoop,
    /// A goal per combination of iteration counts of the loops around it.
    Combinations,
}

impl UnrollGoals {
    /// The spelling of the flag and of the suite's `options.unroll_goals`.
    pub fn as_str(self) -> &'static str {
        match self {
            UnrollGoals::PerLoop => "per-loop",
            UnrollGoals::Combinations => "combinations",
        }
    }

    pub fn parse(text: &str) -> Option<UnrollGoals> {
        [UnrollGoals::PerLoop, UnrollGoals::Combinations].into_iter().find(|mode| mode.as_str() == text)
    }
}

/// Which goals get a seed (`--goals`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GoalSelection {
    /// Only leaf goals (seeds/001 §4 case D); the default.
    #[default]
    Leaves,
    /// Every goal.
    All,
}

impl GoalSelection {
    pub fn selects(self, goal: &Goal) -> bool {
        match self {
            GoalSelection::Leaves => goal.leaf,
            GoalSelection::All => true,
        }
    }
}

/// Whether a block's origin makes it a branch-outcome goal.
fn is_branch_outcome(origin: &Origin) -> bool {
    origin.starts_branch
        && matches!(
            origin.path.last_construct(),
            Some(Segment::Then | Segment::Else | Segment::Body | Segment::Exit | Segment::Goto(_))
        )
}

/// The goals of `cfg` counted as `mode` says, in the block order of their first blocks.
pub fn goals_counted(cfg: &Cfg, mode: UnrollGoals) -> Vec<Goal> {
    let found = goals(cfg);
    match mode {
        UnrollGoals::Combinations => found,
        UnrollGoals::PerLoop => merge_copies(cfg, found),
    }
}

/// One goal per id once every iteration mark but the last is `@*`: the copies of a
/// branch in the iterations of the loops around its own merged. The merged goal is a
/// leaf when one of its copies is (seeding a goal a leaf enters anyway only costs a
/// seed; the enumeration asks the other goals after the leaves).
fn merge_copies(cfg: &Cfg, found: Vec<Goal>) -> Vec<Goal> {
    let mut merged: Vec<Goal> = Vec::with_capacity(found.len());
    let mut by_path: std::collections::BTreeMap<StructPath, usize> = std::collections::BTreeMap::new();
    for goal in found {
        let path = per_loop_path(&goal.path);
        match by_path.get(&path) {
            Some(&index) => {
                let into = &mut merged[index];
                into.copies.push(goal.block);
                into.leaf |= goal.leaf;
            }
            None => {
                by_path.insert(path.clone(), merged.len());
                let leaf = goal.leaf;
                merged.push(Goal { leaf, copies: Vec::new(), ..self::goal(cfg, goal.block, path) });
            }
        }
    }
    merged
}

/// `path` with every iteration mark but the last one `@*`.
fn per_loop_path(path: &StructPath) -> StructPath {
    let last = path.0.iter().rposition(|segment| matches!(segment, Segment::Iteration(_)));
    let segments = path.0.iter().enumerate().map(|(index, segment)| match segment {
        Segment::Iteration(_) if Some(index) != last => Segment::AnyIteration,
        other => other.clone(),
    });
    StructPath(segments.collect())
}

/// The goals of `cfg`, one per block (one per combination of iterations of nested
/// unrolled loops), in block order.
pub fn goals(cfg: &Cfg) -> Vec<Goal> {
    let mut found: Vec<Goal> = cfg
        .block_ids()
        .filter(|&id| is_branch_outcome(&cfg.block(id).origin))
        .map(|id| goal(cfg, id, cfg.block(id).origin.path.clone()))
        .collect();
    if found.is_empty() {
        // seeds/001 §4 case A: a branch-free body is one goal, its entry.
        found.push(goal(cfg, cfg.entry, StructPath(vec![Segment::Entry])));
    }
    mark_leaves(cfg, &mut found);
    found
}

fn goal(cfg: &Cfg, block: BlockId, path: StructPath) -> Goal {
    let id = GoalId(format!("{}/{path}", cfg.name));
    Goal { id, block, copies: Vec::new(), path, leaf: true, span: cfg.block(block).span }
}

/// A goal is a leaf unless it encloses another (its path is a proper prefix of the
/// other's) or dominates another's block. Both are found by binary search in sorted
/// lists, so a body with thousands of goals is marked in `O(n log n)`.
fn mark_leaves(cfg: &Cfg, goals: &mut [Goal]) {
    let dominators = Dominators::compute(cfg, &depth_first(cfg).reverse_postorder);
    let mut entered: Vec<u32> = goals.iter().filter_map(|goal| dominators.enter(goal.block)).collect();
    entered.sort_unstable();
    let mut paths: Vec<&StructPath> = goals.iter().map(|goal| &goal.path).collect();
    paths.sort();
    let leaves: Vec<bool> = goals
        .iter()
        .map(|goal| {
            let below = dominators.strictly_dominated(goal.block);
            let first_below = entered.partition_point(|&enter| enter < below.start);
            let dominates = entered.get(first_below).is_some_and(|&enter| enter < below.end);
            // The paths that extend this one follow it (and its equals) in sorted order.
            let next = paths.partition_point(|&path| path <= &goal.path);
            let encloses = paths.get(next).is_some_and(|path| path.starts_with(&goal.path));
            !dominates && !encloses
        })
        .collect();
    for (goal, leaf) in goals.iter_mut().zip(leaves) {
        goal.leaf = leaf;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg::{Block, Terminator};
    use crate::sema::hir;

    fn block(path: Vec<Segment>, starts_branch: bool, targets: Vec<u32>) -> Block {
        let terminator = if targets.is_empty() {
            Terminator::Return
        } else {
            Terminator::Goto(targets.into_iter().map(BlockId).collect())
        };
        Block {
            cmds: Vec::new(),
            terminator,
            origin: Origin { path: StructPath(path), starts_branch },
            span: Span::default(),
        }
    }

    fn cfg(blocks: Vec<Block>) -> Cfg {
        Cfg {
            implementation: hir::ImplId(0),
            procedure: hir::ProcId(0),
            name: "r".into(),
            locals: Vec::new(),
            blocks,
            entry: BlockId(0),
            loops: Vec::new(),
            span: Span::default(),
        }
    }

    fn ids(goals: &[Goal], selection: GoalSelection) -> Vec<String> {
        goals.iter().filter(|goal| selection.selects(goal)).map(|goal| goal.id.0.clone()).collect()
    }

    #[test]
    fn a_branch_free_body_has_its_entry_as_goal() {
        let found = goals(&cfg(vec![block(vec![Segment::Entry], true, vec![])]));
        assert_eq!(ids(&found, GoalSelection::All), ["r/entry"]);
    }

    /// seeds/001 Fig. 4: `if c1 { B1; if c2 {B2} else {B3}; B4 } else {B5}`: the leaves
    /// are B2, B3 and B5; B1 is a goal but not a leaf.
    #[test]
    fn nested_branches_make_only_the_innermost_leaves() {
        use Segment::*;
        let found = goals(&cfg(vec![
            block(vec![Entry], true, vec![1, 5]),
            block(vec![If(1), Then], true, vec![2, 3]),
            block(vec![If(1), Then, If(1), Then], true, vec![4]),
            block(vec![If(1), Then, If(1), Else], true, vec![4]),
            block(vec![If(1), Then], false, vec![6]),
            block(vec![If(1), Else], true, vec![6]),
            block(vec![], false, vec![]),
        ]));
        assert_eq!(
            ids(&found, GoalSelection::All),
            ["r/if#1/then", "r/if#1/then/if#1/then", "r/if#1/then/if#1/else", "r/if#1/else"]
        );
        assert_eq!(
            ids(&found, GoalSelection::Leaves),
            ["r/if#1/then/if#1/then", "r/if#1/then/if#1/else", "r/if#1/else"]
        );
    }

    #[test]
    fn continuation_blocks_are_not_goals() {
        use Segment::*;
        let found = goals(&cfg(vec![
            block(vec![Entry], true, vec![1]),
            block(vec![While(1)], false, vec![2, 3]),
            block(vec![While(1), Body], true, vec![1]),
            block(vec![While(1), Exit], true, vec![]),
        ]));
        assert_eq!(ids(&found, GoalSelection::Leaves), ["r/while#1/body", "r/while#1/exit"]);
    }

    /// An inner loop unrolled in two iterations of the outer one: per loop, its body and
    /// exit in iteration `k` are one goal each, whose blocks are the two copies.
    #[test]
    fn per_loop_goals_merge_an_inner_loops_copies_across_outer_iterations() {
        use Segment::*;
        let inner = |outer: u32, segment: Segment, inner: u32| {
            vec![While(1), Body, Iteration(outer), While(1), segment, Iteration(inner)]
        };
        let graph = cfg(vec![
            block(vec![Entry], false, vec![1, 4]),
            block(vec![While(1), Body, Iteration(1)], true, vec![2, 3]),
            block(inner(1, Body, 1), true, vec![4]),
            block(inner(1, Exit, 0), true, vec![4]),
            block(vec![While(1), Body, Iteration(2)], true, vec![5, 6]),
            block(inner(2, Body, 1), true, vec![7]),
            block(inner(2, Exit, 0), true, vec![7]),
            block(vec![], false, vec![]),
        ]);
        let combinations = goals_counted(&graph, UnrollGoals::Combinations);
        assert_eq!(combinations.len(), 6);
        let per_loop = goals_counted(&graph, UnrollGoals::PerLoop);
        let listed: Vec<(&str, Vec<u32>)> =
            per_loop.iter().map(|goal| (goal.id.0.as_str(), goal.blocks().map(|block| block.0).collect())).collect();
        assert_eq!(
            listed,
            [
                ("r/while#1/body@1", vec![1]),
                ("r/while#1/body@*/while#1/body@1", vec![2, 5]),
                ("r/while#1/body@*/while#1/exit@0", vec![3, 6]),
                ("r/while#1/body@2", vec![4]),
            ]
        );
        let passed = [BlockId(6)].into_iter().collect();
        assert!(per_loop[2].entered_by(&passed) && !per_loop[1].entered_by(&passed));
        assert!(per_loop[1].leaf && per_loop[2].leaf && !per_loop[0].leaf);
        assert_eq!(UnrollGoals::parse("per-loop"), Some(UnrollGoals::PerLoop));
        assert_eq!(UnrollGoals::parse(UnrollGoals::Combinations.as_str()), Some(UnrollGoals::Combinations));
    }
}
