//! Types: resolving written types to [`hir::Type`](crate::sema::hir::Type), expanding
//! synonyms (with their parameters), the error type that keeps one mistake from causing
//! many errors, and unification with inference variables, which is how Boogie's type
//! arguments are inferred (a function's from its arguments and, for a parameter only its
//! result mentions, from the context or a coercion `e : T`).
//!
//! Invariants: a type is [`ERROR`] (or contains it) only if an error was reported for
//! it, so the error type never reaches a returned HIR; an inference variable is a
//! [`Type::Param`] with an id from [`INFERENCE_BASE`] up, and every one is solved (or
//! reported) before an expression is stored in the HIR ([`Checker::settle`]).

use super::error::{SemaError, ShownType, Unsupported};
use super::hir::{MapType, Type, TypeId, TypeParamId};
use super::{Checker, TypeSymbolKind};
use crate::source::Span;
use crate::syntax::ast;
use crate::syntax::MAX_NESTING;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The error type. `hir::Type` has no error variant because later stages never see one;
/// inside the checker this id, which no declaration can get, plays that role.
pub(super) const ERROR: Type = Type::Named(TypeId(u32::MAX), Vec::new());

/// Inference variables are type parameters numbered from here up; declared parameters
/// stay far below (the program's size bounds them).
pub(super) const INFERENCE_BASE: u32 = 1 << 31;

/// Neither written types nor the expansions of synonyms may nest deeper than the parser
/// allows brackets, so recursion over types stays shallow.
const MAX_TYPE_DEPTH: usize = MAX_NESTING;

/// Nor to types with more parts than this: expansions share their parts, so a few lines
/// of synonyms (`type T2 = [T1]T1;` ...) could otherwise make a type whose every
/// traversal (comparison, printing) takes exponential time.
const MAX_TYPE_SIZE: usize = 10_000;

/// The widest bit-vector type accepted (Z3 handles far wider, but tests print them).
const MAX_BIT_VECTOR_WIDTH: u32 = 1 << 16;

/// The type parameters in scope while a type is resolved, innermost last.
pub(super) type TypeScope = [(String, TypeParamId)];

/// The nesting depth and the number of parts of a type, once synonyms are expanded.
#[derive(Clone, Copy)]
struct Measure {
    depth: usize,
    size: usize,
}

const SCALAR: Measure = Measure { depth: 0, size: 1 };

pub(super) fn is_error(ty: &Type) -> bool {
    *ty == ERROR
}

pub(super) fn contains_error(ty: &Type) -> bool {
    match ty {
        Type::Named(..) if is_error(ty) => true,
        Type::Named(_, args) => args.iter().any(contains_error),
        Type::Map(map) => map.domain.iter().chain([&map.range]).any(contains_error),
        _ => false,
    }
}

pub(super) fn is_inference(param: TypeParamId) -> bool {
    param.0 >= INFERENCE_BASE
}

/// Of two unified types, the more informative one.
pub(super) fn join(a: Type, b: Type) -> Type {
    if is_error(&a) {
        b
    } else {
        a
    }
}

/// The span of the first part of `ty` nested deeper than [`MAX_TYPE_DEPTH`], found
/// without recursion.
fn too_deep(ty: &ast::Type) -> Option<Span> {
    let mut pending = vec![(ty, 1usize)];
    while let Some((ty, depth)) = pending.pop() {
        if depth > MAX_TYPE_DEPTH {
            return Some(ty.span);
        }
        match &ty.kind {
            ast::TypeKind::Int | ast::TypeKind::Bool | ast::TypeKind::Real => {}
            ast::TypeKind::Named { args, .. } => pending.extend(args.iter().map(|arg| (arg, depth + 1))),
            ast::TypeKind::Map { domain, range, .. } => {
                pending.extend(domain.iter().chain([&**range]).map(|part| (part, depth + 1)))
            }
        }
    }
    None
}

/// A built-in family named like a type: `bv32`, or `float24e8` (outside the scope).
pub(super) enum BuiltinFamily {
    BitVector(u32),
    /// `bvN` with N too wide.
    WideBitVector,
    Float,
}

