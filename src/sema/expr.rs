//! Expressions: name lookup in a [`Scope`] and the typing rules, `ast::Expr` →
//! `hir::Expr`.
//!
//! Every checked expression carries its type; a subexpression that failed to check has
//! the error type, which every rule accepts silently, so one mistake is one error.
//! Expressions nest at most `MAX_EXPR_DEPTH` deep (the parser guarantees it), so the
//! recursion is bounded; each rule lives in its own function so that the recursive
//! dispatcher's frame stays small.

use super::error::{DeclKind, NameKind, OldContext, SemaError, Unsupported};
use super::hir::{self, BinaryOp, BoundId, LocalId, LocalKind, Quantifier, Type, UnaryOp, Var};
use super::types::{compatible, is_error, join, map_type, ERROR};
use super::{span_of_names, Checker, GlobalValue};
use crate::source::Span;
use crate::syntax::ast;
use num_bigint::BigInt;
use std::collections::BTreeMap;

/// What names an expression can see, besides the global constants and variables.
pub(super) struct Scope<'a> {
    /// The locals table of the enclosing procedure or implementation.
    pub(super) locals: &'a [hir::Local],
    /// The visible locals by name (a `requires` clause sees only the ins).
    pub(super) names: &'a BTreeMap<String, LocalId>,
    /// Bound variables, innermost last.
    pub(super) bound: Vec<BoundName>,
    /// `None` where `old` is allowed, else where the expression is (for the message).
    pub(super) old: Option<OldContext>,
}

pub(super) struct BoundName {
    pub(super) name: String,
    pub(super) id: BoundId,
    pub(super) ty: Type,
}

static NO_NAMES: BTreeMap<String, LocalId> = BTreeMap::new();

impl Scope<'static> {
    /// The scope of a declaration outside every procedure.
    pub(super) fn global(old: OldContext) -> Scope<'static> {
        Scope { locals: &[], names: &NO_NAMES, bound: Vec::new(), old: Some(old) }
    }
}

/// A placeholder for an expression that failed to check; it never reaches a returned HIR.
fn error_expr(span: Span) -> hir::Expr {
    hir::Expr { kind: hir::ExprKind::Bool(false), ty: ERROR, span }
}

fn typed(kind: hir::ExprKind, ty: Type, span: Span) -> hir::Expr {
    hir::Expr { kind, ty, span }
}

impl Checker {
    /// The recursive dispatcher. Only the rules with subexpressions recurse, and each of
    /// them checks its children and hands them to a non-recursive `finish_*` function,
    /// so that the frames on the recursion path hold little more than the children.
    pub(super) fn expr(&mut self, scope: &mut Scope, expr: &ast::Expr) -> hir::Expr {
        let span = expr.span;
        match &expr.kind {
            ast::ExprKind::Apply { func, args } => self.apply_expr(scope, func, args, span),
            ast::ExprKind::Old(operand) => self.old_expr(scope, operand, span),
            ast::ExprKind::Unary { op, operand } => self.unary_expr(scope, *op, operand, span),
            ast::ExprKind::Binary { op, lhs, rhs } => self.binary_expr(scope, *op, lhs, rhs, span),
            ast::ExprKind::Select { map, indices } => self.select_expr(scope, map, indices, span),
            ast::ExprKind::Store { map, indices, value } => self.store_expr(scope, map, indices, value, span),
            ast::ExprKind::Extract { operand, .. } => {
                self.unsupported_operand_expr(scope, operand, span, Unsupported::Extract)
            }
            ast::ExprKind::Convert { operand, .. } => {
                self.unsupported_operand_expr(scope, operand, span, Unsupported::Conversion)
            }
            ast::ExprKind::IfThenElse { cond, then_expr, else_expr } => {
                self.if_then_else_expr(scope, [cond, then_expr, else_expr], span)
            }
            ast::ExprKind::Quant { .. } => self.quant_expr(scope, expr),
            _ => self.leaf_expr(scope, expr),
        }
    }

