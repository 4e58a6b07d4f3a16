//! Pass 1: the global declarations, collected into the checker's symbol tables.
//!
//! Input: the AST. Output: every type, constant, global, function and procedure has a
//! symbol and an entry in the HIR tables, with resolved types and, for procedures, their
//! signatures and sorted `modifies` clauses. Bodies, contracts, axioms and `where`
//! clauses are left for pass 2 ([`super::body`]).
//!
//! Invariant relied on by pass 2: one HIR entry is pushed per declared name, in
//! declaration order, duplicates included (only the first is found by name), so pass 2
//! finds a declaration's entry again with a running counter.

use super::error::{DeclKind, NameKind, SemaError, TypeParamContext, Unsupported};
use super::hir::{self, ConstId, FunctionId, GlobalId, LocalKind, ProcId, TypeId};
use super::types::{sort_by_occurrence, TypeScope};
use super::{Checker, GlobalValue, TypeSymbol, TypeSymbolKind, ValueSymbol};
use crate::syntax::ast;

impl Checker {
    pub(super) fn collect(&mut self, program: &ast::Program) {
        let mut synonyms = Vec::new();
        for decl in &program.decls {
            if let ast::Decl::Type(decl) = decl {
                if self.declare_type(decl) {
                    synonyms.push(decl);
                }
            }
        }
        self.resolve_synonyms(&synonyms);
        for decl in &program.decls {
            match decl {
                ast::Decl::Const(decl) => self.declare_consts(decl),
                ast::Decl::Var(decl) => self.declare_globals(decl),
                ast::Decl::Function(decl) => self.declare_function(decl),
                ast::Decl::Procedure(decl) => self.declare_procedure(decl),
                ast::Decl::Type(_) | ast::Decl::Axiom(_) | ast::Decl::Implementation(_) => {}
            }
        }
        // `modifies` names globals declared anywhere, so it waits for all of them.
        let procedures = program.decls.iter().filter_map(|decl| match decl {
            ast::Decl::Procedure(decl) => Some(decl),
            _ => None,
        });
        for (position, decl) in procedures.enumerate() {
            self.resolve_modifies(ProcId::from_index(position), decl);
        }
        self.resolve_orders(program);
    }

    /// Registers a type name; returns whether it is a synonym left to expand.
    fn declare_type(&mut self, decl: &ast::TypeDecl) -> bool {
        let name = &decl.name;
        if matches!(super::types::builtin_family(&name.name), Some(super::types::BuiltinFamily::BitVector(_))) {
            self.error(SemaError::BitVectorTypeName { name: name.name.clone(), span: name.span });
            return false;
        }
        if let Some(first) = self.types.get(&name.name) {
            let first = first.span;
            self.error(SemaError::Duplicate { kind: DeclKind::Type, name: name.name.clone(), span: name.span, first });
            return false;
        }
        let mut rejected = false;
        for attr in decl.attrs.iter().filter(|attr| attr.name.name == "datatype") {
            self.error(SemaError::NotSupported { construct: Unsupported::Datatype, span: attr.span });
            rejected = true;
        }
        let kind = if rejected {
            TypeSymbolKind::Broken
        } else if decl.synonym.is_some() {
            TypeSymbolKind::Synonym(None)
        } else {
            let id = TypeId::from_index(self.program.types.len());
            self.program.types.push(hir::TypeDecl {
                name: name.name.clone(),
                arity: decl.params.len(),
                finite: decl.finite,
                attrs: decl.attrs.clone(),
                span: decl.span,
            });
            TypeSymbolKind::Uninterpreted(id)
        };
        let is_synonym = matches!(kind, TypeSymbolKind::Synonym(_));
        self.types.insert(name.name.clone(), TypeSymbol { kind, span: name.span });
        is_synonym
    }

    /// Declares a constant, global or function. As in Boogie, a declaration marked
    /// `{:extern}` gives way to another of the same name, without an error.
    fn declare_value(&mut self, name: &ast::Ident, value: GlobalValue, kind: DeclKind, attrs: &[ast::Attribute]) {
        let is_extern = attrs.iter().any(|attr| attr.name.name == "extern");
        if let Some(first) = self.values.get(&name.name) {
            if is_extern {
                return;
            }
            if !first.is_extern {
                let first = first.span;
                self.error(SemaError::Duplicate { kind, name: name.name.clone(), span: name.span, first });
                return;
            }
        }
        self.values.insert(name.name.clone(), ValueSymbol { value, span: name.span, is_extern });
    }