pub(super) fn builtin_family(name: &str) -> Option<BuiltinFamily> {
    let all_digits = |text: &str| !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit());
    if let Some(width) = name.strip_prefix("bv").filter(|width| all_digits(width)) {
        return Some(match width.parse::<u32>() {
            Ok(width) if width <= MAX_BIT_VECTOR_WIDTH => BuiltinFamily::BitVector(width),
            _ => BuiltinFamily::WideBitVector,
        });
    }
    let float = name.strip_prefix("float").and_then(|rest| rest.split_once('e'));
    if float.is_some_and(|(exponent, significand)| all_digits(exponent) && all_digits(significand)) {
        return Some(BuiltinFamily::Float);
    }
    None
}

impl Checker {
    /// A new type parameter named `name`, declared at `span`.
    pub(super) fn fresh_type_param(&mut self, name: &ast::Ident) -> TypeParamId {
        let id = TypeParamId::from_index(self.program.type_params.len());
        self.program.type_params.push(super::hir::TypeParam { name: name.name.clone(), span: name.span });
        id
    }

    /// Declares `names` as type parameters (reporting duplicates) and returns them as a
    /// scope extending `outer`.
    pub(super) fn bind_type_params(
        &mut self,
        outer: &TypeScope,
        names: &[ast::Ident],
    ) -> (Vec<TypeParamId>, Vec<(String, TypeParamId)>) {
        let mut scope = outer.to_vec();
        let mut ids = Vec::with_capacity(names.len());
        for (position, name) in names.iter().enumerate() {
            if let Some(first) = names[..position].iter().find(|earlier| earlier.name == name.name) {
                self.error(SemaError::Duplicate {
                    kind: super::error::DeclKind::TypeParam,
                    name: name.name.clone(),
                    span: name.span,
                    first: first.span,
                });
            } else if let Some((_, outer_param)) = outer.iter().rev().find(|(outer, _)| *outer == name.name) {
                let outer = self.program.type_params[outer_param.index()].span;
                self.error(SemaError::TypeParamShadows { name: name.name.clone(), span: name.span, outer });
            }
            let id = self.fresh_type_param(name);
            ids.push(id);
            scope.push((name.name.clone(), id));
        }
        (ids, scope)
    }

    /// Reports each of `params` (declared as `names`) that none of `types` or `more`
    /// mentions, as Boogie requires.
    pub(super) fn require_occurrence(
        &mut self,
        params: &[TypeParamId],
        names: &[ast::Ident],
        types: &[Type],
        more: &[Type],
        context: super::error::TypeParamContext,
    ) {
        for (position, (param, name)) in params.iter().zip(names).enumerate() {
            // A name declared twice is reported as a duplicate; its first declaration is
            // shadowed, so it could not occur anyway.
            let shadowed = names[position + 1..].iter().any(|later| later.name == name.name);
            if !shadowed && !types.iter().chain(more).any(|ty| mentions(ty, *param)) {
                self.unused_type_params.insert(*param);
                self.error(SemaError::UnusedTypeParam { name: name.name.clone(), span: name.span, context });
            }
        }
    }

    /// Resolves a written type in the scope of the type parameters `scope`.
    pub(super) fn resolve_type(&mut self, ty: &ast::Type, scope: &TypeScope) -> Type {
        // A map's range nests without brackets (`[int][int]int`), so the parser's bracket
        // limit does not bound a written type: measure it before recursing over it.
        if let Some(span) = too_deep(ty) {
            self.error(SemaError::TypeTooDeep { span, limit: MAX_TYPE_DEPTH });
            return ERROR;
        }
        self.resolve_bounded_type(ty, scope)
    }

    fn resolve_bounded_type(&mut self, ty: &ast::Type, scope: &TypeScope) -> Type {
        match &ty.kind {
            ast::TypeKind::Int => Type::Int,
            ast::TypeKind::Bool => Type::Bool,
            ast::TypeKind::Real => Type::Real,
            ast::TypeKind::Named { name, args } => self.resolve_named_type(name, args, ty.span, scope),
            ast::TypeKind::Map { type_params, domain, range } => {
                let (params, inner) = self.bind_type_params(scope, type_params);
                let domain: Vec<Type> = domain.iter().map(|index| self.resolve_bounded_type(index, &inner)).collect();
                let range = self.resolve_bounded_type(range, &inner);
                // As in Boogie, a parameter may occur in the range only (`<a>[]a`): the
                // context of each selection then fixes it.
                self.require_occurrence(
                    &params,
                    type_params,
                    &domain,
                    std::slice::from_ref(&range),
                    super::error::TypeParamContext::MapType,
                );
                let type_params = sort_by_occurrence(params, &domain, std::slice::from_ref(&range));
                Type::Map(Arc::new(MapType { type_params, domain, range }))
            }
        }
    }