    /// Checks a list of expressions (arguments, indices, a trigger).
    pub(super) fn exprs(&mut self, scope: &mut Scope, exprs: &[ast::Expr]) -> Vec<hir::Expr> {
        let mut checked = Vec::with_capacity(exprs.len());
        for expr in exprs {
            checked.push(self.expr(scope, expr));
        }
        checked
    }

    /// Reports `found` where `expected` was needed, unless either is the error type.
    pub(super) fn expect_type(&mut self, expr: &hir::Expr, expected: &Type, because: Option<Span>) {
        if !compatible(&expr.ty, expected) {
            let (expected, found) = (self.shown(expected), self.shown(&expr.ty));
            self.error(SemaError::Mismatch { span: expr.span, expected, found, because });
        }
    }

    /// Checks an expression that must be a boolean (assertions, guards, contracts).
    pub(super) fn bool_expr(&mut self, scope: &mut Scope, expr: &ast::Expr) -> hir::Expr {
        let checked = self.expr(scope, expr);
        self.expect_type(&checked, &Type::Bool, None);
        checked
    }

    fn unsupported_expr(&mut self, construct: Unsupported, span: Span) -> hir::Expr {
        self.error(SemaError::NotSupported { construct, span });
        error_expr(span)
    }

    #[inline(never)]
    fn leaf_expr(&mut self, scope: &Scope, expr: &ast::Expr) -> hir::Expr {
        let span = expr.span;
        match &expr.kind {
            ast::ExprKind::Bool(value) => typed(hir::ExprKind::Bool(*value), Type::Bool, span),
            ast::ExprKind::Int(value) => typed(hir::ExprKind::Int(BigInt::from(value.clone())), Type::Int, span),
            ast::ExprKind::Real(_) => self.unsupported_expr(Unsupported::RealLiteral, span),
            ast::ExprKind::BitVector { .. } => self.unsupported_expr(Unsupported::BitVectorLiteral, span),
            ast::ExprKind::Var(name) => match self.lookup_var(scope, name) {
                Some((var, ty)) => typed(hir::ExprKind::Var(var), ty, name.span),
                None => error_expr(name.span),
            },
            ast::ExprKind::Dropped => unreachable!("the parser never produces ExprKind::Dropped"),
            _ => unreachable!("`expr` dispatches expressions with children elsewhere"),
        }
    }

    /// Resolves a variable name: bound variables, then locals, then globals.
    pub(super) fn lookup_var(&mut self, scope: &Scope, name: &ast::Ident) -> Option<(Var, Type)> {
        if let Some(bound) = scope.bound.iter().rev().find(|bound| bound.name == name.name) {
            return Some((Var::Bound(bound.id), bound.ty.clone()));
        }
        if let Some(&id) = scope.names.get(&name.name) {
            return Some((Var::Local(id), scope.locals[id.index()].ty.clone()));
        }
        match self.values.get(&name.name).map(|symbol| (symbol.value, symbol.span)) {
            Some((GlobalValue::Const(id), _)) => Some((Var::Const(id), self.program.consts[id.index()].ty.clone())),
            Some((GlobalValue::Global(id), decl)) => {
                if let Some(context) = scope.old.filter(|context| context.is_stateless()) {
                    let (global, span) = (name.name.clone(), name.span);
                    self.error(SemaError::GlobalNotAllowed { name: global, span, context, decl });
                }
                Some((Var::Global(id), self.program.globals[id.index()].ty.clone()))
            }
            Some((GlobalValue::Function(_), decl)) => {
                self.error(SemaError::WrongKind {
                    name: name.name.clone(),
                    span: name.span,
                    expected: NameKind::Variable,
                    found: DeclKind::Function,
                    decl,
                });
                None
            }
            None => {
                // Not visible, but a formal of the enclosing procedure: an out-parameter
                // where only the state before the call exists.
                let hidden = scope.locals.iter().find(|local| local.kind == LocalKind::Out && local.name == name.name);
                if let (Some(local), Some(context)) = (hidden, scope.old) {
                    let (name, span, decl) = (name.name.clone(), name.span, local.span);
                    self.error(SemaError::OutParamNotInScope { name, span, context, decl });
                    return None;
                }
                let bound = scope.bound.iter().rev().map(|bound| bound.name.as_str());
                let locals = scope.names.keys().map(String::as_str);
                let globals = self
                    .values
                    .iter()
                    .filter(|(_, symbol)| !matches!(symbol.value, GlobalValue::Function(_)))
                    .map(|(name, _)| name.as_str());
                let suggestion = super::error::suggest(&name.name, bound.chain(locals).chain(globals));
                self.error(SemaError::Unknown {
                    kind: NameKind::Variable,
                    name: name.name.clone(),
                    span: name.span,
                    suggestion,
                });
                None
            }
        }
    }

