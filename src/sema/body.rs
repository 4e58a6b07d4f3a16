//! Pass 2: everything that contains expressions or statements, checked against the
//! symbol tables of pass 1 ([`super::resolve`]).
//!
//! Input: the AST and the collected declarations. Output: function bodies, axioms,
//! `where` clauses, contracts and implementations in the HIR. A procedure declared with
//! a body gets that body as an implementation whose formals are the procedure's own.

use super::error::{NameKind, OldContext, ParamSide, SemaError};
use super::expr::{BoundName, Scope};
use super::hir::{self, FunctionId, ImplId, LocalId, LocalKind, ProcId};
use super::resolve::local_kind;
use super::stmt::BodyCx;
use super::types::TypeScope;
use super::{Checker, GlobalValue};
use crate::source::Span;
use crate::syntax::ast;
use std::collections::BTreeMap;
use std::ops::Range;

/// The parameters and locals of a procedure or implementation, and those visible by
/// name (a duplicate keeps its slot in the table but is not found by name).
#[derive(Default)]
pub(super) struct Locals {
    pub(super) table: Vec<hir::Local>,
    pub(super) names: BTreeMap<String, LocalId>,
}

/// What an implementation body needs to know about where it comes from.
struct ImplHeader<'a> {
    /// `None` when the implementation names no known procedure: its body is still
    /// checked, but not against a `modifies` clause.
    proc: Option<ProcId>,
    /// The implementation's type parameters (in the procedure's order) and their scope.
    type_params: Vec<hir::TypeParamId>,
    type_scope: &'a TypeScope,
    /// A procedure's own body, whose attributes are the procedure's (checked with it).
    is_procedure_body: bool,
    name: &'a str,
    attrs: &'a [ast::Attribute],
    span: Span,
    in_count: usize,
    out_count: usize,
}

impl Checker {
    pub(super) fn check_bodies(&mut self, program: &ast::Program) {
        // Pass 1 pushed one entry per declared name in declaration order (see resolve.rs),
        // so running counters find each declaration's entries again.
        let (mut next_global, mut next_function, mut next_procedure) = (0, 0, 0);
        for decl in &program.decls {
            self.check_decl_attrs(decl_attrs(decl));
            match decl {
                ast::Decl::Type(_) => {}
                ast::Decl::Var(decl) => {
                    for group in &decl.groups {
                        self.check_global_where(group, next_global);
                        next_global += group.names.len();
                    }
                }
                ast::Decl::Function(decl) => {
                    self.check_function_body(FunctionId::from_index(next_function), decl);
                    self.check_axioms(&decl.uses);
                    next_function += 1;
                }
                ast::Decl::Const(decl) => self.check_axioms(&decl.uses),
                ast::Decl::Axiom(decl) => self.check_axioms(std::slice::from_ref(decl)),
                ast::Decl::Procedure(decl) => {
                    self.check_procedure(ProcId::from_index(next_procedure), decl);
                    next_procedure += 1;
                }
                ast::Decl::Implementation(decl) => self.check_implementation_decl(decl),
            }
        }
    }

    /// Axioms, also those a function or constant declares with `uses`: an axiom that
    /// belongs to a declaration is a program axiom like any other (relevance pruning
    /// keeps it with what it mentions).
    fn check_axioms(&mut self, axioms: &[ast::AxiomDecl]) {
        for decl in axioms {
            self.check_decl_attrs(&decl.attrs);
            let expr = self.bool_expr(&mut Scope::global(OldContext::Axiom), &decl.expr);
            self.program.axioms.push(hir::Axiom { expr, attrs: decl.attrs.clone(), span: decl.span });
        }
    }

    fn check_global_where(&mut self, group: &ast::TypedIdents, first: usize) {
        let Some(where_clause) = &group.where_clause else {
            return;
        };
        let expr = self.bool_expr(&mut Scope::global(OldContext::GlobalWhere), where_clause);
        for global in &mut self.program.globals[first..first + group.names.len()] {
            global.where_clause = Some(expr.clone());
        }
    }

