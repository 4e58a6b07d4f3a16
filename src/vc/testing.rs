//! Test helpers: checked programs from Boogie snippets, and acyclic [`Cfg`]s built by
//! hand from implementations written in unstructured form.
//!
//! A test implementation is a list of labelled blocks: `L: cmds; goto A, B;` or
//! `return;`. [`cfg`] maps it one-to-one onto a `Cfg` (block i is the i-th label; an
//! unlabelled start is the entry block), so tests control the graph exactly and do not
//! depend on the lowering pass. Map updates `a[i][j] := e` become whole-variable
//! assignments `a := a[i := a[i][j := e]]`, as the `Cfg` invariants require.
//!
//! [`goal_cfg`] also splits every labelled block after its leading `assume`s, as the
//! seeding stage does with goal blocks, so that "reaching the start of block `L`" means
//! passing `L`'s guard: [`block`] names the second half.

use crate::cfg::{Block, BlockId, Cfg, Cmd, CmdKind, Origin, Terminator};
use crate::sema::hir::{self, ExprKind, StmtKind};
use crate::vc::{encode, Encoding};
use std::collections::BTreeMap;

/// The checked program of `source` (panics with the diagnostics if it has errors).
pub(crate) fn program(source: &str) -> hir::Program {
    crate::sema::tests::expect_accepted(source)
}

/// The block of `cfg` labelled `label` (block names are the labels).
pub(crate) fn block(cfg: &Cfg, label: &str) -> BlockId {
    cfg.block_ids()
        .find(|&id| {
            cfg.block(id).origin.path.0.first().map(ToString::to_string).as_deref() == Some(&format!("goto:{label}"))
        })
        .unwrap_or_else(|| panic!("no block labelled `{label}`"))
}

/// The encoding of implementation `name` of `source`, and its hand-built `Cfg`.
pub(crate) fn encoding(source: &str, name: &str) -> (Cfg, Encoding) {
    let program = program(source);
    let cfg = cfg(&program, name);
    let encoding = encode(&program, &cfg);
    (cfg, encoding)
}

/// [`encoding`] of the [`goal_cfg`].
pub(crate) fn goal_encoding(source: &str, name: &str) -> (Cfg, Encoding) {
    let program = program(source);
    let cfg = goal_cfg(&program, name);
    let encoding = encode(&program, &cfg);
    (cfg, encoding)
}

/// [`cfg`], with each labelled block split after its leading `assume`s: the guard keeps
/// the block's place (and the edges into it), the rest moves to a new block at the end
/// that carries the label.
pub(crate) fn goal_cfg(program: &hir::Program, name: &str) -> Cfg {
    let mut cfg = cfg(program, name);
    for index in 0..cfg.blocks.len() {
        let guard = &cfg.blocks[index];
        let leading = guard.cmds.iter().take_while(|cmd| matches!(cmd.kind, CmdKind::Assume { .. })).count();
        if leading == 0 || !guard.origin.starts_branch {
            continue;
        }
        let rest_id = BlockId::from_index(cfg.blocks.len());
        let guard = &mut cfg.blocks[index];
        let rest = Block {
            cmds: guard.cmds.split_off(leading),
            terminator: std::mem::replace(&mut guard.terminator, Terminator::Goto(vec![rest_id])),
            origin: std::mem::take(&mut guard.origin),
            span: guard.span,
        };
        cfg.blocks.push(rest);
    }
    cfg
}

/// The `Cfg` of implementation `name`, written with labels and `goto`s only.
pub(crate) fn cfg(program: &hir::Program, name: &str) -> Cfg {
    let (index, implementation) = program
        .implementations
        .iter()
        .enumerate()
        .find(|(_, implementation)| implementation.name == name)
        .unwrap_or_else(|| panic!("no implementation `{name}`"));
    let mut builder = Builder {
        program,
        locals: &implementation.locals,
        label_names: &implementation.labels,
        blocks: Vec::new(),
        labels: BTreeMap::new(),
    };
    builder.lower(&implementation.body);
    if builder.blocks.is_empty() {
        builder.start(implementation.span, None);
    }
    Cfg {
        implementation: hir::ImplId::from_index(index),
        procedure: implementation.proc,
        name: implementation.name.clone(),
        locals: implementation.locals.clone(),
        blocks: builder.finish(),
        entry: BlockId(0),
        loops: Vec::new(),
        span: implementation.span,
    }
}

