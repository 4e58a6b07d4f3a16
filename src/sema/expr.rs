//! Expressions: name lookup in a [`Scope`] and the typing rules, `ast::Expr` →
//! `hir::Expr`.
//!
//! Every checked expression carries its type; a subexpression that failed to check has
//! the error type, which every rule accepts silently, so one mistake is one error.
//! Type arguments are inferred by unification ([`super::types`]): an application of a
//! polymorphic function or map instantiates its type parameters with inference
//! variables, which its arguments, its context or a coercion `e : T` solve; the caller
//! of [`Checker::expr`] settles them once the context is known.
//! Expressions nest at most `MAX_EXPR_DEPTH` deep (the parser guarantees it), so the
//! recursion is bounded; each rule lives in its own function so that the recursive
//! dispatcher's frame stays small.

use super::error::{DeclKind, NameKind, OldContext, SemaError};
use super::hir::{self, BinaryOp, BoundId, LocalId, LocalKind, Quantifier, Type, TypeParamId, UnaryOp, Var};
use super::types::{is_error, join, TypeScope, ERROR};
use super::{Checker, GlobalValue};
use crate::source::Span;
use crate::syntax::ast;
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use std::collections::BTreeMap;
use std::sync::Arc;

/// What names an expression can see, besides the global constants and variables.
pub(super) struct Scope<'a> {
    /// The locals table of the enclosing procedure or implementation.
    pub(super) locals: &'a [hir::Local],
    /// The visible locals by name (a `requires` clause sees only the ins).
    pub(super) names: &'a BTreeMap<String, LocalId>,
    /// Bound variables, innermost last.
    pub(super) bound: Vec<BoundName>,
    /// Type parameters in scope (the enclosing declaration's, then quantifiers'),
    /// innermost last.
    pub(super) type_params: Vec<(String, TypeParamId)>,
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
        Scope { locals: &[], names: &NO_NAMES, bound: Vec::new(), type_params: Vec::new(), old: Some(old) }
    }
}

impl<'a> Scope<'a> {
    /// The scope of a procedure's or implementation's locals `names` (`locals` is its
    /// table), under its type parameters.
    pub(super) fn of_locals(
        locals: &'a [hir::Local],
        names: &'a BTreeMap<String, LocalId>,
        type_params: &TypeScope,
        old: Option<OldContext>,
    ) -> Scope<'a> {
        Scope { locals, names, bound: Vec::new(), type_params: type_params.to_vec(), old }
    }
}

/// A placeholder for an expression that failed to check; it never reaches a returned HIR.
fn error_expr(span: Span) -> hir::Expr {
    hir::Expr { kind: hir::ExprKind::Bool(false), ty: ERROR, span }
}

fn typed(kind: hir::ExprKind, ty: Type, span: Span) -> hir::Expr {
    hir::Expr { kind, ty, span }
}

/// Which built-in types an arithmetic or comparison operator takes.
#[derive(Clone, Copy)]
enum Numeric {
    /// `int` or `real`, both operands alike.
    IntOrReal,
    /// `int` only (`div`, `mod`).
    Int,
    /// `real` only (`**`).
    Real,
}

