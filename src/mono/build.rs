//! The second half of monomorphization: the monomorphic program, built from the
//! checked one and the instances it uses ([`super::instances`]).
//!
//! Every declaration is rebuilt with ground types: a constructor instance is an
//! uninterpreted type of its own named as Boogie writes it (`Seq int`), a polymorphic
//! function or procedure one declaration per instance (`Set#Card<int>`), a
//! type-quantified expression the conjunction (`forall`) or disjunction (`exists`) of
//! its instances — a type-quantified axiom one axiom per instance, so axiom pruning
//! keeps exactly the instances an implementation can depend on; a type-quantified
//! lambda (a value of a polymorphic map type) one lambda per instance of its type. A value of a
//! polymorphic map type is a tuple of monomorphic maps, one per instance of its type
//! parameters the program uses (`Heap` of `<a>[ref, Field a]a` becomes `Heap<int>`,
//! `Heap<bool>`, ...): variables, parameters and bound variables are split, and
//! selection, update, equality, `old`, `if-then-else`, assignment, `havoc`, calls and
//! function applications work per component. Bound variables get fresh ids (an
//! instantiated body would otherwise bind an id twice).

use super::error::MonoError;
use super::instances::{site_key, Instances};
use super::types::{self, instance_suffix, is_compound, map_component, map_instance, poly_map, Names, Substitution};
use super::MAX_TYPE_DEPTH;
use crate::sema::hir::{
    BinaryOp, BoundId, BoundVar, Clause, Const, ConstId, Expr, ExprKind, Function, FunctionId, FunctionOrigin, Global,
    GlobalId, Guard, IfBranch, Implementation, Lhs, Local, LocalId, MapInstanceOf, MapType, ProcId, Procedure, Program,
    Quantifier, Stmt, StmtKind, Type, TypeDecl, TypeId, TypeParamId, UnaryOp, Var,
};
use crate::source::Span;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;
use std::time::Instant;

/// The monomorphic program.
pub(super) fn build(
    src: &Program,
    instances: &Instances,
    fresh_spans: &[Span],
    deadline: Option<Instant>,
) -> Result<Program, MonoError> {
    let mut builder = Builder {
        deadline,
        src,
        instances,
        out: Program { type_params: src.type_params.clone(), ..Program::default() },
        named: HashMap::new(),
        functions: HashMap::new(),
        procedures: HashMap::new(),
        consts: Vec::new(),
        globals: Vec::new(),
        next_bound: 0,
        error: None,
        splits: HashMap::new(),
        offsets: HashMap::new(),
    };
    builder.types(fresh_spans);
    builder.plan();
    builder.variables();
    builder.function_decls();
    builder.axioms();
    builder.procedure_decls();
    match builder.error {
        Some(error) => Err(error),
        None => Ok(builder.out),
    }
}

struct Builder<'p> {
    src: &'p Program,
    /// The run's deadline, looked at before each axiom and each implementation.
    deadline: Option<Instant>,
    instances: &'p Instances,
    out: Program,
    /// Constructor instances, by constructor and (ground, checked-program) arguments.
    named: HashMap<(TypeId, Vec<Type>), TypeId>,
    /// Output functions and procedures by declaration and instance (no arguments for a
    /// monomorphic one).
    functions: HashMap<(FunctionId, Vec<Type>), FunctionId>,
    procedures: HashMap<(ProcId, Vec<Type>), ProcId>,
    /// Each constant's and global's components (one unless it is a polymorphic map).
    consts: Vec<Vec<ConstId>>,
    globals: Vec<Vec<GlobalId>>,
    next_bound: u32,
    error: Option<MonoError>,
    /// [`Builder::split`]'s answers by type: every selection of a heap splits its type
    /// again, and a front end's heap has hundreds of instances (Viper's `auction`).
    splits: HashMap<Type, Vec<(String, Type)>>,
    /// Each polymorphic map's instances with the positions of their components among
    /// all of the map's components ([`Builder::component`]), found once per map.
    offsets: HashMap<MapType, HashMap<Vec<Type>, Range<usize>>>,
}

/// Where an expression or statement is rebuilt: the instance's substitution, the
/// components of the declaration's locals and of the bound variables in scope.
struct Frame<'p> {
    substitution: Substitution,
    src_locals: &'p [Local],
    locals: Vec<Vec<LocalId>>,
    bound: HashMap<BoundId, Vec<BoundId>>,
}

impl<'p> Frame<'p> {
    fn new(substitution: Substitution) -> Frame<'p> {
        Frame { substitution, src_locals: &[], locals: Vec::new(), bound: HashMap::new() }
    }
}

