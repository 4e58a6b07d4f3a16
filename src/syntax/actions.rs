//! The grammar's semantic actions, in ordinary Rust so the `.lalrpop` file stays one
//! line per alternative.

use crate::source::{FileId, Span};
use crate::syntax::ast::*;
use crate::syntax::error::ParseError;
use crate::syntax::lexer::Token;
use lalrpop_util::ErrorRecovery;
use num_bigint::BigUint;

/// Errors the grammar records and recovers from.
pub type Recovered = Vec<ErrorRecovery<usize, Token, ParseError>>;

pub fn span(file: FileId, start: usize, end: usize) -> Span {
    Span::new(file, start, end)
}

pub fn ident(file: FileId, start: usize, name: String, end: usize) -> Ident {
    Ident { name, span: span(file, start, end) }
}

pub fn coerce(file: FileId, operand: Expr, ty: Type, end: usize) -> Expr {
    let span = span(file, operand.span.start as usize, end);
    Expr { kind: ExprKind::Coerce { operand: Box::new(operand), ty }, span }
}

pub fn prepend<T>(first: T, rest: Vec<T>) -> Vec<T> {
    let mut items = Vec::with_capacity(rest.len() + 1);
    items.push(first);
    items.extend(rest);
    items
}

pub fn append<T>(mut items: Vec<T>, last: Option<T>) -> Vec<T> {
    items.extend(last);
    items
}

/// A function's arguments as Boogie reads them: where some are named, an unnamed one
/// written as a bare identifier is a name, of the type of the next named argument
/// (`function leq(r1, r2: ref): bool` has two arguments of type `ref`). Boogie's parser
/// cannot tell `r1` from a type name until it sees the list's named arguments, and
/// decides this way; a list of types alone (`function f(int, ref): bool`) is unchanged.
pub fn function_args(mut args: Vec<FunctionArg>) -> Vec<FunctionArg> {
    if args.iter().all(|arg| arg.name.is_none()) {
        return args;
    }
    let mut next_type: Option<Type> = None;
    for arg in args.iter_mut().rev() {
        match (&arg.name, &arg.ty.kind, &next_type) {
            (Some(_), _, _) => next_type = Some(arg.ty.clone()),
            (None, TypeKind::Named { name, args: type_args }, Some(ty)) if type_args.is_empty() => {
                arg.name = Some(name.clone());
                arg.ty = Type { kind: ty.kind.clone(), span: ty.span };
            }
            (None, _, _) => {}
        }
    }
    args
}

/// `type A, B = int;` declares each name separately; each declaration keeps the
/// attributes and the span of the whole statement.
pub fn type_decls(
    file: FileId,
    start: usize,
    attrs: Vec<Attribute>,
    finite: bool,
    defs: Vec<(Ident, Vec<Ident>, Option<Type>)>,
    end: usize,
) -> Vec<Decl> {
    defs.into_iter()
        .map(|(name, params, synonym)| {
            Decl::Type(TypeDecl { attrs: attrs.clone(), finite, name, params, synonym, span: span(file, start, end) })
        })
        .collect()
}

pub fn spec(file: FileId, start: usize, kind: SpecKind, end: usize) -> Spec {
    Spec { kind, span: span(file, start, end) }
}

/// An item of a procedure body: locals and statements are parsed in any order, and
/// [`body`] rejects a local that follows a statement.
pub enum BodyItem {
    Local(VarDecl),
    Stmt(Stmt),
}

pub fn body(file: FileId, start: usize, items: Vec<BodyItem>, errors: &mut Recovered, end: usize) -> Body {
    let mut locals = Vec::new();
    let mut stmts: Vec<Stmt> = Vec::new();
    for item in items {
        match item {
            BodyItem::Local(decl) => {
                if let Some(first) = stmts.first() {
                    let error = ParseError::LocalAfterStatement { span: decl.span, first_statement: first.span };
                    errors.push(ErrorRecovery {
                        error: lalrpop_util::ParseError::User { error },
                        dropped_tokens: Vec::new(),
                    });
                }
                locals.push(decl);
            }
            BodyItem::Stmt(stmt) => stmts.push(stmt),
        }
    }
    Body { locals, stmts, span: span(file, start, end) }
}

pub fn map_type(
    file: FileId,
    start: usize,
    type_params: Vec<Ident>,
    domain: Vec<Type>,
    range: Type,
    end: usize,
) -> Type {
    Type { kind: TypeKind::Map { type_params, domain, range: Box::new(range) }, span: span(file, start, end) }
}

pub fn binary(lhs: Expr, op: BinaryOp, rhs: Expr) -> Expr {
    let span = lhs.span.to(rhs.span);
    Expr { kind: ExprKind::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }, span }
}

pub fn unary(file: FileId, start: usize, op: UnaryOp, operand: Expr) -> Expr {
    let span = span(file, start, operand.span.end as usize);
    Expr { kind: ExprKind::Unary { op, operand: Box::new(operand) }, span }
}

pub fn if_then_else(file: FileId, start: usize, cond: Expr, then_expr: Expr, else_expr: Expr, end: usize) -> Expr {
    let kind =
        ExprKind::IfThenElse { cond: Box::new(cond), then_expr: Box::new(then_expr), else_expr: Box::new(else_expr) };
    Expr { kind, span: span(file, start, end) }
}

fn postfix(file: FileId, base: &Expr, end: usize) -> Span {
    span(file, base.span.start as usize, end)
}

pub fn select(file: FileId, map: Expr, indices: Vec<Expr>, end: usize) -> Expr {
    let span = postfix(file, &map, end);
    Expr { kind: ExprKind::Select { map: Box::new(map), indices }, span }
}

pub fn store(file: FileId, map: Expr, indices: Vec<Expr>, value: Expr, end: usize) -> Expr {
    let span = postfix(file, &map, end);
    Expr { kind: ExprKind::Store { map: Box::new(map), indices, value: Box::new(value) }, span }
}

pub fn extract(file: FileId, operand: Expr, high: BigUint, low: BigUint, end: usize) -> Expr {
    let span = postfix(file, &operand, end);
    Expr { kind: ExprKind::Extract { operand: Box::new(operand), high, low }, span }
}

/// Parentheses leave no node behind (the printer puts back those the precedence needs),
/// but the expression's span grows to include them, so a diagnostic underlines `(a + b)`.
pub fn parenthesized(file: FileId, start: usize, mut expr: Expr, end: usize) -> Expr {
    expr.span = span(file, start, end);
    expr
}

/// What may stand between `::` and a quantifier's body.
pub enum Decoration {
    Attribute(Attribute),
    Trigger(Trigger),
}

pub fn quantifier(
    quantifier: Quantifier,
    type_params: Vec<Ident>,
    vars: Vec<TypedIdents>,
    decorations: Vec<Decoration>,
    body: Expr,
) -> ExprKind {
    let mut attrs = Vec::new();
    let mut triggers = Vec::new();
    for decoration in decorations {
        match decoration {
            Decoration::Attribute(attr) => attrs.push(attr),
            Decoration::Trigger(trigger) => triggers.push(trigger),
        }
    }
    ExprKind::Quant { quantifier, type_params, vars, attrs, triggers, body: Box::new(body) }
}
