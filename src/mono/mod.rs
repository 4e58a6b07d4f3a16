//! Monomorphization: the checked program with its polymorphism instantiated away, so
//! that the engine (lowering, encoding, interpreter, suites) sees only ground types.
//!
//! Input: a checked [`Program`] (Boogie 2 with type constructors, polymorphic
//! functions, procedures and maps, and type quantifiers). Output: a [`Program`] in which
//! no declaration has type parameters, every uninterpreted type takes no arguments and
//! no map type is polymorphic, with the same meaning for every instance the program
//! uses, or a [`MonoError`] at a span. A program without polymorphism comes back
//! unchanged. Recent Boogie does the same by default (`/monomorphize`).
//!
//! The strategy: [`instances`] finds the ground instances the program uses, from its
//! monomorphic code and to a fixpoint over type-quantified expressions; [`build`]
//! writes one declaration per instance and splits each value of a polymorphic map type
//! into one monomorphic map per instance of its parameters (`Heap<int>`, `Heap<bool>`:
//! a heap `<a>[ref, Field a]a` is a map per field type). An instantiation that would not
//! terminate stops at [`MAX_TYPE_DEPTH`] or [`MAX_INSTANCES`] with a diagnostic.
//!
//! The driver runs this between checking and lowering for every engine command; names
//! of instances (`Seq int`, `Set#Card<int>`, `Heap<int>`) are what diagnostics and
//! suites show.

mod build;
pub mod error;
mod instances;
mod types;

#[cfg(test)]
mod tests;

pub use error::MonoError;

use crate::sema::hir::{Expr, ExprKind, Program, Type};
use crate::source::Span;
use std::time::Instant;

/// The deepest type an instance may have (`int` is 1, `Seq (Seq int)` 3): deep enough for
/// any program's own types and the few levels a prelude's axioms add, shallow enough that
/// an axiom building ever bigger types (`Seq T` to `Seq (Seq T)`) stops within
/// milliseconds.
pub const MAX_TYPE_DEPTH: usize = 8;

/// The most instances (of functions, type constructors and quantifier bindings) one
/// program may need: Dafny's 27,000-line prelude with its program needs a few hundred.
pub const MAX_INSTANCES: usize = 20_000;

/// `program` without polymorphism (see the module documentation).
pub fn monomorphize(program: Program) -> Result<Program, MonoError> {
    monomorphize_until(program, None)
}

/// [`monomorphize`], stopped with [`MonoError::TimeLimit`] once `deadline` has passed.
pub fn monomorphize_until(program: Program, deadline: Option<Instant>) -> Result<Program, MonoError> {
    if !is_polymorphic(&program) {
        return Ok(program);
    }
    let program = &program;
    let instances = instances::collect(program, deadline)?;
    let fresh_spans: Vec<Span> = instances
        .fresh
        .iter()
        .map(|name| {
            let param = program.type_params.iter().find(|param| name.starts_with(param.name.as_str()));
            param.map_or(Span::default(), |param| param.span)
        })
        .collect();
    build::build(program, &instances, &fresh_spans, deadline)
}

/// Whether `deadline` has passed.
fn past(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|deadline| Instant::now() >= deadline)
}

/// Whether anything in `program` has type parameters or a type with arguments.
pub fn is_polymorphic(program: &Program) -> bool {
    let polymorphic_type = |ty: &Type| matches!(ty, Type::Named(_, args) if !args.is_empty()) || ty.is_polymorphic();
    program.types.iter().any(|decl| decl.arity > 0)
        || program.functions.iter().any(|function| !function.type_params.is_empty())
        || program.procedures.iter().any(|procedure| !procedure.type_params.is_empty())
        || program.consts.iter().any(|constant| polymorphic_type(&constant.ty))
        || program.globals.iter().any(|global| polymorphic_type(&global.ty))
        || program.functions.iter().any(|function| function.params.iter().any(|param| polymorphic_type(&param.ty)))
        || program.procedures.iter().any(|procedure| procedure.locals.iter().any(|local| polymorphic_type(&local.ty)))
        || program.implementations.iter().any(|body| body.locals.iter().any(|local| polymorphic_type(&local.ty)))
        || program.axioms.iter().any(|axiom| mentions_type_quantifier(&axiom.expr))
        || program.functions.iter().filter_map(|function| function.body.as_ref()).any(mentions_type_quantifier)
        || program.procedures.iter().any(|procedure| {
            procedure.requires.iter().chain(&procedure.ensures).any(|clause| mentions_type_quantifier(&clause.expr))
        })
        || program.implementations.iter().any(|body| crate::mono::stmts_mention_type_quantifier(&body.body))
}

fn mentions_type_quantifier(expr: &Expr) -> bool {
    let mut found = matches!(&expr.kind, ExprKind::Quant { type_params, vars, .. }
        if !type_params.is_empty() || vars.iter().any(|var| var.ty.is_polymorphic()));
    if !found {
        expr.for_each_child(&mut |child| found = found || mentions_type_quantifier(child));
    }
    found
}

fn stmts_mention_type_quantifier(stmts: &[crate::sema::hir::Stmt]) -> bool {
    use crate::sema::hir::{Guard, StmtKind};
    let guard = |guard: &Guard| matches!(guard, Guard::Expr(expr) if mentions_type_quantifier(expr));
    stmts.iter().any(|stmt| match &stmt.kind {
        StmtKind::Assert { expr, .. } | StmtKind::Assume { expr, .. } => mentions_type_quantifier(expr),
        StmtKind::Assign { rhs, .. } => rhs.iter().any(mentions_type_quantifier),
        StmtKind::Call { args, .. } => args.iter().any(mentions_type_quantifier),
        StmtKind::If { branches, else_block } => {
            branches.iter().any(|branch| guard(&branch.guard) || stmts_mention_type_quantifier(&branch.block))
                || else_block.as_deref().is_some_and(stmts_mention_type_quantifier)
        }
        StmtKind::While { guard: condition, invariants, body } => {
            guard(condition)
                || invariants.iter().any(|clause| mentions_type_quantifier(&clause.expr))
                || stmts_mention_type_quantifier(body)
        }
        _ => false,
    })
}