    fn resolve_named_type(&mut self, name: &ast::Ident, args: &[ast::Type], span: Span, scope: &TypeScope) -> Type {
        // Arguments are resolved even when the head is wrong, so their own mistakes show.
        let args: Vec<Type> = args.iter().map(|arg| self.resolve_bounded_type(arg, scope)).collect();
        if let Some((_, param)) = scope.iter().rev().find(|(param, _)| *param == name.name) {
            if !args.is_empty() {
                self.error(SemaError::TypeArguments {
                    name: name.name.clone(),
                    span,
                    expected: 0,
                    found: args.len(),
                    decl: None,
                });
            }
            return Type::Param(*param);
        }
        let Some(symbol) = self.types.get(&name.name) else {
            return self.builtin_type(name, &args, span);
        };
        let decl = symbol.span;
        let (expected, resolved) = match &symbol.kind {
            TypeSymbolKind::Uninterpreted(id) => {
                let arity = self.program.types[id.index()].arity;
                (arity, (args.len() == arity).then(|| Type::Named(*id, args.clone())))
            }
            TypeSymbolKind::Synonym(Some((params, body))) => {
                let substitution: Vec<(TypeParamId, Type)> = params.iter().copied().zip(args.iter().cloned()).collect();
                (params.len(), (args.len() == params.len()).then(|| body.substitute(&substitution)))
            }
            TypeSymbolKind::Synonym(None) => {
                unreachable!("synonyms are expanded in dependency order, cycles are marked broken")
            }
            TypeSymbolKind::Broken => return ERROR,
        };
        resolved.unwrap_or_else(|| {
            let found = args.len();
            self.error(SemaError::TypeArguments { name: name.name.clone(), span, expected, found, decl: Some(decl) });
            ERROR
        })
    }

    /// `bvN`, or an unknown type name.
    fn builtin_type(&mut self, name: &ast::Ident, args: &[Type], span: Span) -> Type {
        let error = match builtin_family(&name.name) {
            Some(BuiltinFamily::BitVector(width)) if args.is_empty() => return Type::BitVector(width),
            Some(BuiltinFamily::BitVector(_)) => {
                SemaError::TypeArguments { name: name.name.clone(), span, expected: 0, found: args.len(), decl: None }
            }
            Some(BuiltinFamily::WideBitVector) => {
                SemaError::NotSupported { construct: Unsupported::WideBitVector, span }
            }
            Some(BuiltinFamily::Float) => SemaError::NotSupported { construct: Unsupported::FloatType, span },
            None => SemaError::Unknown {
                kind: super::error::NameKind::Type,
                name: name.name.clone(),
                span: name.span,
                suggestion: super::error::suggest(
                    &name.name,
                    ["int", "bool", "real"].into_iter().chain(self.types.keys().map(String::as_str)),
                ),
            },
        };
        self.error(error);
        ERROR
    }

