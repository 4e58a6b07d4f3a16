//! Statements of an implementation body: `ast::Stmt` → `hir::Stmt`.
//!
//! Besides typing, this is where writes are checked (only mutable variables, globals only
//! when the procedure's `modifies` lists them, each variable once per statement), calls
//! (a callee may modify only what its caller may), and control flow (`goto` targets,
//! `break` inside a loop or a labelled enclosing statement). Statements nest at most
//! `MAX_STMT_DEPTH` deep (`else if` chains included), so recursing over blocks is safe.

use super::error::{Action, DeclKind, NameKind, SemaError, Unsupported};
use super::expr::Scope;
use super::hir::{self, ConstId, LabelId, ProcId, Type, Var};
use super::resolve::local_kind;
use super::types::ERROR;
use super::Checker;
use crate::source::Span;
use crate::syntax::ast;
use std::collections::BTreeMap;

/// A placeholder for a write target that failed to resolve (reported already).
const ERROR_VAR: Var = Var::Const(ConstId(u32::MAX));

/// The context of the statements of one implementation body.
pub(super) struct BodyCx<'a> {
    scope: Scope<'a>,
    /// The procedure implemented, whose `modifies` clause bounds the writes.
    proc: Option<ProcId>,
    labels: &'a [hir::Label],
    label_names: &'a BTreeMap<String, LabelId>,
    /// Labels are numbered in the order [`Checker::collect_labels`] met them; statements
    /// are checked in that same order.
    next_label: usize,
    /// The `while` and `if` statements around the current one, innermost last.
    enclosing: Vec<Enclosing>,
    /// The `{:id}` of each statement so far, with its span.
    statement_ids: BTreeMap<String, Span>,
}

struct Enclosing {
    /// The labels written immediately before the statement; `break L;` leaves it.
    labels: Vec<LabelId>,
    is_loop: bool,
}

impl<'a> BodyCx<'a> {
    pub(super) fn new(
        scope: Scope<'a>,
        proc: Option<ProcId>,
        labels: &'a [hir::Label],
        label_names: &'a BTreeMap<String, LabelId>,
    ) -> BodyCx<'a> {
        BodyCx {
            scope,
            proc,
            labels,
            label_names,
            next_label: 0,
            enclosing: Vec::new(),
            statement_ids: BTreeMap::new(),
        }
    }
}

impl Checker {
    /// Every label of a body, in pre-order, reporting duplicates; `goto` may jump to any
    /// label of the implementation, even one declared later or in another block.
    pub(super) fn collect_labels(&mut self, stmts: &[ast::Stmt]) -> (Vec<hir::Label>, BTreeMap<String, LabelId>) {
        let mut labels = Vec::new();
        let mut names = BTreeMap::new();
        self.collect_labels_into(stmts, &mut labels, &mut names);
        (labels, names)
    }

    fn collect_labels_into(
        &mut self,
        stmts: &[ast::Stmt],
        labels: &mut Vec<hir::Label>,
        names: &mut BTreeMap<String, LabelId>,
    ) {
        for stmt in stmts {
            match &stmt.kind {
                ast::StmtKind::Label(name) => {
                    let id = LabelId::from_index(labels.len());
                    if let Some(first) = names.get(&name.name) {
                        let first = labels[first.index()].span;
                        let (label, span) = (name.name.clone(), name.span);
                        self.error(SemaError::Duplicate { kind: DeclKind::Label, name: label, span, first });
                    } else {
                        names.insert(name.name.clone(), id);
                    }
                    labels.push(hir::Label { name: name.name.clone(), span: name.span });
                }
                ast::StmtKind::If { branches, else_block } => {
                    for branch in branches {
                        self.collect_labels_into(&branch.block.stmts, labels, names);
                    }
                    if let Some(block) = else_block {
                        self.collect_labels_into(&block.stmts, labels, names);
                    }
                }
                ast::StmtKind::While { body, .. } | ast::StmtKind::Block(body) => {
                    self.collect_labels_into(&body.stmts, labels, names)
                }
                _ => {}
            }
        }
    }