    #[inline(never)]
    fn apply_expr(&mut self, scope: &mut Scope, func: &ast::Ident, args: &[ast::Expr], span: Span) -> hir::Expr {
        let args = self.exprs(scope, args);
        self.finish_apply(scope, func, args, span)
    }

    #[inline(never)]
    fn finish_apply(&mut self, scope: &Scope, func: &ast::Ident, args: Vec<hir::Expr>, span: Span) -> hir::Expr {
        let Some(id) = self.resolve_function(scope, func) else {
            return error_expr(span);
        };
        let function = &self.program.functions[id.index()];
        let params: Vec<(Type, Span)> = function.params.iter().map(|param| (param.ty.clone(), param.span)).collect();
        let result = function.result.clone();
        if params.len() != args.len() {
            self.error(SemaError::ArgCount {
                kind: NameKind::Function,
                name: func.name.clone(),
                span,
                expected: params.len(),
                found: args.len(),
                decl: self.function_name_spans[id.index()],
            });
        }
        for (arg, (ty, param_span)) in args.iter().zip(&params) {
            self.expect_type(arg, ty, Some(*param_span));
        }
        typed(hir::ExprKind::Apply { func: id, args }, result, span)
    }

    fn resolve_function(&mut self, scope: &Scope, func: &ast::Ident) -> Option<hir::FunctionId> {
        let symbol = self.values.get(&func.name).map(|symbol| (symbol.value, symbol.span));
        let (found, decl) = match symbol {
            Some((GlobalValue::Function(id), _)) => return Some(id),
            Some((value, decl)) => (self.value_kind(value), decl),
            None => {
                if let Some(&local) = scope.names.get(&func.name) {
                    let local = &scope.locals[local.index()];
                    (super::resolve::local_kind(local.kind), local.span)
                } else if let Some(&proc) = self.procs.get(&func.name) {
                    (DeclKind::Procedure, self.proc_name_spans[proc.index()])
                } else {
                    let functions = self
                        .values
                        .iter()
                        .filter(|(_, symbol)| matches!(symbol.value, GlobalValue::Function(_)))
                        .map(|(name, _)| name.as_str());
                    let suggestion = super::error::suggest(&func.name, functions);
                    let name = func.name.clone();
                    self.error(SemaError::Unknown { kind: NameKind::Function, name, span: func.span, suggestion });
                    return None;
                }
            }
        };
        let name = func.name.clone();
        self.error(SemaError::WrongKind { name, span: func.span, expected: NameKind::Function, found, decl });
        None
    }

    #[inline(never)]
    fn old_expr(&mut self, scope: &mut Scope, operand: &ast::Expr, span: Span) -> hir::Expr {
        if let Some(context) = scope.old {
            self.error(SemaError::OldNotAllowed { span, context });
        }
        let operand = Box::new(self.expr(scope, operand));
        let ty = operand.ty.clone();
        typed(hir::ExprKind::Old(operand), ty, span)
    }

    /// Reports an operand of a built-in operator that does not have the type it needs.
    fn expect_operand(&mut self, op: &'static str, operand: &hir::Expr, expected: &Type) {
        if !compatible(&operand.ty, expected) {
            let (expected, found) = (self.shown(expected), self.shown(&operand.ty));
            self.error(SemaError::Operand { op, span: operand.span, expected, found });
        }
    }