    /// Expands every synonym once, in dependency order, so that every later use is a
    /// substitution into its body. A cycle is reported once, where its last edge is
    /// found, and every synonym on it becomes the error type.
    pub(super) fn resolve_synonyms(&mut self, synonyms: &[&ast::TypeDecl]) {
        let index: BTreeMap<&str, usize> =
            synonyms.iter().enumerate().map(|(position, decl)| (decl.name.name.as_str(), position)).collect();
        let dependencies: Vec<Vec<(usize, Span)>> = synonyms
            .iter()
            .map(|decl| {
                let mut found = Vec::new();
                let rhs = decl.synonym.as_ref().expect("only synonyms are passed");
                // A type too deep to walk is reported (and made the error type) when it
                // is resolved below.
                if too_deep(rhs).is_none() {
                    synonym_uses(rhs, &index, &mut found);
                }
                found
            })
            .collect();
        // Measured on the written types, with the measures of the synonyms they use, so
        // that measuring never walks an expansion.
        let mut measures: Vec<Option<Measure>> = vec![None; synonyms.len()];
        for position in self.dependency_order(synonyms, &dependencies) {
            let decl = synonyms[position];
            let name = &decl.name.name;
            if matches!(self.types[name].kind, TypeSymbolKind::Broken) {
                continue;
            }
            let rhs = decl.synonym.as_ref().expect("only synonyms are passed");
            let (params, scope) = self.bind_type_params(&[], &decl.params);
            let mut expansion = self.resolve_type(rhs, &scope);
            let measure = if is_error(&expansion) { SCALAR } else { measure(rhs, &index, &measures) };
            if measure.depth > MAX_TYPE_DEPTH || measure.size > MAX_TYPE_SIZE {
                self.error(SemaError::TypeTooLarge {
                    name: name.clone(),
                    span: decl.name.span,
                    max_depth: MAX_TYPE_DEPTH,
                    max_size: MAX_TYPE_SIZE,
                });
                expansion = ERROR;
            } else {
                measures[position] = Some(measure);
            }
            let symbol = self.types.get_mut(name).expect("synonyms are registered before expansion");
            symbol.kind = TypeSymbolKind::Synonym(Some((params, expansion)));
        }
    }
    /// A post-order of the synonym dependency graph, by an explicit-stack depth-first
    /// search (a chain of synonyms may be as long as the file). Marks the synonyms that
    /// close a cycle as broken and reports them.
    fn dependency_order(&mut self, synonyms: &[&ast::TypeDecl], dependencies: &[Vec<(usize, Span)>]) -> Vec<usize> {
        #[derive(Clone, Copy, PartialEq)]
        enum Mark {
            New,
            Open,
            Done,
        }
        let mut marks = vec![Mark::New; synonyms.len()];
        let mut order = Vec::with_capacity(synonyms.len());
        for root in 0..synonyms.len() {
            if marks[root] != Mark::New {
                continue;
            }
            marks[root] = Mark::Open;
            let mut stack = vec![(root, 0usize)];
            while let Some((node, next)) = stack.last_mut() {
                let node = *node;
                let Some(&(target, use_span)) = dependencies[node].get(*next) else {
                    marks[node] = Mark::Done;
                    order.push(node);
                    stack.pop();
                    continue;
                };
                *next += 1;
                match marks[target] {
                    Mark::New => {
                        marks[target] = Mark::Open;
                        stack.push((target, 0));
                    }
                    Mark::Open => {
                        let decl = synonyms[target];
                        let symbol = self.types.get_mut(&decl.name.name).expect("synonyms are registered");
                        if !matches!(symbol.kind, TypeSymbolKind::Broken) {
                            symbol.kind = TypeSymbolKind::Broken;
                            self.error(SemaError::SynonymCycle {
                                name: decl.name.name.clone(),
                                span: use_span,
                                decl: decl.name.span,
                            });
                        }
                    }
                    Mark::Done => {}
                }
            }
        }
        order
    }

    /// How a type is shown in messages, with inference variables solved so far.
    pub(super) fn shown(&self, ty: &Type) -> ShownType {
        match ty {
            _ if is_error(ty) => ShownType::Unknown,
            Type::Int => ShownType::Int,
            Type::Bool => ShownType::Bool,
            Type::Real => ShownType::Real,
            Type::BitVector(width) => ShownType::BitVector(*width),
            Type::Named(id, args) => ShownType::Named(
                self.program.types[id.index()].name.clone(),
                args.iter().map(|arg| self.shown(arg)).collect(),
            ),
            Type::Param(param) if is_inference(*param) => match self.solution(*param) {
                Some(solved) => self.shown(&solved.clone()),
                None => ShownType::Unknown,
            },
            Type::Param(param) => ShownType::Named(self.program.type_params[param.index()].name.clone(), Vec::new()),
            Type::Map(map) => ShownType::Map(
                map.type_params.iter().map(|param| self.program.type_params[param.index()].name.clone()).collect(),
                map.domain.iter().map(|index| self.shown(index)).collect(),
                Box::new(self.shown(&map.range)),
            ),
        }
    }

    /// A new inference variable standing for a type argument the checker must infer:
    /// `what` (a type parameter) of the declaration applied at `span`.
    pub(super) fn fresh_inference(&mut self, span: Span, what: TypeParamId) -> Type {
        let index = u32::try_from(self.inference.len()).expect("fewer than 2^31 inference variables");
        self.inference.push(Inference { solution: None, span, what });
        Type::Param(TypeParamId(INFERENCE_BASE + index))
    }

    fn solution(&self, param: TypeParamId) -> Option<&Type> {
        self.inference[(param.0 - INFERENCE_BASE) as usize].solution.as_ref()
    }

