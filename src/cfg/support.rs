//! What the engine runs: the constructs of the checked language that lowering, the
//! encoding and the interpreter do not handle yet, found before any of them starts.
//!
//! Input: a checked program (every construct of Boogie 2 that `check` accepts). Output:
//! one [`CfgError::NotExecutable`] per kind of construct outside the engine's language,
//! at its first occurrence, with how many more there are. Every stage after lowering
//! may then assume that these constructs are absent: scalar types are `int` and `bool`,
//! and there are no bit-vector or real operations, `free call`s or `extends` orders.
//! `check` accepts them; `seed`, `prove-tests`, `verify`, `run-tests` and `mutate` stop
//! here with these diagnostics rather than guess. Polymorphism and type constructors
//! with arguments are gone before this point: the driver runs [`crate::mono`] first.

use super::error::{CfgError, EngineConstruct};
use crate::sema::hir::{self, BinaryOp, ExprKind, StmtKind, Type, UnaryOp};
use crate::source::Span;
use std::collections::BTreeMap;

/// The reason for `unreachable!` in the engine's matches over constructs this module
/// rejects.
pub const OUTSIDE_ENGINE: &str = "cfg::support rejects programs outside the engine's language before lowering";

/// The constructs of `program` outside the engine's language, one error per kind.
pub fn unsupported(program: &hir::Program) -> Vec<CfgError> {
    let mut found = Found::default();
    found.program(program);
    found
        .first
        .into_iter()
        .map(|(construct, (span, count))| CfgError::NotExecutable { construct, span, more: count - 1 })
        .collect()
}

/// The first occurrence of each construct and how often it occurs.
#[derive(Default)]
struct Found {
    first: BTreeMap<EngineConstruct, (Span, usize)>,
}

impl Found {
    fn note(&mut self, construct: EngineConstruct, span: Span) {
        let entry = self.first.entry(construct).or_insert((span, 0));
        entry.1 += 1;
    }

    fn program(&mut self, program: &hir::Program) {
        for constant in &program.consts {
            self.ty(&constant.ty, constant.span);
            if let Some(order) = &constant.order {
                self.note(EngineConstruct::Order, order.span);
            }
        }
        for global in &program.globals {
            self.ty(&global.ty, global.span);
            global.where_clause.iter().for_each(|expr| self.expr(expr));
        }
        for function in &program.functions {
            function.params.iter().for_each(|param| self.ty(&param.ty, param.span));
            self.ty(&function.result, function.span);
            function.body.iter().for_each(|body| self.expr(body));
        }
        program.axioms.iter().for_each(|axiom| self.expr(&axiom.expr));
        for procedure in &program.procedures {
            self.locals(&procedure.locals);
            let clauses = procedure.requires.iter().chain(&procedure.ensures);
            clauses.for_each(|clause| self.expr(&clause.expr));
        }
        for implementation in &program.implementations {
            self.locals(&implementation.locals);
            self.stmts(&implementation.body);
        }
    }

    fn locals(&mut self, locals: &[hir::Local]) {
        for local in locals {
            self.ty(&local.ty, local.span);
            local.where_clause.iter().for_each(|expr| self.expr(expr));
        }
    }

    fn ty(&mut self, ty: &Type, span: Span) {
        match ty {
            Type::Int | Type::Bool | Type::Param(_) => {}
            Type::Real => self.note(EngineConstruct::Real, span),
            Type::BitVector(_) => self.note(EngineConstruct::BitVector, span),
            Type::Named(_, args) => args.iter().for_each(|arg| self.ty(arg, span)),
            Type::Map(map) => {
                map.domain.iter().chain([&map.range]).for_each(|part| self.ty(part, span));
            }
        }
    }

    fn stmts(&mut self, stmts: &[hir::Stmt]) {
        for stmt in stmts {
            match &stmt.kind {
                StmtKind::Label(_) | StmtKind::Break { .. } | StmtKind::Return | StmtKind::Goto { .. } => {}
                StmtKind::Havoc { .. } => {}
                StmtKind::Assert { expr, .. } | StmtKind::Assume { expr, .. } => self.expr(expr),
                StmtKind::Assign { lhs, rhs } => {
                    lhs.iter().flat_map(|target| target.indices.iter().flatten()).for_each(|index| self.expr(index));
                    rhs.iter().for_each(|value| self.expr(value));
                }
                StmtKind::Call { free, args, .. } => {
                    if *free {
                        self.note(EngineConstruct::FreeCall, stmt.span);
                    }
                    args.iter().for_each(|arg| self.expr(arg));
                }
                StmtKind::If { branches, else_block } => {
                    for branch in branches {
                        if let hir::Guard::Expr(guard) = &branch.guard {
                            self.expr(guard);
                        }
                        self.stmts(&branch.block);
                    }
                    else_block.iter().for_each(|block| self.stmts(block));
                }
                StmtKind::While { guard, invariants, body } => {
                    if let hir::Guard::Expr(guard) = guard {
                        self.expr(guard);
                    }
                    invariants.iter().for_each(|invariant| self.expr(&invariant.expr));
                    self.stmts(body);
                }
            }
        }
    }

    /// Expressions nest at most as deep as the parser allows, so this recursion is
    /// bounded. Types are noted where they are declared (variables, constants, functions,
    /// bound variables), so an expression's own type adds nothing.
    fn expr(&mut self, expr: &hir::Expr) {
        match &expr.kind {
            ExprKind::Real(_) => self.note(EngineConstruct::Real, expr.span),
            ExprKind::BitVector { .. } | ExprKind::Extract { .. } => self.note(EngineConstruct::BitVector, expr.span),
            ExprKind::Unary { op: UnaryOp::ToInt | UnaryOp::ToReal, .. } => self.note(EngineConstruct::Real, expr.span),
            ExprKind::Binary { op: BinaryOp::RealDiv | BinaryOp::Power, .. } => {
                self.note(EngineConstruct::Real, expr.span)
            }
            ExprKind::Binary { op: BinaryOp::Concat, .. } => self.note(EngineConstruct::BitVector, expr.span),
            ExprKind::Quant { vars, .. } => {
                vars.iter().for_each(|var| self.ty(&var.ty, var.span));
            }
            _ => {}
        }
        expr.for_each_child(&mut |child| self.expr(child));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn constructs(source: &str) -> Vec<EngineConstruct> {
        let program = crate::sema::tests::expect_accepted(source);
        unsupported(&program)
            .into_iter()
            .map(|error| match error {
                CfgError::NotExecutable { construct, .. } => construct,
                other => panic!("unexpected {other:?}"),
            })
            .collect()
    }

    #[test]
    fn the_core_language_runs() {
        assert_eq!(constructs("type T; const c: T; procedure P(x: int) returns (y: bool) { y := x > 0; }"), vec![]);
    }

    #[test]
    fn each_construct_is_reported_once() {
        let source = r"
            type Field _;
            const f: Field int;
            function g<T>(x: T): int;
            var r: real;
            procedure P(b: bv8) returns (c: bv8) modifies r; { c := b; r := 1.5 + r; call Q(); free call Q(); }
            procedure Q();
        ";
        assert_eq!(
            constructs(source),
            vec![EngineConstruct::Real, EngineConstruct::BitVector, EngineConstruct::FreeCall,]
        );
    }
}