impl<'p> Builder<'p> {
    fn names(&self) -> Names<'_> {
        Names { program: self.src, fresh: &self.instances.fresh }
    }

    /// Whether the deadline has passed, recorded as the error at `span` if so.
    fn out_of_time(&mut self, span: Span) -> bool {
        if self.error.is_none() && super::past(self.deadline) {
            self.error = Some(MonoError::TimeLimit { span });
        }
        self.error.is_some()
    }

    fn unsupported(&mut self, what: &'static str, span: Span) {
        if self.error.is_none() {
            self.error = Some(MonoError::Unsupported { what, span });
        }
    }

    // -----------------------------------------------------------------------------
    // Declarations

    /// The program's types keep their ids (a constructor's declaration stays, unused,
    /// with no parameters); the fresh types follow; constructor instances are added as
    /// they are met.
    fn types(&mut self, fresh_spans: &[Span]) {
        self.out.types = self.src.types.iter().map(|decl| TypeDecl { arity: 0, ..decl.clone() }).collect();
        for (name, span) in self.instances.fresh.iter().zip(fresh_spans) {
            self.out.types.push(TypeDecl {
                name: name.clone(),
                arity: 0,
                finite: false,
                attrs: Vec::new(),
                span: *span,
            });
        }
    }

    /// The ids of the output functions and procedures: the monomorphic declarations in
    /// program order, then the instances in the order they were found.
    fn plan(&mut self) {
        let monomorphic = self.src.functions.iter().enumerate().filter(|(_, function)| function.type_params.is_empty());
        let keys = monomorphic.map(|(at, _)| (FunctionId::from_index(at), Vec::new()));
        let mut next = 0;
        for key in keys.chain(self.instances.functions.keys().iter().cloned()) {
            // A function whose result is compound is one function per component.
            let function = &self.src.functions[key.0.index()];
            let substitution: Substitution = function.type_params.iter().copied().zip(key.1.iter().cloned()).collect();
            let result = function.result.substitute(&substitution);
            let width = if is_compound(&result) { self.split(&result, function.span).len() } else { 1 };
            self.functions.insert(key, FunctionId::from_index(next));
            next += width;
        }
        let monomorphic =
            self.src.procedures.iter().enumerate().filter(|(_, procedure)| procedure.type_params.is_empty());
        let keys = monomorphic.map(|(at, _)| (ProcId::from_index(at), Vec::new()));
        for key in keys.chain(self.instances.procedures.keys().iter().cloned()) {
            let id = ProcId::from_index(self.procedures.len());
            self.procedures.insert(key, id);
        }
    }

    fn ordered<K: Clone, V: Copy + Ord>(map: &HashMap<K, V>) -> Vec<K> {
        let mut entries: Vec<(V, K)> = map.iter().map(|(key, value)| (*value, key.clone())).collect();
        entries.sort_by_key(|entry| entry.0);
        entries.into_iter().map(|(_, key)| key).collect()
    }

    fn variables(&mut self) {
        for constant in &self.src.consts {
            let mut ids = Vec::new();
            for (suffix, ty) in self.split(&constant.ty, constant.span) {
                ids.push(ConstId::from_index(self.out.consts.len()));
                let name = format!("{}{suffix}", constant.name);
                self.out.consts.push(Const { name, ty, order: None, ..constant.clone() });
            }
            self.consts.push(ids);
        }
        for (at, constant) in self.src.consts.iter().enumerate() {
            if let (Some(order), Some(&first)) = (&constant.order, self.consts[at].first()) {
                let mut order = order.clone();
                order.parents = order
                    .parents
                    .iter()
                    .filter_map(|(unique, parent)| self.consts[parent.index()].first().map(|id| (*unique, *id)))
                    .collect();
                self.out.consts[first.index()].order = Some(order);
            }
        }
        for global in &self.src.globals {
            let mut ids = Vec::new();
            let parts = self.split(&global.ty, global.span);
            let instance_of = self.instance_of(&global.name, &global.ty, parts.len());
            for (suffix, ty) in parts {
                ids.push(GlobalId::from_index(self.out.globals.len()));
                let name = format!("{}{suffix}", global.name);
                let instance_of = instance_of.clone();
                self.out.globals.push(Global { name, ty, where_clause: None, instance_of, ..global.clone() });
            }
            self.globals.push(ids);
        }
        for (at, global) in self.src.globals.iter().enumerate() {
            if let (Some(clause), Some(&first)) = (&global.where_clause, self.globals[at].first()) {
                let clause = self.expr(clause, &mut Frame::new(Vec::new()));
                self.out.globals[first.index()].where_clause = Some(clause);
            }
        }
    }

    fn function_decls(&mut self) {
        let mut names = std::collections::HashSet::new();
        for (id, args) in Self::ordered(&self.functions) {
            let function = &self.src.functions[id.index()];
            let substitution: Substitution = function.type_params.iter().copied().zip(args.iter().cloned()).collect();
            let mut frame = Frame::new(substitution);
            let mut params: Vec<BoundVar> = Vec::new();
            let mut written = Vec::new();
            for param in &function.params {
                let parts = self.bind(param, &mut frame);
                written.push((param.ty.substitute(&frame.substitution), parts.len()));
                params.extend(parts);
            }
            let result = function.result.substitute(&frame.substitution);
            let whole_result = !is_compound(&result);
            let origin = FunctionOrigin { name: function.name.clone(), params: written, whole_result };
            // Each component of a compound result is a function of its own.
            let (results, bodies): (Vec<(String, Type)>, Vec<Option<Expr>>) = if is_compound(&result) {
                let results = self.split(&result, function.span);
                let bodies = match &function.body {
                    Some(body) => self.tuple(body, &mut frame).into_iter().map(Some).collect(),
                    None => vec![None; results.len()],
                };
                (results, bodies)
            } else {
                let result = self.ground(&result, function.span);
                (vec![(String::new(), result)], vec![function.body.as_ref().map(|body| self.expr(body, &mut frame))])
            };
            for ((suffix, result), body) in results.into_iter().zip(bodies) {
                // Instances at polymorphic map types equal up to their parameters' names
                // print alike; the symbols must not.
                let base = format!("{}{suffix}", self.instance_name(&function.name, &args));
                let name = (1..).map(|n| if n == 1 { base.clone() } else { format!("{base}#{n}") });
                let name = name.into_iter().find(|name| names.insert(name.clone())).expect("some name is free");
                self.out.functions.push(Function {
                    name,
                    type_params: Vec::new(),
                    params: params.clone(),
                    result,
                    body,
                    attrs: function.attrs.clone(),
                    span: function.span,
                    origin: Some(origin.clone()),
                });
            }
        }
    }

    fn instance_name(&self, name: &str, args: &[crate::sema::hir::Type]) -> String {
        if args.is_empty() {
            name.to_string()
        } else {
            format!("{name}{}", instance_suffix(self.names(), args))
        }
    }

    /// A type-quantified axiom becomes one axiom per instance.
    fn axioms(&mut self) {
        for axiom in &self.src.axioms {
            if self.out_of_time(axiom.span) {
                return;
            }
            let mut frame = Frame::new(Vec::new());
            match &axiom.expr.kind {
                ExprKind::Quant { quantifier: Quantifier::Forall, type_params, .. } if !type_params.is_empty() => {
                    let bindings = self.bindings(&axiom.expr, &frame.substitution);
                    for binding in bindings {
                        frame.substitution = type_params.iter().copied().zip(binding).collect();
                        let expr = self.quant_body(&axiom.expr, &mut frame);
                        self.out.axioms.push(crate::sema::hir::Axiom { expr, ..axiom.clone() });
                    }
                }
                _ => {
                    let expr = self.expr(&axiom.expr, &mut frame);
                    self.out.axioms.push(crate::sema::hir::Axiom { expr, ..axiom.clone() });
                }
            }
        }
    }

    fn procedure_decls(&mut self) {
        for (id, args) in Self::ordered(&self.procedures) {
            let procedure = &self.src.procedures[id.index()];
            let substitution: Substitution = procedure.type_params.iter().copied().zip(args.iter().cloned()).collect();
            let mut frame = Frame::new(substitution);
            let (locals, ins, outs) = self.locals(&procedure.locals, &procedure.ins, &procedure.outs, &mut frame);
            let requires = procedure.requires.iter().map(|clause| self.clause(clause, &mut frame)).collect();
            let ensures = procedure.ensures.iter().map(|clause| self.clause(clause, &mut frame)).collect();
            let mut modifies: Vec<GlobalId> =
                procedure.modifies.iter().flat_map(|global| self.globals[global.index()].clone()).collect();
            modifies.sort();
            let proc_id = ProcId::from_index(self.out.procedures.len());
            let mut implementations = Vec::new();
            for implementation in &procedure.implementations {
                implementations.push(crate::sema::hir::ImplId::from_index(self.out.implementations.len()));
                let implementation = &self.src.implementations[implementation.index()];
                if self.out_of_time(implementation.span) {
                    return;
                }
                let built = self.implementation(implementation, proc_id, &args);
                self.out.implementations.push(built);
            }
            self.out.procedures.push(Procedure {
                name: self.instance_name(&procedure.name, &args),
                type_params: Vec::new(),
                locals,
                ins,
                outs,
                requires,
                ensures,
                modifies,
                implementations,
                attrs: procedure.attrs.clone(),
                span: procedure.span,
            });
        }
    }

    fn implementation(&mut self, implementation: &'p Implementation, proc: ProcId, args: &[Type]) -> Implementation {
        let substitution: Substitution = implementation.type_params.iter().copied().zip(args.iter().cloned()).collect();
        let mut frame = Frame::new(substitution);
        let (locals, ins, outs) =
            self.locals(&implementation.locals, &implementation.ins, &implementation.outs, &mut frame);
        let body = self.stmts(&implementation.body, &mut frame);
        Implementation {
            proc,
            name: self.instance_name(&implementation.name, args),
            type_params: Vec::new(),
            locals,
            ins,
            outs,
            labels: implementation.labels.clone(),
            body,
            attrs: implementation.attrs.clone(),
            span: implementation.span,
        }
    }

    /// Splits a declaration's locals; sets the frame's components.
    fn locals(
        &mut self,
        src_locals: &'p [Local],
        ins: &[LocalId],
        outs: &[LocalId],
        frame: &mut Frame<'p>,
    ) -> (Vec<Local>, Vec<LocalId>, Vec<LocalId>) {
        let mut locals = Vec::new();
        frame.src_locals = src_locals;
        frame.locals.clear();
        for local in src_locals {
            let mut ids = Vec::new();
            let written = local.ty.substitute(&frame.substitution);
            let parts = self.split(&written, local.span);
            let instance_of = self.instance_of(&local.name, &written, parts.len());
            for (suffix, ty) in parts {
                ids.push(LocalId::from_index(locals.len()));
                let name = format!("{}{suffix}", local.name);
                let instance_of = instance_of.clone();
                locals.push(Local { name, ty, where_clause: None, instance_of, ..local.clone() });
            }
            frame.locals.push(ids);
        }
        for (at, local) in src_locals.iter().enumerate() {
            if let (Some(clause), Some(&first)) = (&local.where_clause, frame.locals[at].first()) {
                locals[first.index()].where_clause = Some(self.expr(clause, frame));
            }
        }
        let expand = |ids: &[LocalId]| ids.iter().flat_map(|id| frame.locals[id.index()].clone()).collect();
        (locals, expand(ins), expand(outs))
    }

    fn clause(&mut self, clause: &Clause, frame: &mut Frame<'p>) -> Clause {
        Clause { expr: self.expr(&clause.expr, frame), ..clause.clone() }
    }

    // -----------------------------------------------------------------------------
    // Types

    /// A ground type of the checked program as a type of the output.
    fn ground(&mut self, ty: &Type, span: Span) -> Type {
        match ty {
            Type::Int | Type::Bool | Type::Real | Type::BitVector(_) => ty.clone(),
            Type::Named(id, args) if args.is_empty() => ty.clone(),
            Type::Named(id, args) => Type::Named(self.named_instance(*id, args, span), Vec::new()),
            Type::Param(_) => {
                self.unsupported("a type parameter that no instance fixes", span);
                Type::Bool
            }
            Type::Map(map) if !map.type_params.is_empty() => {
                self.unsupported("a polymorphic map inside another type", span);
                Type::Bool
            }
            Type::Map(map) => Type::Map(Arc::new(MapType {
                type_params: Vec::new(),
                domain: self.domain(&map.domain, span),
                range: self.ground(&map.range, span),
            })),
        }
    }

    fn named_instance(&mut self, id: TypeId, args: &[Type], span: Span) -> TypeId {
        let key = (id, args.to_vec());
        if let Some(&instance) = self.named.get(&key) {
            return instance;
        }
        let name = types::text(self.names(), &Type::Named(id, args.to_vec()));
        for arg in args.iter().filter(|arg| !is_compound(arg)) {
            self.ground(arg, span);
        }
        let decl = &self.src.types[id.index()];
        let instance = TypeId::from_index(self.out.types.len());
        self.out.types.push(TypeDecl {
            name,
            arity: 0,
            finite: decl.finite,
            attrs: decl.attrs.clone(),
            span: decl.span,
        });
        self.named.insert(key, instance);
        instance
    }

    /// The components of a value of ground type `ty` (its name suffix, its type): one
    /// per instance of a polymorphic map, each split again if its range is compound, one
    /// per component of the range for a map whose range is compound, or itself.
    fn split(&mut self, ty: &Type, span: Span) -> Vec<(String, Type)> {
        if let Some(parts) = self.splits.get(ty) {
            return parts.clone();
        }
        let parts = self.split_within(ty, span, 0);
        self.splits.insert(ty.clone(), parts.clone());
        parts
    }

    /// [`Builder::split`] `depth` components deep: a polymorphic map stored in an
    /// instance of its own type (`p[28 := p]` for `p: <a>[int]a`) would split into
    /// itself without end, so past [`MAX_TYPE_DEPTH`] it is refused.
    fn split_within(&mut self, ty: &Type, span: Span, depth: usize) -> Vec<(String, Type)> {
        if depth > MAX_TYPE_DEPTH {
            self.unsupported("a polymorphic map stored in an instance of its own type", span);
            return Vec::new();
        }
        match ty {
            Type::Map(map) if !map.type_params.is_empty() => {
                let map = map.clone();
                let mut parts = Vec::new();
                for args in self.instance_args(&map) {
                    let suffix = instance_suffix(self.names(), &args);
                    for (inner, part) in self.split_within(&map_component(&map, &args), span, depth + 1) {
                        parts.push((format!("{suffix}{inner}"), part));
                    }
                }
                parts
            }
            Type::Map(map) if is_compound(&map.range) => {
                let domain = self.domain(&map.domain, span);
                let ranges = self.split_within(&map.range.clone(), span, depth + 1);
                ranges
                    .into_iter()
                    .map(|(suffix, range)| {
                        let part = MapType { type_params: Vec::new(), domain: domain.clone(), range };
                        (suffix, Type::Map(Arc::new(part)))
                    })
                    .collect()
            }
            _ => vec![(String::new(), self.ground(ty, span))],
        }
    }

    /// A map's index types: an index of a compound type (a map indexed by heaps,
    /// Dafny's `[Heap, Box]Box`) is one index per component.
    fn domain(&mut self, domain: &[Type], span: Span) -> Vec<Type> {
        let mut out = Vec::new();
        for part in domain {
            if is_compound(part) {
                out.extend(self.split(part, span).into_iter().map(|(_, ty)| ty));
            } else {
                out.push(self.ground(part, span));
            }
        }
        out
    }

    /// What each of the `parts` components of the variable `name: ty` as written is an
    /// instance of: the variable, when it is a polymorphic map and no instance is split
    /// again (one component per instance).
    fn instance_of(&self, name: &str, ty: &Type, parts: usize) -> Option<MapInstanceOf> {
        let instances = poly_map(ty).map_or(0, |map| self.instance_args(map).len());
        (instances > 0 && instances == parts).then(|| MapInstanceOf { name: name.to_string(), ty: ty.clone() })
    }

    /// The instances of polymorphic map type `map`, in component order.
    fn instance_args(&self, map: &MapType) -> Vec<Vec<Type>> {
        match self.instances.find_map(map) {
            Some(at) => self.instances.maps[at].instances.keys().to_vec(),
            None => Vec::new(),
        }
    }

    /// The components of `map`'s value that a selection with these index types uses
    /// (positions among all its components), and the instance.
    fn component(
        &mut self,
        map: &MapType,
        indices: &[Type],
        range: Option<&Type>,
        span: Span,
    ) -> Option<(Range<usize>, Vec<Type>)> {
        let Some(args) = map_instance(map, indices, range) else {
            self.unsupported("a polymorphic map selected at a type no instance fixes", span);
            return None;
        };
        if !self.offsets.contains_key(map) {
            let mut offsets = HashMap::new();
            let mut start = 0;
            for instance in self.instance_args(map) {
                let width = self.split(&map_component(map, &instance), span).len();
                offsets.insert(instance, start..start + width);
                start += width;
            }
            self.offsets.insert(map.clone(), offsets);
        }
        if let Some(range) = self.offsets[map].get(&args) {
            return Some((range.clone(), args));
        }
        self.unsupported("a polymorphic map selected at a type no instance fixes", span);
        None
    }

    // -----------------------------------------------------------------------------
    // Variables

    fn var(&self, var: Var, frame: &Frame) -> Vec<Var> {
        match var {
            Var::Const(id) => self.consts[id.index()].iter().map(|id| Var::Const(*id)).collect(),
            Var::Global(id) => self.globals[id.index()].iter().map(|id| Var::Global(*id)).collect(),
            Var::Local(id) => frame.locals[id.index()].iter().map(|id| Var::Local(*id)).collect(),
            Var::Bound(id) => {
                frame.bound.get(&id).map_or_else(Vec::new, |ids| ids.iter().map(|id| Var::Bound(*id)).collect())
            }
        }
    }

    /// Fresh bound variables for `var`'s components, entered in `frame`.
    fn bind(&mut self, var: &BoundVar, frame: &mut Frame) -> Vec<BoundVar> {
        let ty = var.ty.substitute(&frame.substitution);
        let components = self.split(&ty, var.span);
        let mut bound = Vec::new();
        for (suffix, ty) in components {
            let id = BoundId(self.next_bound);
            self.next_bound += 1;
            let name = var.name.as_ref().map(|name| format!("{name}{suffix}"));
            bound.push(BoundVar { id, name, ty, span: var.span });
        }
        frame.bound.insert(var.id, bound.iter().map(|var| var.id).collect());
        bound
    }

    // -----------------------------------------------------------------------------
    // Expressions

    fn is_poly(&self, expr: &Expr, frame: &Frame) -> bool {
        is_compound(&expr.ty.substitute(&frame.substitution))
    }

    /// Arguments of an application or a call: a polymorphic map passes its components.
    fn args(&mut self, args: &[Expr], frame: &mut Frame<'p>) -> Vec<Expr> {
        let mut out = Vec::new();
        for arg in args {
            if self.is_poly(arg, frame) {
                out.extend(self.tuple(arg, frame));
            } else {
                out.push(self.expr(arg, frame));
            }
        }
        out
    }

    fn exprs(&mut self, exprs: &[Expr], frame: &mut Frame<'p>) -> Vec<Expr> {
        exprs.iter().map(|expr| self.expr(expr, frame)).collect()
    }

    fn boxed(&mut self, expr: &Expr, frame: &mut Frame<'p>) -> Box<Expr> {
        Box::new(self.expr(expr, frame))
    }

    /// An expression whose type is not a polymorphic map.
    fn expr(&mut self, expr: &Expr, frame: &mut Frame<'p>) -> Expr {
        let ty = expr.ty.substitute(&frame.substitution);
        let span = expr.span;
        let kind = match &expr.kind {
            ExprKind::Bool(_) | ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::BitVector { .. } => expr.kind.clone(),
            ExprKind::Var(var) => match self.var(*var, frame).first() {
                Some(var) => ExprKind::Var(*var),
                None => {
                    self.unsupported("a variable without components", span);
                    ExprKind::Bool(true)
                }
            },
            ExprKind::Apply { func, type_args, args } => {
                let type_args: Vec<Type> = type_args.iter().map(|ty| ty.substitute(&frame.substitution)).collect();
                let func =
                    *self.functions.get(&(*func, type_args)).expect("every application's instance was collected");
                ExprKind::Apply { func, type_args: Vec::new(), args: self.args(args, frame) }
            }
            ExprKind::Old(operand) => ExprKind::Old(self.boxed(operand, frame)),
            ExprKind::Unary { op, operand } => ExprKind::Unary { op: *op, operand: self.boxed(operand, frame) },
            // Boogie lets `f == field` compare `Field beta` with `Field alpha`: at
            // instances where the types differ, the values differ.
            ExprKind::Binary { op: op @ (BinaryOp::Eq | BinaryOp::Neq), lhs, rhs }
                if !lhs.ty.substitute(&frame.substitution).alpha_equal(&rhs.ty.substitute(&frame.substitution)) =>
            {
                ExprKind::Bool(*op == BinaryOp::Neq)
            }
            ExprKind::Binary { op: op @ (BinaryOp::Eq | BinaryOp::Neq), lhs, rhs } if self.is_poly(lhs, frame) => {
                let lhs = self.tuple(lhs, frame);
                let rhs = self.tuple(rhs, frame);
                let equal = conjunction(lhs.into_iter().zip(rhs).map(|(l, r)| binary(BinaryOp::Eq, l, r, span)), span);
                return match op {
                    BinaryOp::Eq => equal,
                    _ => Expr {
                        kind: ExprKind::Unary { op: UnaryOp::Not, operand: Box::new(equal) },
                        ty: Type::Bool,
                        span,
                    },
                };
            }
            ExprKind::Binary { op, lhs, rhs } => {
                ExprKind::Binary { op: *op, lhs: self.boxed(lhs, frame), rhs: self.boxed(rhs, frame) }
            }
            ExprKind::Select { map, indices } if self.is_poly(map, frame) => {
                let mut parts = self.select_parts(map, indices, &ty, span, frame);
                match parts.len() {
                    1 => return parts.remove(0),
                    _ => {
                        self.unsupported("a polymorphic map selected at a type no instance fixes", span);
                        ExprKind::Bool(true)
                    }
                }
            }
            ExprKind::Select { map, indices } => {
                ExprKind::Select { map: self.boxed(map, frame), indices: self.args(indices, frame) }
            }
            ExprKind::Store { map, indices, value } => ExprKind::Store {
                map: self.boxed(map, frame),
                indices: self.args(indices, frame),
                value: self.boxed(value, frame),
            },
            ExprKind::Extract { operand, high, low } => {
                ExprKind::Extract { operand: self.boxed(operand, frame), high: *high, low: *low }
            }
            ExprKind::IfThenElse { cond, then_expr, else_expr } => ExprKind::IfThenElse {
                cond: self.boxed(cond, frame),
                then_expr: self.boxed(then_expr, frame),
                else_expr: self.boxed(else_expr, frame),
            },
            ExprKind::Quant { .. } => return self.quant(expr, frame),
        };
        let ty = self.ground(&ty, span);
        Expr { kind, ty, span }
    }

    /// The components of an expression of a polymorphic map type.
    fn tuple(&mut self, expr: &Expr, frame: &mut Frame<'p>) -> Vec<Expr> {
        let span = expr.span;
        let ty = expr.ty.substitute(&frame.substitution);
        match &expr.kind {
            ExprKind::Var(var) => {
                let types: Vec<Type> = self.split(&ty, span).into_iter().map(|(_, ty)| ty).collect();
                let vars = self.var(*var, frame);
                vars.into_iter().zip(types).map(|(var, ty)| Expr { kind: ExprKind::Var(var), ty, span }).collect()
            }
            ExprKind::Old(operand) => self
                .tuple(operand, frame)
                .into_iter()
                .map(|part| Expr { ty: part.ty.clone(), kind: ExprKind::Old(Box::new(part)), span })
                .collect(),
            ExprKind::IfThenElse { cond, then_expr, else_expr } => {
                let cond = self.expr(cond, frame);
                let then_parts = self.tuple(then_expr, frame);
                let else_parts = self.tuple(else_expr, frame);
                then_parts
                    .into_iter()
                    .zip(else_parts)
                    .map(|(then_part, else_part)| Expr {
                        ty: then_part.ty.clone(),
                        kind: ExprKind::IfThenElse {
                            cond: Box::new(cond.clone()),
                            then_expr: Box::new(then_part),
                            else_expr: Box::new(else_part),
                        },
                        span,
                    })
                    .collect()
            }
            ExprKind::Select { map, indices } => self.select_parts(map, indices, &ty, span, frame),
            ExprKind::Apply { func, type_args, args } => {
                let type_args: Vec<Type> = type_args.iter().map(|ty| ty.substitute(&frame.substitution)).collect();
                let first =
                    *self.functions.get(&(*func, type_args)).expect("every application's instance was collected");
                let args = self.args(args, frame);
                let types: Vec<Type> = self.split(&ty, span).into_iter().map(|(_, ty)| ty).collect();
                types
                    .into_iter()
                    .enumerate()
                    .map(|(at, ty)| {
                        let func = FunctionId::from_index(first.index() + at);
                        Expr { kind: ExprKind::Apply { func, type_args: Vec::new(), args: args.clone() }, ty, span }
                    })
                    .collect()
            }
            ExprKind::Store { map, indices, value } => self.store_parts(map, indices, value, span, frame),
            ExprKind::Quant { quantifier: Quantifier::Lambda, type_params, .. } if !type_params.is_empty() => {
                self.lambda_parts(expr, type_params, &ty, frame)
            }
            _ => {
                self.unsupported("a polymorphic map computed by a function, a selection or a lambda", span);
                Vec::new()
            }
        }
    }

    /// The components of a type-quantified lambda (of polymorphic map type `ty`): one
    /// monomorphic lambda per instance of the type, its body at that instance, as a
    /// type-quantified `forall` is the conjunction of its instances.
    fn lambda_parts(
        &mut self,
        expr: &Expr,
        type_params: &[TypeParamId],
        ty: &Type,
        frame: &mut Frame<'p>,
    ) -> Vec<Expr> {
        let Some(map) = poly_map(ty).cloned() else {
            self.unsupported("a lambda with type parameters whose type is not a polymorphic map", expr.span);
            return Vec::new();
        };
        let outer = frame.substitution.clone();
        let mut parts = Vec::new();
        for args in self.instance_args(&map) {
            let component = map_component(&map, &args);
            if is_compound(&component) {
                self.unsupported("a lambda with type parameters whose values are polymorphic maps", expr.span);
                break;
            }
            frame.substitution = outer.clone();
            frame.substitution.extend(type_params.iter().copied().zip(args));
            parts.push(self.quant_body_typed(expr, &component, frame));
        }
        frame.substitution = outer;
        parts
    }

    /// The components of `map[indices]` (of type `result`), where `map` is compound: the
    /// selection in each component of the instance the index types pick.
    fn select_parts(
        &mut self,
        map: &Expr,
        indices: &[Expr],
        result: &Type,
        span: Span,
        frame: &mut Frame<'p>,
    ) -> Vec<Expr> {
        let slice = self.slice(map, indices, result, span, frame);
        let parts = self.tuple(map, frame);
        let indices = self.args(indices, frame);
        let Some(slice) = slice.filter(|slice| slice.end <= parts.len()) else { return Vec::new() };
        parts[slice]
            .iter()
            .map(|part| {
                let ty = match &part.ty {
                    Type::Map(map) => map.range.clone(),
                    other => other.clone(),
                };
                Expr { kind: ExprKind::Select { map: Box::new(part.clone()), indices: indices.clone() }, ty, span }
            })
            .collect()
    }

    /// The components of `map[indices := value]`, where `map` is compound.
    fn store_parts(
        &mut self,
        map: &Expr,
        indices: &[Expr],
        value: &Expr,
        span: Span,
        frame: &mut Frame<'p>,
    ) -> Vec<Expr> {
        let range = value.ty.substitute(&frame.substitution);
        let slice = self.slice(map, indices, &range, span, frame);
        let mut parts = self.tuple(map, frame);
        let indices = self.args(indices, frame);
        let values = if self.is_poly(value, frame) { self.tuple(value, frame) } else { vec![self.expr(value, frame)] };
        let Some(slice) = slice.filter(|slice| slice.end <= parts.len() && slice.len() == values.len()) else {
            self.unsupported("a polymorphic map updated at a type no instance fixes", span);
            return parts;
        };
        for (at, value) in slice.zip(values) {
            let old = std::mem::replace(&mut parts[at], Expr { kind: ExprKind::Bool(true), ty: Type::Bool, span });
            let kind = ExprKind::Store { map: Box::new(old.clone()), indices: indices.clone(), value: Box::new(value) };
            parts[at] = Expr { ty: old.ty, kind, span };
        }
        parts
    }

    /// Which components of compound `map` a selection or update with these indices
    /// touches: an instance's for a polymorphic map, all of them for a map whose range is
    /// compound.
    fn slice(
        &mut self,
        map: &Expr,
        indices: &[Expr],
        range: &Type,
        span: Span,
        frame: &mut Frame<'p>,
    ) -> Option<Range<usize>> {
        let map_ty = map.ty.substitute(&frame.substitution);
        match poly_map(&map_ty) {
            Some(poly) => {
                let poly = poly.clone();
                let index_types: Vec<Type> =
                    indices.iter().map(|index| index.ty.substitute(&frame.substitution)).collect();
                self.component(&poly, &index_types, Some(range), span).map(|(slice, _)| slice)
            }
            None => Some(0..self.split(&map_ty, span).len()),
        }
    }

    /// The bindings recorded for a type-quantified expression reached under `substitution`.
    fn bindings(&self, expr: &Expr, substitution: &Substitution) -> Vec<Vec<Type>> {
        self.instances.sites.get(&site_key(expr, substitution)).cloned().unwrap_or_default()
    }

    fn quant(&mut self, expr: &Expr, frame: &mut Frame<'p>) -> Expr {
        let ExprKind::Quant { quantifier, type_params, .. } = &expr.kind else { unreachable!("a quantifier") };
        if type_params.is_empty() {
            return self.quant_body(expr, frame);
        }
        if *quantifier == Quantifier::Lambda {
            // Its type is a polymorphic map: `tuple` takes it apart.
            self.unsupported("a lambda with type parameters where no map is expected", expr.span);
            return Expr { kind: ExprKind::Bool(true), ty: Type::Bool, span: expr.span };
        }
        let outer = frame.substitution.clone();
        let mut parts = Vec::new();
        for binding in self.bindings(expr, &outer) {
            frame.substitution = outer.clone();
            frame.substitution.extend(type_params.iter().copied().zip(binding));
            parts.push(self.quant_body(expr, frame));
        }
        frame.substitution = outer;
        match quantifier {
            Quantifier::Exists => disjunction(parts, expr.span),
            _ => conjunction(parts, expr.span),
        }
    }

    /// A quantifier at the types of `frame`, its bound variables split and renamed; the
    /// body alone when no variable remains.
    fn quant_body(&mut self, expr: &Expr, frame: &mut Frame<'p>) -> Expr {
        let ty = expr.ty.substitute(&frame.substitution);
        self.quant_body_typed(expr, &ty, frame)
    }

    /// [`Self::quant_body`] with the type the result has (a lambda's component's).
    fn quant_body_typed(&mut self, expr: &Expr, ty: &Type, frame: &mut Frame<'p>) -> Expr {
        let ExprKind::Quant { quantifier, vars, triggers, attrs, body, .. } = &expr.kind else {
            unreachable!("a quantifier")
        };
        let vars: Vec<BoundVar> = vars.iter().flat_map(|var| self.bind(var, frame)).collect();
        let body = self.expr(body, frame);
        if vars.is_empty() {
            return body;
        }
        let mut kept = Vec::new();
        for trigger in triggers {
            if trigger.iter().all(|term| !self.is_poly(term, frame)) {
                kept.push(self.exprs(trigger, frame));
            }
        }
        let ty = self.ground(ty, expr.span);
        let kind = ExprKind::Quant {
            quantifier: *quantifier,
            type_params: Vec::new(),
            vars,
            triggers: kept,
            attrs: attrs.clone(),
            body: Box::new(body),
        };
        Expr { kind, ty, span: expr.span }
    }

    // -----------------------------------------------------------------------------
    // Statements

    fn stmts(&mut self, stmts: &[Stmt], frame: &mut Frame<'p>) -> Vec<Stmt> {
        stmts.iter().map(|stmt| Stmt { kind: self.stmt(&stmt.kind, frame), span: stmt.span }).collect()
    }

    fn guard(&mut self, guard: &Guard, frame: &mut Frame<'p>) -> Guard {
        match guard {
            Guard::Expr(expr) => Guard::Expr(self.expr(expr, frame)),
            Guard::Star(span) => Guard::Star(*span),
        }
    }

    fn stmt(&mut self, kind: &StmtKind, frame: &mut Frame<'p>) -> StmtKind {
        match kind {
            StmtKind::Label(_) | StmtKind::Break { .. } | StmtKind::Return | StmtKind::Goto { .. } => kind.clone(),
            StmtKind::Assert { expr, attrs } => StmtKind::Assert { expr: self.expr(expr, frame), attrs: attrs.clone() },
            StmtKind::Assume { expr, attrs } => StmtKind::Assume { expr: self.expr(expr, frame), attrs: attrs.clone() },
            StmtKind::Havoc { vars } => {
                StmtKind::Havoc { vars: vars.iter().flat_map(|var| self.var(*var, frame)).collect() }
            }
            StmtKind::Assign { lhs, rhs } => {
                let mut targets = Vec::new();
                let mut values = Vec::new();
                for (target, value) in lhs.iter().zip(rhs) {
                    self.assignment(target, value, frame, &mut targets, &mut values);
                }
                StmtKind::Assign { lhs: targets, rhs: values }
            }
            StmtKind::Call { callee, type_args, free, args, outs, attrs } => {
                let type_args: Vec<Type> = type_args.iter().map(|ty| ty.substitute(&frame.substitution)).collect();
                let callee = *self.procedures.get(&(*callee, type_args)).expect("every call's instance was collected");
                let args = self.args(args, frame);
                let outs = outs.iter().flat_map(|var| self.var(*var, frame)).collect();
                StmtKind::Call { callee, type_args: Vec::new(), free: *free, args, outs, attrs: attrs.clone() }
            }
            StmtKind::If { branches, else_block } => StmtKind::If {
                branches: branches
                    .iter()
                    .map(|branch| IfBranch {
                        guard: self.guard(&branch.guard, frame),
                        block: self.stmts(&branch.block, frame),
                        span: branch.span,
                    })
                    .collect(),
                else_block: else_block.as_ref().map(|block| self.stmts(block, frame)),
            },
            StmtKind::While { guard, invariants, body } => StmtKind::While {
                guard: self.guard(guard, frame),
                invariants: invariants.iter().map(|clause| self.clause(clause, frame)).collect(),
                body: self.stmts(body, frame),
            },
        }
    }

    /// One target and its value: a whole polymorphic map assigns every component, a
    /// selection of one the component its index types pick.
    fn assignment(
        &mut self,
        target: &Lhs,
        value: &Expr,
        frame: &mut Frame<'p>,
        targets: &mut Vec<Lhs>,
        values: &mut Vec<Expr>,
    ) {
        let declared = match target.var {
            Var::Local(id) => frame.src_locals[id.index()].ty.substitute(&frame.substitution),
            Var::Global(id) => self.src.globals[id.index()].ty.clone(),
            Var::Const(_) | Var::Bound(_) => unreachable!("the checker allows assignments to variables only"),
        };
        let indices: Vec<Vec<Expr>> = target.indices.iter().map(|group| self.args(group, frame)).collect();
        let components = self.var(target.var, frame);
        if !is_compound(&declared) {
            let ty = self.ground(&target.ty.substitute(&frame.substitution), target.span);
            targets.push(Lhs { var: components[0], indices, ty, span: target.span });
            values.push(self.expr(value, frame));
            return;
        }
        // Follow the selections through the components: a polymorphic map's level picks
        // its instance's components, a map's level keeps them.
        let mut current = declared;
        let mut base = 0;
        for (level, group) in target.indices.iter().enumerate() {
            let last = level + 1 == target.indices.len();
            current = match &current {
                Type::Map(map) if !map.type_params.is_empty() => {
                    let map = (**map).clone();
                    let index_types: Vec<Type> =
                        group.iter().map(|index| index.ty.substitute(&frame.substitution)).collect();
                    let range = last.then(|| target.ty.substitute(&frame.substitution));
                    let Some((slice, args)) = self.component(&map, &index_types, range.as_ref(), target.span) else {
                        return;
                    };
                    base += slice.start;
                    match map_component(&map, &args) {
                        Type::Map(component) => component.range.clone(),
                        other => other,
                    }
                }
                Type::Map(map) => map.range.clone(),
                _ => {
                    self.unsupported("an assignment through a polymorphic map", target.span);
                    return;
                }
            };
        }
        let parts = if is_compound(&current) { self.tuple(value, frame) } else { vec![self.expr(value, frame)] };
        for (at, part) in parts.into_iter().enumerate() {
            let Some(&var) = components.get(base + at) else {
                self.unsupported("an assignment through a polymorphic map", target.span);
                return;
            };
            targets.push(Lhs { var, indices: indices.clone(), ty: part.ty.clone(), span: target.span });
            values.push(part);
        }
    }
}

fn binary(op: BinaryOp, lhs: Expr, rhs: Expr, span: Span) -> Expr {
    Expr { kind: ExprKind::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }, ty: Type::Bool, span }
}

/// `true` for no parts, the part for one, otherwise the parts joined by `&&`.
fn conjunction(parts: impl IntoIterator<Item = Expr>, span: Span) -> Expr {
    join(parts, BinaryOp::And, true, span)
}

fn disjunction(parts: impl IntoIterator<Item = Expr>, span: Span) -> Expr {
    join(parts, BinaryOp::Or, false, span)
}

fn join(parts: impl IntoIterator<Item = Expr>, op: BinaryOp, empty: bool, span: Span) -> Expr {
    parts.into_iter().reduce(|acc, part| binary(op, acc, part, span)).unwrap_or(Expr {
        kind: ExprKind::Bool(empty),
        ty: Type::Bool,
        span,
    })
}
