//! Types during monomorphization: substitutions, matching a type with type variables
//! against a ground instance, nesting depth, and the Boogie text that names an instance.

use crate::sema::hir::{MapType, Program, Type, TypeId, TypeParamId};

/// Type parameters bound to types: a function's, a procedure's or a quantifier's
/// instantiation, accumulated as the walk enters declarations and type quantifiers.
pub(super) type Substitution = Vec<(TypeParamId, Type)>;

/// Whether `ty` is a polymorphic map type itself (`<a>[ref, Field a]a`), whose values
/// monomorphization splits into one map per instance.
pub(super) fn poly_map(ty: &Type) -> Option<&MapType> {
    match ty {
        Type::Map(map) if !map.type_params.is_empty() => Some(map),
        _ => None,
    }
}

/// Whether values of `ty` are split into several: a polymorphic map, or a map whose
/// range is one (Viper's `Field A PMaskType` stores masks in the heap).
pub(super) fn is_compound(ty: &Type) -> bool {
    match ty {
        Type::Map(map) => !map.type_params.is_empty() || is_compound(&map.range),
        _ => false,
    }
}

/// Whether a type parameter occurs in `ty` outside the map types that bind it.
pub(super) fn has_free_params(ty: &Type) -> bool {
    free_params(ty, &mut Vec::new())
}

fn free_params(ty: &Type, bound: &mut Vec<TypeParamId>) -> bool {
    match ty {
        Type::Int | Type::Bool | Type::Real | Type::BitVector(_) => false,
        Type::Param(param) => !bound.contains(param),
        Type::Named(_, args) => args.iter().any(|arg| free_params(arg, bound)),
        Type::Map(map) => {
            let depth = bound.len();
            bound.extend(&map.type_params);
            let free = map.domain.iter().chain([&map.range]).any(|part| free_params(part, bound));
            bound.truncate(depth);
            free
        }
    }
}

/// Whether one of `params` occurs in `ty`.
pub(super) fn mentions_any(ty: &Type, params: &[TypeParamId]) -> bool {
    match ty {
        Type::Int | Type::Bool | Type::Real | Type::BitVector(_) => false,
        Type::Param(param) => params.contains(param),
        Type::Named(_, args) => args.iter().any(|arg| mentions_any(arg, params)),
        Type::Map(map) => map.domain.iter().chain([&map.range]).any(|part| mentions_any(part, params)),
    }
}

/// How deeply `ty` nests: `int` is 1, `Seq int` 2, `Field (Seq int)` 3.
pub(super) fn depth(ty: &Type) -> usize {
    match ty {
        Type::Int | Type::Bool | Type::Real | Type::BitVector(_) | Type::Param(_) => 1,
        Type::Named(_, args) => 1 + args.iter().map(depth).max().unwrap_or(0),
        Type::Map(map) => 1 + map.domain.iter().chain([&map.range]).map(depth).max().unwrap_or(0),
    }
}

/// Extends `binding` (values for `vars`) so that `pattern` under it is `ground`; false
/// when no extension does. A type parameter of the pattern outside `vars` (a nested
/// quantifier's, not yet instantiated) matches anything and binds nothing.
pub(super) fn match_type(pattern: &Type, ground: &Type, vars: &[TypeParamId], binding: &mut Substitution) -> bool {
    match (pattern, ground) {
        (Type::Param(param), _) if vars.contains(param) => match binding.iter().find(|(bound, _)| bound == param) {
            Some((_, ty)) => ty.alpha_equal(ground),
            None => {
                binding.push((*param, ground.clone()));
                true
            }
        },
        (Type::Param(_), _) => true,
        (Type::Named(id, args), Type::Named(ground_id, ground_args)) => {
            id == ground_id
                && args.len() == ground_args.len()
                && args.iter().zip(ground_args).all(|(arg, ground)| match_type(arg, ground, vars, binding))
        }
        (Type::Map(map), Type::Map(ground_map)) => {
            if !has_free_params(pattern) {
                return pattern.alpha_equal(ground);
            }
            map.type_params.len() == ground_map.type_params.len()
                && map.domain.len() == ground_map.domain.len()
                && map
                    .domain
                    .iter()
                    .zip(&ground_map.domain)
                    .all(|(part, ground)| match_type(part, ground, vars, binding))
                && match_type(&map.range, &ground_map.range, vars, binding)
        }
        _ => pattern == ground,
    }
}