    fn check_function_body(&mut self, id: FunctionId, decl: &ast::FunctionDecl) {
        let Some(body) = &decl.body else {
            return;
        };
        let function = &self.program.functions[id.index()];
        let result = function.result.clone();
        let mut scope = Scope::global(OldContext::FunctionBody);
        scope.type_params = self.type_scope_of(&function.type_params);
        for param in &function.params {
            if let Some(name) = &param.name {
                scope.bound.push(BoundName { name: name.clone(), id: param.id, ty: param.ty.clone() });
            }
        }
        let mark = self.inference_mark();
        let mut body = self.expr(&mut scope, body);
        self.expect_type(&body, &result, Some(decl.result.span));
        self.settle(mark, &mut body);
        self.program.functions[id.index()].body = Some(body);
    }

    /// The scope of declared type parameters, by their names.
    pub(super) fn type_scope_of(&self, params: &[hir::TypeParamId]) -> Vec<(String, hir::TypeParamId)> {
        params.iter().map(|param| (self.program.type_params[param.index()].name.clone(), *param)).collect()
    }

    /// Adds locals to a table, reporting names already in it.
    fn add_locals(&mut self, locals: &mut Locals, new: Vec<hir::Local>) {
        for local in new {
            let id = LocalId::from_index(locals.table.len());
            if let Some(first) = locals.names.get(&local.name) {
                let first = locals.table[first.index()].span;
                let (kind, name, span) = (local_kind(local.kind), local.name.clone(), local.span);
                self.error(SemaError::Duplicate { kind, name, span, first });
            } else {
                locals.names.insert(local.name.clone(), id);
            }
            locals.table.push(local);
        }
    }