    /// Checks a block. Only `if` and `while` recurse, each in its own small function, so
    /// the frames on the recursion path stay small.
    pub(super) fn stmts(&mut self, cx: &mut BodyCx, stmts: &[ast::Stmt]) -> Vec<hir::Stmt> {
        let mut checked = Vec::with_capacity(stmts.len());
        let mut preceding_labels = Vec::new();
        for stmt in stmts {
            let kind = match &stmt.kind {
                ast::StmtKind::Label(_) => {
                    let id = LabelId::from_index(cx.next_label);
                    cx.next_label += 1;
                    preceding_labels.push(id);
                    Some(hir::StmtKind::Label(id))
                }
                ast::StmtKind::If { branches, else_block } => {
                    let labels = std::mem::take(&mut preceding_labels);
                    Some(self.if_stmt(cx, branches, else_block.as_ref(), labels))
                }
                ast::StmtKind::While { guard, invariants, body } => {
                    let labels = std::mem::take(&mut preceding_labels);
                    Some(self.while_stmt(cx, guard, invariants, body, labels))
                }
                ast::StmtKind::Block(block) => {
                    // A block runs in place: its statements join the enclosing list.
                    checked.extend(self.stmts(cx, &block.stmts));
                    None
                }
                _ => {
                    preceding_labels.clear();
                    self.simple_stmt(cx, stmt)
                }
            };
            if let Some(kind) = kind {
                checked.push(hir::Stmt { kind, span: stmt.span });
            }
        }
        checked
    }

    /// `labels` are those written right before the `if`: `break L;` inside leaves it.
    #[inline(never)]
    fn if_stmt(
        &mut self,
        cx: &mut BodyCx,
        branches: &[ast::IfBranch],
        else_block: Option<&ast::Block>,
        labels: Vec<LabelId>,
    ) -> hir::StmtKind {
        cx.enclosing.push(Enclosing { labels, is_loop: false });
        let mut checked = Vec::with_capacity(branches.len());
        for branch in branches {
            let guard = self.guard(cx, &branch.guard);
            let block = self.stmts(cx, &branch.block.stmts);
            checked.push(hir::IfBranch { guard, block, span: branch.span });
        }
        let else_block = else_block.map(|block| self.stmts(cx, &block.stmts));
        cx.enclosing.pop();
        hir::StmtKind::If { branches: checked, else_block }
    }

    #[inline(never)]
    fn while_stmt(
        &mut self,
        cx: &mut BodyCx,
        guard: &ast::Guard,
        invariants: &[ast::Invariant],
        body: &ast::Block,
        labels: Vec<LabelId>,
    ) -> hir::StmtKind {
        let guard = self.guard(cx, guard);
        let invariants = self.invariants(cx, invariants);
        cx.enclosing.push(Enclosing { labels, is_loop: true });
        let body = self.stmts(cx, &body.stmts);
        cx.enclosing.pop();
        hir::StmtKind::While { guard, invariants, body }
    }

    fn invariants(&mut self, cx: &mut BodyCx, invariants: &[ast::Invariant]) -> Vec<hir::Clause> {
        invariants
            .iter()
            .map(|invariant| hir::Clause {
                free: invariant.free,
                expr: self.bool_expr(&mut cx.scope, &invariant.expr),
                attrs: invariant.attrs.clone(),
                span: invariant.span,
            })
            .collect()
    }

    /// A statement without nested blocks; `None` for a rejected one (reported).
    #[inline(never)]
    fn simple_stmt(&mut self, cx: &mut BodyCx, stmt: &ast::Stmt) -> Option<hir::StmtKind> {
        let kind = match &stmt.kind {
            ast::StmtKind::Label(_)
            | ast::StmtKind::If { .. }
            | ast::StmtKind::While { .. }
            | ast::StmtKind::Block(_) => {
                unreachable!("`stmts` handles labels and statements with blocks")
            }
            ast::StmtKind::Assert { attrs, expr } => {
                self.statement_attrs(cx, attrs);
                hir::StmtKind::Assert { expr: self.bool_expr(&mut cx.scope, expr), attrs: attrs.clone() }
            }
            ast::StmtKind::Assume { attrs, expr } => {
                self.statement_attrs(cx, attrs);
                hir::StmtKind::Assume { expr: self.bool_expr(&mut cx.scope, expr), attrs: attrs.clone() }
            }
            ast::StmtKind::Havoc { names } => {
                let vars = names.iter().filter_map(|name| self.target(cx, name, Action::Havoc)).map(|(var, _)| var);
                hir::StmtKind::Havoc { vars: vars.collect() }
            }
            ast::StmtKind::Assign { lhs, attrs, rhs } => {
                self.statement_attrs(cx, attrs);
                self.assign(cx, lhs, rhs, stmt.span)
            }
            ast::StmtKind::Call(call) => {
                self.statement_attrs(cx, &call.attrs);
                if call.is_async {
                    self.error(SemaError::NotSupported { construct: Unsupported::AsyncCall, span: call.span });
                }
                return self.call(cx, call);
            }
            ast::StmtKind::Par { calls } => {
                self.error(SemaError::NotSupported { construct: Unsupported::Par, span: stmt.span });
                for call in calls {
                    self.call(cx, call);
                }
                return None;
            }
            ast::StmtKind::Yield => {
                self.error(SemaError::NotSupported { construct: Unsupported::Yield, span: stmt.span });
                return None;
            }
            ast::StmtKind::Break { label } => return self.break_stmt(cx, label.as_ref(), stmt.span),
            ast::StmtKind::Return => hir::StmtKind::Return,
            ast::StmtKind::Goto { targets } => {
                let targets = targets.iter().filter_map(|target| self.resolve_label(cx, target));
                hir::StmtKind::Goto { targets: targets.collect() }
            }
        };
        Some(kind)
    }

