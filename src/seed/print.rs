//! `seedgen seed`: the seeded program as Boogie text (seeds/001 §2.2, Fig. 5).
//!
//! Input: the checked program and one [`SeededCfg`] per implementation. Output: the
//! program's declarations, then each implementation as its unstructured graph with
//! `var bn: int;`, `assume 0 <= bn && bn <= N;` at the entry, and
//! `if (bn == i) { assert false; }` at the start of the block of seed `i` (for a goal of
//! several blocks, `if (bn == i) { goto seedi; }` at each, and one block `seedi: assert
//! false; return;` after the graph's: one assertion per goal). The block
//! variable is a local left uninitialized (the paper's variant "choosing the option of
//! making bn a local variable"), so the verifier chooses it: Boogie 2.4.1 run with a
//! large enough `/errorLimit` reports one failing `assert false` per reachable seed, and
//! nothing else on a correct program.

use crate::cfg::print::{print_declarations, print_instrumented_cfg, Instrumentation};
use crate::seed::seeded::SeededCfg;
use crate::sema::hir;
use crate::source::Span;
use crate::syntax::ast;
use num_bigint::BigUint;

/// The whole seeded program.
pub fn print_seeded_program(program: &hir::Program, seeded: &[SeededCfg]) -> String {
    let seeds: usize = seeded.iter().map(|cfg| cfg.seeds.len()).sum();
    let mut out = format!(
        "// Seeded by seedgen: {seeds} {} in {} {}.\n\
         // Verify with `boogie FILE /errorLimit:{}`: one error per reachable seed.\n\n",
        if seeds == 1 { "seed" } else { "seeds" },
        seeded.len(),
        if seeded.len() == 1 { "implementation" } else { "implementations" },
        seeds.max(1) + 1,
    );
    out.push_str(&print_declarations(program));
    for cfg in seeded {
        out.push('\n');
        out.push_str(&print_instrumented_cfg(program, &cfg.cfg, &instrumentation(program, cfg)));
    }
    out
}

fn instrumentation(program: &hir::Program, seeded: &SeededCfg) -> Instrumentation {
    let span = seeded.cfg.span;
    let bn = || var(&seeded.bn, span);
    let count = u32::try_from(seeded.seeds.len()).expect("fewer than 2^32 seeds per implementation");
    let range = binary(
        binary(int(0, span), ast::BinaryOp::Le, bn()),
        ast::BinaryOp::And,
        binary(bn(), ast::BinaryOp::Le, int(count, span)),
    );
    let mut block_prefixes =
        vec![(seeded.cfg.entry, vec![stmt(ast::StmtKind::Assume { attrs: Vec::new(), expr: range }, span)])];
    let taken = crate::seed::seeded::visible_names(program, &seeded.cfg);
    let mut trailing = Vec::new();
    for seed in &seeded.seeds {
        let block_span = seeded.cfg.block(seed.block).span;
        let guard = || binary(var(&seeded.bn, block_span), ast::BinaryOp::Eq, int(seed.number, block_span));
        if seed.copies.is_empty() {
            block_prefixes.push((seed.block, vec![if_then(guard(), assert_false(block_span), block_span)]));
            continue;
        }
        // A goal of several blocks: each jumps to one assertion, so that a verifier
        // reports the goal once, whichever copies it reaches.
        let label = crate::seed::seeded::fresh_name(&format!("seed{}", seed.number), &taken);
        let ident = || ast::Ident { name: label.clone(), span: block_span };
        for block in std::iter::once(seed.block).chain(seed.copies.iter().copied()) {
            let jump = stmt(ast::StmtKind::Goto { targets: vec![ident()] }, block_span);
            block_prefixes.push((block, vec![if_then(guard(), jump, block_span)]));
        }
        trailing.push(stmt(ast::StmtKind::Label(ident()), block_span));
        trailing.push(assert_false(block_span));
        trailing.push(stmt(ast::StmtKind::Return, block_span));
    }
    let declaration = ast::TypedIdents {
        attrs: Vec::new(),
        names: vec![ast::Ident { name: seeded.bn.clone(), span }],
        ty: ast::Type { kind: ast::TypeKind::Int, span },
        where_clause: None,
        span,
    };
    let locals = vec![ast::VarDecl { attrs: Vec::new(), groups: vec![declaration], span }];
    Instrumentation { locals, block_prefixes, trailing }
}

/// `if (guard) { then }`.
fn if_then(guard: ast::Expr, then: ast::Stmt, span: Span) -> ast::Stmt {
    let branch = ast::IfBranch { guard: ast::Guard::Expr(guard), block: ast::Block { stmts: vec![then], span }, span };
    stmt(ast::StmtKind::If { branches: vec![branch], else_block: None }, span)
}

fn assert_false(span: Span) -> ast::Stmt {
    stmt(ast::StmtKind::Assert { attrs: Vec::new(), expr: expr(ast::ExprKind::Bool(false), span) }, span)
}

fn expr(kind: ast::ExprKind, span: Span) -> ast::Expr {
    ast::Expr { kind, span }
}

fn var(name: &str, span: Span) -> ast::Expr {
    expr(ast::ExprKind::Var(ast::Ident { name: name.to_string(), span }), span)
}

fn int(value: u32, span: Span) -> ast::Expr {
    expr(ast::ExprKind::Int(BigUint::from(value)), span)
}

fn binary(lhs: ast::Expr, op: ast::BinaryOp, rhs: ast::Expr) -> ast::Expr {
    let span = lhs.span;
    expr(ast::ExprKind::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }, span)
}

fn stmt(kind: ast::StmtKind, span: Span) -> ast::Stmt {
    ast::Stmt { kind, span }
}