    /// Checks the `where` clauses of `groups`, whose names occupy the locals table from
    /// `first` on, seeing the locals in `names`; returns each with the slots it belongs to
    /// (stored by [`store_wheres`] once the table may be written again).
    fn check_local_wheres<'g>(
        &mut self,
        table: &[hir::Local],
        names: &BTreeMap<String, LocalId>,
        groups: impl IntoIterator<Item = &'g ast::TypedIdents>,
        first: usize,
        type_scope: &TypeScope,
        old: Option<OldContext>,
    ) -> Vec<(Range<usize>, hir::Expr)> {
        let mut checked = Vec::new();
        let mut next = first;
        let mut scope = Scope::of_locals(table, names, type_scope, old);
        for group in groups {
            if let Some(where_clause) = &group.where_clause {
                checked.push((next..next + group.names.len(), self.bool_expr(&mut scope, where_clause)));
            }
            next += group.names.len();
        }
        checked
    }

    fn check_procedure(&mut self, id: ProcId, decl: &ast::ProcedureDecl) {
        let procedure = &self.program.procedures[id.index()];
        let (in_count, out_count) = (procedure.ins.len(), procedure.outs.len());
        let formals = procedure.locals.clone();
        let type_params = procedure.type_params.clone();
        let type_scope = self.type_scope_of(&type_params);
        let mut locals = Locals::default();
        self.add_locals(&mut locals, formals);
        // A precondition and the `where` clauses of the ins speak of the state before the
        // call: only the ins exist (an out-parameter named like a global does not hide it
        // there, as in Boogie). The outs' `where` clauses see every formal.
        let in_names: BTreeMap<String, LocalId> =
            locals.names.iter().filter(|(_, id)| id.index() < in_count).map(|(name, id)| (name.clone(), *id)).collect();
        let old = Some(OldContext::ParamWhere);
        let mut wheres = self.check_local_wheres(&locals.table, &in_names, &decl.params, 0, &type_scope, old);
        wheres.extend(self.check_local_wheres(&locals.table, &locals.names, &decl.returns, in_count, &type_scope, old));
        store_wheres(&mut locals.table, wheres);
        self.check_attrs(&mut Scope::of_locals(&locals.table, &locals.names, &type_scope, None), &decl.attrs);
        let (mut requires, mut ensures) = (Vec::new(), Vec::new());
        for spec in &decl.specs {
            match &spec.kind {
                ast::SpecKind::Requires { free, attrs, expr } => {
                    let old = Some(OldContext::Requires);
                    let mut scope = Scope::of_locals(&locals.table, &in_names, &type_scope, old);
                    self.check_attrs(&mut scope, attrs);
                    let expr = self.bool_expr(&mut scope, expr);
                    requires.push(hir::Clause { free: *free, expr, attrs: attrs.clone(), span: spec.span });
                }
                ast::SpecKind::Ensures { free, attrs, expr } => {
                    let mut scope = Scope::of_locals(&locals.table, &locals.names, &type_scope, None);
                    self.check_attrs(&mut scope, attrs);
                    let expr = self.bool_expr(&mut scope, expr);
                    ensures.push(hir::Clause { free: *free, expr, attrs: attrs.clone(), span: spec.span });
                }
                ast::SpecKind::Modifies { .. } => {}
            }
        }
        let procedure = &mut self.program.procedures[id.index()];
        procedure.requires = requires;
        procedure.ensures = ensures;
        procedure.locals = locals.table.clone();
        if let Some(body) = &decl.body {
            let header = ImplHeader {
                proc: Some(id),
                type_params,
                type_scope: &type_scope,
                is_procedure_body: true,
                name: &decl.name.name,
                attrs: &decl.attrs,
                span: decl.span,
                in_count,
                out_count,
            };
            self.check_implementation(header, locals, body);
        }
    }

    /// Resolves a procedure name (of an implementation or a call).
    pub(super) fn resolve_procedure(&mut self, name: &ast::Ident) -> Option<ProcId> {
        if let Some(&id) = self.procs.get(&name.name) {
            return Some(id);
        }
        let error = match self.values.get(&name.name) {
            Some(symbol) if matches!(symbol.value, GlobalValue::Function(_)) => SemaError::WrongKind {
                name: name.name.clone(),
                span: name.span,
                expected: NameKind::Procedure,
                found: super::error::DeclKind::Function,
                decl: symbol.span,
            },
            _ => SemaError::Unknown {
                kind: NameKind::Procedure,
                name: name.name.clone(),
                span: name.span,
                suggestion: super::error::suggest(&name.name, self.procs.keys().map(String::as_str)),
            },
        };
        self.error(error);
        None
    }

    fn check_implementation_decl(&mut self, decl: &ast::ImplementationDecl) {
        let proc = self.resolve_procedure(&decl.name);
        let (type_params, type_scope) = self.bind_type_params(&[], &decl.type_params);
        let ins = self.formals(&decl.params, LocalKind::In, &type_scope);
        let outs = self.formals(&decl.returns, LocalKind::Out, &type_scope);
        let formals: Vec<hir::Local> = ins.iter().chain(&outs).cloned().collect();
        let type_params = self.signature_type_params(type_params, &decl.type_params, &formals, ins.len());
        if let Some(proc) = proc {
            let renaming = self.match_type_params(proc, &decl.name, &type_params);
            self.match_signature(proc, &decl.name, ParamSide::In, &ins, &renaming);
            self.match_signature(proc, &decl.name, ParamSide::Out, &outs, &renaming);
        }
        let (in_count, out_count) = (ins.len(), outs.len());
        let mut locals = Locals::default();
        self.add_locals(&mut locals, ins);
        self.add_locals(&mut locals, outs);
        self.reject_impl_formal_decorations(decl.params.iter().chain(&decl.returns));
        let header = ImplHeader {
            proc,
            type_params,
            type_scope: &type_scope,
            is_procedure_body: false,
            name: &decl.name.name,
            attrs: &decl.attrs,
            span: decl.span,
            in_count,
            out_count,
        };
        self.check_implementation(header, locals, &decl.body);
    }

    /// Boogie rejects `where` clauses and attributes on an implementation's formals: they
    /// belong to the procedure's. Their expressions are not checked, so one mistake
    /// stays one error.
    fn reject_impl_formal_decorations<'g>(&mut self, groups: impl IntoIterator<Item = &'g ast::TypedIdents>) {
        for group in groups {
            for attr in &group.attrs {
                self.error(SemaError::ImplFormalAttr { span: attr.span });
            }
            if let Some(where_clause) = &group.where_clause {
                self.error(SemaError::ImplFormalWhere { span: where_clause.span });
            }
        }
    }

    /// An implementation's type parameters correspond to its procedure's position by
    /// position (both are ordered by first occurrence); returns the procedure's renamed
    /// to the implementation's.
    fn match_type_params(
        &mut self,
        proc: ProcId,
        name: &ast::Ident,
        type_params: &[hir::TypeParamId],
    ) -> Vec<(hir::TypeParamId, hir::Type)> {
        let expected = self.program.procedures[proc.index()].type_params.clone();
        if expected.len() != type_params.len() {
            self.error(SemaError::ImplTypeParams {
                name: name.name.clone(),
                span: name.span,
                expected: expected.len(),
                found: type_params.len(),
                proc_decl: self.proc_name_spans[proc.index()],
            });
        }
        expected.iter().copied().zip(type_params.iter().map(|param| hir::Type::Param(*param))).collect()
    }

    /// An implementation's formals must match its procedure's in number and type (the
    /// procedure's type parameters renamed by `renaming`); their names are the
    /// implementation's own.
    fn match_signature(
        &mut self,
        proc: ProcId,
        name: &ast::Ident,
        side: ParamSide,
        formals: &[hir::Local],
        renaming: &[(hir::TypeParamId, hir::Type)],
    ) {
        let procedure = &self.program.procedures[proc.index()];
        let ids = match side {
            ParamSide::In => &procedure.ins,
            ParamSide::Out => &procedure.outs,
        };
        let expected: Vec<(hir::Type, Span)> = ids
            .iter()
            .map(|id| &procedure.locals[id.index()])
            .map(|local| (local.ty.substitute(renaming), local.span))
            .collect();
        if expected.len() != formals.len() {
            self.error(SemaError::ImplArity {
                name: name.name.clone(),
                span: name.span,
                side,
                expected: expected.len(),
                found: formals.len(),
                proc_decl: self.proc_name_spans[proc.index()],
            });
        }
        for (formal, (ty, proc_param)) in formals.iter().zip(&expected) {
            if !formal.ty.alpha_equal(ty)
                && !super::types::contains_error(&formal.ty)
                && !super::types::contains_error(ty)
            {
                self.error(SemaError::ImplParamType {
                    name: formal.name.clone(),
                    span: formal.span,
                    expected: self.shown(ty),
                    found: self.shown(&formal.ty),
                    proc_param: *proc_param,
                });
            }
        }
    }

    /// Checks a body whose formals are already in `locals`, and records it as an
    /// implementation of `header.proc`.
    fn check_implementation(&mut self, header: ImplHeader, mut locals: Locals, body: &ast::Body) {
        let first_local = locals.table.len();
        for decl in &body.locals {
            for group in &decl.groups {
                let ty = self.resolve_type(&group.ty, header.type_scope);
                let assumption = decl.attrs.iter().chain(&group.attrs).any(|attr| attr.name.name == "assumption");
                if assumption
                    && (group.where_clause.is_some() || !(ty == hir::Type::Bool || super::types::is_error(&ty)))
                {
                    self.error(SemaError::AssumptionVariable { span: group.span });
                }
                let new = group
                    .names
                    .iter()
                    .map(|name| hir::Local {
                        name: name.name.clone(),
                        ty: ty.clone(),
                        kind: LocalKind::Local,
                        where_clause: None,
                        attrs: decl.attrs.iter().chain(&group.attrs).cloned().collect(),
                        span: name.span,
                        instance_of: None,
                    })
                    .collect();
                self.add_locals(&mut locals, new);
            }
        }
        if !header.is_procedure_body {
            let mut scope = Scope::of_locals(&locals.table, &locals.names, header.type_scope, None);
            self.check_attrs(&mut scope, header.attrs);
        }
        let groups = body.locals.iter().flat_map(|decl| &decl.groups);
        let wheres =
            self.check_local_wheres(&locals.table, &locals.names, groups, first_local, header.type_scope, None);
        store_wheres(&mut locals.table, wheres);
        let (labels, label_names) = self.collect_labels(&body.stmts);
        let stmts = {
            let scope = Scope::of_locals(&locals.table, &locals.names, header.type_scope, None);
            let mut cx = BodyCx::new(scope, header.proc, &labels, &label_names);
            self.stmts(&mut cx, &body.stmts)
        };
        let id = ImplId::from_index(self.program.implementations.len());
        let outs_end = header.in_count + header.out_count;
        self.program.implementations.push(hir::Implementation {
            // An implementation of an unknown procedure was reported; the id is never read.
            proc: header.proc.unwrap_or(ProcId(u32::MAX)),
            name: header.name.to_string(),
            type_params: header.type_params,
            locals: locals.table,
            ins: (0..header.in_count).map(LocalId::from_index).collect(),
            outs: (header.in_count..outs_end).map(LocalId::from_index).collect(),
            labels,
            body: stmts,
            attrs: header.attrs.to_vec(),
            span: header.span,
        });
        if let Some(proc) = header.proc {
            self.program.procedures[proc.index()].implementations.push(id);
        }
    }
}

