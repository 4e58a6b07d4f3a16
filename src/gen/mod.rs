//! Test generation for one program: every implementation through lowering, the loop
//! cut, goals, seeding, the encoding and one solver session ([`enumerate`]).
//!
//! ```text
//! hir::Program ─lower_all─▶ Cfg ─cut_loops─▶ acyclic ─goals, seed─▶ SeededCfg
//!   ─vc::encode─▶ Encoding ─smt::Session─▶ enumerate ─▶ ImplementationRun
//! ```

pub mod enumerate;
pub mod replay;

use crate::cfg::{self, Cfg};
use crate::interp::Machine;
use crate::seed::goals::{goals, Goal, GoalSelection};
use crate::seed::seeded::{seed, visible_names, SeededCfg};
use crate::sema::hir;
use crate::smt::{Session, SessionOptions};
use enumerate::Enumeration;
use replay::Replayer;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Options of a generation run.
#[derive(Clone, Debug, Default)]
pub struct GenOptions {
    pub goals: GoalSelection,
    /// Only implementations with these names (`--proc`); all when empty.
    pub procedures: Vec<String>,
    pub session: SessionOptions,
    /// Levels of calls to procedures with a body inlined (`--inline-depth`).
    pub inline_depth: u32,
}

/// What generation established for one implementation.
#[derive(Clone, Debug)]
pub struct ImplementationRun {
    pub implementation: hir::ImplId,
    pub name: String,
    /// The seeded, acyclic graph the tests were generated on.
    pub seeded: SeededCfg,
    pub enumeration: Enumeration,
    pub time: Duration,
}

impl ImplementationRun {
    pub fn goals(&self) -> &[Goal] {
        &self.seeded.goals
    }
}

/// The graphs of the implementations `options.procedures` names (all when empty).
pub fn select(cfgs: &[Cfg], options: &GenOptions) -> Vec<Cfg> {
    let selected = |cfg: &&Cfg| options.procedures.is_empty() || options.procedures.contains(&cfg.name);
    cfgs.iter().filter(selected).cloned().collect()
}

/// The graphs of `selected` with their calls inlined to `options.inline_depth`; `all`
/// are the graphs of every implementation.
pub fn inline(program: &hir::Program, all: &[Cfg], selected: &[Cfg], options: &GenOptions) -> Vec<Cfg> {
    selected.iter().map(|cfg| cfg::inline::inline_calls(program, all, cfg, options.inline_depth)).collect()
}

/// Generates tests for one implementation: `original` as lowered, `cfg` the same with
/// its calls inlined as wanted (loops not cut yet); `machine` replays every model.
/// `abstractions_verified` says whether the loop invariants and the contracts `cfg`
/// relies on are verified.
pub fn generate(
    program: &hir::Program,
    machine: &Machine,
    (original, cfg): (&Cfg, &Cfg),
    options: &GenOptions,
    abstractions_verified: bool,
) -> ImplementationRun {
    let start = Instant::now();
    let acyclic = cfg::cut::cut_loops(program, cfg);
    let seeded = seed(&acyclic, &goals(&acyclic), options.goals, &visible_names(program, &acyclic));
    let encoding = Arc::new(crate::vc::encode(program, &seeded.cfg));
    // UNSAT proves a goal dead only over a sound over-approximation: with no loop cut
    // and no call replaced by its contract the encoding is exact; otherwise the
    // invariants and contracts it relies on must be verified.
    let unsat_is_proof = abstractions_verified || (cfg.loops.is_empty() && encoding.abstractions.is_empty());
    let mut session = Session::new(encoding, options.session);
    let replayer = Replayer { machine, program, original, seeded: &seeded.cfg };
    let enumeration = enumerate::enumerate(&mut session, &replayer, &seeded.goals, unsat_is_proof);
    ImplementationRun {
        implementation: cfg.implementation,
        name: cfg.name.clone(),
        seeded,
        enumeration,
        time: start.elapsed(),
    }
}
