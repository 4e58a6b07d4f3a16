//! The partial order `<:` as a function: for each type `T` a program compares with `<:`,
//! a body-less function `<:@T(T, T): bool` with Boogie's partial-order axioms for it
//! (reflexive, transitive, antisymmetric), and every `a <: b` at `T` an application of it.
//!
//! Boogie leaves `<:` uninterpreted beyond those axioms, so a test must say which
//! comparisons hold, as it does for any body-less function: as a function the order
//! gets a table in every model and test, which the interpreter reads and the suites
//! write, and its axioms are pruned, encoded and checked at replay like the program's
//! own. Runs after checking. `<:` at a type that mentions a type parameter (inside a
//! polymorphic declaration) is left as it is, and the engine refuses it
//! (`cfg::support`); `extends` orders are not translated here.

use super::hir::{self, BinaryOp, BoundVar, Expr, ExprKind, FunctionId, Quantifier, Stmt, StmtKind, Type};
use super::Checker;
use crate::source::Span;

/// The name prefix of the order functions: no identifier starts with `<`, so these
/// names are the program's only ones of this shape.
pub const ORDER_PREFIX: &str = "<:@";

/// Whether `function` is the order `<:` of some type.
pub fn is_order(function: &hir::Function) -> bool {
    function.name.starts_with(ORDER_PREFIX)
}

impl Checker {
    /// Replaces every `<:` at a type without parameters by an application of that
    /// type's order function, declared with its axioms.
    pub(super) fn order_functions(&mut self) {
        let mut types: Vec<(Type, Span)> = Vec::new();
        for_each_expr_mut(&mut self.program, &mut |expr| {
            if let ExprKind::Binary { op: BinaryOp::Subtype, lhs, .. } = &expr.kind {
                if !lhs.ty.is_polymorphic() && !types.iter().any(|(known, _)| *known == lhs.ty) {
                    types.push((lhs.ty.clone(), expr.span));
                }
            }
        });
        let first = self.program.functions.len();
        for (ty, span) in &types {
            let name = format!("{ORDER_PREFIX}{}", self.shown(ty));
            let func = FunctionId::from_index(self.program.functions.len());
            let params = vec![self.bound("x", ty, *span), self.bound("y", ty, *span)];
            self.program.functions.push(hir::Function {
                name,
                type_params: Vec::new(),
                params,
                result: Type::Bool,
                body: None,
                attrs: Vec::new(),
                span: *span,
                origin: None,
            });
            let axioms = self.order_axioms(func, ty, *span);
            self.program.axioms.extend(axioms);
        }
        let order_of =
            |ty: &Type| types.iter().position(|(known, _)| known == ty).map(|at| FunctionId::from_index(first + at));
        for_each_expr_mut(&mut self.program, &mut |expr| {
            let ExprKind::Binary { op: BinaryOp::Subtype, lhs, .. } = &expr.kind else { return };
            let Some(func) = order_of(&lhs.ty) else { return };
            let ExprKind::Binary { lhs, rhs, .. } = std::mem::replace(&mut expr.kind, ExprKind::Bool(false)) else {
                unreachable!("matched above")
            };
            expr.kind = ExprKind::Apply { func, type_args: Vec::new(), args: vec![*lhs, *rhs] };
        });
    }

    fn bound(&mut self, name: &str, ty: &Type, span: Span) -> BoundVar {
        BoundVar { id: self.fresh_bound(), name: Some(name.to_string()), ty: ty.clone(), span }
    }

    /// `∀x. x <: x`, `∀x y z. x <: y ∧ y <: z ⇒ x <: z` (triggered by both premises) and
    /// `∀x y. x <: y ∧ y <: x ⇒ x = y`, as Boogie axiomatizes `<:`.
    fn order_axioms(&mut self, func: FunctionId, ty: &Type, span: Span) -> Vec<hir::Axiom> {
        let [x, y, z] = ["x", "y", "z"].map(|name| self.bound(name, ty, span));
        let var = |bound: &BoundVar| Expr { kind: ExprKind::Var(hir::Var::Bound(bound.id)), ty: ty.clone(), span };
        let below = |a: &BoundVar, b: &BoundVar| Expr {
            kind: ExprKind::Apply { func, type_args: Vec::new(), args: vec![var(a), var(b)] },
            ty: Type::Bool,
            span,
        };
        let binary = |op: BinaryOp, lhs: Expr, rhs: Expr| Expr {
            kind: ExprKind::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) },
            ty: Type::Bool,
            span,
        };
        let forall = |vars: Vec<BoundVar>, triggers: Vec<Vec<Expr>>, body: Expr| hir::Axiom {
            expr: Expr {
                kind: ExprKind::Quant {
                    quantifier: Quantifier::Forall,
                    type_params: Vec::new(),
                    vars,
                    triggers,
                    attrs: Vec::new(),
                    body: Box::new(body),
                },
                ty: Type::Bool,
                span,
            },
            attrs: Vec::new(),
            span,
        };
        let reflexive = forall(vec![x.clone()], vec![vec![below(&x, &x)]], below(&x, &x));
        let chain = binary(BinaryOp::And, below(&x, &y), below(&y, &z));
        let transitive = forall(
            vec![x.clone(), y.clone(), z.clone()],
            vec![vec![below(&x, &y), below(&y, &z)]],
            binary(BinaryOp::Implies, chain, below(&x, &z)),
        );
        let both = binary(BinaryOp::And, below(&x, &y), below(&y, &x));
        let antisymmetric = forall(
            vec![x.clone(), y.clone()],
            vec![vec![below(&x, &y), below(&y, &x)]],
            binary(BinaryOp::Implies, both, binary(BinaryOp::Eq, var(&x), var(&y))),
        );
        vec![reflexive, transitive, antisymmetric]
    }
}