struct Builder<'p> {
    program: &'p hir::Program,
    locals: &'p [hir::Local],
    label_names: &'p [hir::Label],
    /// Blocks under construction, with the labels their `goto`s name.
    blocks: Vec<(Block, Option<Vec<hir::LabelId>>)>,
    labels: BTreeMap<hir::LabelId, BlockId>,
}

impl Builder<'_> {
    fn lower(&mut self, body: &[hir::Stmt]) {
        let mut open = false;
        for stmt in body {
            if let StmtKind::Label(label) = &stmt.kind {
                if open {
                    // Falling into a label is an implicit `goto` to it.
                    self.current().1 = Some(vec![*label]);
                }
                self.labels.insert(*label, BlockId::from_index(self.blocks.len()));
                self.start(stmt.span, Some(*label));
                open = true;
                continue;
            }
            if !open {
                self.start(stmt.span, None);
                open = true;
            }
            match &stmt.kind {
                StmtKind::Goto { targets } => {
                    self.current().1 = Some(targets.clone());
                    open = false;
                }
                StmtKind::Return => open = false,
                _ => {
                    let cmd = self.cmd(stmt);
                    self.current().0.cmds.push(cmd);
                }
            }
        }
    }

    fn start(&mut self, span: crate::source::Span, label: Option<hir::LabelId>) {
        let path = label.map(|label| {
            let name = self.label_names[label.index()].name.clone();
            crate::cfg::StructPath(vec![crate::cfg::Segment::Goto(name)])
        });
        let origin = Origin { path: path.unwrap_or_default(), starts_branch: label.is_some() };
        self.blocks.push((Block { cmds: Vec::new(), terminator: Terminator::Return, origin, span }, None));
    }

    fn current(&mut self) -> &mut (Block, Option<Vec<hir::LabelId>>) {
        self.blocks.last_mut().expect("a statement belongs to a block")
    }

    fn finish(self) -> Vec<Block> {
        let labels = self.labels;
        self.blocks
            .into_iter()
            .map(|(mut block, targets)| {
                if let Some(targets) = targets {
                    block.terminator = Terminator::Goto(targets.iter().map(|label| labels[label]).collect());
                }
                block
            })
            .collect()
    }

    fn cmd(&self, stmt: &hir::Stmt) -> Cmd {
        let kind = match &stmt.kind {
            StmtKind::Assert { expr, .. } => {
                CmdKind::Assert { expr: expr.clone(), reason: crate::cfg::AssertReason::User }
            }
            StmtKind::Assume { expr, .. } => {
                CmdKind::Assume { expr: expr.clone(), reason: crate::cfg::AssumeReason::User }
            }
            StmtKind::Havoc { vars } => CmdKind::Havoc { vars: vars.clone(), loop_cut: false },
            StmtKind::Assign { lhs, rhs } => CmdKind::Assign {
                targets: lhs.iter().map(|target| target.var).collect(),
                values: lhs.iter().zip(rhs).map(|(target, value)| self.whole(target, value)).collect(),
            },
            StmtKind::Call { callee, args, outs, free, .. } => {
                CmdKind::Call { callee: *callee, args: args.clone(), outs: outs.clone(), free: *free }
            }
            other => panic!("test implementations use labels and gotos only, found {other:?}"),
        };
        Cmd { kind, span: stmt.span }
    }

    /// `a[i][j] := e` ⇒ the new value of `a`: `a[i := a[i][j := e]]`.
    fn whole(&self, target: &hir::Lhs, value: &hir::Expr) -> hir::Expr {
        let ty = match target.var {
            hir::Var::Local(id) => self.locals[id.index()].ty.clone(),
            hir::Var::Global(id) => self.program.globals[id.index()].ty.clone(),
            other => panic!("assignment to {other:?}"),
        };
        let base = hir::Expr { kind: ExprKind::Var(target.var), ty, span: target.span };
        update(base, &target.indices, value)
    }
}

fn update(map: hir::Expr, indices: &[Vec<hir::Expr>], value: &hir::Expr) -> hir::Expr {
    let Some((first, rest)) = indices.split_first() else { return value.clone() };
    let hir::Type::Map(map_type) = &map.ty else { panic!("only maps are indexed") };
    let span = map.span;
    let cell = hir::Expr {
        kind: ExprKind::Select { map: Box::new(map.clone()), indices: first.clone() },
        ty: map_type.range.clone(),
        span,
    };
    let new_cell = update(cell, rest, value);
    let ty = map.ty.clone();
    hir::Expr {
        kind: ExprKind::Store { map: Box::new(map), indices: first.clone(), value: Box::new(new_cell) },
        ty,
        span,
    }
}