    fn declare_consts(&mut self, decl: &ast::ConstDecl) {
        let ty = self.resolve_type(&decl.ty, &[]);
        for name in &decl.names {
            let id = ConstId::from_index(self.program.consts.len());
            self.program.consts.push(hir::Const {
                name: name.name.clone(),
                ty: ty.clone(),
                unique: decl.unique,
                order: None,
                attrs: decl.attrs.clone(),
                span: name.span,
            });
            self.declare_value(name, GlobalValue::Const(id), DeclKind::Constant, &decl.attrs);
        }
    }

    fn declare_globals(&mut self, decl: &ast::VarDecl) {
        for group in &decl.groups {
            let ty = self.resolve_type(&group.ty, &[]);
            for name in &group.names {
                let id = GlobalId::from_index(self.program.globals.len());
                self.program.globals.push(hir::Global {
                    name: name.name.clone(),
                    ty: ty.clone(),
                    where_clause: None,
                    attrs: decl.attrs.iter().chain(&group.attrs).cloned().collect(),
                    span: name.span,
                    instance_of: None,
                });
                self.declare_value(name, GlobalValue::Global(id), DeclKind::Global, &decl.attrs);
            }
        }
    }

    fn declare_function(&mut self, decl: &ast::FunctionDecl) {
        let (type_params, scope) = self.bind_type_params(&[], &decl.type_params);
        let mut params: Vec<hir::BoundVar> = Vec::with_capacity(decl.params.len());
        for param in &decl.params {
            let ty = self.resolve_type(&param.ty, &scope);
            if let Some(name) = &param.name {
                let earlier = params.iter().find(|earlier| earlier.name.as_deref() == Some(name.name.as_str()));
                if let Some(earlier) = earlier {
                    let first = earlier.span;
                    self.error(SemaError::Duplicate {
                        kind: DeclKind::Param,
                        name: name.name.clone(),
                        span: name.span,
                        first,
                    });
                }
            }
            let id = self.fresh_bound();
            let span = param.name.as_ref().map_or(param.span, |name| name.span);
            params.push(hir::BoundVar { id, name: param.name.as_ref().map(|name| name.name.clone()), ty, span });
        }
        let result = self.resolve_type(&decl.result.ty, &scope);
        let param_types: Vec<hir::Type> = params.iter().map(|param| param.ty.clone()).collect();
        let result_types = [result.clone()];
        self.require_occurrence(
            &type_params,
            &decl.type_params,
            &param_types,
            &result_types,
            TypeParamContext::Function,
        );
        let type_params = sort_by_occurrence(type_params, &param_types, &result_types);
        let id = FunctionId::from_index(self.program.functions.len());
        self.program.functions.push(hir::Function {
            name: decl.name.name.clone(),
            type_params,
            params,
            result,
            body: None,
            attrs: decl.attrs.clone(),
            span: decl.span,
            origin: None,
        });
        self.function_name_spans.push(decl.name.span);
        self.declare_value(&decl.name, GlobalValue::Function(id), DeclKind::Function, &decl.attrs);
    }

    /// The parameters of a procedure or implementation, without their `where` clauses
    /// (checked in pass 2, when all names are known).
    pub(super) fn formals(
        &mut self,
        groups: &[ast::TypedIdents],
        kind: LocalKind,
        scope: &TypeScope,
    ) -> Vec<hir::Local> {
        let mut locals = Vec::new();
        for group in groups {
            let ty = self.resolve_type(&group.ty, scope);
            for name in &group.names {
                locals.push(hir::Local {
                    name: name.name.clone(),
                    ty: ty.clone(),
                    kind,
                    where_clause: None,
                    attrs: group.attrs.clone(),
                    span: name.span,
                    instance_of: None,
                });
            }
        }
        locals
    }

    fn declare_procedure(&mut self, decl: &ast::ProcedureDecl) {
        for attr in decl.attrs.iter().filter(|attr| attr.name.name == "yields") {
            self.error(SemaError::NotSupported { construct: Unsupported::Yields, span: attr.span });
        }
        let (type_params, scope) = self.bind_type_params(&[], &decl.type_params);
        let mut locals = self.formals(&decl.params, LocalKind::In, &scope);
        let in_count = locals.len();
        locals.extend(self.formals(&decl.returns, LocalKind::Out, &scope));
        let type_params = self.signature_type_params(type_params, &decl.type_params, &locals, in_count);
        let ins = (0..in_count).map(hir::LocalId::from_index).collect();
        let outs = (in_count..locals.len()).map(hir::LocalId::from_index).collect();
        let id = ProcId::from_index(self.program.procedures.len());
        self.program.procedures.push(hir::Procedure {
            name: decl.name.name.clone(),
            type_params,
            locals,
            ins,
            outs,
            requires: Vec::new(),
            ensures: Vec::new(),
            modifies: Vec::new(),
            implementations: Vec::new(),
            attrs: decl.attrs.clone(),
            span: decl.span,
        });
        self.proc_name_spans.push(decl.name.span);
        let name = &decl.name;
        if let Some(&first) = self.procs.get(&name.name) {
            let first = self.proc_name_spans[first.index()];
            self.error(SemaError::Duplicate {
                kind: DeclKind::Procedure,
                name: name.name.clone(),
                span: name.span,
                first,
            });
        } else {
            self.procs.insert(name.name.clone(), id);
        }
    }

