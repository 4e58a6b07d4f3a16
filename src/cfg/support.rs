//! What the engine runs: the constructs of the checked language that lowering, the
//! encoding and the interpreter do not handle yet, found before any of them starts.
//!
//! Input: a checked program (every construct of Boogie 2 that `check` accepts). Output:
//! one [`CfgError::NotExecutable`] per kind of construct outside the engine's language,
//! at its first occurrence, with how many more there are. Every stage after lowering
//! may then assume that these constructs are absent: bit-vectors have at least one bit,
//! every builtin function is one of [`crate::vc::theory`]'s operations at its types,
//! and there are no `extends` orders or `<:` left as an operator (checking makes every
//! other its type's order function, `sema::order`). `check` accepts them; `seed`,
//! `prove-tests`, `verify`, `run-tests` and `mutate` stop here with these diagnostics
//! rather than guess. Builtins are reported one error per function, at the function.
//! Polymorphism and type constructors with arguments are gone before this point: the
//! driver runs [`crate::mono`] first.

use super::error::{CfgError, EngineConstruct};
use crate::sema::hir::{self, BinaryOp, ExprKind, StmtKind, Type};
use crate::source::Span;
use crate::vc::theory::{self, Builtin};
use crate::vc::Sort;
use std::collections::BTreeMap;

/// The reason for `unreachable!` in the engine's matches over constructs this module
/// rejects.
pub const OUTSIDE_ENGINE: &str = "cfg::support rejects programs outside the engine's language before lowering";

/// The constructs of `program` outside the engine's language, one error per kind.
pub fn unsupported(program: &hir::Program) -> Vec<CfgError> {
    let mut found = Found::default();
    found.program(program);
    let constructs = found.first.into_iter().map(|(construct, (span, count))| CfgError::NotExecutable {
        construct,
        span,
        more: count - 1,
    });
    constructs.chain(program.functions.iter().filter_map(builtin_error)).collect()
}

/// What is wrong with `function`'s builtin, if it has one.
fn builtin_error(function: &hir::Function) -> Option<CfgError> {
    let span = function.span;
    match theory::builtin(function)? {
        Err(name) => Some(CfgError::UnknownBuiltin { name, span }),
        Ok(builtin) if !builtin_fits(builtin, function) => {
            let name = function.attrs.iter().find_map(|attr| match attr.args.first() {
                Some(crate::syntax::ast::AttrArg::Str { value, .. }) => Some(value.clone()),
                _ => None,
            });
            Some(CfgError::BuiltinSignature { name: name.unwrap_or_default(), span })
        }
        Ok(_) => None,
    }
}

/// Whether the builtin applies to `function`'s parameter types and gives its result
/// type, so that the encoding may replace each application by the operation.
fn builtin_fits(builtin: Builtin, function: &hir::Function) -> bool {
    let scalar = |ty: &Type| match ty {
        Type::Int => Some(Sort::Int),
        Type::Bool => Some(Sort::Bool),
        Type::Real => Some(Sort::Real),
        Type::BitVector(width) if *width > 0 => Some(Sort::BitVec(*width)),
        _ => None,
    };
    let Some(params) = function.params.iter().map(|param| scalar(&param.ty)).collect::<Option<Vec<Sort>>>() else {
        return false;
    };
    let Some(result) = scalar(&function.result) else { return false };
    match builtin {
        Builtin::Arith(_) => params == [Sort::Int, Sort::Int] && result == Sort::Int,
        Builtin::Op(op) => op.sort(&params.iter().collect::<Vec<_>>()) == Ok(result),
    }
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
            Type::Int | Type::Bool | Type::Real | Type::Param(_) => {}
            Type::BitVector(width) => {
                if *width == 0 {
                    self.note(EngineConstruct::EmptyBitVector, span);
                }
            }
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
                StmtKind::Call { args, .. } => args.iter().for_each(|arg| self.expr(arg)),
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
            ExprKind::BitVector { width: 0, .. } => self.note(EngineConstruct::EmptyBitVector, expr.span),
            // Checking made every other `<:` its type's order function (`sema::order`).
            ExprKind::Binary { op: BinaryOp::Subtype, .. } => {
                self.note(EngineConstruct::OrderAtTypeParameter, expr.span)
            }
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
    fn builtins_are_checked_at_their_functions() {
        let source = r#"
            function {:bvbuiltin "bvadd"} add(x: bv8, y: bv8): bv8;
            function {:bvbuiltin "sign_extend 24"} widen(x: bv8): bv32;
            function {:builtin "div"} quotient(x: int, y: int): int;
            function {:bvbuiltin "bvult"} wrong(x: bv8, y: bv16): bool;
            function {:builtin "fp.add"} unknown(x: int): int;
        "#;
        let program = crate::sema::tests::expect_accepted(source);
        let errors = unsupported(&program);
        assert!(
            matches!(&errors[..], [
            CfgError::BuiltinSignature { name: wrong, .. },
            CfgError::UnknownBuiltin { name: unknown, .. },
        ] if wrong == "bvult" && unknown == "fp.add"),
            "{errors:?}"
        );
    }

    #[test]
    fn each_construct_is_reported_once() {
        let source = r"
            type Field _;
            const f: Field int;
            function g<T>(x: T): int;
            var r: real;
            var z: bv0;
            procedure P(b: bv8) returns (c: bv8) modifies r; { c := b; r := 1.5 + r; call Q(); free call Q(); }
            function h<T>(x: T): bool { x <: x }
            procedure Q();
        ";
        assert_eq!(constructs(source), vec![EngineConstruct::EmptyBitVector, EngineConstruct::OrderAtTypeParameter]);
    }
}