    /// A statement's attributes: typed in the body's scope, and its `{:id "..."}` unique
    /// in the implementation.
    fn statement_attrs(&mut self, cx: &mut BodyCx, attrs: &[ast::Attribute]) {
        self.check_attrs(&mut cx.scope, attrs);
        for attr in attrs.iter().filter(|attr| attr.name.name == "id") {
            let [ast::AttrArg::Str { value, .. }] = attr.args.as_slice() else { continue };
            match cx.statement_ids.get(value) {
                Some(&first) => {
                    self.error(SemaError::DuplicateStatementId { id: value.clone(), span: attr.span, first })
                }
                None => {
                    cx.statement_ids.insert(value.clone(), attr.span);
                }
            }
        }
    }

    fn guard(&mut self, cx: &mut BodyCx, guard: &ast::Guard) -> hir::Guard {
        match guard {
            ast::Guard::Expr(expr) => hir::Guard::Expr(self.bool_expr(&mut cx.scope, expr)),
            ast::Guard::Star(span) => hir::Guard::Star(*span),
        }
    }

    fn resolve_label(&mut self, cx: &BodyCx, name: &ast::Ident) -> Option<LabelId> {
        if let Some(&id) = cx.label_names.get(&name.name) {
            return Some(id);
        }
        let suggestion = super::error::suggest(&name.name, cx.label_names.keys().map(String::as_str));
        self.error(SemaError::Unknown { kind: NameKind::Label, name: name.name.clone(), span: name.span, suggestion });
        None
    }

    fn break_stmt(&mut self, cx: &BodyCx, label: Option<&ast::Ident>, span: Span) -> Option<hir::StmtKind> {
        let Some(label) = label else {
            if cx.enclosing.iter().any(|enclosing| enclosing.is_loop) {
                return Some(hir::StmtKind::Break { label: None });
            }
            self.error(SemaError::BreakOutsideLoop { span });
            return None;
        };
        // Compared by name, so that a duplicated label (reported) causes no second error.
        let enclosing = cx.enclosing.iter().rev().flat_map(|enclosing| &enclosing.labels);
        if let Some(&id) = enclosing.clone().find(|id| cx.labels[id.index()].name == label.name) {
            return Some(hir::StmtKind::Break { label: Some(id) });
        }
        let id = self.resolve_label(cx, label)?;
        self.error(SemaError::BreakNotEnclosing {
            name: label.name.clone(),
            span: label.span,
            label: cx.labels[id.index()].span,
        });
        None
    }

