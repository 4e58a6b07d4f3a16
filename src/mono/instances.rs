//! The first half of monomorphization: which instances the program uses.
//!
//! Starting from everything monomorphic (constants, globals, functions, axioms,
//! procedures and their implementations) and one generic instance of each polymorphic
//! procedure with an implementation (its type parameters fresh uninterpreted types,
//! which is how Boogie verifies it), the walk records every ground instance of a
//! polymorphic function, procedure, type constructor and polymorphic map it meets, and
//! walks each new function or procedure instance in turn. A type-quantified expression
//! (`forall<T> s: Seq T :: ...`, an axiom's typically) is a *site*: it is instantiated
//! with the bindings of its type parameters under which one of the polymorphic
//! functions, maps or constructors it mentions matches an instance already recorded, and
//! each new binding's body is walked like any other code, until nothing new appears
//! (Boogie's `/monomorphize` does the same). [`super::MAX_TYPE_DEPTH`] and
//! [`super::MAX_INSTANCES`] stop an instantiation that would not terminate.

use super::error::MonoError;
use super::types::{self, has_free_params, map_instance, match_type, mentions_any, poly_map, Names, Substitution};
use super::{MAX_INSTANCES, MAX_TYPE_DEPTH};
use crate::sema::hir::{
    Expr, ExprKind, FunctionId, Guard, Local, MapType, ProcId, Program, Quantifier, Stmt, StmtKind, Type, TypeId,
    TypeParamId, Var,
};
use crate::source::Span;
use std::collections::{HashMap, HashSet};
use std::hash::Hash;
use std::time::Instant;

/// Keys in the order they were first inserted, each with its position.
#[derive(Clone, Debug)]
pub(super) struct Interner<K> {
    keys: Vec<K>,
    index: HashMap<K, usize>,
}

impl<K> Default for Interner<K> {
    fn default() -> Self {
        Interner { keys: Vec::new(), index: HashMap::new() }
    }
}

impl<K: Clone + Eq + Hash> Interner<K> {
    /// The key's position, and whether it is new.
    pub fn insert(&mut self, key: K) -> (usize, bool) {
        if let Some(&at) = self.index.get(&key) {
            return (at, false);
        }
        self.keys.push(key.clone());
        self.index.insert(key, self.keys.len() - 1);
        (self.keys.len() - 1, true)
    }

    pub fn keys(&self) -> &[K] {
        &self.keys
    }
}

/// A polymorphic map type (up to the names of its parameters) and the instances of its
/// parameters the program selects or updates at.
#[derive(Clone, Debug)]
pub(super) struct PolyMap {
    pub key: MapType,
    pub instances: Interner<Vec<Type>>,
}

/// Everything the program uses, as ground types of the checked program (and the fresh
/// types, whose ids follow the program's).
#[derive(Debug, Default)]
pub(super) struct Instances {
    /// Instances of polymorphic functions.
    pub functions: Interner<(FunctionId, Vec<Type>)>,
    /// Instances of polymorphic procedures (each implementation of one is instantiated
    /// with it).
    pub procedures: Interner<(ProcId, Vec<Type>)>,
    /// Instances of type constructors with parameters.
    pub named: Interner<(TypeId, Vec<Type>)>,
    pub maps: Vec<PolyMap>,
    /// The bindings of each type-quantified expression, by its address and the
    /// substitution it was reached under.
    pub sites: HashMap<(usize, Substitution), Vec<Vec<Type>>>,
    /// The fresh uninterpreted types standing for the type parameters of polymorphic
    /// implementations in their generic instance, by name.
    pub fresh: Vec<String>,
}

impl Instances {
    /// The polymorphic map type `map` is an instance of, by position in [`Self::maps`].
    pub fn find_map(&self, map: &MapType) -> Option<usize> {
        let ty = Type::Map(std::sync::Arc::new(map.clone()));
        self.maps.iter().position(|poly| Type::Map(std::sync::Arc::new(poly.key.clone())).alpha_equal(&ty))
    }
}

