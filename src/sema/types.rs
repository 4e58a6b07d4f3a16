//! Types: resolving written types to [`hir::Type`](crate::sema::hir::Type), expanding
//! synonyms, and the error type that keeps one mistake from causing many errors.
//!
//! Invariant: a type is [`ERROR`] (or contains it) only if an error was reported for
//! it, so the error type never reaches a returned HIR.

use super::error::{SemaError, ShownType, Unsupported};
use super::hir::{MapType, Type, TypeId};
use super::{span_of_names, Checker, TypeSymbolKind};
use crate::source::Span;
use crate::syntax::ast;
use crate::syntax::MAX_NESTING;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The error type. `hir::Type` has no error variant because later stages never see one;
/// inside the checker this id, which no declaration can get, plays that role.
pub(super) const ERROR: Type = Type::Named(TypeId(u32::MAX));

/// Neither written types nor the expansions of synonyms may nest deeper than the parser
/// allows brackets, so recursion over types stays shallow.
const MAX_TYPE_DEPTH: usize = MAX_NESTING;

/// Nor to types with more parts than this: expansions share their parts, so a few lines
/// of synonyms (`type T2 = [T1]T1;` ...) could otherwise make a type whose every
/// traversal (comparison, printing) takes exponential time.
const MAX_TYPE_SIZE: usize = 10_000;

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

/// Equal types, where the error type is equal to every type (also inside maps).
pub(super) fn compatible(a: &Type, b: &Type) -> bool {
    match (a, b) {
        _ if is_error(a) || is_error(b) => true,
        (Type::Map(a), Type::Map(b)) => {
            Arc::ptr_eq(a, b)
                || (a.domain.len() == b.domain.len()
                    && a.domain.iter().zip(&b.domain).all(|(a, b)| compatible(a, b))
                    && compatible(&a.range, &b.range))
        }
        _ => a == b,
    }
}

/// Of two compatible types, the more informative one.
pub(super) fn join(a: Type, b: Type) -> Type {
    if is_error(&a) {
        b
    } else {
        a
    }
}

pub(super) fn map_type(domain: Vec<Type>, range: Type) -> Type {
    Type::Map(Arc::new(MapType { domain, range }))
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

/// `bv32` and `float24e8` name built-in families outside the core.
fn builtin_family(name: &str) -> Option<Unsupported> {
    let all_digits = |text: &str| !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit());
    if name.strip_prefix("bv").is_some_and(all_digits) {
        return Some(Unsupported::BitVectorType);
    }
    let float = name.strip_prefix("float").and_then(|rest| rest.split_once('e'));
    if float.is_some_and(|(exponent, significand)| all_digits(exponent) && all_digits(significand)) {
        return Some(Unsupported::FloatType);
    }
    None
}

impl Checker {
    /// Resolves a written type. Names in `type_params` are type parameters of an
    /// enclosing declaration, which was rejected already, so they become the error type
    /// without a further error.
    pub(super) fn resolve_type(&mut self, ty: &ast::Type, type_params: &[ast::Ident]) -> Type {
        // A map's range nests without brackets (`[int][int]int`), so the parser's bracket
        // limit does not bound a written type: measure it before recursing over it.
        if let Some(span) = too_deep(ty) {
            self.error(SemaError::TypeTooDeep { span, limit: MAX_TYPE_DEPTH });
            return ERROR;
        }
        self.resolve_bounded_type(ty, type_params)
    }

    fn resolve_bounded_type(&mut self, ty: &ast::Type, type_params: &[ast::Ident]) -> Type {
        match &ty.kind {
            ast::TypeKind::Int => Type::Int,
            ast::TypeKind::Bool => Type::Bool,
            ast::TypeKind::Real => {
                self.error(SemaError::NotSupported { construct: Unsupported::RealType, span: ty.span });
                ERROR
            }
            ast::TypeKind::Named { name, args } => self.resolve_named_type(name, args, ty.span, type_params),
            ast::TypeKind::Map { type_params: own, domain, range } => {
                let mut in_scope = type_params.to_vec();
                if !own.is_empty() {
                    self.error(SemaError::NotSupported {
                        construct: Unsupported::PolymorphicMap,
                        span: span_of_names(own),
                    });
                    in_scope.extend(own.iter().cloned());
                }
                let domain = domain.iter().map(|index| self.resolve_bounded_type(index, &in_scope)).collect();
                let range = self.resolve_bounded_type(range, &in_scope);
                if own.is_empty() {
                    map_type(domain, range)
                } else {
                    ERROR
                }
            }
        }
    }