    /// Resolves a variable that `action` writes, reporting in-parameters, constants and
    /// globals missing from the `modifies` clause. `None` only for an unknown name; a
    /// variable that cannot be written still gets its type, to avoid further errors.
    fn target(&mut self, cx: &BodyCx, name: &ast::Ident, action: Action) -> Option<(Var, Type)> {
        let (var, ty) = self.lookup_var(&cx.scope, name)?;
        let immutable = match var {
            Var::Local(id) => {
                let local = &cx.scope.locals[id.index()];
                (local.kind == hir::LocalKind::In).then(|| (local_kind(local.kind), local.span))
            }
            Var::Const(id) => Some((DeclKind::Constant, self.program.consts[id.index()].span)),
            Var::Bound(_) => unreachable!("statements are outside every binder"),
            Var::Global(id) => {
                if let Some(proc) = cx.proc {
                    let procedure = &self.program.procedures[proc.index()];
                    if procedure.modifies.binary_search(&id).is_err() {
                        self.error(SemaError::NotInModifies {
                            global: name.name.clone(),
                            span: name.span,
                            action,
                            proc_name: procedure.name.clone(),
                            proc_decl: self.proc_name_spans[proc.index()],
                        });
                    }
                }
                None
            }
        };
        if let Some((kind, decl)) = immutable {
            self.error(SemaError::Immutable { name: name.name.clone(), span: name.span, kind, action, decl });
        }
        Some((var, ty))
    }

    /// Reports a variable written a second time by one statement.
    fn written_once(&mut self, written: &mut Vec<(Var, Span)>, var: Var, name: &ast::Ident, action: Action) {
        if let Some(&(_, first)) = written.iter().find(|(earlier, _)| *earlier == var) {
            self.error(SemaError::WrittenTwice { name: name.name.clone(), span: name.span, first, action });
        } else {
            written.push((var, name.span));
        }
    }

    fn assign(&mut self, cx: &mut BodyCx, lhs: &[ast::Lhs], rhs: &[ast::Expr], span: Span) -> hir::StmtKind {
        let mark = self.inference_mark();
        let mut targets = Vec::with_capacity(lhs.len());
        let mut written = Vec::new();
        for target in lhs {
            let (var, mut ty) = match self.target(cx, &target.name, Action::Assign) {
                Some((var, ty)) => {
                    self.written_once(&mut written, var, &target.name, Action::Assign);
                    (var, ty)
                }
                None => (ERROR_VAR, ERROR),
            };
            let mut indices = Vec::with_capacity(target.indices.len());
            let mut selected = target.name.span;
            for group in &target.indices {
                let group: Vec<hir::Expr> = group.iter().map(|index| self.expr(&mut cx.scope, index)).collect();
                let through = group.last().map_or(target.span, |last| selected.to(last.span));
                ty = self.select_type(&ty, selected, &group, through);
                indices.push(group);
                selected = through;
            }
            targets.push(hir::Lhs { var, indices, ty, span: target.span });
        }
        let values: Vec<hir::Expr> = rhs.iter().map(|value| self.expr(&mut cx.scope, value)).collect();
        if targets.len() != values.len() {
            self.error(SemaError::AssignCount { span, targets: targets.len(), values: values.len() });
        }
        for (target, value) in targets.iter().zip(&values) {
            self.expect_type(value, &target.ty, Some(target.span));
        }
        let mut values = values;
        self.settle_all(
            mark,
            targets.iter_mut().flat_map(|target| target.indices.iter_mut().flatten()).chain(&mut values),
        );
        for target in &mut targets {
            target.ty = self.settled(&target.ty);
        }
        hir::StmtKind::Assign { lhs: targets, rhs: values }
    }

