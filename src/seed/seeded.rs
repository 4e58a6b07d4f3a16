//! Conditional seeding (seeds/001 §2.2): number the selected goals 1..N, add a fresh
//! `bn` with `0 <= bn <= N`, and put `if (bn == i) { assert false; }` at goal i.
//!
//! Input: a [`Cfg`] and its [`Goal`]s. Output: a [`SeededCfg`] in which every seed point
//! is the start of a block, and the [`Seed`]s that say which.
//!
//! Where a seed goes: after the goal block's leading `assume`s — the branch guard, a
//! goto target's filtering assumptions, `where` clauses — as in the paper's
//! `if (c) { assert false; T(B1) }`: seeding before the guard would make the assertion
//! fail on executions that never take the branch. [`seed`] splits each such block in
//! two (the assumes, then the rest), so "execution reaches the start of block B" is
//! exactly "the seed of B fails" for every later stage; the encoder needs no notion of
//! positions inside blocks for goals.
//!
//! Why `bn` is conditional (seeds/001 §2.2): seeding `assert false` everywhere at once
//! makes every block after a seeded one unreachable for the prover ("seeded
//! unreachability"); with `bn = i` every seed but the i-th is inert, so each goal is
//! exactly as reachable as in the original program, and `bn = 0` is the original
//! program (Lemmas 1 and 2 of §3.2).

use crate::cfg::{Block, BlockId, Cfg, CmdKind, Origin, Terminator};
use crate::seed::goals::{Goal, GoalId, GoalSelection};
use crate::sema::hir;
use std::collections::{BTreeMap, BTreeSet};

/// One seed: `if (bn == number) { assert false; }` at the start of `block`, or, for a
/// goal of several blocks (the copies of [`crate::seed::goals::UnrollGoals::PerLoop`]),
/// the one assertion reached from the start of each of them, so that a verifier reports
/// one error per goal (see [`crate::seed::print`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seed {
    /// 1..=N, in block order.
    pub number: u32,
    pub goal: GoalId,
    pub block: BlockId,
    /// The goal's other blocks ([`Goal::copies`]).
    pub copies: Vec<BlockId>,
}

/// A CFG whose seed points are block starts, with its goals (renumbered blocks) and the
/// seeds of the selected goals.
#[derive(Clone, Debug)]
pub struct SeededCfg {
    pub cfg: Cfg,
    /// Every goal, its `block` being the block that starts at its seed point.
    pub goals: Vec<Goal>,
    pub seeds: Vec<Seed>,
    /// The block-number variable's name, fresh in the implementation and the program.
    pub bn: String,
}

/// Seeds the goals `selection` picks. `taken` holds every name the implementation can
/// see (globals, constants, functions, its locals), so `bn` shadows nothing.
pub fn seed(cfg: &Cfg, goals: &[Goal], selection: GoalSelection, taken: &BTreeSet<String>) -> SeededCfg {
    let mut split = cfg.clone();
    let mut goals = goals.to_vec();
    // The seed points split off each block: each is printed and numbered right after its
    // guard, so the latest split comes first.
    let mut after: BTreeMap<BlockId, Vec<BlockId>> = BTreeMap::new();
    for goal in &mut goals {
        goal.block = split_seed_point(&mut split, &mut after, goal.block);
        for copy in &mut goal.copies {
            *copy = split_seed_point(&mut split, &mut after, *copy);
        }
    }
    let order: Vec<BlockId> = cfg
        .block_ids()
        .flat_map(|id| std::iter::once(id).chain(after.get(&id).into_iter().flatten().copied()))
        .collect();
    let (cfg, new_id) = split.reordered(&order);
    for goal in &mut goals {
        goal.block = new_id[goal.block.index()];
        goal.copies.iter_mut().for_each(|copy| *copy = new_id[copy.index()]);
    }
    let seeds = goals
        .iter()
        .filter(|goal| selection.selects(goal))
        .zip(1..)
        .map(|(goal, number)| Seed { number, goal: goal.id.clone(), block: goal.block, copies: goal.copies.clone() })
        .collect();
    SeededCfg { cfg, goals, seeds, bn: fresh_name("bn", taken) }
}

/// The seed point of `block` ([`split_after_leading_assumes`]), recorded in `after` to be
/// numbered right after it.
fn split_seed_point(cfg: &mut Cfg, after: &mut BTreeMap<BlockId, Vec<BlockId>>, block: BlockId) -> BlockId {
    let seed_point = split_after_leading_assumes(cfg, block);
    if seed_point != block {
        after.entry(block).or_default().insert(0, seed_point);
    }
    seed_point
}