    #[inline(never)]
    fn unary_expr(&mut self, scope: &mut Scope, op: ast::UnaryOp, operand: &ast::Expr, span: Span) -> hir::Expr {
        let operand = Box::new(self.expr(scope, operand));
        self.finish_unary(op, operand, span)
    }

    #[inline(never)]
    fn finish_unary(&mut self, op: ast::UnaryOp, operand: Box<hir::Expr>, span: Span) -> hir::Expr {
        let (op, symbol, ty) = match op {
            ast::UnaryOp::Not => (UnaryOp::Not, "!", Type::Bool),
            ast::UnaryOp::Neg => (UnaryOp::Neg, "-", Type::Int),
        };
        self.expect_operand(symbol, &operand, &ty);
        typed(hir::ExprKind::Unary { op, operand }, ty, span)
    }

    #[inline(never)]
    fn binary_expr(
        &mut self,
        scope: &mut Scope,
        op: ast::BinaryOp,
        lhs: &ast::Expr,
        rhs: &ast::Expr,
        span: Span,
    ) -> hir::Expr {
        let lhs = Box::new(self.expr(scope, lhs));
        let rhs = Box::new(self.expr(scope, rhs));
        self.finish_binary(op, lhs, rhs, span)
    }

    #[inline(never)]
    fn finish_binary(&mut self, op: ast::BinaryOp, lhs: Box<hir::Expr>, rhs: Box<hir::Expr>, span: Span) -> hir::Expr {
        let symbol = op.symbol();
        let (hir_op, operand, result) = match op {
            ast::BinaryOp::Iff => (BinaryOp::Iff, Some(Type::Bool), Type::Bool),
            ast::BinaryOp::Implies | ast::BinaryOp::Explies => (BinaryOp::Implies, Some(Type::Bool), Type::Bool),
            ast::BinaryOp::And => (BinaryOp::And, Some(Type::Bool), Type::Bool),
            ast::BinaryOp::Or => (BinaryOp::Or, Some(Type::Bool), Type::Bool),
            ast::BinaryOp::Eq => (BinaryOp::Eq, None, Type::Bool),
            ast::BinaryOp::Neq => (BinaryOp::Neq, None, Type::Bool),
            ast::BinaryOp::Subtype => (BinaryOp::Subtype, None, Type::Bool),
            ast::BinaryOp::Lt => (BinaryOp::Lt, Some(Type::Int), Type::Bool),
            ast::BinaryOp::Le => (BinaryOp::Le, Some(Type::Int), Type::Bool),
            ast::BinaryOp::Gt => (BinaryOp::Gt, Some(Type::Int), Type::Bool),
            ast::BinaryOp::Ge => (BinaryOp::Ge, Some(Type::Int), Type::Bool),
            ast::BinaryOp::Add => (BinaryOp::Add, Some(Type::Int), Type::Int),
            ast::BinaryOp::Sub => (BinaryOp::Sub, Some(Type::Int), Type::Int),
            ast::BinaryOp::Mul => (BinaryOp::Mul, Some(Type::Int), Type::Int),
            ast::BinaryOp::Div => (BinaryOp::Div, Some(Type::Int), Type::Int),
            ast::BinaryOp::Mod => (BinaryOp::Mod, Some(Type::Int), Type::Int),
            ast::BinaryOp::Concat => return self.unsupported_expr(Unsupported::Concat, span),
            ast::BinaryOp::RealDiv => return self.unsupported_expr(Unsupported::RealDivision, span),
            ast::BinaryOp::Power => return self.unsupported_expr(Unsupported::Power, span),
        };
        match &operand {
            Some(operand) => {
                self.expect_operand(symbol, &lhs, operand);
                self.expect_operand(symbol, &rhs, operand);
            }
            None => {
                if !compatible(&lhs.ty, &rhs.ty) {
                    let (lhs, rhs) = (self.shown(&lhs.ty), self.shown(&rhs.ty));
                    self.error(SemaError::Compare { op: symbol, span, lhs, rhs });
                }
            }
        }
        // `a <== b` is `b ==> a` (hir invariant), so later stages know one implication.
        let (lhs, rhs) = if op == ast::BinaryOp::Explies { (rhs, lhs) } else { (lhs, rhs) };
        typed(hir::ExprKind::Binary { op: hir_op, lhs, rhs }, result, span)
    }