    fn resolve_named_type(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Type],
        span: Span,
        type_params: &[ast::Ident],
    ) -> Type {
        // Arguments are resolved even when the head is wrong, so their own mistakes show.
        let args: Vec<Type> = args.iter().map(|arg| self.resolve_bounded_type(arg, type_params)).collect();
        if type_params.iter().any(|param| param.name == name.name) {
            return ERROR;
        }
        let Some(symbol) = self.types.get(&name.name) else {
            let error = match builtin_family(&name.name) {
                Some(construct) => SemaError::NotSupported { construct, span },
                None => SemaError::Unknown {
                    kind: super::error::NameKind::Type,
                    name: name.name.clone(),
                    span: name.span,
                    suggestion: super::error::suggest(
                        &name.name,
                        ["int", "bool"].into_iter().chain(self.types.keys().map(String::as_str)),
                    ),
                },
            };
            self.error(error);
            return ERROR;
        };
        let resolved = match &symbol.kind {
            TypeSymbolKind::Uninterpreted(id) => Type::Named(*id),
            TypeSymbolKind::Synonym(Some(ty)) => ty.clone(),
            TypeSymbolKind::Synonym(None) => {
                unreachable!("synonyms are expanded in dependency order, cycles are marked broken")
            }
            TypeSymbolKind::Broken => return ERROR,
        };
        if !args.is_empty() {
            let decl = symbol.span;
            self.error(SemaError::TypeArguments { name: name.name.clone(), span, decl });
        }
        resolved
    }

    /// Expands every synonym once, in dependency order, so that every later use is a
    /// clone. A cycle is reported once, where its last edge is found, and every synonym
    /// on it becomes the error type.
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
            let mut expansion = self.resolve_type(rhs, &[]);
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
            symbol.kind = TypeSymbolKind::Synonym(Some(expansion));
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

    /// How a type is shown in messages.
    pub(super) fn shown(&self, ty: &Type) -> ShownType {
        match ty {
            _ if is_error(ty) => ShownType::Unknown,
            Type::Int => ShownType::Int,
            Type::Bool => ShownType::Bool,
            Type::Named(id) => ShownType::Named(self.program.types[id.index()].name.clone()),
            Type::Map(map) => ShownType::Map(
                map.domain.iter().map(|index| self.shown(index)).collect(),
                Box::new(self.shown(&map.range)),
            ),
        }
    }
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
    fn type_arguments_to_a_plain_type_are_rejected() {
        rejects!("type Ref; var x: Ref int;", "type `Ref` takes no type arguments");
    }

    #[test]
    fn unsupported_types_are_reported_once_each() {
        rejects!("var x: real;", "the type `real` is not supported yet");
        rejects!("var x: bv32;", "bit-vector types are not supported yet");
        rejects!("var x: float24e8;", "floating-point types are not supported yet");
        rejects!("var m: <a>[a]int;", "polymorphic map types are not supported yet");
        assert_eq!(error_count("const m: <a>[a]int; axiom m == m;"), 1);
        let constructor = "type Set a; const s: Set int; const t: Set bool; axiom s == t;";
        rejects!(constructor, "type constructors with parameters are not supported yet");
        assert_eq!(error_count(constructor), 1);
        rejects!("type S a = [a]int;", "type synonyms with parameters are not supported yet");
        rejects!("type {:datatype} List;", "`{:datatype}` types are not supported yet");
    }

    #[test]
    fn finite_types_are_accepted() {
        accepts!("type finite Color; const red: Color;");
    }
}
