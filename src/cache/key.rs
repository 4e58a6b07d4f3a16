//! Cache keys: the digest of everything one implementation's result depends on.
//!
//! Input: the parsed and checked program, its lowered graphs and the options of the
//! run. Output: per implementation, a [`Key`] (which result is valid) and a [`Slot`]
//! (which file holds it).
//!
//! What a result depends on, and how each part enters the key:
//! - the tool: seedgen's version and the identity (size, modification time) of the
//!   running executable, so a rebuilt seedgen never trusts its predecessor's results;
//! - the options that change results (goals, inlining and unrolling depths,
//!   minimization, the solver's settings), never `--proc`, `--jobs` or `--shard`;
//! - every declaration that is not a procedure (types, constants, functions, axioms,
//!   globals): axioms are global, and any of them may constrain any model;
//! - the names of all procedures (fresh names such as the seed variable `bn` avoid
//!   them);
//! - each procedure the implementation may reach through calls (its own included), by
//!   its declaration and all its implementations: callees are inlined, replayed and
//!   verified;
//! - the implementation's own text, byte for byte: goal spans are stored relative to
//!   its start, so the same text anywhere in the file gives the same goal positions.
//!
//! Declarations enter by their canonical print ([`print_decl`]), not their spans, so
//! moving a procedure or editing another one leaves the key alone.

use crate::cfg::{Cfg, CmdKind};
use crate::gen::GenOptions;
use crate::sema::hir;
use crate::source::SourceDb;
use crate::suite::digest;
use crate::syntax::ast;
use crate::syntax::printer::print_decl;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Bumped whenever what a key covers or what an entry holds changes (2: sections after
/// suite reduction, counts with `tests_generated`; 3: sections of suite
/// format 3, goal spans in the implementation's text).
pub const CACHE_VERSION: u32 = 3;

/// `sha256:<hex>` of everything an implementation's result depends on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key(pub String);

/// The name of the file an implementation's entry lives in: one per input file,
/// implementation and option set, so entries are replaced rather than piling up as the
/// program is edited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot(pub String);

/// What the keys of one run share, computed once.
pub struct Keys<'a> {
    program: &'a hir::Program,
    db: &'a SourceDb,
    /// The digest of the tool, the options and the program's non-procedure declarations.
    shared: String,
    /// The input file and the options, for slot names.
    slot_base: String,
    /// Per procedure: the digests of its declaration and implementations.
    procedures: BTreeMap<hir::ProcId, String>,
    /// Per procedure: the procedures its implementations call.
    calls: BTreeMap<hir::ProcId, BTreeSet<hir::ProcId>>,
}

impl<'a> Keys<'a> {
    pub fn new(
        file: &Path,
        ast: &ast::Program,
        program: &'a hir::Program,
        db: &'a SourceDb,
        cfgs: &[Cfg],
        options: &GenOptions,
    ) -> Keys<'a> {
        let options_text = options_text(options);
        let mut shared = format!("seedgen-cache {CACHE_VERSION}\n{}\n{options_text}\n", tool_identity());
        let mut by_name: BTreeMap<&str, String> = BTreeMap::new();
        for decl in &ast.decls {
            match decl {
                ast::Decl::Procedure(procedure) => by_name.entry(&procedure.name.name).or_default(),
                ast::Decl::Implementation(implementation) => by_name.entry(&implementation.name.name).or_default(),
                _ => &mut shared,
            }
            .push_str(&print_decl(decl));
        }
        let mut names: Vec<&str> = program.procedures.iter().map(|procedure| procedure.name.as_str()).collect();
        names.sort_unstable();
        shared.push_str(&format!("procedures {names:?}\n"));
        let procedures = program
            .procedures
            .iter()
            .enumerate()
            .map(|(index, procedure)| {
                let mut text = by_name.get(procedure.name.as_str()).cloned().unwrap_or_default();
                // `--infer-modifies` makes the clause depend on other bodies: the clause
                // the program ends up with is what counts.
                let modifies = procedure.modifies.iter().map(|global| program.globals[global.index()].name.as_str());
                text.push_str(&format!("modifies {:?}\n", modifies.collect::<Vec<_>>()));
                (hir::ProcId::from_index(index), digest(text.as_bytes()))
            })
            .collect();
        let mut calls: BTreeMap<hir::ProcId, BTreeSet<hir::ProcId>> = BTreeMap::new();
        for cfg in cfgs {
            calls.entry(cfg.procedure).or_default().extend(callees(cfg));
        }
        // Two files of one name in different directories may share a cache directory.
        let file = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
        let slot_base = format!("{}\n{options_text}", file.display());
        Keys { program, db, shared: digest(shared.as_bytes()), slot_base, procedures, calls }
    }

    /// The key and slot of `cfg`'s implementation.
    pub fn of(&self, cfg: &Cfg) -> (Slot, Key) {
        let implementation = &self.program.implementations[cfg.implementation.index()];
        let mut text = format!("{}\n", self.shared);
        for procedure in self.reachable(cfg.procedure) {
            text.push_str(&self.procedures[&procedure]);
            text.push('\n');
        }
        text.push_str(self.db.snippet(implementation.span));
        // Implementations of one procedure share a name; their place among them tells
        // them apart.
        let ordinal = self.program.procedures[cfg.procedure.index()]
            .implementations
            .iter()
            .position(|&id| id == cfg.implementation)
            .unwrap_or(0);
        let slot = digest(format!("{}\n{}#{ordinal}", self.slot_base, cfg.name).as_bytes());
        let hex = slot.trim_start_matches("sha256:");
        (Slot(hex[..32].to_string()), Key(digest(text.as_bytes())))
    }

    /// `root` and every procedure a call in one of its implementations may reach.
    fn reachable(&self, root: hir::ProcId) -> BTreeSet<hir::ProcId> {
        let mut reached = BTreeSet::new();
        let mut pending = vec![root];
        while let Some(procedure) = pending.pop() {
            if reached.insert(procedure) {
                pending.extend(self.calls.get(&procedure).into_iter().flatten());
            }
        }
        reached
    }
}

/// The procedures `cfg` calls.
pub fn callees(cfg: &Cfg) -> impl Iterator<Item = hir::ProcId> + '_ {
    cfg.blocks.iter().flat_map(|block| &block.cmds).filter_map(|cmd| match &cmd.kind {
        CmdKind::Call { callee, .. } => Some(*callee),
        _ => None,
    })
}

/// The options that change an implementation's result. `procedures` (`--proc`) only
/// selects implementations, so it is left out.
fn options_text(options: &GenOptions) -> String {
    let GenOptions { goals, procedures: _, session, inline_depth, unroll, max_unroll, unroll_goals, minimize, search } =
        options;
    // The run's deadline is no part of a result that was cached: one that hit it is not
    // stored (see `cacheable`).
    let session = crate::smt::SessionOptions { deadline: None, ..*session };
    format!("{goals:?} {session:?} inline {inline_depth} unroll {unroll} max_unroll {max_unroll} unroll_goals {} minimize {minimize} search {search}", unroll_goals.as_str())
}

/// seedgen's version and its executable's size and modification time: a build of the
/// same version with other code must not read this one's results.
fn tool_identity() -> String {
    let executable = std::env::current_exe().and_then(std::fs::metadata).ok();
    let size = executable.as_ref().map_or(0, std::fs::Metadata::len);
    let modified = executable
        .and_then(|metadata| metadata.modified().ok())
        .and_then(|time| time.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |since| since.as_nanos());
    format!("seedgen {} executable {size} {modified}", env!("CARGO_PKG_VERSION"))
}