/// Moves the commands of `block` that follow its leading `assume`s into a new block, the
/// seed point, and returns it. A block without leading assumes is its own seed point.
fn split_after_leading_assumes(cfg: &mut Cfg, block: BlockId) -> BlockId {
    let leading =
        cfg.blocks[block.index()].cmds.iter().take_while(|cmd| matches!(cmd.kind, CmdKind::Assume { .. })).count();
    if leading == 0 {
        return block;
    }
    let rest_id = BlockId::from_index(cfg.blocks.len());
    let original = &mut cfg.blocks[block.index()];
    let rest = Block {
        cmds: original.cmds.split_off(leading),
        terminator: std::mem::replace(&mut original.terminator, Terminator::Goto(vec![rest_id])),
        // The branch's origin moves with its seed point; the guard block keeps the path
        // for printing but no longer starts the branch.
        origin: original.origin.clone(),
        span: original.span,
    };
    original.origin = Origin { starts_branch: false, ..original.origin.clone() };
    cfg.blocks.push(rest);
    rest_id
}

/// Every name visible in `cfg`'s implementation, which a fresh variable must avoid.
pub fn visible_names(program: &hir::Program, cfg: &Cfg) -> BTreeSet<String> {
    let declared = program
        .types
        .iter()
        .map(|decl| &decl.name)
        .chain(program.consts.iter().map(|decl| &decl.name))
        .chain(program.globals.iter().map(|decl| &decl.name))
        .chain(program.functions.iter().map(|decl| &decl.name))
        .chain(program.procedures.iter().map(|decl| &decl.name))
        .chain(cfg.locals.iter().map(|local| &local.name))
        .chain(program.implementations[cfg.implementation.index()].labels.iter().map(|label| &label.name));
    declared.cloned().collect()
}

/// `base`, or `base_1`, `base_2`, … — the first not in `taken`.
pub fn fresh_name(base: &str, taken: &BTreeSet<String>) -> String {
    if !taken.contains(base) {
        return base.to_string();
    }
    (1..).map(|n| format!("{base}_{n}")).find(|name| !taken.contains(name)).expect("some suffix is free")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg::{Cmd, Segment, StructPath};
    use crate::seed::goals::goals;
    use crate::source::Span;

    fn assume_true() -> Cmd {
        let expr = hir::Expr { kind: hir::ExprKind::Bool(true), ty: hir::Type::Bool, span: Span::default() };
        Cmd { kind: CmdKind::Assume { expr, reason: crate::cfg::AssumeReason::Guard }, span: Span::default() }
    }

    fn havoc() -> Cmd {
        Cmd { kind: CmdKind::Havoc { vars: Vec::new(), loop_cut: false }, span: Span::default() }
    }

    fn block(cmds: Vec<Cmd>, path: Vec<Segment>, starts_branch: bool, targets: Vec<u32>) -> Block {
        let terminator = if targets.is_empty() {
            Terminator::Return
        } else {
            Terminator::Goto(targets.into_iter().map(BlockId).collect())
        };
        Block { cmds, terminator, origin: Origin { path: StructPath(path), starts_branch }, span: Span::default() }
    }

    /// `if (c) { havoc } else { }` lowered: entry, then (guard, havoc), else (guard).
    fn if_else() -> Cfg {
        use Segment::*;
        Cfg {
            implementation: hir::ImplId(0),
            procedure: hir::ProcId(0),
            name: "p".into(),
            locals: Vec::new(),
            blocks: vec![
                block(vec![], vec![Entry], true, vec![1, 2]),
                block(vec![assume_true(), havoc()], vec![If(1), Then], true, vec![3]),
                block(vec![assume_true()], vec![If(1), Else], true, vec![3]),
                block(vec![], vec![], false, vec![]),
            ],
            entry: BlockId(0),
            loops: Vec::new(),
            span: Span::default(),
        }
    }

    #[test]
    fn seed_points_follow_the_guards() {
        let cfg = if_else();
        let seeded = seed(&cfg, &goals(&cfg), GoalSelection::Leaves, &BTreeSet::new());
        assert_eq!(seeded.cfg.blocks.len(), 6);
        let numbers: Vec<(u32, &str, BlockId)> =
            seeded.seeds.iter().map(|seed| (seed.number, seed.goal.0.as_str(), seed.block)).collect();
        // Blocks: entry, then's guard, then's seed point, else's guard, else's seed point, join.
        assert_eq!(numbers, [(1, "p/if#1/then", BlockId(2)), (2, "p/if#1/else", BlockId(4))]);
        assert_eq!(seeded.cfg.blocks[0].terminator, Terminator::Goto(vec![BlockId(1), BlockId(3)]));
        // The guard stays in front of the seed point; the rest of the branch follows it.
        assert_eq!(seeded.cfg.blocks[1].cmds.len(), 1);
        assert_eq!(seeded.cfg.blocks[1].terminator, Terminator::Goto(vec![BlockId(2)]));
        assert_eq!(seeded.cfg.blocks[2].cmds.len(), 1);
        assert_eq!(seeded.cfg.blocks[2].terminator, Terminator::Goto(vec![BlockId(5)]));
        assert!(seeded.cfg.blocks[2].origin.starts_branch && !seeded.cfg.blocks[1].origin.starts_branch);
    }

    #[test]
    fn bn_is_fresh() {
        let taken: BTreeSet<String> = ["bn", "bn_1"].into_iter().map(String::from).collect();
        assert_eq!(fresh_name("bn", &taken), "bn_2");
        assert_eq!(fresh_name("x", &taken), "x");
    }
}