    /// `ty` with its outermost solved inference variables replaced by their solutions.
    fn shallow(&self, ty: &Type) -> Type {
        let mut ty = ty.clone();
        while let Type::Param(param) = ty {
            match is_inference(param).then(|| self.solution(param)).flatten() {
                Some(solved) => ty = solved.clone(),
                None => break,
            }
        }
        ty
    }

    /// `ty` with every solved inference variable replaced by its solution.
    pub(super) fn resolved(&self, ty: &Type) -> Type {
        match self.shallow(ty) {
            Type::Named(id, args) => Type::Named(id, args.iter().map(|arg| self.resolved(arg)).collect()),
            Type::Map(map) => Type::Map(Arc::new(MapType {
                type_params: map.type_params.clone(),
                domain: map.domain.iter().map(|index| self.resolved(index)).collect(),
                range: self.resolved(&map.range),
            })),
            other => other,
        }
    }

    /// Makes `a` and `b` one type by solving inference variables; the error type unifies
    /// with everything. A failed unification may have solved some variables: the caller
    /// reports it, and the expression is rejected anyway.
    pub(super) fn unify(&mut self, a: &Type, b: &Type) -> bool {
        self.unify_with(a, b, false)
    }

    /// Unification as for `==`: Boogie compares values whose types *could* be equal, so
    /// a type parameter in scope unifies with any type here.
    pub(super) fn unify_loosely(&mut self, a: &Type, b: &Type) -> bool {
        self.unify_with(a, b, true)
    }

    fn unify_with(&mut self, a: &Type, b: &Type, loosely: bool) -> bool {
        let (a, b) = (self.shallow(a), self.shallow(b));
        match (&a, &b) {
            _ if is_error(&a) || is_error(&b) => true,
            (Type::Param(x), Type::Param(y)) if x == y => true,
            (Type::Param(x), other) | (other, Type::Param(x)) if is_inference(*x) => {
                if self.occurs(*x, other) {
                    return false;
                }
                self.inference[(x.0 - INFERENCE_BASE) as usize].solution = Some(other.clone());
                true
            }
            (Type::Param(_), _) | (_, Type::Param(_)) => loosely,
            (Type::Named(a, a_args), Type::Named(b, b_args)) => {
                a == b
                    && a_args.len() == b_args.len()
                    && a_args.iter().zip(b_args).all(|(a, b)| self.unify_with(a, b, loosely))
            }
            (Type::Map(a), Type::Map(b)) => {
                if Arc::ptr_eq(a, b) {
                    return true;
                }
                if a.type_params.len() != b.type_params.len() || a.domain.len() != b.domain.len() {
                    return false;
                }
                // Bound parameters correspond by position: rename b's to a's.
                let renaming: Vec<(TypeParamId, Type)> =
                    b.type_params.iter().copied().zip(a.type_params.iter().map(|param| Type::Param(*param))).collect();
                a.domain.iter().zip(&b.domain).all(|(a, b)| self.unify_with(a, &b.substitute(&renaming), loosely))
                    && self.unify_with(&a.range, &b.range.substitute(&renaming), loosely)
            }
            _ => a == b,
        }
    }

    /// Whether the inference variable `param` occurs in `ty` (solving it to `ty` would
    /// make an infinite type).
    fn occurs(&self, param: TypeParamId, ty: &Type) -> bool {
        match self.shallow(ty) {
            Type::Param(other) => other == param,
            Type::Named(_, args) => args.iter().any(|arg| self.occurs(param, arg)),
            Type::Map(map) => map.domain.iter().chain([&map.range]).any(|part| self.occurs(param, part)),
            _ => false,
        }
    }

    /// Instantiates `params` with fresh inference variables for an application at `span`.
    pub(super) fn instantiate(&mut self, params: &[TypeParamId], span: Span) -> Vec<(TypeParamId, Type)> {
        params.iter().map(|param| (*param, self.fresh_inference(span, *param))).collect()
    }

    /// How many inference variables exist: [`Checker::settle`] solves those made since.
    pub(super) fn inference_mark(&self) -> usize {
        self.inference.len()
    }

    /// Replaces the inference variables made since `mark` in `expr` by their solutions,
    /// reporting each one left unsolved (once, at the application that made it).
    pub(super) fn settle(&mut self, mark: usize, expr: &mut super::hir::Expr) {
        if self.inference.len() == mark {
            return;
        }
        // Unsolved variables are defaulted (Boogie's `int`) before the expression takes
        // their solutions, so no error type is left in a program that checks.
        self.report_unsolved(mark);
        self.settle_expr(expr);
    }