    fn call(&mut self, cx: &mut BodyCx, call: &ast::Call) -> Option<hir::StmtKind> {
        let mark = self.inference_mark();
        let mut args: Vec<hir::Expr> = call.args.iter().map(|arg| self.expr(&mut cx.scope, arg)).collect();
        let mut written = Vec::new();
        let mut outs = Vec::with_capacity(call.outs.len());
        for name in &call.outs {
            let target = self.target(cx, name, Action::CallOut);
            if let Some((var, _)) = &target {
                self.written_once(&mut written, *var, name, Action::CallOut);
            }
            outs.push(target);
        }
        let callee = self.resolve_procedure(&call.callee)?;
        let procedure = &self.program.procedures[callee.index()];
        let formal = |id: &hir::LocalId| {
            let local = &procedure.locals[id.index()];
            (local.ty.clone(), local.span)
        };
        let ins: Vec<(Type, Span)> = procedure.ins.iter().map(formal).collect();
        let results: Vec<(Type, Span)> = procedure.outs.iter().map(formal).collect();
        let callee_modifies = procedure.modifies.clone();
        let type_params = procedure.type_params.clone();
        let instance = self.instantiate(&type_params, call.span);
        let ins: Vec<(Type, Span)> = ins.into_iter().map(|(ty, span)| (ty.substitute(&instance), span)).collect();
        let results: Vec<(Type, Span)> =
            results.into_iter().map(|(ty, span)| (ty.substitute(&instance), span)).collect();
        let (name, decl) = (call.callee.name.clone(), self.proc_name_spans[callee.index()]);
        if args.len() != ins.len() {
            let (expected, found) = (ins.len(), args.len());
            let kind = NameKind::Procedure;
            self.error(SemaError::ArgCount { kind, name: name.clone(), span: call.span, expected, found, decl });
        }
        for (arg, (ty, param_span)) in args.iter().zip(&ins) {
            self.expect_type(arg, ty, Some(*param_span));
        }
        if outs.len() != results.len() {
            let (expected, found) = (results.len(), outs.len());
            self.error(SemaError::OutCount { name: name.clone(), span: call.span, expected, found, decl });
        }
        for ((out, target), (ty, result_span)) in call.outs.iter().zip(&outs).zip(&results) {
            if let Some((_, out_ty)) = target {
                if !self.unify(out_ty, ty) {
                    let (expected, found) = (self.shown(ty), self.shown(out_ty));
                    self.error(SemaError::Mismatch { span: out.span, expected, found, because: Some(*result_span) });
                }
            }
        }
        // As in Boogie, a call may modify only what its caller may.
        if let Some(caller) = cx.proc {
            let caller = &self.program.procedures[caller.index()];
            let missing: Vec<String> = callee_modifies
                .iter()
                .filter(|global| caller.modifies.binary_search(global).is_err())
                .map(|global| self.program.globals[global.index()].name.clone())
                .collect();
            let caller_name = caller.name.clone();
            for global in missing {
                self.error(SemaError::CallModifies {
                    callee: name.clone(),
                    global,
                    span: call.span,
                    caller: caller_name.clone(),
                    callee_decl: decl,
                });
            }
        }
        self.settle_all(mark, args.iter_mut());
        let type_args = instance.iter().map(|(_, ty)| self.settled(ty)).collect();
        let outs = outs.into_iter().map(|target| target.map_or(ERROR_VAR, |(var, _)| var)).collect();
        Some(hir::StmtKind::Call { callee, type_args, free: call.free, args, outs, attrs: call.attrs.clone() })
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::error_count;
    use super::*;

    #[test]
    fn assertions_and_assumptions_need_booleans() {
        rejects!("procedure P() { assert 1; }", "expected `bool`, found `int`");
        rejects!("procedure P() { assume 1 + 1; }", "expected `bool`, found `int`");
    }

    #[test]
    fn havoc_writes_locals_and_declared_globals_only() {
        accepts!("var g: int; procedure P() returns (r: int) modifies g; { var l: int; havoc l, r, g; }");
        rejects!("procedure P(x: int) { havoc x; }", "cannot havoc in-parameter `x`");
        rejects!("var g: int; procedure P() { havoc g; }", "add `modifies g;` to procedure `P`");
        rejects!("const c: int; procedure P() { havoc c; }", "cannot havoc constant `c`");
    }

    #[test]
    fn assignments_write_mutable_variables_only() {
        rejects!("procedure P(x: int) { x := 1; }", "cannot assign to in-parameter `x`");
        rejects!("const c: int; procedure P() { c := 1; }", "cannot assign to constant `c`");
        rejects!("function f(): int; procedure P() { f := 1; }", "expected a variable, found function `f`");
        rejects!("procedure P() { y := 1; }", "cannot find variable `y`");
    }

    #[test]
    fn assigning_a_global_needs_it_in_modifies() {
        rejects!(
            "var g: int; procedure P() { g := 1; }",
            "cannot assign to global variable `g`: it is not in the `modifies` clause of `P`"
        );
        rejects!("var g: int; procedure P() { g := 1; }", "help: add `modifies g;` to procedure `P`");
        rejects!("var g: int; procedure P(); implementation P() { g := 1; }", "add `modifies g;` to procedure `P`");
        accepts!("var g: int; procedure P() modifies g; { g := 1; }");
    }

    #[test]
    fn a_local_may_shadow_a_global() {
        accepts!("var x: bool; procedure P() { var x: int; x := 1; }");
        accepts!("var x: bool; procedure P(x: int) returns (y: int) { y := x; }");
    }

    #[test]
    fn parallel_assignments_match_targets_and_values() {
        accepts!("procedure P() { var x, y: int; x, y := y, x; }");
        rejects!("procedure P() { var x, y: int; x, y := 1; }", "assignment has 2 targets but 1 value");
        rejects!("procedure P() { var x: int; x := true; }", "expected `int`, found `bool`");
        rejects!("procedure P() { var x: int; x, x := 1, 2; }", "`x` is written twice by one assignment");
        rejects!("procedure P() { var m: [int]int; m[1], m[2] := 1, 2; }", "`m` is written twice");
    }

    #[test]
    fn map_updates_are_typed_through_every_selection() {
        accepts!("var m: [int][int]bool; procedure P() modifies m; { m[1][2] := true; m[1] := m[2]; }");
        rejects!("var m: [int][int]bool; procedure P() modifies m; { m[1][2] := 3; }", "expected `bool`, found `int`");
        rejects!("var m: [int][int]bool; procedure P() modifies m; { m[1][true] := false; }", "expected `int`");
        rejects!("var m: [int][int]bool; procedure P() modifies m; { m[1, 2] := false; }", "takes 1 index but 2");
        rejects!("procedure P() { var x: int; x[1] := 2; }", "cannot index into a value of type `int`");
    }

    #[test]
    fn calls_check_the_callee_and_its_signature() {
        let callee = "procedure Q(a: int) returns (r: bool);";
        accepts!(&format!("{callee} procedure P() {{ var b: bool; call b := Q(1); }}"));
        rejects!("procedure Compute(); procedure P() { call Compte(); }", "did you mean `Compute`?");
        rejects!(&format!("{callee} procedure P() {{ var b: bool; call b := Q(); }}"), "takes 1 argument but 0");
        rejects!(
            &format!("{callee} procedure P() {{ var b: bool; call b := Q(true); }}"),
            "expected `int`, found `bool`"
        );
        rejects!(&format!("{callee} procedure P() {{ call Q(1); }}"), "procedure `Q` returns 1 value but the call");
        rejects!(&format!("{callee} procedure P() {{ var i: int; call i := Q(1); }}"), "expected `bool`, found `int`");
        rejects!("function f(): int; procedure P() { call f(); }", "expected a procedure, found function `f`");
    }

    #[test]
    fn call_results_go_to_distinct_mutable_variables() {
        let callee = "procedure Q() returns (r: int, s: int);";
        rejects!(&format!("{callee} procedure P() {{ var x: int; call x, x := Q(); }}"), "written twice by one call");
        rejects!(&format!("{callee} procedure P(x: int) {{ var y: int; call x, y := Q(); }}"), "in-parameter `x`");
        rejects!(&format!("var g: int; {callee} procedure P() {{ var y: int; call g, y := Q(); }}"), "modifies g;");
    }

    #[test]
    fn a_callee_may_modify_only_what_its_caller_may() {
        let source = "var g, h: int; procedure Q(); modifies g, h; procedure P() modifies h; { call Q(); }";
        rejects!(source, "call to `Q` may modify `g`, which is not in the `modifies` clause of `P`");
        rejects!(source, "help: add `modifies g;` to procedure `P`");
        assert_eq!(error_count(source), 1);
        accepts!("var g: int; procedure Q(); modifies g; procedure P() modifies g; { call Q(); }");
    }

    #[test]
    fn concurrency_is_not_supported() {
        rejects!("procedure Q(); procedure P() { async call Q(); }", "`async call` is not supported");
        rejects!("procedure Q(); procedure P() { par Q() | Q(); }", "`par` calls are not supported");
        rejects!("procedure P() { yield; }", "`yield` is not supported");
    }

    #[test]
    fn a_free_call_is_a_call_whose_preconditions_are_assumed() {
        let program = accepts!("procedure Q(x: int); requires x > 0; procedure P() { free call Q(1); call Q(2); }");
        let frees: Vec<bool> = program.implementations[0]
            .body
            .iter()
            .map(|stmt| match &stmt.kind {
                hir::StmtKind::Call { free, .. } => *free,
                other => panic!("a call, not {other:?}"),
            })
            .collect();
        assert_eq!(frees, vec![true, false]);
    }

    #[test]
    fn statement_ids_are_unique_and_assumption_variables_are_booleans() {
        rejects!(
            "procedure P() { assume {:id \"s0\"} true; assert {:id \"s0\"} true; }",
            "two statements have the id `s0`"
        );
        accepts!("procedure P() { assume {:id \"s0\"} true; } procedure Q() { assume {:id \"s0\"} true; }");
        rejects!("procedure P() { var {:assumption} a: int; }", "an `{:assumption}` variable must be a `bool`");
        rejects!("procedure P() { var {:assumption} a: bool where a; }", "without a `where` clause");
    }

    #[test]
    fn a_block_statement_runs_in_place() {
        let program = accepts!("procedure P() returns (x: int) { { x := 1; { L: x := 2; } } goto L; }");
        assert_eq!(program.implementations[0].body.len(), 4, "two assignments, a label and a goto");
    }

    #[test]
    fn calls_infer_the_callee_type_arguments() {
        let program = accepts!(
            r"
            type Ref;
            procedure Swap<T>(a: T, b: T) returns (x: T, y: T);
            procedure P(r: Ref) returns (s: Ref, t: Ref) { call s, t := Swap(r, r); }
        "
        );
        let hir::StmtKind::Call { type_args, .. } = &program.implementations[0].body[0].kind else { panic!("a call") };
        assert_eq!(type_args, &vec![hir::Type::Named(hir::TypeId(0), Vec::new())]);
        rejects!(
            "procedure Swap<T>(a: T, b: T); procedure P() { call Swap(1, true); }",
            "expected `int`, found `bool`"
        );
    }

    #[test]
    fn assignments_settle_type_arguments_from_their_targets() {
        accepts!(
            r"
            type Set T = [T]bool;
            function Empty<T>(): Set T;
            procedure P() returns (s: Set int) { s := Empty(); }
        "
        );
        rejects!(
            "function Empty<T>(): [T]bool; procedure P() returns (s: [int]bool) { s := Empty() : [bool]bool; }",
            "mismatched types"
        );
    }

    #[test]
    fn guards_and_invariants_need_booleans() {
        accepts!("procedure P() { if (*) { } else if (true) { } while (*) invariant true; { } }");
        rejects!("procedure P() { if (1) { } }", "expected `bool`, found `int`");
        rejects!("procedure P() { if (true) { } else if (2) { } }", "expected `bool`, found `int`");
        rejects!("procedure P() { while (1) { } }", "expected `bool`, found `int`");
        rejects!("procedure P() { while (true) invariant 1; { } }", "expected `bool`, found `int`");
    }

    #[test]
    fn labels_are_unique_and_goto_targets_exist() {
        accepts!("procedure P() { goto A, B; A: if (true) { B: return; } goto A; }");
        rejects!("procedure P() { A: A: return; }", "duplicate label `A`");
        rejects!("procedure P() { Loop: goto Lop; }", "did you mean `Loop`?");
        accepts!("procedure P() { A: return; } procedure Q() { A: return; }");
    }

    #[test]
    fn break_must_be_inside_a_loop_or_its_labelled_statement() {
        accepts!("procedure P() { while (true) { if (true) { break; } } }");
        rejects!("procedure P() { break; }", "`break` outside of a loop");
        rejects!("procedure P() { if (true) { break; } }", "`break` outside of a loop");
        accepts!("procedure P() { L: if (true) { break L; } }");
        accepts!("procedure P() { A: B: while (true) { while (true) { break A; } } }");
        rejects!("procedure P() { L: assume true; while (true) { break L; } }", "`L` does not label an enclosing");
        rejects!("procedure P() { while (true) { break M; } }", "cannot find label `M`");
    }

    #[test]
    fn labelled_breaks_name_the_enclosing_label_in_the_hir() {
        let program = accepts!("procedure P() { Outer: while (true) { while (true) { break Outer; break; } } }");
        let body = &program.implementations[0].body;
        let hir::StmtKind::While { body: outer, .. } = &body[1].kind else { panic!("the outer loop") };
        let hir::StmtKind::While { body: inner, .. } = &outer[0].kind else { panic!("the inner loop") };
        assert!(matches!(inner[0].kind, hir::StmtKind::Break { label: Some(LabelId(0)) }));
        assert!(matches!(inner[1].kind, hir::StmtKind::Break { label: None }));
    }

    #[test]
    fn return_is_allowed_anywhere() {
        accepts!("procedure P() { if (true) { return; } while (*) { return; } return; }");
    }
}