    /// The type of `map[indices]`, reporting a non-map, a wrong index count or a wrong
    /// index type. `span` is where the selection is written.
    pub(super) fn select_type(&mut self, map: &Type, map_span: Span, indices: &[hir::Expr], span: Span) -> Type {
        let Type::Map(map_ty) = map else {
            if !is_error(map) {
                let found = self.shown(map);
                self.error(SemaError::NotAMap { span: map_span, found });
            }
            return ERROR;
        };
        if map_ty.domain.len() != indices.len() {
            self.error(SemaError::IndexCount {
                span,
                map: self.shown(map),
                expected: map_ty.domain.len(),
                found: indices.len(),
            });
        }
        for (index, ty) in indices.iter().zip(&map_ty.domain) {
            self.expect_type(index, ty, None);
        }
        map_ty.range.clone()
    }

    #[inline(never)]
    fn select_expr(&mut self, scope: &mut Scope, map: &ast::Expr, indices: &[ast::Expr], span: Span) -> hir::Expr {
        let map = Box::new(self.expr(scope, map));
        let indices = self.exprs(scope, indices);
        let ty = self.select_type(&map.ty, map.span, &indices, span);
        typed(hir::ExprKind::Select { map, indices }, ty, span)
    }

    #[inline(never)]
    fn store_expr(
        &mut self,
        scope: &mut Scope,
        map: &ast::Expr,
        indices: &[ast::Expr],
        value: &ast::Expr,
        span: Span,
    ) -> hir::Expr {
        let map = Box::new(self.expr(scope, map));
        let indices = self.exprs(scope, indices);
        let value = Box::new(self.expr(scope, value));
        self.finish_store(map, indices, value, span)
    }

    #[inline(never)]
    fn finish_store(
        &mut self,
        map: Box<hir::Expr>,
        indices: Vec<hir::Expr>,
        value: Box<hir::Expr>,
        span: Span,
    ) -> hir::Expr {
        let range = self.select_type(&map.ty, map.span, &indices, span);
        self.expect_type(&value, &range, None);
        let ty = map.ty.clone();
        typed(hir::ExprKind::Store { map, indices, value }, ty, span)
    }

    #[inline(never)]
    fn unsupported_operand_expr(
        &mut self,
        scope: &mut Scope,
        operand: &ast::Expr,
        span: Span,
        what: Unsupported,
    ) -> hir::Expr {
        drop(Box::new(self.expr(scope, operand)));
        self.unsupported_expr(what, span)
    }

    #[inline(never)]
    fn if_then_else_expr(&mut self, scope: &mut Scope, parts: [&ast::Expr; 3], span: Span) -> hir::Expr {
        let cond = Box::new(self.expr(scope, parts[0]));
        let then_expr = Box::new(self.expr(scope, parts[1]));
        let else_expr = Box::new(self.expr(scope, parts[2]));
        self.finish_if_then_else(cond, then_expr, else_expr, span)
    }

    #[inline(never)]
    fn finish_if_then_else(
        &mut self,
        cond: Box<hir::Expr>,
        then_expr: Box<hir::Expr>,
        else_expr: Box<hir::Expr>,
        span: Span,
    ) -> hir::Expr {
        self.expect_type(&cond, &Type::Bool, None);
        self.expect_type(&else_expr, &then_expr.ty, Some(then_expr.span));
        let ty = join(then_expr.ty.clone(), else_expr.ty.clone());
        typed(hir::ExprKind::IfThenElse { cond, then_expr, else_expr }, ty, span)
    }