    /// [`Checker::settle`] for the expressions of one statement, which share a context.
    pub(super) fn settle_all<'e>(&mut self, mark: usize, exprs: impl IntoIterator<Item = &'e mut super::hir::Expr>) {
        if self.inference.len() == mark {
            return;
        }
        self.report_unsolved(mark);
        for expr in exprs {
            self.settle_expr(expr);
        }
    }

    /// Reports the inference variables made since `mark` that nothing solved, and solves
    /// them to the error type so that no cascade follows.
    pub(super) fn report_unsolved(&mut self, mark: usize) {
        for index in mark..self.inference.len() {
            let param = TypeParamId(INFERENCE_BASE + index as u32);
            let resolved = self.resolved(&Type::Param(param));
            if !resolved_fully(&resolved) {
                // Boogie's rule: an ambiguous type argument is instantiated to `int`,
                // with a warning.
                let Inference { span, what, .. } = self.inference[index];
                // A parameter reported as occurring nowhere is ambiguous at every use.
                if !self.unused_type_params.contains(&what) {
                    let name = self.program.type_params[what.index()].name.clone();
                    self.error(SemaError::AmbiguousTypeArgument { name, span });
                }
                self.default_unsolved(&resolved);
            }
        }
    }

    /// Solves every inference variable left in `ty` to `int`.
    fn default_unsolved(&mut self, ty: &Type) {
        match ty {
            Type::Param(param) if is_inference(*param) => {
                self.inference[(param.0 - INFERENCE_BASE) as usize].solution = Some(Type::Int);
            }
            Type::Named(_, args) => args.iter().for_each(|arg| self.default_unsolved(arg)),
            Type::Map(map) => map.domain.iter().chain([&map.range]).for_each(|part| self.default_unsolved(part)),
            _ => {}
        }
    }

    /// The type with its inference variables solved; those left unsolved are reported
    /// by [`Checker::report_unsolved`].
    pub(super) fn settled(&self, ty: &Type) -> Type {
        let resolved = self.resolved(ty);
        if resolved_fully(&resolved) {
            resolved
        } else {
            ERROR
        }
    }

    fn settle_expr(&mut self, expr: &mut super::hir::Expr) {
        use super::hir::ExprKind;
        expr.ty = self.settled(&expr.ty);
        match &mut expr.kind {
            ExprKind::Bool(_)
            | ExprKind::Int(_)
            | ExprKind::Real(_)
            | ExprKind::BitVector { .. }
            | ExprKind::Var(_) => {}
            ExprKind::Apply { type_args, args, .. } => {
                for ty in type_args.iter_mut() {
                    *ty = self.settled(ty);
                }
                args.iter_mut().for_each(|arg| self.settle_expr(arg));
            }
            ExprKind::Old(operand) | ExprKind::Unary { operand, .. } | ExprKind::Extract { operand, .. } => {
                self.settle_expr(operand)
            }
            ExprKind::Binary { lhs, rhs, .. } => {
                self.settle_expr(lhs);
                self.settle_expr(rhs);
            }
            ExprKind::Select { map, indices } => {
                self.settle_expr(map);
                indices.iter_mut().for_each(|index| self.settle_expr(index));
            }
            ExprKind::Store { map, indices, value } => {
                self.settle_expr(map);
                indices.iter_mut().for_each(|index| self.settle_expr(index));
                self.settle_expr(value);
            }
            ExprKind::IfThenElse { cond, then_expr, else_expr } => {
                self.settle_expr(cond);
                self.settle_expr(then_expr);
                self.settle_expr(else_expr);
            }
            ExprKind::Quant { vars, triggers, body, .. } => {
                for var in vars.iter_mut() {
                    var.ty = self.settled(&var.ty);
                }
                triggers.iter_mut().flatten().for_each(|term| self.settle_expr(term));
                self.settle_expr(body);
            }
        }
    }
}

/// Whether a resolved type is free of inference variables.
fn resolved_fully(ty: &Type) -> bool {
    match ty {
        Type::Param(param) => !is_inference(*param),
        Type::Named(_, args) => args.iter().all(resolved_fully),
        Type::Map(map) => map.domain.iter().chain([&map.range]).all(resolved_fully),
        _ => true,
    }
}