/// The instances `program` uses.
pub(super) fn collect(program: &Program, deadline: Option<Instant>) -> Result<Instances, MonoError> {
    let mut collector = Collector {
        deadline,
        program,
        instances: Instances::default(),
        work: Vec::new(),
        sites: Vec::new(),
        seen_sites: HashSet::new(),
        driver: None,
        count: 0,
        error: None,
    };
    collector.roots();
    collector.fixpoint();
    match collector.error {
        Some(error) => Err(error),
        None => Ok(collector.instances),
    }
}

enum Work {
    Function(usize),
    Procedure(usize),
}

/// A type-quantified expression reached under a substitution.
struct Site<'p> {
    expr: &'p Expr,
    substitution: Substitution,
}

struct Collector<'p> {
    program: &'p Program,
    /// The run's deadline, looked at before each piece of work.
    deadline: Option<Instant>,
    instances: Instances,
    work: Vec<Work>,
    sites: Vec<Site<'p>>,
    seen_sites: HashSet<(usize, Substitution)>,
    /// The type-quantified expression being instantiated, for diagnostics.
    driver: Option<Span>,
    count: usize,
    error: Option<MonoError>,
}

/// A site's key: the expression's address (the checked program is not moved while
/// monomorphization borrows it) and its substitution.
pub(super) fn site_key(expr: &Expr, substitution: &Substitution) -> (usize, Substitution) {
    (expr as *const Expr as usize, substitution.clone())
}