    /// A procedure's or implementation's type parameters, each checked to occur in a
    /// formal's type and ordered by first occurrence (ins, then outs), so that an
    /// implementation's correspond to its procedure's position by position.
    pub(super) fn signature_type_params(
        &mut self,
        type_params: Vec<hir::TypeParamId>,
        names: &[ast::Ident],
        formals: &[hir::Local],
        in_count: usize,
    ) -> Vec<hir::TypeParamId> {
        let ins: Vec<hir::Type> = formals[..in_count].iter().map(|local| local.ty.clone()).collect();
        let outs: Vec<hir::Type> = formals[in_count..].iter().map(|local| local.ty.clone()).collect();
        self.require_occurrence(&type_params, names, &ins, &outs, TypeParamContext::Procedure);
        sort_by_occurrence(type_params, &ins, &outs)
    }

    /// The `extends` clauses of constants, which may name constants declared anywhere.
    fn resolve_orders(&mut self, program: &ast::Program) {
        let mut next = 0;
        for decl in &program.decls {
            let ast::Decl::Const(decl) = decl else { continue };
            for _ in &decl.names {
                let id = ConstId::from_index(next);
                next += 1;
                let Some(order) = &decl.order else { continue };
                let mut parents = Vec::new();
                for (unique, parent) in &order.parents {
                    match self.values.get(&parent.name).map(|symbol| (symbol.value, symbol.span)) {
                        Some((GlobalValue::Const(parent_id), _)) => {
                            let (expected, found) =
                                (&self.program.consts[id.index()].ty, &self.program.consts[parent_id.index()].ty);
                            if expected != found
                                && !super::types::contains_error(expected)
                                && !super::types::contains_error(found)
                            {
                                let (expected, found) = (self.shown(expected), self.shown(found));
                                self.error(SemaError::Mismatch { span: parent.span, expected, found, because: None });
                            }
                            parents.push((*unique, parent_id));
                        }
                        Some((value, decl)) => {
                            let found = self.value_kind(value);
                            let name = parent.name.clone();
                            self.error(SemaError::WrongKind {
                                name,
                                span: parent.span,
                                expected: NameKind::Constant,
                                found,
                                decl,
                            });
                        }
                        None => {
                            let suggestion = self.suggest_const(&parent.name);
                            let name = parent.name.clone();
                            self.error(SemaError::Unknown {
                                kind: NameKind::Constant,
                                name,
                                span: parent.span,
                                suggestion,
                            });
                        }
                    }
                }
                self.program.consts[id.index()].order =
                    Some(hir::OrderSpec { parents, complete: order.complete, span: order.span });
            }
        }
    }

    fn suggest_const(&self, name: &str) -> Option<String> {
        let consts = self
            .values
            .iter()
            .filter(|(_, symbol)| matches!(symbol.value, GlobalValue::Const(_)))
            .map(|(name, _)| name.as_str());
        super::error::suggest(name, consts)
    }

    fn resolve_modifies(&mut self, id: ProcId, decl: &ast::ProcedureDecl) {
        let mut modifies = Vec::new();
        let names = decl.specs.iter().flat_map(|spec| match &spec.kind {
            ast::SpecKind::Modifies { names } => names.as_slice(),
            _ => &[],
        });
        for name in names {
            match self.values.get(&name.name) {
                Some(ValueSymbol { value: GlobalValue::Global(global), .. }) => modifies.push(*global),
                Some(symbol) => {
                    let (found, decl) = (self.value_kind(symbol.value), symbol.span);
                    self.error(SemaError::WrongKind {
                        name: name.name.clone(),
                        span: name.span,
                        expected: NameKind::Global,
                        found,
                        decl,
                    });
                }
                None => {
                    let procedure = &self.program.procedures[id.index()];
                    let error = match procedure.locals.iter().find(|local| local.name == name.name) {
                        Some(local) => SemaError::WrongKind {
                            name: name.name.clone(),
                            span: name.span,
                            expected: NameKind::Global,
                            found: local_kind(local.kind),
                            decl: local.span,
                        },
                        None => SemaError::Unknown {
                            kind: NameKind::Global,
                            name: name.name.clone(),
                            span: name.span,
                            suggestion: self.suggest_global(&name.name),
                        },
                    };
                    self.error(error);
                }
            }
        }
        modifies.sort();
        modifies.dedup();
        self.program.procedures[id.index()].modifies = modifies;
    }