/// `params` in the order of their first occurrence in `types`, then in `more`, as Boogie
/// orders them: two declarations whose parameters are named or listed differently then
/// correspond position by position (a map type's, an implementation's and its
/// procedure's).
pub(super) fn sort_by_occurrence(params: Vec<TypeParamId>, types: &[Type], more: &[Type]) -> Vec<TypeParamId> {
    let mut order = Vec::with_capacity(params.len());
    for ty in types.iter().chain(more) {
        collect_params(ty, &params, &mut order);
    }
    order.extend(params.iter().filter(|param| !order.contains(param)).copied().collect::<Vec<_>>());
    order
}

fn collect_params(ty: &Type, wanted: &[TypeParamId], order: &mut Vec<TypeParamId>) {
    match ty {
        Type::Param(param) if wanted.contains(param) && !order.contains(param) => order.push(*param),
        Type::Named(_, args) => args.iter().for_each(|arg| collect_params(arg, wanted, order)),
        Type::Map(map) => map.domain.iter().chain([&map.range]).for_each(|part| collect_params(part, wanted, order)),
        _ => {}
    }
}

/// Whether `ty` mentions the type parameter `param`.
pub(super) fn mentions(ty: &Type, param: TypeParamId) -> bool {
    match ty {
        Type::Param(other) => *other == param,
        Type::Named(_, args) => args.iter().any(|arg| mentions(arg, param)),
        Type::Map(map) => map.domain.iter().chain([&map.range]).any(|part| mentions(part, param)),
        _ => false,
    }
}

/// An inference variable: its solution, and the application that made it (for the
/// message when nothing solves it).
pub(super) struct Inference {
    solution: Option<Type>,
    span: Span,
    what: TypeParamId,
}

/// The measure of a written type whose synonyms measure as in `measures` (a synonym
/// without a measure was rejected and is the error type, a scalar).
fn measure(ty: &ast::Type, index: &BTreeMap<&str, usize>, measures: &[Option<Measure>]) -> Measure {
    match &ty.kind {
        ast::TypeKind::Int | ast::TypeKind::Bool | ast::TypeKind::Real => SCALAR,
        ast::TypeKind::Named { name, .. } => {
            index.get(name.name.as_str()).and_then(|&position| measures[position]).unwrap_or(SCALAR)
        }
        ast::TypeKind::Map { domain, range, .. } => {
            let parts = domain.iter().chain([range.as_ref()]).map(|part| measure(part, index, measures));
            parts.fold(Measure { depth: 1, size: 1 }, |total, part| Measure {
                depth: total.depth.max(part.depth + 1),
                size: total.size.saturating_add(part.size),
            })
        }
    }
}