/// The exact value of a decimal literal as the lexer reads it: `1.5`, `2e3`, `1.5e-3`.
pub fn decimal_value(text: &str) -> Option<BigRational> {
    let (mantissa, exponent) = match text.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => (mantissa, exponent.parse::<i64>().ok()?),
        None => (text, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits: BigInt = format!("{whole}{fraction}").parse().ok()?;
    let scale = exponent.checked_sub(i64::try_from(fraction.len()).ok()?)?;
    // Decimal exponents beyond this would make numbers no test can print.
    if scale.unsigned_abs() > 100_000 {
        return None;
    }
    let power = num_traits::pow(BigInt::from(10), scale.unsigned_abs() as usize);
    Some(if scale >= 0 { BigRational::from_integer(digits * power) } else { BigRational::new(digits, power) })
}

impl Checker {
    /// The recursive dispatcher. Only the rules with subexpressions recurse, and each of
    /// them checks its children and hands them to a non-recursive `finish_*` function,
    /// so that the frames on the recursion path hold little more than the children.
    /// Inference variables it makes are left for the caller to settle.
    pub(super) fn expr(&mut self, scope: &mut Scope, expr: &ast::Expr) -> hir::Expr {
        let span = expr.span;
        match &expr.kind {
            ast::ExprKind::Apply { func, args } => self.apply_expr(scope, func, args, span),
            ast::ExprKind::Old(operand) => self.old_expr(scope, operand, span),
            ast::ExprKind::Unary { op, operand } => self.unary_expr(scope, *op, operand, span),
            ast::ExprKind::Binary { op, lhs, rhs } => self.binary_expr(scope, *op, lhs, rhs, span),
            ast::ExprKind::Select { map, indices } => self.select_expr(scope, map, indices, span),
            ast::ExprKind::Store { map, indices, value } => self.store_expr(scope, map, indices, value, span),
            ast::ExprKind::Extract { operand, high, low } => self.extract_expr(scope, operand, high, low, span),
            ast::ExprKind::Convert { to, operand } => self.convert_expr(scope, *to, operand, span),
            ast::ExprKind::Coerce { operand, ty } => self.coerce_expr(scope, operand, ty),
            ast::ExprKind::IfThenElse { cond, then_expr, else_expr } => {
                self.if_then_else_expr(scope, [cond, then_expr, else_expr], span)
            }
            ast::ExprKind::Quant { .. } => self.quant_expr(scope, expr),
            ast::ExprKind::Let { .. } => self.let_expr(scope, expr),
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
        if !self.unify(&expr.ty, expected) {
            let (expected, found) = (self.shown(expected), self.shown(&expr.ty));
            self.error(SemaError::Mismatch { span: expr.span, expected, found, because });
        }
    }

    /// Checks an expression that must be a boolean (assertions, guards, contracts), and
    /// settles it.
    pub(super) fn bool_expr(&mut self, scope: &mut Scope, expr: &ast::Expr) -> hir::Expr {
        let mark = self.inference_mark();
        let mut checked = self.expr(scope, expr);
        self.expect_type(&checked, &Type::Bool, None);
        self.settle(mark, &mut checked);
        checked
    }

    #[inline(never)]
    fn leaf_expr(&mut self, scope: &Scope, expr: &ast::Expr) -> hir::Expr {
        let span = expr.span;
        match &expr.kind {
            ast::ExprKind::Bool(value) => typed(hir::ExprKind::Bool(*value), Type::Bool, span),
            ast::ExprKind::Int(value) => typed(hir::ExprKind::Int(BigInt::from(value.clone())), Type::Int, span),
            ast::ExprKind::Real(text) => match decimal_value(text) {
                Some(value) => typed(hir::ExprKind::Real(value), Type::Real, span),
                None => {
                    self.error(SemaError::DecimalTooLarge { span });
                    error_expr(span)
                }
            },
            ast::ExprKind::BitVector { value, width } => self.bit_vector_literal(value, *width, span),
            ast::ExprKind::Var(name) => match self.lookup_var(scope, name) {
                Some((var, ty)) => typed(hir::ExprKind::Var(var), ty, name.span),
                None => error_expr(name.span),
            },
            ast::ExprKind::Dropped => unreachable!("the parser never produces ExprKind::Dropped"),
            _ => unreachable!("`expr` dispatches expressions with children elsewhere"),
        }
    }

    fn bit_vector_literal(&mut self, value: &BigUint, width: u32, span: Span) -> hir::Expr {
        if value.bits() > u64::from(width) {
            self.error(SemaError::BitVectorLiteral { span, width });
            return error_expr(span);
        }
        typed(hir::ExprKind::BitVector { value: value.clone(), width }, Type::BitVector(width), span)
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

    /// A function application: its type parameters instantiated with inference
    /// variables, which the arguments (and, for a parameter only the result mentions,
    /// the context) solve.
    #[inline(never)]
    fn finish_apply(&mut self, scope: &Scope, func: &ast::Ident, args: Vec<hir::Expr>, span: Span) -> hir::Expr {
        let Some(id) = self.resolve_function(scope, func) else {
            return error_expr(span);
        };
        let function = &self.program.functions[id.index()];
        let type_params = function.type_params.clone();
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
        let instance = self.instantiate(&type_params, span);
        for (arg, (ty, param_span)) in args.iter().zip(&params) {
            self.expect_type(arg, &ty.substitute(&instance), Some(*param_span));
        }
        let type_args = instance.iter().map(|(_, ty)| ty.clone()).collect();
        typed(hir::ExprKind::Apply { func: id, type_args, args }, result.substitute(&instance), span)
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
        if !self.unify(&operand.ty, expected) {
            let (expected, found) = (self.shown(expected), self.shown(&operand.ty));
            self.error(SemaError::Operand { op, span: operand.span, expected, found });
        }
    }

    /// The type both operands of an arithmetic operator or comparison share, reporting
    /// operands outside `allowed` or of different types; the error type after an error.
    fn numeric_operands(&mut self, op: &'static str, allowed: Numeric, lhs: &hir::Expr, rhs: &hir::Expr) -> Type {
        let lhs_ty = self.resolved(&lhs.ty);
        let ty = match (allowed, &lhs_ty) {
            (_, ty) if is_error(ty) => return ERROR,
            (Numeric::IntOrReal, Type::Int | Type::Real) => lhs_ty.clone(),
            (Numeric::Int, _) => Type::Int,
            (Numeric::Real, _) => Type::Real,
            (Numeric::IntOrReal, _) => {
                // The right operand may say which (the left one's type is not known yet).
                let rhs_ty = self.resolved(&rhs.ty);
                if matches!(rhs_ty, Type::Int | Type::Real) && self.unify(&lhs.ty, &rhs_ty) {
                    return rhs_ty;
                }
                let found = self.shown(&lhs.ty);
                self.error(SemaError::OperandKinds { op, span: lhs.span, expected: "`int` or `real`", found });
                return ERROR;
            }
        };
        self.expect_operand(op, lhs, &ty);
        self.expect_operand(op, rhs, &ty);
        ty
    }

    #[inline(never)]
    fn unary_expr(&mut self, scope: &mut Scope, op: ast::UnaryOp, operand: &ast::Expr, span: Span) -> hir::Expr {
        let operand = Box::new(self.expr(scope, operand));
        self.finish_unary(op, operand, span)
    }

    #[inline(never)]
    fn finish_unary(&mut self, op: ast::UnaryOp, operand: Box<hir::Expr>, span: Span) -> hir::Expr {
        let (op, ty) = match op {
            ast::UnaryOp::Not => {
                self.expect_operand("!", &operand, &Type::Bool);
                (UnaryOp::Not, Type::Bool)
            }
            ast::UnaryOp::Neg => {
                let ty = match self.resolved(&operand.ty) {
                    ty @ (Type::Int | Type::Real) => ty,
                    ty if is_error(&ty) => ERROR,
                    _ => {
                        let found = self.shown(&operand.ty);
                        let expected = "`int` or `real`";
                        self.error(SemaError::OperandKinds { op: "-", span: operand.span, expected, found });
                        ERROR
                    }
                };
                (UnaryOp::Neg, ty)
            }
        };
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
        let (hir_op, ty) = match op {
            ast::BinaryOp::Iff
            | ast::BinaryOp::Implies
            | ast::BinaryOp::Explies
            | ast::BinaryOp::And
            | ast::BinaryOp::Or => {
                self.expect_operand(symbol, &lhs, &Type::Bool);
                self.expect_operand(symbol, &rhs, &Type::Bool);
                let hir_op = match op {
                    ast::BinaryOp::Iff => BinaryOp::Iff,
                    ast::BinaryOp::And => BinaryOp::And,
                    ast::BinaryOp::Or => BinaryOp::Or,
                    _ => BinaryOp::Implies,
                };
                (hir_op, Type::Bool)
            }
            ast::BinaryOp::Eq | ast::BinaryOp::Neq | ast::BinaryOp::Subtype => {
                // Boogie compares values whose types could be equal (type parameters in
                // scope unify with anything); `<:` needs equal types.
                let comparable = if op == ast::BinaryOp::Subtype {
                    self.unify(&lhs.ty, &rhs.ty)
                } else {
                    self.unify_loosely(&lhs.ty, &rhs.ty)
                };
                if !comparable {
                    let (lhs, rhs) = (self.shown(&lhs.ty), self.shown(&rhs.ty));
                    self.error(SemaError::Compare { op: symbol, span, lhs, rhs });
                }
                let hir_op = match op {
                    ast::BinaryOp::Eq => BinaryOp::Eq,
                    ast::BinaryOp::Neq => BinaryOp::Neq,
                    _ => BinaryOp::Subtype,
                };
                (hir_op, Type::Bool)
            }
            ast::BinaryOp::Lt | ast::BinaryOp::Le | ast::BinaryOp::Gt | ast::BinaryOp::Ge => {
                self.numeric_operands(symbol, Numeric::IntOrReal, &lhs, &rhs);
                let hir_op = match op {
                    ast::BinaryOp::Lt => BinaryOp::Lt,
                    ast::BinaryOp::Le => BinaryOp::Le,
                    ast::BinaryOp::Gt => BinaryOp::Gt,
                    _ => BinaryOp::Ge,
                };
                (hir_op, Type::Bool)
            }
            ast::BinaryOp::Add | ast::BinaryOp::Sub | ast::BinaryOp::Mul => {
                let ty = self.numeric_operands(symbol, Numeric::IntOrReal, &lhs, &rhs);
                let hir_op = match op {
                    ast::BinaryOp::Add => BinaryOp::Add,
                    ast::BinaryOp::Sub => BinaryOp::Sub,
                    _ => BinaryOp::Mul,
                };
                (hir_op, ty)
            }
            ast::BinaryOp::Div | ast::BinaryOp::Mod => {
                let ty = self.numeric_operands(symbol, Numeric::Int, &lhs, &rhs);
                (if op == ast::BinaryOp::Div { BinaryOp::Div } else { BinaryOp::Mod }, ty)
            }
            ast::BinaryOp::Power => (BinaryOp::Power, self.numeric_operands(symbol, Numeric::Real, &lhs, &rhs)),
            ast::BinaryOp::RealDiv => return self.real_division(lhs, rhs, span),
            ast::BinaryOp::Concat => return self.concat(lhs, rhs, span),
        };
        // `a <== b` is `b ==> a` (hir invariant), so later stages know one implication.
        let (lhs, rhs) = if op == ast::BinaryOp::Explies { (rhs, lhs) } else { (lhs, rhs) };
        typed(hir::ExprKind::Binary { op: hir_op, lhs, rhs }, ty, span)
    }

    /// `/` takes an `int` or a `real` on each side (Boogie's rule) and gives a `real`;
    /// an `int` operand is converted, so later stages see two reals.
    fn real_division(&mut self, lhs: Box<hir::Expr>, rhs: Box<hir::Expr>, span: Span) -> hir::Expr {
        let lhs = self.as_real("/", lhs);
        let rhs = self.as_real("/", rhs);
        typed(hir::ExprKind::Binary { op: BinaryOp::RealDiv, lhs, rhs }, Type::Real, span)
    }

    fn as_real(&mut self, op: &'static str, operand: Box<hir::Expr>) -> Box<hir::Expr> {
        match self.resolved(&operand.ty) {
            Type::Real => operand,
            Type::Int => {
                let span = operand.span;
                Box::new(typed(hir::ExprKind::Unary { op: UnaryOp::ToReal, operand }, Type::Real, span))
            }
            ty if is_error(&ty) => operand,
            _ => {
                let found = self.shown(&operand.ty);
                self.error(SemaError::OperandKinds { op, span: operand.span, expected: "`int` or `real`", found });
                operand
            }
        }
    }

    /// The width of a bit-vector operand, reporting any other type.
    fn bit_vector_width(&mut self, op: &'static str, operand: &hir::Expr) -> Option<u32> {
        match self.resolved(&operand.ty) {
            Type::BitVector(width) => Some(width),
            ty if is_error(&ty) => None,
            _ => {
                let found = self.shown(&operand.ty);
                self.error(SemaError::OperandKinds { op, span: operand.span, expected: "a bit-vector", found });
                None
            }
        }
    }

    fn concat(&mut self, lhs: Box<hir::Expr>, rhs: Box<hir::Expr>, span: Span) -> hir::Expr {
        let widths = (self.bit_vector_width("++", &lhs), self.bit_vector_width("++", &rhs));
        let ty = match widths {
            (Some(high), Some(low)) => Type::BitVector(high.saturating_add(low)),
            _ => ERROR,
        };
        typed(hir::ExprKind::Binary { op: BinaryOp::Concat, lhs, rhs }, ty, span)
    }

    #[inline(never)]
    fn extract_expr(
        &mut self,
        scope: &mut Scope,
        operand: &ast::Expr,
        high: &BigUint,
        low: &BigUint,
        span: Span,
    ) -> hir::Expr {
        let operand = Box::new(self.expr(scope, operand));
        let Some(width) = self.bit_vector_width("[:]", &operand) else {
            return error_expr(span);
        };
        let bound = |value: &BigUint| u32::try_from(value).ok().filter(|value| *value <= width);
        match (bound(high), bound(low)) {
            (Some(high), Some(low)) if low <= high => {
                typed(hir::ExprKind::Extract { operand, high, low }, Type::BitVector(high - low), span)
            }
            _ => {
                let clamp = |value: &BigUint| u32::try_from(value).unwrap_or(u32::MAX);
                self.error(SemaError::ExtractBounds { span, high: clamp(high), low: clamp(low), width });
                error_expr(span)
            }
        }
    }

    #[inline(never)]
    fn convert_expr(&mut self, scope: &mut Scope, to: ast::Conversion, operand: &ast::Expr, span: Span) -> hir::Expr {
        let operand = Box::new(self.expr(scope, operand));
        let (op, from, to) = match to {
            ast::Conversion::ToInt => (UnaryOp::ToInt, Type::Real, Type::Int),
            ast::Conversion::ToReal => (UnaryOp::ToReal, Type::Int, Type::Real),
        };
        let name = if op == UnaryOp::ToInt { "int(e)" } else { "real(e)" };
        self.expect_operand(name, &operand, &from);
        typed(hir::ExprKind::Unary { op, operand }, to, span)
    }

    /// `e : T` fixes the type of `e` (often the result of a function whose type
    /// parameter only the result mentions); the HIR keeps `e`.
    #[inline(never)]
    fn coerce_expr(&mut self, scope: &mut Scope, operand: &ast::Expr, ty: &ast::Type) -> hir::Expr {
        let operand = self.expr(scope, operand);
        let target = self.resolve_type(ty, &scope.type_params);
        if !self.unify(&operand.ty, &target) {
            let (expected, found) = (self.shown(&target), self.shown(&operand.ty));
            self.error(SemaError::Mismatch { span: operand.span, expected, found, because: Some(ty.span) });
        }
        operand
    }

    /// The type of `map[indices]`, reporting a non-map, a wrong index count or a wrong
    /// index type. `span` is where the selection is written. A polymorphic map's type
    /// parameters are instantiated from the index types.
    pub(super) fn select_type(&mut self, map: &Type, map_span: Span, indices: &[hir::Expr], span: Span) -> Type {
        let map = self.resolved(map);
        let Type::Map(map_ty) = &map else {
            if !is_error(&map) {
                let found = self.shown(&map);
                self.error(SemaError::NotAMap { span: map_span, found });
            }
            return ERROR;
        };
        if map_ty.domain.len() != indices.len() {
            self.error(SemaError::IndexCount {
                span,
                map: self.shown(&map),
                expected: map_ty.domain.len(),
                found: indices.len(),
            });
        }
        let instance = self.instantiate(&map_ty.type_params, span);
        for (index, ty) in indices.iter().zip(&map_ty.domain) {
            self.expect_type(index, &ty.substitute(&instance), None);
        }
        map_ty.range.substitute(&instance)
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
        let outer_types = scope.type_params.len();
        let errors_before = self.errors.len();
        let (params, inner) = self.bind_type_params(&scope.type_params, type_params);
        scope.type_params = inner;
        let vars = self.bind_vars(scope, vars);
        let var_types: Vec<Type> = vars.iter().map(|var| var.ty.clone()).collect();
        // A lambda is a map, whose parameters its indices fix; Boogie lets `forall<T>`
        // and `exists<T>` bind a type its variables do not mention.
        if *quantifier == ast::Quantifier::Lambda {
            let context = super::error::TypeParamContext::Quantifier;
            self.require_occurrence(&params, type_params, &var_types, &[], context);
        }
        let params = super::types::sort_by_occurrence(params, &var_types, &[]);
        // A variable that failed to bind cannot be mentioned; its error was reported.
        let vars_bound = self.errors.len() == errors_before;
        let checked_triggers = self.triggers(scope, *quantifier, &vars, vars_bound, triggers, attrs);
        self.triggers_mention_type_params(&params, &var_types, triggers, &checked_triggers);
        self.check_attrs(scope, attrs);
        let body = Box::new(self.expr(scope, body));
        scope.bound.truncate(outer);
        scope.type_params.truncate(outer_types);
        self.finish_quant(*quantifier, params, vars, checked_triggers, attrs, body, expr.span)
    }

    /// Boogie's rule: a type parameter of a quantifier that no bound variable's type
    /// mentions must be mentioned by every trigger (`{ f(x), g() : T }`), or the
    /// trigger could not determine it.
    fn triggers_mention_type_params(
        &mut self,
        params: &[TypeParamId],
        var_types: &[Type],
        written: &[ast::Trigger],
        checked: &[Vec<hir::Expr>],
    ) {
        for param in params.iter().filter(|param| !var_types.iter().any(|ty| super::types::mentions(ty, **param))) {
            for (trigger, terms) in written.iter().zip(checked) {
                if !terms.iter().any(|term| self.expr_mentions(term, *param)) {
                    let name = self.program.type_params[param.index()].name.clone();
                    self.error(SemaError::TriggerMissingTypeParam { name, span: trigger.span });
                }
            }
        }
    }

    /// Whether the type of `expr` or of a subexpression, or a type argument in it,
    /// mentions `param` (with the inference variables solved so far).
    fn expr_mentions(&self, expr: &hir::Expr, param: TypeParamId) -> bool {
        if super::types::mentions(&self.resolved(&expr.ty), param) {
            return true;
        }
        match &expr.kind {
            hir::ExprKind::Apply { type_args, args, .. } => {
                type_args.iter().any(|ty| super::types::mentions(&self.resolved(ty), param))
                    || args.iter().any(|arg| self.expr_mentions(arg, param))
            }
            hir::ExprKind::Select { map, indices } => {
                self.expr_mentions(map, param) || indices.iter().any(|index| self.expr_mentions(index, param))
            }
            hir::ExprKind::Binary { lhs, rhs, .. } => self.expr_mentions(lhs, param) || self.expr_mentions(rhs, param),
            hir::ExprKind::Unary { operand, .. } | hir::ExprKind::Old(operand) => self.expr_mentions(operand, param),
            _ => false,
        }
    }

    /// Gives each bound variable a fresh id and brings it into scope.
    #[inline(never)]
    fn bind_vars(&mut self, scope: &mut Scope, groups: &[ast::TypedIdents]) -> Vec<hir::BoundVar> {
        let mut vars: Vec<hir::BoundVar> = Vec::new();
        for group in groups {
            let ty = self.resolve_type(&group.ty, &scope.type_params);
            if let Some(where_clause) = &group.where_clause {
                self.error(SemaError::WhereOnBoundVar { span: where_clause.span });
            }
            for name in &group.names {
                if let Some(first) = vars.iter().find(|var| var.name.as_deref() == Some(name.name.as_str())) {
                    let (first, span) = (first.span, name.span);
                    let name = name.name.clone();
                    self.error(SemaError::Duplicate { kind: DeclKind::BoundVar, name, span, first });
                }
                vars.push(self.bind_var(scope, name, ty.clone()));
            }
        }
        vars
    }

    /// Gives a variable of a quantifier or let a fresh id and brings it into scope.
    fn bind_var(&mut self, scope: &mut Scope, name: &ast::Ident, ty: Type) -> hir::BoundVar {
        let id = self.fresh_bound();
        scope.bound.push(BoundName { name: name.name.clone(), id, ty: ty.clone() });
        hir::BoundVar { id, name: Some(name.name.clone()), ty, span: name.span }
    }

    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn finish_quant(
        &mut self,
        quantifier: ast::Quantifier,
        type_params: Vec<TypeParamId>,
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
                let map = hir::MapType { type_params: type_params.clone(), domain, range: body.ty.clone() };
                (Quantifier::Lambda, Type::Map(Arc::new(map)))
            }
        };
        if quantifier != Quantifier::Lambda {
            self.expect_type(&body, &Type::Bool, None);
        }
        let attrs = attrs.to_vec();
        typed(hir::ExprKind::Quant { quantifier, type_params, vars, triggers, attrs, body }, ty, span)
    }

    /// `(var x, y := a, b; body)` is the application of `(lambda x, y :: body)` to
    /// `a, b`: the same value, and a construct every later stage knows.
    #[inline(never)]
    fn let_expr(&mut self, scope: &mut Scope, expr: &ast::Expr) -> hir::Expr {
        let ast::ExprKind::Let { vars, values, attrs, body } = &expr.kind else {
            unreachable!("`expr` passes let-expressions only");
        };
        let values = self.exprs(scope, values);
        if vars.len() != values.len() {
            self.error(SemaError::AssignCount { span: expr.span, targets: vars.len(), values: values.len() });
        }
        let outer = scope.bound.len();
        let mut bound = Vec::with_capacity(vars.len());
        for (position, name) in vars.iter().enumerate() {
            if let Some(first) = vars[..position].iter().find(|earlier| earlier.name == name.name) {
                let (name, span, first) = (name.name.clone(), name.span, first.span);
                self.error(SemaError::Duplicate { kind: DeclKind::BoundVar, name, span, first });
            }
            let ty = values.get(position).map_or(ERROR, |value| self.resolved(&value.ty));
            bound.push(self.bind_var(scope, name, ty));
        }
        let body = Box::new(self.expr(scope, body));
        scope.bound.truncate(outer);
        let domain = bound.iter().map(|var| var.ty.clone()).collect();
        let ty = body.ty.clone();
        let lambda_ty = Type::Map(Arc::new(hir::MapType { type_params: Vec::new(), domain, range: ty.clone() }));
        let lambda = hir::ExprKind::Quant {
            quantifier: Quantifier::Lambda,
            type_params: Vec::new(),
            vars: bound,
            triggers: Vec::new(),
            attrs: attrs.clone(),
            body,
        };
        let map = Box::new(typed(lambda, lambda_ty, expr.span));
        typed(hir::ExprKind::Select { map, indices: values }, ty, expr.span)
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
        // Checking ends by making it the order function of `int` (`sema::order`).
        let hir::ExprKind::Apply { func, .. } = &program.axioms[0].expr.kind else { panic!("an application") };
        assert_eq!(program.functions[func.index()].name, "<:@int");
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
        accepts!("axiom (forall<a> x: a :: x == x);");
        accepts!("axiom (forall<a> x: int :: x == x);");
        accepts!("type Seq _; function Empty<T>(): Seq T; function Length<T>(Seq T): int; axiom (forall<T> :: Length(Empty() : Seq T) == 0);");
        rejects!(
            "axiom (lambda<a> x: int :: true) == (lambda<a> x: int :: true);",
            "type parameter `a` does not occur in the types of the bound variables"
        );
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
    fn real_arithmetic_types_check() {
        let program = accepts!(
            "const r: real; axiom r * 2.5 + -r >= 1e3 && r / 2 < 1.5e-3 ** 2.0 && int(r) == 1 && real(1) == r;"
        );
        let hir::ExprKind::Binary { lhs, .. } = &program.axioms[0].expr.kind else { panic!("a conjunction") };
        assert_eq!(lhs.ty, Type::Bool);
        rejects!("const r: real; axiom r + 1 == r;", "expected `real`, found `int`");
        rejects!("axiom 1 ** 2 == 1;", "expected `real`, found `int`");
        rejects!("axiom 1.5 div 2.0 == 1;", "expected `int`, found `real`");
        rejects!("axiom int(1) == 1;", "expected `real`, found `int`");
        rejects!("axiom -true == 1;", "`-` cannot be applied to `bool`");
    }

    #[test]
    fn division_converts_integer_operands_to_reals() {
        let program = accepts!("axiom 1 / 2 == 0.5;");
        let hir::ExprKind::Binary { lhs, .. } = &program.axioms[0].expr.kind else { panic!("an equation") };
        let hir::ExprKind::Binary { op: BinaryOp::RealDiv, lhs: dividend, .. } = &lhs.kind else {
            panic!("a division")
        };
        assert!(matches!(dividend.kind, hir::ExprKind::Unary { op: UnaryOp::ToReal, .. }));
    }

    #[test]
    fn decimal_literals_are_exact() {
        let half = BigRational::new(1.into(), 2.into());
        assert_eq!(decimal_value("0.5"), Some(half.clone()));
        assert_eq!(decimal_value("5e-1"), Some(half));
        assert_eq!(decimal_value("1.25e2"), Some(BigRational::from_integer(125.into())));
        assert_eq!(decimal_value("1e999999"), None);
    }

    #[test]
    fn bit_vector_operations_type_check() {
        accepts!("const a: bv8; const b: bv24; axiom a ++ b == 0bv32 && a[4:0] == 3bv4 && (a ++ b)[32:24] == a;");
        rejects!("axiom 256bv8 == 0bv8;", "bit-vector literal does not fit in 8 bits");
        rejects!("const a: bv8; axiom a[9:0] == a;", "bits `[9:0]` are not within a `bv8`");
        rejects!("const a: bv8; axiom a == 1bv16;", "cannot compare `bv8` with `bv16`");
        rejects!("const a: int; axiom a ++ a == a;", "`++` cannot be applied to `int`");
        rejects!("const a: bv8; axiom a + a == a;", "`+` cannot be applied to `bv8`");
    }

    #[test]
    fn polymorphic_functions_infer_their_type_arguments() {
        let program = accepts!(
            r"
            type Seq T;
            function Seq#Length<T>(s: Seq T): int;
            function Seq#Empty<T>(): Seq T;
            axiom (forall<T> s: Seq T :: Seq#Length(s) >= Seq#Length(Seq#Empty() : Seq T));
            const s: Seq int;
            axiom Seq#Length(s) >= 0 && s != Seq#Empty();
        "
        );
        let hir::ExprKind::Binary { lhs, .. } = &program.axioms[1].expr.kind else { panic!("a conjunction") };
        let hir::ExprKind::Binary { lhs: length, .. } = &lhs.kind else { panic!("a comparison") };
        let hir::ExprKind::Apply { type_args, .. } = &length.kind else { panic!("an application") };
        assert_eq!(type_args, &vec![Type::Int]);
        warns!(
            "function Empty<T>(): [T]bool; axiom Empty() == Empty();",
            "type argument `T` is ambiguous; it is instantiated to `int`"
        );
    }

    #[test]
    fn equality_compares_types_that_could_be_equal() {
        accepts!("function f<T>(x: T): bool { x == 1 }");
        rejects!("const a: int; axiom a == true;", "cannot compare `int` with `bool`");
    }

    #[test]
    fn a_trigger_determines_the_type_parameters_the_variables_do_not() {
        let prelude = "function f(x: int): bool; function poly<a>(): a;";
        accepts!(&format!("{prelude} axiom (forall<T> x: int :: {{ f(x), poly() : T }} f(x));"));
        rejects!(
            &format!("{prelude} axiom (forall<T> x: int :: {{ f(x) }} f(x));"),
            "the trigger does not mention type parameter `T`"
        );
    }

    #[test]
    fn a_coercion_fixes_a_type() {
        accepts!("type Set T = [T]bool; function Empty<T>(): Set T; axiom (Empty() : Set int)[1] == false;");
        rejects!("const c: int; axiom (c : bool);", "expected `bool`, found `int`");
    }

    #[test]
    fn a_let_expression_is_an_applied_lambda() {
        let program = accepts!("const c: int; axiom (var x, y := c + 1, true; x > c && y);");
        let hir::ExprKind::Select { map, indices } = &program.axioms[0].expr.kind else { panic!("an application") };
        assert!(matches!(map.kind, hir::ExprKind::Quant { quantifier: Quantifier::Lambda, .. }));
        assert_eq!(indices.len(), 2);
        rejects!("axiom (var x := 1; x);", "expected `bool`, found `int`");
        rejects!("axiom (var x, x := 1, 2; x > 0);", "duplicate bound variable `x`");
    }

    #[test]
    fn a_polymorphic_lambda_is_a_polymorphic_map() {
        accepts!("type Field _; const m: <a>[Field a]bool; axiom m == (lambda<a> f: Field a :: true);");
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