    #[inline(never)]
    fn quant_expr(&mut self, scope: &mut Scope, expr: &ast::Expr) -> hir::Expr {
        let ast::ExprKind::Quant { quantifier, type_params, vars, attrs, triggers, body } = &expr.kind else {
            unreachable!("`expr` passes quantifiers only");
        };
        let outer = scope.bound.len();
        let errors_before = self.errors.len();
        let vars = self.bind_vars(scope, type_params, vars);
        // A variable that failed to bind cannot be mentioned; its error was reported.
        let vars_bound = self.errors.len() == errors_before;
        let checked_triggers = self.triggers(scope, *quantifier, &vars, vars_bound, triggers, attrs);
        let body = Box::new(self.expr(scope, body));
        scope.bound.truncate(outer);
        self.finish_quant(*quantifier, vars, checked_triggers, attrs, body, expr.span)
    }

    /// Gives each bound variable a fresh id and brings it into scope.
    #[inline(never)]
    fn bind_vars(
        &mut self,
        scope: &mut Scope,
        type_params: &[ast::Ident],
        groups: &[ast::TypedIdents],
    ) -> Vec<hir::BoundVar> {
        if !type_params.is_empty() {
            let span = span_of_names(type_params);
            self.error(SemaError::NotSupported { construct: Unsupported::TypeParameters, span });
        }
        let mut vars: Vec<hir::BoundVar> = Vec::new();
        for group in groups {
            let ty = self.resolve_type(&group.ty, type_params);
            if let Some(where_clause) = &group.where_clause {
                self.error(SemaError::WhereOnBoundVar { span: where_clause.span });
            }
            for name in &group.names {
                if let Some(first) = vars.iter().find(|var| var.name.as_deref() == Some(name.name.as_str())) {
                    let (first, span) = (first.span, name.span);
                    let name = name.name.clone();
                    self.error(SemaError::Duplicate { kind: DeclKind::BoundVar, name, span, first });
                }
                let id = self.fresh_bound();
                vars.push(hir::BoundVar { id, name: Some(name.name.clone()), ty: ty.clone(), span: name.span });
                scope.bound.push(BoundName { name: name.name.clone(), id, ty: ty.clone() });
            }
        }
        vars
    }