/// Calls `f` on every expression of `program`, subexpressions first (so `f` may replace
/// an expression after its parts were visited).
fn for_each_expr_mut(program: &mut hir::Program, f: &mut dyn FnMut(&mut Expr)) {
    let mut visit = |expr: &mut Expr| visit_mut(expr, f);
    for global in &mut program.globals {
        global.where_clause.iter_mut().for_each(&mut visit);
    }
    for function in &mut program.functions {
        function.body.iter_mut().for_each(&mut visit);
    }
    program.axioms.iter_mut().for_each(|axiom| visit(&mut axiom.expr));
    for procedure in &mut program.procedures {
        procedure.locals.iter_mut().flat_map(|local| &mut local.where_clause).for_each(&mut visit);
        procedure.requires.iter_mut().chain(&mut procedure.ensures).for_each(|clause| visit(&mut clause.expr));
    }
    for implementation in &mut program.implementations {
        implementation.locals.iter_mut().flat_map(|local| &mut local.where_clause).for_each(&mut visit);
        stmts_mut(&mut implementation.body, &mut visit);
    }
}

fn stmts_mut(stmts: &mut [Stmt], visit: &mut dyn FnMut(&mut Expr)) {
    for stmt in stmts {
        match &mut stmt.kind {
            StmtKind::Assert { expr, .. } | StmtKind::Assume { expr, .. } => visit(expr),
            StmtKind::Assign { lhs, rhs } => {
                lhs.iter_mut().flat_map(|target| target.indices.iter_mut().flatten()).for_each(&mut *visit);
                rhs.iter_mut().for_each(&mut *visit);
            }
            StmtKind::Call { args, .. } => args.iter_mut().for_each(&mut *visit),
            StmtKind::If { branches, else_block } => {
                for branch in branches {
                    if let hir::Guard::Expr(guard) = &mut branch.guard {
                        visit(guard);
                    }
                    stmts_mut(&mut branch.block, visit);
                }
                if let Some(block) = else_block {
                    stmts_mut(block, visit);
                }
            }
            StmtKind::While { guard, invariants, body } => {
                if let hir::Guard::Expr(guard) = guard {
                    visit(guard);
                }
                invariants.iter_mut().for_each(|invariant| visit(&mut invariant.expr));
                stmts_mut(body, visit);
            }
            StmtKind::Label(_)
            | StmtKind::Havoc { .. }
            | StmtKind::Break { .. }
            | StmtKind::Return
            | StmtKind::Goto { .. } => {}
        }
    }
}

/// `f` on `expr`'s subexpressions, then on `expr`. Expressions nest at most as deep as
/// the parser allows, so the recursion is bounded.
fn visit_mut(expr: &mut Expr, f: &mut dyn FnMut(&mut Expr)) {
    expr.for_each_child_mut(&mut |child| visit_mut(child, f));
    f(expr);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_type_compared_gets_one_order_function_with_its_axioms() {
        let program = accepts!(
            "type T; type U; const a, b: T; const c, d: U;
             axiom a <: b && c <: d;
             procedure P() returns (r: bool) { r := b <: a; }"
        );
        let orders: Vec<&str> = program
            .functions
            .iter()
            .filter(|function| is_order(function))
            .map(|function| function.name.as_str())
            .collect();
        assert_eq!(orders, ["<:@T", "<:@U"]);
        assert_eq!(program.axioms.len(), 1 + 3 * 2, "reflexive, transitive, antisymmetric per type");
        let printed = crate::cfg::print::print_declarations(&program);
        assert!(!printed.contains("<:@"), "the functions are Boogie's own `<:`:\n{printed}");
        assert!(printed.contains("axiom a <: b && c <: d;"), "{printed}");
        assert!(
            printed.contains("(forall x: T, y: T, z: T :: { x <: y, y <: z } x <: y && y <: z ==> x <: z)"),
            "{printed}"
        );
    }

    #[test]
    fn an_order_at_a_type_parameter_is_left_to_the_engine_to_refuse() {
        let program = accepts!("function f<X>(x: X, y: X): bool { x <: y }");
        assert!(!program.functions.iter().any(is_order));
    }
}