/// The attributes of a declaration itself (not of its parts).
fn decl_attrs(decl: &ast::Decl) -> &[ast::Attribute] {
    match decl {
        ast::Decl::Type(decl) => &decl.attrs,
        ast::Decl::Const(decl) => &decl.attrs,
        ast::Decl::Function(decl) => &decl.attrs,
        ast::Decl::Var(decl) => &decl.attrs,
        // An axiom's attributes are checked with it (also the axioms of `uses` clauses);
        // a procedure's and an implementation's see their formals (`{:_induction x}`).
        ast::Decl::Axiom(_) | ast::Decl::Procedure(_) | ast::Decl::Implementation(_) => &[],
    }
}

/// Stores each checked `where` clause on every local of its group.
fn store_wheres(table: &mut [hir::Local], wheres: Vec<(Range<usize>, hir::Expr)>) {
    for (range, expr) in wheres {
        for local in &mut table[range] {
            local.where_clause = Some(expr.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_procedure_with_a_body_has_one_implementation_with_its_formals() {
        let program = accepts!("procedure P(a: int) returns (r: int) { var l: bool; r := a; }");
        let procedure = &program.procedures[0];
        assert_eq!(procedure.implementations, vec![ImplId(0)]);
        let implementation = &program.implementations[0];
        assert_eq!(implementation.proc, ProcId(0));
        let locals: Vec<(&str, LocalKind)> =
            implementation.locals.iter().map(|local| (local.name.as_str(), local.kind)).collect();
        assert_eq!(locals, vec![("a", LocalKind::In), ("r", LocalKind::Out), ("l", LocalKind::Local)]);
        assert_eq!((implementation.ins.clone(), implementation.outs.clone()), (vec![LocalId(0)], vec![LocalId(1)]));
    }

    #[test]
    fn an_implementation_uses_its_own_parameter_names() {
        let program = accepts!(
            r"
            var g: int;
            procedure P(a: int) returns (r: int); modifies g; ensures r == a;
            implementation P(x: int) returns (y: int) { y := x; g := y; }
        "
        );
        assert_eq!(program.implementations[0].locals[0].name, "x");
        assert_eq!(program.procedures[0].implementations, vec![ImplId(0)]);
    }

    #[test]
    fn an_implementation_must_name_a_procedure() {
        rejects!("procedure Compute(); implementation Compte() { }", "cannot find procedure `Compte`");
        rejects!("procedure Compute(); implementation Compte() { }", "did you mean `Compute`?");
        rejects!("function f(): int; implementation f() { }", "expected a procedure, found function `f`");
    }

    #[test]
    fn an_implementation_matches_its_procedure_signature() {
        rejects!(
            "procedure P(a: int); implementation P(a: int, b: int) { }",
            "implementation of `P` has 2 in-parameters but its procedure has 1"
        );
        rejects!(
            "procedure P() returns (r: int); implementation P() { }",
            "implementation of `P` has 0 out-parameters but its procedure has 1"
        );
        rejects!(
            "procedure P(a: int); implementation P(b: bool) { }",
            "parameter `b` has type `bool` but the procedure declares `int`"
        );
        rejects!("procedure P(a: int); implementation P(b: bool) { }", "procedure's parameter declared here");
    }

    #[test]
    fn formals_and_locals_are_unique_per_implementation() {
        rejects!("procedure P(x: int) returns (x: int);", "duplicate out-parameter `x`");
        rejects!("procedure P(x: int) { var x: int; }", "duplicate local variable `x`");
        rejects!("procedure P() { var y: int; var y: bool; }", "duplicate local variable `y`");
        rejects!("procedure P(a: int); implementation P(b: int) { var b: int; }", "duplicate local variable `b`");
    }

    #[test]
    fn contracts_see_the_right_variables() {
        accepts!("var g: int; procedure P(a: int) returns (r: int); requires a > g; ensures r > a && old(g) == g;");
        rejects!("procedure P() returns (r: int); requires r > 0;", "out-parameter `r` cannot be used in a `requires`");
        rejects!("procedure P(); requires 1;", "expected `bool`, found `int`");
        rejects!("procedure P(); ensures 1;", "expected `bool`, found `int`");
    }

    #[test]
    fn where_clauses_are_booleans_over_their_scope() {
        let program = accepts!(
            r"
            var g, h: int where g >= 0;
            procedure P(a: int where a > g) returns (r: int where r > a) { var l: int where l < r; }
        "
        );
        assert!(program.globals.iter().all(|global| global.where_clause.is_some()));
        assert!(program.implementations[0].locals.iter().all(|local| local.where_clause.is_some()));
        assert!(program.procedures[0].locals.iter().all(|local| local.where_clause.is_some()));
        rejects!("var g: int where g;", "expected `bool`, found `int`");
        rejects!("procedure P(a: int where a);", "expected `bool`, found `int`");
        rejects!("procedure P() { var l: int where 1; }", "expected `bool`, found `int`");
    }

    #[test]
    fn an_in_parameters_where_clause_sees_only_the_ins() {
        rejects!(
            "procedure R(w: int where w < z) returns (z: int);",
            "out-parameter `z` cannot be used in the `where` clause of an in-parameter"
        );
        rejects!("procedure R(w: int where w < z) returns (z: int) { }", "`z` declared here");
        accepts!("procedure R(v: int where v < w, w: int) returns (z: int where z < w && w < v);");
        accepts!("procedure R(w: int) returns (y: int where y < z, z: int where z > w);");
    }

    #[test]
    fn formals_shadow_globals_except_where_only_the_ins_exist() {
        // Boogie's verdict on this program: the errors on `m` and in the assignment only.
        let source = r"
            type ref;
            const SomeConstant: ref;
            procedure Cnst(n: ref where n != SomeConstant) returns (SomeConstant: int)
              requires n != SomeConstant;
              ensures SomeConstant > 0;
            {
              var m: ref where m != SomeConstant;
              var k: int where k != SomeConstant;
              var b: bool;
              b := (forall l: ref :: l == SomeConstant);
            }
        ";
        rejects!(source, "8:32");
        assert_eq!(super::super::tests::error_count(source), 2);
        accepts!(
            r"
            type ref;
            const C: ref;
            procedure P(n: ref where n != C) returns (C: int where C > 0) requires n != C; ensures C > 0;
            { var k: int where k != C; C := 1; }
        "
        );
    }

    #[test]
    fn an_implementations_formals_take_no_where_clauses_or_attributes() {
        let message = "`where` clauses are not allowed on an implementation's parameters; put them on the procedure's";
        rejects!("procedure P(x: int); implementation P(x: int where x > 0) { }", message);
        rejects!("procedure P() returns (y: int); implementation P() returns (y: int where y > 0) { }", message);
        rejects!(
            "procedure Q(x: int); implementation Q({:myAttr} x: int) { }",
            "attributes are not allowed on an implementation's parameters"
        );
        // The clause is not checked on top of being rejected.
        assert_eq!(super::super::tests::error_count("procedure P(x: int); implementation P(x: int where x) { }"), 1);
        accepts!("procedure P({:a} x: int where x > 0); implementation P(x: int) { }");
    }

    #[test]
    fn function_bodies_have_the_result_type() {
        let program = accepts!("function f(x: int, int): int { x + 1 }");
        assert!(program.functions[0].body.is_some());
        rejects!("function f(x: int): bool { x + 1 }", "expected `bool`, found `int`");
        rejects!("function f(int): int { x }", "cannot find variable `x`");
    }

    #[test]
    fn axioms_are_booleans() {
        let program = accepts!("axiom 1 < 2;");
        let hir::ExprKind::Binary { lhs, .. } = &program.axioms[0].expr.kind else { panic!("a comparison") };
        assert!(matches!(&lhs.kind, hir::ExprKind::Int(value) if *value == 1.into()));
        rejects!("axiom 1;", "expected `bool`, found `int`");
    }
}