/// The instance of polymorphic map type `map` that a selection with index types
/// `indices` and result type `range` (when known) uses: one type per parameter, in
/// order; `None` if the index types leave a parameter open.
pub(super) fn map_instance(map: &MapType, indices: &[Type], range: Option<&Type>) -> Option<Vec<Type>> {
    let mut binding = Substitution::new();
    for (part, index) in map.domain.iter().zip(indices) {
        if !match_type(part, index, &map.type_params, &mut binding) {
            return None;
        }
    }
    if let Some(range) = range {
        if !match_type(&map.range, range, &map.type_params, &mut binding) {
            return None;
        }
    }
    map.type_params
        .iter()
        .map(|param| binding.iter().find(|(bound, _)| bound == param).map(|(_, ty)| ty.clone()))
        .collect()
}

/// The component type of instance `args` of polymorphic map type `map`: the monomorphic
/// map `[ref, Field int]int` of `<a>[ref, Field a]a` at `a := int`.
pub(super) fn map_component(map: &MapType, args: &[Type]) -> Type {
    let substitution: Substitution = map.type_params.iter().copied().zip(args.iter().cloned()).collect();
    Type::Map(std::sync::Arc::new(MapType {
        type_params: Vec::new(),
        domain: map.domain.iter().map(|ty| ty.substitute(&substitution)).collect(),
        range: map.range.substitute(&substitution),
    }))
}

/// The names of the types of a program and of the fresh types monomorphization adds
/// (the instances of a polymorphic implementation no call instantiates), which follow
/// the program's in [`TypeId`] order.
#[derive(Clone, Copy)]
pub(super) struct Names<'a> {
    pub program: &'a Program,
    pub fresh: &'a [String],
}

impl Names<'_> {
    fn type_name(&self, id: TypeId) -> &str {
        match self.program.types.get(id.index()) {
            Some(decl) => &decl.name,
            None => &self.fresh[id.index() - self.program.types.len()],
        }
    }
}

/// `ty` as Boogie writes it (`Seq (Seq int)`, `[int]bool`, `<a>[ref, Field a]a`): the
/// names of instances, so diagnostics and suites read as the program does.
pub(super) fn text(names: Names, ty: &Type) -> String {
    let program = names.program;
    match ty {
        Type::Int => "int".to_string(),
        Type::Bool => "bool".to_string(),
        Type::Real => "real".to_string(),
        Type::BitVector(width) => format!("bv{width}"),
        Type::Param(param) => program.type_params[param.index()].name.clone(),
        Type::Named(id, args) => {
            let mut out = names.type_name(*id).to_string();
            for arg in args {
                out.push(' ');
                out.push_str(&argument_text(names, arg));
            }
            out
        }
        Type::Map(map) => {
            let mut out = String::new();
            if !map.type_params.is_empty() {
                let names: Vec<String> =
                    map.type_params.iter().map(|param| program.type_params[param.index()].name.clone()).collect();
                out.push_str(&format!("<{}>", names.join(", ")));
            }
            let domain: Vec<String> = map.domain.iter().map(|ty| text(names, ty)).collect();
            out.push_str(&format!("[{}]{}", domain.join(", "), text(names, &map.range)));
            out
        }
    }
}

/// A type argument of a constructor: parenthesized unless it is one word.
fn argument_text(names: Names, ty: &Type) -> String {
    match ty {
        Type::Named(_, args) if !args.is_empty() => format!("({})", text(names, ty)),
        Type::Map(_) => format!("({})", text(names, ty)),
        _ => text(names, ty),
    }
}

/// The names of an instantiation, as in `Set#Card<int>`.
pub(super) fn instance_suffix(names: Names, args: &[Type]) -> String {
    let texts: Vec<String> = args.iter().map(|ty| text(names, ty)).collect();
    format!("<{}>", texts.join(", "))
}