    fn suggest_global(&self, name: &str) -> Option<String> {
        let globals = self
            .values
            .iter()
            .filter(|(_, symbol)| matches!(symbol.value, GlobalValue::Global(_)))
            .map(|(name, _)| name.as_str());
        super::error::suggest(name, globals)
    }

    pub(super) fn value_kind(&self, value: GlobalValue) -> DeclKind {
        match value {
            GlobalValue::Const(_) => DeclKind::Constant,
            GlobalValue::Global(_) => DeclKind::Global,
            GlobalValue::Function(_) => DeclKind::Function,
        }
    }
}

pub(super) fn local_kind(kind: LocalKind) -> DeclKind {
    match kind {
        LocalKind::In => DeclKind::InParam,
        LocalKind::Out => DeclKind::OutParam,
        LocalKind::Local => DeclKind::Local,
    }
}

#[cfg(test)]
mod tests {
    use super::hir;
    use super::FunctionId;

    #[test]
    fn duplicate_globals_point_at_the_first_declaration() {
        rejects!("var x: int; const x: int;", "duplicate constant `x`");
        rejects!("var x: int; var x: bool;", "`x` first declared here");
        rejects!("type T; type T;", "duplicate type `T`");
        rejects!("procedure P(); procedure P();", "duplicate procedure `P`");
    }

    #[test]
    fn an_extern_declaration_gives_way_to_another_of_its_name() {
        let program = accepts!("function {:extern} f(x: int): int; function f(x: int): int { x } axiom f(1) == 1;");
        let hir::ExprKind::Binary { lhs, .. } = &program.axioms[0].expr.kind else { panic!("an equation") };
        assert!(matches!(lhs.kind, hir::ExprKind::Apply { func: FunctionId(1), .. }), "the non-extern `f`");
        accepts!("var g: int; var {:extern} g: int;");
        rejects!("var {:extern} g: int; var g: int; var g: bool;", "duplicate global variable `g`");
    }

    #[test]
    fn functions_and_variables_share_a_name_space_but_procedures_do_not() {
        rejects!("var f: int; function f(x: int): int;", "duplicate function `f`");
        accepts!("function P(x: int): int; procedure P();");
        accepts!("type x; var x: x;");
    }

    #[test]
    fn duplicate_function_parameters_are_rejected() {
        rejects!("function f(x: int, x: int): int;", "duplicate parameter `x`");
        accepts!("function f(int, int): int;");
    }

    #[test]
    fn modifies_names_must_be_globals() {
        rejects!("const c: int; procedure P(); modifies c;", "expected a global variable, found constant `c`");
        rejects!("procedure P(x: int); modifies x;", "expected a global variable, found in-parameter `x`");
        rejects!("var count: int; procedure P(); modifies cont;", "did you mean `count`?");
        rejects!("function f(): int; procedure P(); modifies f;", "found function `f`");
    }

    #[test]
    fn modifies_is_sorted_and_deduplicated() {
        let program = accepts!("var a: int; var b: int; procedure P(); modifies b, a; modifies b;");
        let modifies = &program.procedures[0].modifies;
        assert_eq!(modifies, &vec![super::GlobalId(0), super::GlobalId(1)]);
    }

    #[test]
    fn polymorphic_declarations_are_checked() {
        let program = accepts!("function f<a>(x: a): a; axiom f(1) == 1; procedure P<a>(x: a);");
        assert_eq!(program.functions[0].type_params.len(), 1);
        assert_eq!(program.procedures[0].type_params.len(), 1);
        rejects!("function f<a>(x: int): int;", "type parameter `a` does not occur in the function's signature");
        rejects!("procedure P<a>(x: int);", "type parameter `a` does not occur in the procedure's signature");
        rejects!("function f<a, a>(x: a): a;", "duplicate type parameter `a`");
        rejects!("procedure {:yields} P();", "`{:yields}` procedures are not supported");
    }

    #[test]
    fn an_order_names_constants_of_the_same_type() {
        let program = accepts!("const a: int; const b: int extends unique a complete;");
        let order = program.consts[1].order.as_ref().expect("b extends a");
        assert_eq!((order.parents.clone(), order.complete), (vec![(true, super::ConstId(0))], true));
        rejects!("const a: bool; const b: int extends a;", "mismatched types");
        rejects!("const b: int extends c;", "cannot find constant `c`");
    }

    #[test]
    fn uses_clauses_add_axioms() {
        let program = accepts!("function f(x: int): int uses { axiom f(0) == 1; } const c: int uses { axiom c > 0; }");
        assert_eq!(program.axioms.len(), 2);
        rejects!("function f(x: int): int uses { axiom f(true) == 1; }", "expected `int`, found `bool`");
    }
}