    #[inline(never)]
    fn finish_quant(
        &mut self,
        quantifier: ast::Quantifier,
        vars: Vec<hir::BoundVar>,
        triggers: Vec<Vec<hir::Expr>>,
        attrs: &[ast::Attribute],
        body: Box<hir::Expr>,
        span: Span,
    ) -> hir::Expr {
        let (quantifier, ty) = match quantifier {
            ast::Quantifier::Forall => (Quantifier::Forall, Type::Bool),
            ast::Quantifier::Exists => (Quantifier::Exists, Type::Bool),
            ast::Quantifier::Lambda => {
                let domain = vars.iter().map(|var| var.ty.clone()).collect();
                (Quantifier::Lambda, map_type(domain, body.ty.clone()))
            }
        };
        if quantifier != Quantifier::Lambda {
            self.expect_type(&body, &Type::Bool, None);
        }
        let attrs = attrs.to_vec();
        typed(hir::ExprKind::Quant { quantifier, vars, triggers, attrs, body }, ty, span)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::error_count;
    use super::*;

    #[test]
    fn integer_and_boolean_operators_type_check() {
        accepts!(
            r"
            const N: int;
            axiom (forall x: int :: x + 1 > x && x div 2 <= x && -x mod 3 >= 0 && x * N != x - N);
            axiom (true ==> false) <==> (false <== true) || !(N < 0);
        "
        );
    }

    #[test]
    fn arithmetic_needs_integers() {
        rejects!("axiom 1 + true == 2;", "`+` cannot be applied to `bool`");
        rejects!("axiom 1 < true;", "`<` cannot be applied to `bool`");
        rejects!("axiom -true == 1;", "`-` cannot be applied to `bool`");
    }

    #[test]
    fn logic_needs_booleans() {
        rejects!("axiom 1 && true;", "`&&` cannot be applied to `int`");
        rejects!("axiom !1;", "`!` cannot be applied to `int`");
        rejects!("axiom true <== 0;", "`<==` cannot be applied to `int`");
    }

    #[test]
    fn equality_needs_equal_types() {
        rejects!("axiom 1 == true;", "cannot compare `int` with `bool`");
        rejects!(
            "const m: [int]int; axiom m != (lambda x: int :: x > 1);",
            "cannot compare `[int]int` with `[int]bool`"
        );
        accepts!("type Ref; const a, b: Ref; axiom a != b;");
    }

    #[test]
    fn subtype_order_is_core_and_needs_equal_types() {
        let program = accepts!("const a, b: int; axiom a <: b;");
        let hir::ExprKind::Binary { op, .. } = &program.axioms[0].expr.kind else { panic!("a binary expression") };
        assert_eq!(*op, BinaryOp::Subtype);
        rejects!("const a: int; axiom a <: true;", "cannot compare `int` with `bool`");
    }

    #[test]
    fn explies_becomes_a_swapped_implication() {
        let program = accepts!("const a, b: bool; axiom a <== b;");
        let hir::ExprKind::Binary { op, lhs, rhs } = &program.axioms[0].expr.kind else {
            panic!("a binary expression")
        };
        assert_eq!(*op, BinaryOp::Implies);
        assert!(matches!(lhs.kind, hir::ExprKind::Var(Var::Const(hir::ConstId(1)))), "lhs is b: {lhs:?}");
        assert!(matches!(rhs.kind, hir::ExprKind::Var(Var::Const(hir::ConstId(0)))), "rhs is a: {rhs:?}");
    }

    #[test]
    fn map_selection_checks_arity_and_index_types() {
        accepts!("const m: [int]bool; const n: [int, bool][int]int; axiom m[1] && n[1, true][2] > 0;");
        rejects!("const m: [int]bool; axiom m[true];", "expected `int`, found `bool`");
        rejects!("const m: [int]bool; axiom m[1, 2];", "map of type `[int]bool` takes 1 index but 2 were given");
        rejects!("const x: int; axiom x[1] == 1;", "cannot index into a value of type `int`");
    }

    #[test]
    fn map_update_checks_the_value_type() {
        accepts!("const m: [int]bool; axiom m[1 := true] == m;");
        rejects!("const m: [int]bool; axiom m[1 := 2] == m;", "expected `bool`, found `int`");
    }

    #[test]
    fn function_application_checks_arity_and_argument_types() {
        accepts!("function f(x: int, bool): int; axiom f(1, true) == 2;");
        rejects!("function f(x: int): int; axiom f(1, 2) == 0;", "function `f` takes 1 argument but 2 were supplied");
        rejects!("function f(x: int): int; axiom f(true) == 0;", "expected `int`, found `bool`");
        rejects!("function max(x: int): int; axiom mux(1) == 0;", "did you mean `max`?");
        rejects!("const x: int; axiom x(1) == 1;", "expected a function, found constant `x`");
        rejects!("procedure P(); axiom P() == 1;", "procedures are called by a statement");
        rejects!("function f(): int; axiom f == 1;", "expected a variable, found function `f`");
    }

    #[test]
    fn if_then_else_needs_a_boolean_condition_and_equal_branches() {
        accepts!("const c: bool; axiom (if c then 1 else 2) > 0;");
        rejects!("axiom (if 1 then 1 else 2) == 1;", "expected `bool`, found `int`");
        rejects!("axiom (if true then 1 else false) == 1;", "expected `int`, found `bool`");
    }

    #[test]
    fn quantifiers_need_boolean_bodies_and_check_triggers() {
        rejects!("axiom (forall x: int :: x);", "expected `bool`, found `int`");
        rejects!("function f(int): int; axiom (forall x: int :: {g(x)} f(x) > 0);", "cannot find function `g`");
        rejects!("axiom (exists x: int, x: int :: x > 0);", "duplicate bound variable `x`");
        rejects!("axiom (forall x: int where x > 0 :: x > 0);", "`where` clauses are not allowed on bound variables");
        rejects!("axiom (forall<a> x: a :: x == x);", "type parameters are not supported yet");
        assert_eq!(error_count("axiom (forall<a> x: a :: x == x);"), 1);
    }

    #[test]
    fn bound_variables_shadow_globals_and_get_program_wide_ids() {
        let program = accepts!(
            r"
            const x: bool;
            function f(y: int): int { y }
            axiom (forall x: int :: (exists y: int :: x == y));
            axiom (forall x: int :: x > 0 || x <= 0);
        "
        );
        let mut ids = vec![program.functions[0].params[0].id];
        for axiom in &program.axioms {
            let hir::ExprKind::Quant { vars, body, .. } = &axiom.expr.kind else { panic!("a quantifier") };
            ids.push(vars[0].id);
            if let hir::ExprKind::Quant { vars, .. } = &body.kind {
                ids.push(vars[0].id);
            }
        }
        assert_eq!(ids, vec![BoundId(0), BoundId(1), BoundId(2), BoundId(3)]);
    }

    #[test]
    fn a_lambda_is_a_map_from_its_bound_variables() {
        accepts!("const m: [int, bool]int; axiom m == (lambda x: int, b: bool :: if b then x else 0);");
        rejects!(
            "const m: [int]int; axiom m == (lambda x: int :: x > 1);",
            "cannot compare `[int]int` with `[int]bool`"
        );
    }

    #[test]
    fn old_is_allowed_only_with_a_pre_state() {
        accepts!("var g: int; procedure P(); modifies g; ensures g == old(old(g) + 1);");
        accepts!("var g: int; procedure P() modifies g; { g := 1; assert g > old(g); }");
        rejects!("var g: int; procedure P(); requires old(g) > 0;", "`old` is not allowed in a `requires` clause");
        rejects!("const c: int; axiom old(c) > 0;", "`old` is not allowed in an axiom");
        rejects!("function f(x: int): int { old(x) }", "`old` is not allowed in a function body");
        rejects!("var g: int where old(g) > 0;", "in the `where` clause of a global variable");
        rejects!("procedure P(x: int where old(x) > 0);", "in the `where` clause of a procedure parameter");
    }

    #[test]
    fn axioms_and_function_bodies_cannot_read_global_variables() {
        rejects!("var g: int; axiom g > 0;", "global variable `g` cannot be used in an axiom");
        rejects!("var g: int; function f(): int { g }", "global variable `g` cannot be used in a function body");
        accepts!("const c: int; function f(): int { c } axiom f() == c;");
    }

    #[test]
    fn unsupported_expressions_are_reported_once_each() {
        rejects!("axiom 1.5 == 1.5;", "real literals are not supported yet");
        rejects!("axiom 5bv32 == 5bv32;", "bit-vector literals are not supported yet");
        rejects!("const a, b: int; axiom a ++ b == a;", "bit-vector concatenation `++` is not supported yet");
        rejects!("const a: int; axiom a[3:0] == a;", "bit-vector extraction is not supported yet");
        rejects!("axiom 1 / 2 == 0;", "real division `/` is not supported yet");
        assert_eq!(error_count("axiom 1 / 2 == 0 && 1.5 == 1;"), 2);
    }

    #[test]
    fn an_unknown_name_causes_one_error() {
        rejects!("const count: int; axiom cont > 0;", "did you mean `count`?");
        assert_eq!(error_count("axiom y + 1 > 0 && y[2] && f(y) == y;"), 5);
        assert_eq!(error_count("const x: Foo; axiom (forall i: int :: x[i] + 1 == x);"), 1);
    }

    #[test]
    fn programs_as_deep_as_the_parser_allows_check_on_a_thread_stack() {
        let sum = format!("axiom {} 0 == 0;", "0 + ".repeat(990));
        let negations = format!("axiom {}true;", "!".repeat(990));
        let nested = format!("axiom {}0{} == 0;", "(".repeat(240), ")".repeat(240));
        let nested_blocks = format!(
            "procedure P() {{ {} assert {} 0 == 0; {} }}",
            "while (true) { ".repeat(250),
            "0 + ".repeat(990),
            "}".repeat(250)
        );
        // Spawned threads (and test threads) get 2 MiB unless told otherwise.
        let handle = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                accepts!(&sum);
                accepts!(&negations);
                accepts!(&nested);
                accepts!(&nested_blocks);
            })
            .expect("spawning a thread");
        handle.join().expect("checking deep expressions does not overflow a 2 MiB stack");
    }
}
