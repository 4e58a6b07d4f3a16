//! Helpers for the unit tests of this module: the one place that drives the front end
//! and lowering for them, and a compact rendering of a graph to compare against.

use super::graph::{AssertReason, AssumeReason, Cfg, CmdKind, Terminator};
use super::print::print_expr;
use crate::sema::hir;
use crate::source::FileId;

/// Parses and checks `source`, which must be a valid program.
pub(super) fn program(source: &str) -> hir::Program {
    let (ast, parse_errors) = crate::syntax::parse(FileId(0), source);
    assert!(parse_errors.is_empty(), "the test program parses: {parse_errors:?}");
    let (program, errors) = crate::sema::check(&ast);
    program.unwrap_or_else(|| panic!("the test program checks: {errors:?}"))
}

/// The graph of the first implementation of `source`.
pub(super) fn lowered(source: &str) -> (hir::Program, Cfg) {
    let program = program(source);
    let cfg = super::lower::lower(&program, hir::ImplId(0)).expect("the test program lowers");
    (program, cfg)
}

/// One line per block: `b1 if#1/then*: assume a > 0; x := 1 -> b3`, a `*` marking the
/// first block of a branch; `assume`s and `assert`s not written by the user show why
/// they are there (`assert{inv 0}`, `assume{where}`).
pub(super) fn outline(program: &hir::Program, cfg: &Cfg) -> String {
    let expr = |expr: &hir::Expr| print_expr(program, &cfg.locals, expr);
    let name = |var: &hir::Var| match *var {
        hir::Var::Local(id) => cfg.locals[id.index()].name.clone(),
        hir::Var::Global(id) => program.globals[id.index()].name.clone(),
        hir::Var::Const(id) => program.consts[id.index()].name.clone(),
        hir::Var::Bound(id) => format!("#bound{}", id.0),
    };
    let mut out = String::new();
    for (id, block) in cfg.block_ids().zip(&cfg.blocks) {
        let star = if block.origin.starts_branch { "*" } else { "" };
        let cmds: Vec<String> = block
            .cmds
            .iter()
            .map(|cmd| match &cmd.kind {
                CmdKind::Assign { targets, values } => format!(
                    "{} := {}",
                    targets.iter().map(name).collect::<Vec<_>>().join(", "),
                    values.iter().map(expr).collect::<Vec<_>>().join(", ")
                ),
                CmdKind::Havoc { vars, .. } => {
                    format!("havoc {}", vars.iter().map(name).collect::<Vec<_>>().join(", "))
                }
                CmdKind::Assume { expr: e, reason } => format!("assume{} {}", assume_tag(*reason), expr(e)),
                CmdKind::Assert { expr: e, reason } => format!("assert{} {}", assert_tag(*reason), expr(e)),
                CmdKind::Call { callee, args, outs, free } => format!(
                    "{}call {}{}({})",
                    if *free { "free " } else { "" },
                    outs.iter().map(|out| format!("{} := ", name(out))).collect::<String>(),
                    program.procedures[callee.index()].name,
                    args.iter().map(expr).collect::<Vec<_>>().join(", ")
                ),
            })
            .collect();
        let exit = match &block.terminator {
            Terminator::Goto(targets) => {
                format!("-> {}", targets.iter().map(|target| format!("b{}", target.0)).collect::<Vec<_>>().join(", "))
            }
            Terminator::Return => "return".to_string(),
        };
        let body = cmds.iter().map(|cmd| format!("{cmd}; ")).collect::<String>();
        out.push_str(&format!("b{} {}{star}: {body}{exit}\n", id.0, block.origin.path));
    }
    out
}

fn assume_tag(reason: AssumeReason) -> String {
    match reason {
        AssumeReason::User | AssumeReason::Guard | AssumeReason::NegatedGuard => String::new(),
        AssumeReason::Where => "{where}".to_string(),
        AssumeReason::Invariant { index } => format!("{{inv {index}}}"),
        AssumeReason::LoopCut => "{cut}".to_string(),
    }
}

fn assert_tag(reason: AssertReason) -> String {
    match reason {
        AssertReason::User => String::new(),
        AssertReason::Unsubsumed => " {:subsumption 0}".to_string(),
        AssertReason::Invariant { free: false, index } => format!("{{inv {index}}}"),
        AssertReason::Invariant { free: true, index } => format!("{{free inv {index}}}"),
        AssertReason::InvariantOnEntry { index } => format!("{{entry {index}}}"),
        AssertReason::InvariantMaintained { index } => format!("{{maintained {index}}}"),
        AssertReason::Requires { clause, .. } => format!("{{requires {clause}}}"),
        AssertReason::Ensures { clause, .. } => format!("{{ensures {clause}}}"),
    }
}

/// The outline of the first implementation of `source`.
pub(super) fn check_lower(source: &str) -> String {
    let (program, cfg) = lowered(source);
    outline(&program, &cfg)
}

/// The outline of the first implementation of `source` after cutting its loops.
pub(super) fn check_cut(source: &str) -> String {
    let (program, cfg) = lowered(source);
    outline(&program, &super::cut::cut_loops(&program, &cfg))
}

/// The outline of the first implementation of `source` with its calls inlined `depth`
/// levels deep.
pub(super) fn check_inline(source: &str, depth: u32) -> String {
    let program = program(source);
    let (cfgs, errors) = super::lower::lower_all(&program);
    assert!(errors.is_empty(), "the test program lowers");
    outline(&program, &super::inline::inline_calls(&program, &cfgs, &cfgs[0], depth))
}

/// Compares an outline with an indented raw-string expectation.
pub(super) fn assert_outline(actual: &str, expected: &str) {
    let expected: String =
        expected.lines().map(str::trim).filter(|line| !line.is_empty()).map(|line| format!("{line}\n")).collect();
    assert_eq!(actual, expected, "\n--- actual ---\n{actual}--- expected ---\n{expected}");
}