/// The synonyms a written type mentions, with the span of each mention. Only called on
/// types [`too_deep`] accepts, so this recursion is shallow.
fn synonym_uses(ty: &ast::Type, index: &BTreeMap<&str, usize>, found: &mut Vec<(usize, Span)>) {
    match &ty.kind {
        ast::TypeKind::Int | ast::TypeKind::Bool | ast::TypeKind::Real => {}
        ast::TypeKind::Named { name, args } => {
            if let Some(&position) = index.get(name.name.as_str()) {
                found.push((position, name.span));
            }
            args.iter().for_each(|arg| synonym_uses(arg, index, found));
        }
        ast::TypeKind::Map { domain, range, .. } => {
            domain.iter().for_each(|index_ty| synonym_uses(index_ty, index, found));
            synonym_uses(range, index, found);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::error_count;

    #[test]
    fn synonyms_are_expanded_in_any_order() {
        let program = accepts!(
            r"
            type A = [B]C; type B = int; type C = [int]bool;
            var m: A;
            procedure P() modifies m; { m[1][2] := true; }
        "
        );
        let shown =
            super::super::Checker { program: program.clone(), ..Default::default() }.shown(&program.globals[0].ty);
        assert_eq!(shown.to_string(), "[int][int]bool");
    }

    #[test]
    fn a_synonym_cycle_is_reported_once() {
        let source = "type A = B; type B = [int]A; const x: A; const y: B; axiom x == y;";
        rejects!(source, "type synonym `A` is defined in terms of itself");
        assert_eq!(error_count(source), 1);
    }

    #[test]
    fn a_self_referential_synonym_is_a_cycle() {
        rejects!("type T = [int]T;", "type synonym `T` is defined in terms of itself");
    }

    #[test]
    fn synonym_chains_neither_overflow_nor_grow_too_large() {
        let mut source = String::from("type T0 = int;\n");
        for level in 1..5000 {
            source.push_str(&format!("type T{level} = T{};\n", level - 1));
        }
        accepts!(&source);
        let mut deep = String::from("type T0 = int;\n");
        for level in 1..300 {
            deep.push_str(&format!("type T{level} = [int]T{};\n", level - 1));
        }
        rejects!(&deep, "type synonym `T257` expands to a type too large");
        let mut wide = String::from("type T0 = int;\n");
        for level in 1..40 {
            wide.push_str(&format!("type T{level} = [T{0}]T{0};\n", level - 1));
        }
        wide.push_str("const a: T39; const b: T39; axiom a == b;");
        rejects!(&wide, "type synonym `T13` expands to a type too large");
    }

    #[test]
    fn unknown_types_get_a_suggestion() {
        rejects!("type Ref; var x: Rf;", "did you mean `Ref`?");
        rejects!("var x: integer;", "cannot find type `integer`");
    }

    #[test]
    fn written_types_nest_no_deeper_than_synonyms() {
        let nested = |depth: usize| format!("var m: {}int;", "[int]".repeat(depth));
        accepts!(&nested(255));
        rejects!(&nested(300), "type nested more than 256 levels deep");
    }

    #[test]
    fn type_arguments_must_match_the_declaration() {
        rejects!("type Ref; var x: Ref int;", "type `Ref` takes no type arguments");
        rejects!("type Field _; var x: Field;", "type `Field` takes 1 type argument but 0 were given");
        rejects!("type Set T = [T]bool; var x: Set int bool;", "type `Set` takes 1 type argument but 2 were given");
        rejects!("var x: bv8 int;", "type `bv8` takes no type arguments");
    }

    #[test]
    fn constructors_synonyms_and_polymorphic_maps_resolve() {
        let program = accepts!(
            r"
            type ref; type Field _;
            type HeapType = <alpha>[ref, Field alpha]alpha;
            type Set T = [T]bool;
            var Heap: HeapType;
            const f: Field int; const g: Field bool; const s: Set (Field int);
            procedure P(o: ref) modifies Heap; { Heap[o, f] := Heap[o, f] + 1; Heap[o, g] := !Heap[o, g]; }
        "
        );
        let shown = super::super::Checker { program: program.clone(), ..Default::default() };
        assert_eq!(shown.shown(&program.globals[0].ty).to_string(), "<alpha>[ref, Field alpha]alpha");
        assert_eq!(shown.shown(&program.consts[2].ty).to_string(), "[Field int]bool");
        rejects!(
            "type ref; type Field _; var H: <a>[ref, Field a]a; procedure P(o: ref, f: Field int) modifies H; { H[o, f] := true; }",
            "expected `int`, found `bool`"
        );
        accepts!("var m: <a>[int]a; type ref; const null: ref; procedure P() modifies m; { m[0] := 1; m[1] := true; assert m[2] == null; }");
        rejects!("var m: <a>[int]int;", "type parameter `a` does not occur in the map type");
    }

    #[test]
    fn polymorphic_map_types_are_equal_up_to_parameter_names_and_order() {
        accepts!("const m: <a, b>[a, b]int; const n: <c, d>[c, d]int; axiom m == n;");
        accepts!("const m: <a, b>[a, b]int; const n: <b, a>[a, b]int; axiom m == n;");
        rejects!("const m: <a>[a, a]int; const n: <a, b>[a, b]int; axiom m == n;", "cannot compare");
    }

    #[test]
    fn type_parameters_do_not_shadow_each_other() {
        rejects!("function f<T>(x: T): bool { (forall<T> y: T :: y == y) }", "type parameter `T` is already declared");
        accepts!("function f<T>(x: T): bool { (forall<U> y: U :: y == y) } axiom (forall<T> x: T :: f(x));");
    }

    #[test]
    fn bit_vector_names_are_not_declarable() {
        rejects!("type bv16;", "`bv16` names a bit-vector type and cannot be declared");
    }

    #[test]
    fn reals_and_bit_vectors_are_types() {
        accepts!("var x: real; var b: bv32; var c: bv0;");
        rejects!("var x: float24e8;", "floating-point types are not supported");
        rejects!("var x: bv99999999999;", "bit-vector types wider than 65536 bits are not supported");
        rejects!("type {:datatype} List;", "`{:datatype}` types are not supported yet");
    }

    #[test]
    fn finite_types_are_accepted() {
        accepts!("type finite Color; const red: Color;");
    }
}