impl<'p> Collector<'p> {
    fn names(&self) -> Names<'_> {
        Names { program: self.program, fresh: &self.instances.fresh }
    }

    fn roots(&mut self) {
        let program = self.program;
        let none = Substitution::new();
        for constant in &program.consts {
            self.ty(&constant.ty, &none, constant.span);
        }
        for global in &program.globals {
            self.ty(&global.ty, &none, global.span);
            global.where_clause.iter().for_each(|expr| self.expr(expr, &none));
        }
        for function in program.functions.iter().filter(|function| function.type_params.is_empty()) {
            function.params.iter().for_each(|param| self.ty(&param.ty, &none, param.span));
            self.ty(&function.result, &none, function.span);
            function.body.iter().for_each(|body| self.expr(body, &none));
        }
        program.axioms.iter().for_each(|axiom| self.expr(&axiom.expr, &none));
        for (index, procedure) in program.procedures.iter().enumerate() {
            let id = ProcId::from_index(index);
            if procedure.type_params.is_empty() {
                self.procedure(id, &none);
            } else if !procedure.implementations.is_empty() {
                let generic = procedure.type_params.iter().map(|param| self.fresh_type(*param)).collect();
                self.add_procedure(id, generic, procedure.span);
            }
        }
    }

    /// The fresh type standing for `param` in a generic instance: one per name.
    fn fresh_type(&mut self, param: TypeParamId) -> Type {
        let base = &self.program.type_params[param.index()].name;
        let mut name = base.clone();
        while self.program.types.iter().any(|decl| decl.name == name) {
            name.push('\'');
        }
        let at = match self.instances.fresh.iter().position(|fresh| *fresh == name) {
            Some(at) => at,
            None => {
                self.instances.fresh.push(name);
                self.instances.fresh.len() - 1
            }
        };
        Type::Named(TypeId::from_index(self.program.types.len() + at), Vec::new())
    }

    fn fixpoint(&mut self) {
        loop {
            while let Some(work) = self.work.pop() {
                if self.error.is_none() && super::past(self.deadline) {
                    let span = match work {
                        Work::Function(at) => {
                            self.program.functions[self.instances.functions.keys()[at].0.index()].span
                        }
                        Work::Procedure(at) => {
                            self.program.procedures[self.instances.procedures.keys()[at].0.index()].span
                        }
                    };
                    self.error = Some(MonoError::TimeLimit { span });
                }
                if self.error.is_some() {
                    return;
                }
                match work {
                    Work::Function(at) => self.function_instance(at),
                    Work::Procedure(at) => self.procedure_instance(at),
                }
            }
            let mut changed = false;
            let mut at = 0;
            while at < self.sites.len() && self.error.is_none() {
                let (expr, substitution) = (self.sites[at].expr, self.sites[at].substitution.clone());
                changed |= self.instantiate_site(expr, &substitution);
                at += 1;
            }
            if self.error.is_some() || (!changed && self.work.is_empty()) {
                return;
            }
        }
    }

    fn function_instance(&mut self, at: usize) {
        let (id, args) = self.instances.functions.keys()[at].clone();
        let function = &self.program.functions[id.index()];
        let substitution: Substitution = function.type_params.iter().copied().zip(args).collect();
        function.params.iter().for_each(|param| self.ty(&param.ty, &substitution, param.span));
        self.ty(&function.result, &substitution, function.span);
        function.body.iter().for_each(|body| self.expr(body, &substitution));
    }

    fn procedure_instance(&mut self, at: usize) {
        let (id, args) = self.instances.procedures.keys()[at].clone();
        let procedure = &self.program.procedures[id.index()];
        let substitution: Substitution = procedure.type_params.iter().copied().zip(args.iter().cloned()).collect();
        self.procedure_with(id, &substitution);
        for implementation in &procedure.implementations {
            let implementation = &self.program.implementations[implementation.index()];
            let substitution: Substitution =
                implementation.type_params.iter().copied().zip(args.iter().cloned()).collect();
            self.locals(&implementation.locals, &substitution);
            self.stmts(&implementation.body, &implementation.locals, &substitution);
        }
    }

    fn procedure(&mut self, id: ProcId, substitution: &Substitution) {
        self.procedure_with(id, substitution);
        for implementation in &self.program.procedures[id.index()].implementations {
            let implementation = &self.program.implementations[implementation.index()];
            self.locals(&implementation.locals, substitution);
            self.stmts(&implementation.body, &implementation.locals, substitution);
        }
    }

    fn procedure_with(&mut self, id: ProcId, substitution: &Substitution) {
        let procedure = &self.program.procedures[id.index()];
        self.locals(&procedure.locals, substitution);
        for clause in procedure.requires.iter().chain(&procedure.ensures) {
            self.expr(&clause.expr, substitution);
        }
    }

    fn locals(&mut self, locals: &'p [Local], substitution: &Substitution) {
        for local in locals {
            self.ty(&local.ty, substitution, local.span);
            local.where_clause.iter().for_each(|expr| self.expr(expr, substitution));
        }
    }

    fn stmts(&mut self, stmts: &'p [Stmt], locals: &'p [Local], substitution: &Substitution) {
        for stmt in stmts {
            match &stmt.kind {
                StmtKind::Label(_) | StmtKind::Havoc { .. } | StmtKind::Break { .. } | StmtKind::Return => {}
                StmtKind::Goto { .. } => {}
                StmtKind::Assert { expr, .. } | StmtKind::Assume { expr, .. } => self.expr(expr, substitution),
                StmtKind::Assign { lhs, rhs } => {
                    for target in lhs {
                        target.indices.iter().flatten().for_each(|index| self.expr(index, substitution));
                        let declared = match target.var {
                            Var::Local(id) => &locals[id.index()].ty,
                            Var::Global(id) => &self.program.globals[id.index()].ty,
                            Var::Const(_) | Var::Bound(_) => continue,
                        };
                        // Each level of selection through a polymorphic map uses an instance.
                        let mut current = declared.substitute(substitution);
                        for (level, group) in target.indices.iter().enumerate() {
                            let indices: Vec<Type> =
                                group.iter().map(|index| index.ty.substitute(substitution)).collect();
                            let last = level + 1 == target.indices.len();
                            let range = last.then(|| target.ty.substitute(substitution));
                            current = match &current {
                                Type::Map(map) if !map.type_params.is_empty() => {
                                    let map = (**map).clone();
                                    self.map_use(&map, &indices, range.as_ref(), target.span);
                                    match map_instance(&map, &indices, range.as_ref()) {
                                        Some(args) => match types::map_component(&map, &args) {
                                            Type::Map(component) => component.range.clone(),
                                            other => other,
                                        },
                                        None => break,
                                    }
                                }
                                Type::Map(map) => map.range.clone(),
                                _ => break,
                            };
                        }
                    }
                    rhs.iter().for_each(|value| self.expr(value, substitution));
                }
                StmtKind::Call { callee, type_args, args, .. } => {
                    if !type_args.is_empty() {
                        let args = type_args.iter().map(|ty| ty.substitute(substitution)).collect();
                        self.add_procedure(*callee, args, stmt.span);
                    }
                    args.iter().for_each(|arg| self.expr(arg, substitution));
                }
                StmtKind::If { branches, else_block } => {
                    for branch in branches {
                        if let Guard::Expr(guard) = &branch.guard {
                            self.expr(guard, substitution);
                        }
                        self.stmts(&branch.block, locals, substitution);
                    }
                    else_block.iter().for_each(|block| self.stmts(block, locals, substitution));
                }
                StmtKind::While { guard, invariants, body } => {
                    if let Guard::Expr(guard) = guard {
                        self.expr(guard, substitution);
                    }
                    invariants.iter().for_each(|clause| self.expr(&clause.expr, substitution));
                    self.stmts(body, locals, substitution);
                }
            }
        }
    }

    /// Walks `expr` under `substitution`, recording instances; a type-quantified
    /// expression becomes a site, its body walked per binding by [`Self::fixpoint`].
    fn expr(&mut self, expr: &'p Expr, substitution: &Substitution) {
        if self.error.is_some() {
            return;
        }
        match &expr.kind {
            ExprKind::Apply { func, type_args, .. } if !type_args.is_empty() => {
                let args = type_args.iter().map(|ty| ty.substitute(substitution)).collect();
                self.add_function(*func, args, expr.span);
            }
            ExprKind::Select { map, indices } | ExprKind::Store { map, indices, .. } => {
                let map_ty = map.ty.substitute(substitution);
                if let Some(poly) = poly_map(&map_ty) {
                    let index_types: Vec<Type> =
                        indices.iter().map(|index| index.ty.substitute(substitution)).collect();
                    let range = match &expr.kind {
                        ExprKind::Store { value, .. } => value.ty.substitute(substitution),
                        _ => expr.ty.substitute(substitution),
                    };
                    self.map_use(poly, &index_types, Some(&range), expr.span);
                }
            }
            ExprKind::Quant { quantifier, type_params, .. } if !type_params.is_empty() => {
                if *quantifier == Quantifier::Lambda {
                    // Its value is a polymorphic map: the type's instances are its components.
                    self.ty(&expr.ty, substitution, expr.span);
                }
                let key = site_key(expr, substitution);
                if self.seen_sites.insert(key) {
                    self.sites.push(Site { expr, substitution: substitution.clone() });
                }
                return;
            }
            ExprKind::Quant { vars, .. } => vars.iter().for_each(|var| self.ty(&var.ty, substitution, var.span)),
            _ => {}
        }
        expr.for_each_child(&mut |child| self.expr(child, substitution));
    }

    /// Records the constructor instances and polymorphic map types in `ty`.
    fn ty(&mut self, ty: &Type, substitution: &Substitution, span: Span) {
        let ty = ty.substitute(substitution);
        self.ground_type(&ty, span);
    }

    fn ground_type(&mut self, ty: &Type, span: Span) {
        match ty {
            Type::Int | Type::Bool | Type::Real | Type::BitVector(_) | Type::Param(_) => {}
            Type::Named(id, args) => {
                if !args.is_empty()
                    && !args.iter().any(has_free_params)
                    && self.bounded(ty, span)
                    && self.instances.named.insert((*id, args.clone())).1
                {
                    self.counted(ty, span);
                }
                args.iter().for_each(|arg| self.ground_type(arg, span));
            }
            Type::Map(map) => {
                if !map.type_params.is_empty() && self.instances.find_map(map).is_none() {
                    self.instances.maps.push(PolyMap { key: (**map).clone(), instances: Interner::default() });
                }
                map.domain.iter().chain([&map.range]).for_each(|part| self.ground_type(part, span));
            }
        }
    }

    /// Whether `ty` nests within [`MAX_TYPE_DEPTH`]; reports it otherwise.
    fn bounded(&mut self, ty: &Type, span: Span) -> bool {
        if types::depth(ty) <= MAX_TYPE_DEPTH {
            return true;
        }
        self.fail(ty, span, false);
        false
    }

    /// Counts a new instance against [`MAX_INSTANCES`].
    fn counted(&mut self, ty: &Type, span: Span) {
        self.count += 1;
        if self.count > MAX_INSTANCES {
            self.fail(ty, span, true);
        }
    }

    fn fail(&mut self, ty: &Type, span: Span, too_many: bool) {
        if self.error.is_none() {
            let instance = types::text(self.names(), ty);
            self.error = Some(MonoError::NonTerminating { span, instance, driver: self.driver, too_many });
        }
    }

    /// Whether an instantiation is ground and within the bound (reported otherwise);
    /// records the instances its types mention.
    fn usable(&mut self, args: &[Type], span: Span) -> bool {
        if args.iter().any(has_free_params) {
            return false;
        }
        for arg in args {
            if !self.bounded(arg, span) {
                return false;
            }
            self.ground_type(arg, span);
        }
        true
    }

    fn add_function(&mut self, id: FunctionId, args: Vec<Type>, span: Span) {
        if !self.usable(&args, span) {
            return;
        }
        // The instance's signature must nest within the bound too: reported here, at the
        // application, with the type-quantified expression that made it.
        let function = &self.program.functions[id.index()];
        let substitution: Substitution = function.type_params.iter().copied().zip(args.iter().cloned()).collect();
        let signature = function.params.iter().map(|param| &param.ty).chain([&function.result]);
        for ty in signature.map(|ty| ty.substitute(&substitution)).collect::<Vec<_>>() {
            if !self.bounded(&ty, span) {
                return;
            }
        }
        let (at, new) = self.instances.functions.insert((id, args));
        if new {
            let first = self.instances.functions.keys()[at].1.first().cloned().unwrap_or(Type::Bool);
            self.counted(&first, span);
            self.work.push(Work::Function(at));
        }
    }

    fn add_procedure(&mut self, id: ProcId, args: Vec<Type>, span: Span) {
        if !self.usable(&args, span) {
            return;
        }
        let (at, new) = self.instances.procedures.insert((id, args));
        if new {
            self.work.push(Work::Procedure(at));
        }
    }

    /// A selection or update of polymorphic map type `map` with these index types.
    fn map_use(&mut self, map: &MapType, indices: &[Type], range: Option<&Type>, span: Span) {
        let Some(args) = map_instance(map, indices, range) else { return };
        if !self.usable(&args, span) {
            return;
        }
        let ty = Type::Map(std::sync::Arc::new(map.clone()));
        self.ground_type(&ty, span);
        let at = self.instances.find_map(map).expect("recorded just now");
        self.instances.maps[at].instances.insert(args);
    }

    /// Instantiates a site with every binding of its type parameters not tried yet;
    /// whether there was one.
    fn instantiate_site(&mut self, expr: &'p Expr, substitution: &Substitution) -> bool {
        let ExprKind::Quant { quantifier, type_params, vars, triggers, body, .. } = &expr.kind else {
            unreachable!("sites are type-quantified expressions")
        };
        let bindings = match quantifier {
            Quantifier::Lambda => self.lambda_bindings(expr, substitution),
            _ => self.bindings(expr, type_params, substitution),
        };
        let key = site_key(expr, substitution);
        let mut changed = false;
        for binding in bindings {
            let known = self.instances.sites.entry(key.clone()).or_default();
            if known.contains(&binding) {
                continue;
            }
            known.push(binding.clone());
            changed = true;
            let mut inner = substitution.clone();
            inner.extend(type_params.iter().copied().zip(binding));
            let outer = self.driver.replace(expr.span);
            vars.iter().for_each(|var| self.ty(&var.ty, &inner, var.span));
            triggers.iter().flatten().for_each(|trigger| self.expr(trigger, &inner));
            self.expr(body, &inner);
            self.driver = outer;
        }
        self.instances.sites.entry(key).or_default();
        changed
    }

    /// The bindings of a type-quantified lambda's parameters: the instances of its
    /// polymorphic map type the program uses, one component of its value each (its type
    /// is `<a>[ref, Field a]bool` for `lambda<a> o: ref, f: Field a :: ...`, whose
    /// parameters are the lambda's in order).
    fn lambda_bindings(&self, expr: &Expr, substitution: &Substitution) -> Vec<Vec<Type>> {
        let ty = expr.ty.substitute(substitution);
        let found = poly_map(&ty).and_then(|map| self.instances.find_map(map));
        found.map_or_else(Vec::new, |at| {
            self.instances.maps[at]
                .instances
                .keys()
                .iter()
                .filter(|args| !args.iter().any(has_free_params))
                .cloned()
                .collect()
        })
    }

    /// The bindings of `params` under which something the quantified expression
    /// mentions matches a recorded instance: per parameter the types some match gave
    /// it, combined in every way.
    fn bindings(&mut self, expr: &Expr, params: &[TypeParamId], substitution: &Substitution) -> Vec<Vec<Type>> {
        if let Some(bindings) = self.trigger_bindings(expr, params, substitution) {
            return bindings;
        }
        let mut candidates: Vec<Vec<Type>> = vec![Vec::new(); params.len()];
        let mut note = |binding: Substitution| {
            for (param, ty) in binding {
                if let Some(at) = params.iter().position(|p| *p == param) {
                    if !has_free_params(&ty) && !candidates[at].contains(&ty) {
                        candidates[at].push(ty);
                    }
                }
            }
        };
        self.patterns(expr, params, substitution, &mut note);
        let mut bindings: Vec<Vec<Type>> = vec![Vec::new()];
        for options in candidates {
            bindings = bindings
                .into_iter()
                .flat_map(|prefix| {
                    options.iter().map(move |option| {
                        let mut binding = prefix.clone();
                        binding.push(option.clone());
                        binding
                    })
                })
                .collect();
            if bindings.len() > MAX_INSTANCES {
                self.fail(&Type::Bool, expr.span, true);
                return Vec::new();
            }
        }
        bindings
    }

    /// Matches what `expr` mentions (polymorphic applications, polymorphic map
    /// selections and updates, bound variables' constructor types) against the
    /// recorded instances, passing each match's binding to `note`.
    fn patterns(
        &self,
        expr: &Expr,
        params: &[TypeParamId],
        substitution: &Substitution,
        note: &mut dyn FnMut(Substitution),
    ) {
        if let Some(bindings) = self.atom_matches(expr, params, substitution, &Substitution::new()) {
            bindings.into_iter().for_each(&mut *note);
        }
        if let ExprKind::Quant { vars, .. } = &expr.kind {
            for var in vars {
                self.type_patterns(&var.ty.substitute(substitution), params, note);
            }
        }
        expr.for_each_child(&mut |child| self.patterns(child, params, substitution, note));
    }

    /// The extensions of `base` under which `expr`, a polymorphic application or a
    /// selection or update of a polymorphic map, is a recorded instance; `None` when
    /// `expr` is neither.
    fn atom_matches(
        &self,
        expr: &Expr,
        params: &[TypeParamId],
        substitution: &Substitution,
        base: &Substitution,
    ) -> Option<Vec<Substitution>> {
        let mut found = Vec::new();
        match &expr.kind {
            ExprKind::Apply { func, type_args, .. } if !type_args.is_empty() => {
                let pattern: Vec<Type> = type_args.iter().map(|ty| ty.substitute(substitution)).collect();
                for (id, args) in self.instances.functions.keys() {
                    let mut binding = base.clone();
                    if id == func && pattern.iter().zip(args).all(|(p, g)| match_type(p, g, params, &mut binding)) {
                        found.push(binding);
                    }
                }
            }
            ExprKind::Select { map, indices } | ExprKind::Store { map, indices, .. } => {
                let map_ty = map.ty.substitute(substitution);
                let poly = poly_map(&map_ty)?;
                let index_types: Vec<Type> = indices.iter().map(|index| index.ty.substitute(substitution)).collect();
                let Some(at) = self.instances.find_map(poly) else { return Some(found) };
                for args in self.instances.maps[at].instances.keys() {
                    let instance: Substitution = poly.type_params.iter().copied().zip(args.iter().cloned()).collect();
                    let mut binding = base.clone();
                    let matched = poly
                        .domain
                        .iter()
                        .zip(&index_types)
                        .all(|(part, index)| match_type(index, &part.substitute(&instance), params, &mut binding));
                    if matched {
                        found.push(binding);
                    }
                }
            }
            _ => return None,
        }
        Some(found)
    }

    /// The bindings of `params` under which some trigger of the quantified `expr`
    /// matches recorded instances as a whole (each of its polymorphic applications and
    /// map accesses an instance, under one binding of every parameter); `None` when no
    /// trigger mentions something polymorphic that binds every parameter. This is
    /// E-matching at the level of types, which is all Boogie's instantiation can do with
    /// the axiom: an instance whose trigger has no term at its types is never used.
    /// Front ends' preludes rely on it to stay finite (AutoProof's maps of pairs to
    /// bags: matching each function an axiom mentions on its own, and combining the
    /// parameters' types every way, builds pairs of pairs without end).
    fn trigger_bindings(
        &self,
        expr: &Expr,
        params: &[TypeParamId],
        substitution: &Substitution,
    ) -> Option<Vec<Vec<Type>>> {
        let ExprKind::Quant { triggers, .. } = &expr.kind else { return None };
        let mut bindings: Vec<Vec<Type>> = Vec::new();
        let mut decisive = false;
        for trigger in triggers {
            let mut atoms: Vec<&Expr> = Vec::new();
            trigger.iter().for_each(|term| self.collect_atoms(term, params, substitution, &mut atoms));
            let mut partial = vec![Substitution::new()];
            for atom in &atoms {
                partial = partial
                    .iter()
                    .flat_map(|base| self.atom_matches(atom, params, substitution, base).unwrap_or_default())
                    .collect();
                if partial.len() > MAX_INSTANCES {
                    return None;
                }
            }
            let binds_all = |binding: &Substitution| params.iter().all(|param| binding.iter().any(|(p, _)| p == param));
            if atoms.is_empty() || !partial.iter().all(binds_all) {
                continue;
            }
            decisive = true;
            for binding in partial {
                let ordered: Vec<Type> = params
                    .iter()
                    .map(|param| binding.iter().find(|(p, _)| p == param).map(|(_, ty)| ty.clone()).expect("bound"))
                    .collect();
                if !ordered.iter().any(has_free_params) && !bindings.contains(&ordered) {
                    bindings.push(ordered);
                }
            }
        }
        decisive.then_some(bindings)
    }

    /// The polymorphic applications and map accesses of `expr` that mention one of
    /// `params`.
    fn collect_atoms<'e>(
        &self,
        expr: &'e Expr,
        params: &[TypeParamId],
        substitution: &Substitution,
        atoms: &mut Vec<&'e Expr>,
    ) {
        let relevant = match &expr.kind {
            ExprKind::Apply { type_args, .. } if !type_args.is_empty() => {
                type_args.iter().any(|ty| mentions_any(&ty.substitute(substitution), params))
            }
            ExprKind::Select { map, .. } | ExprKind::Store { map, .. } => {
                let map_ty = map.ty.substitute(substitution);
                poly_map(&map_ty).is_some() && mentions_any(&map_ty, params)
            }
            _ => false,
        };
        if relevant {
            atoms.push(expr);
        }
        expr.for_each_child(&mut |child| self.collect_atoms(child, params, substitution, atoms));
    }

    fn type_patterns(&self, ty: &Type, params: &[TypeParamId], note: &mut dyn FnMut(Substitution)) {
        match ty {
            Type::Named(id, args) if has_free_params(ty) => {
                for (instance_id, instance_args) in self.instances.named.keys() {
                    let mut binding = Substitution::new();
                    if instance_id == id
                        && args.iter().zip(instance_args).all(|(p, g)| match_type(p, g, params, &mut binding))
                    {
                        note(binding);
                    }
                }
                args.iter().for_each(|arg| self.type_patterns(arg, params, note));
            }
            Type::Map(map) => {
                map.domain.iter().chain([&map.range]).for_each(|part| self.type_patterns(part, params, note))
            }
            _ => {}
        }
    }
}
