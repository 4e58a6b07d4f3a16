//! Inferred `modifies` clauses (Boogie's `-inferModifies`, our `--infer-modifies`).
//!
//! Front ends such as SMACK omit `modifies` and let Boogie infer it: each procedure with
//! a body may modify the globals its bodies assign or havoc, and those that the
//! procedures it calls may modify (their inferred clauses when they have bodies, their
//! declared ones otherwise), to a fixpoint. The inferred globals are added to the
//! declared clause before bodies are checked, so the `modifies` check and every later
//! stage see one ordinary clause. A name shadowed by a parameter or local is not the
//! global. Works on the AST after [`super::resolve`], so it needs only the symbol tables.

use super::{Checker, GlobalValue, ValueSymbol};
use crate::sema::hir::{GlobalId, ProcId};
use crate::syntax::ast;
use std::collections::{BTreeMap, BTreeSet};

/// What one procedure's bodies write directly and whom they call.
#[derive(Default)]
struct Writes {
    globals: BTreeSet<GlobalId>,
    callees: BTreeSet<ProcId>,
}

impl Checker {
    /// Adds to every procedure with a body the globals it may modify.
    pub(super) fn infer_modifies(&mut self, program: &ast::Program) {
        let mut writes: BTreeMap<ProcId, Writes> = BTreeMap::new();
        for decl in &program.decls {
            let (name, params, returns, body) = match decl {
                ast::Decl::Procedure(decl) => match &decl.body {
                    Some(body) => (&decl.name, &decl.params, &decl.returns, body),
                    None => continue,
                },
                ast::Decl::Implementation(decl) => (&decl.name, &decl.params, &decl.returns, &decl.body),
                _ => continue,
            };
            let Some(&id) = self.procs.get(&name.name) else { continue };
            let mut scope =
                BodyScope { checker: self, locals: BTreeSet::new(), writes: writes.remove(&id).unwrap_or_default() };
            let declared = params.iter().chain(returns).chain(body.locals.iter().flat_map(|local| &local.groups));
            scope.locals.extend(declared.flat_map(|group| &group.names).map(|name| name.name.clone()));
            scope.stmts(&body.stmts);
            writes.insert(id, scope.writes);
        }
        self.close_over_calls(&writes);
    }

    /// Each procedure with a body gets its own writes and its callees' `modifies`,
    /// repeated until nothing grows (recursion included).
    fn close_over_calls(&mut self, writes: &BTreeMap<ProcId, Writes>) {
        for (id, own) in writes {
            let modifies = &mut self.program.procedures[id.index()].modifies;
            modifies.extend(&own.globals);
            normalize(modifies);
        }
        let mut changed = true;
        while changed {
            changed = false;
            for (id, own) in writes {
                let mut inherited: Vec<GlobalId> = own
                    .callees
                    .iter()
                    .flat_map(|callee| self.program.procedures[callee.index()].modifies.iter().copied())
                    .collect();
                let modifies = &mut self.program.procedures[id.index()].modifies;
                let before = modifies.len();
                modifies.append(&mut inherited);
                normalize(modifies);
                changed |= modifies.len() != before;
            }
        }
    }
}

/// `modifies` clauses are kept sorted without repeats (see `hir::Procedure`).
fn normalize(modifies: &mut Vec<GlobalId>) {
    modifies.sort();
    modifies.dedup();
}

/// The walk over one body: the names that shadow globals there, and what it writes.
struct BodyScope<'a> {
    checker: &'a Checker,
    locals: BTreeSet<String>,
    writes: Writes,
}

impl BodyScope<'_> {
    fn stmts(&mut self, stmts: &[ast::Stmt]) {
        stmts.iter().for_each(|stmt| self.stmt(stmt));
    }

    fn stmt(&mut self, stmt: &ast::Stmt) {
        match &stmt.kind {
            ast::StmtKind::Havoc { names } => names.iter().for_each(|name| self.write(name)),
            ast::StmtKind::Assign { lhs, .. } => lhs.iter().for_each(|target| self.write(&target.name)),
            ast::StmtKind::Call(call) => self.call(call),
            ast::StmtKind::Par { calls } => calls.iter().for_each(|call| self.call(call)),
            ast::StmtKind::Block(block) => self.stmts(&block.stmts),
            ast::StmtKind::If { branches, else_block } => {
                branches.iter().for_each(|branch| self.stmts(&branch.block.stmts));
                else_block.iter().for_each(|block| self.stmts(&block.stmts));
            }
            ast::StmtKind::While { body, .. } => self.stmts(&body.stmts),
            ast::StmtKind::Label(_)
            | ast::StmtKind::Assert { .. }
            | ast::StmtKind::Assume { .. }
            | ast::StmtKind::Yield
            | ast::StmtKind::Break { .. }
            | ast::StmtKind::Return
            | ast::StmtKind::Goto { .. } => {}
        }
    }

    fn call(&mut self, call: &ast::Call) {
        call.outs.iter().for_each(|out| self.write(out));
        if let Some(&callee) = self.checker.procs.get(&call.callee.name) {
            self.writes.callees.insert(callee);
        }
    }

    fn write(&mut self, name: &ast::Ident) {
        if self.locals.contains(&name.name) {
            return;
        }
        if let Some(ValueSymbol { value: GlobalValue::Global(global), .. }) = self.checker.values.get(&name.name) {
            self.writes.globals.insert(*global);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::sema::{check_with, CheckOptions};
    use crate::syntax;

    /// The names in each procedure's `modifies` after inference, in procedure order.
    fn inferred(source: &str) -> Vec<Vec<String>> {
        let mut db = crate::source::SourceDb::new();
        let file = db.add("t.bpl", source);
        let (ast, errors) = syntax::parse(file, source);
        assert!(errors.is_empty(), "{errors:?}");
        let (program, errors) = check_with(&ast, CheckOptions { infer_modifies: true });
        assert!(errors.is_empty(), "{errors:?}");
        let program = program.expect("checks");
        let name = |id: &crate::sema::hir::GlobalId| program.globals[id.index()].name.clone();
        program.procedures.iter().map(|procedure| procedure.modifies.iter().map(name).collect()).collect()
    }

    #[test]
    fn writes_and_callees_are_inferred_transitively() {
        let source = "var a: int; var b: int; var c: [int]int; var d: int;
            procedure Leaf(); modifies d;
            procedure P() { a := 1; call Q(); }
            procedure Q() { c[0] := 1; call P(); call Leaf(); }
            procedure R() { var b: int; b := 1; havoc b; }
            procedure S() returns (a: int) { a := 2; }
            procedure T() { call b := U(); }
            procedure U() returns (r: int) { r := 0; }";
        let expected: Vec<Vec<&str>> =
            vec![vec!["d"], vec!["a", "c", "d"], vec!["a", "c", "d"], vec![], vec![], vec!["b"], vec![]];
        assert_eq!(inferred(source), expected);
    }

    #[test]
    fn implementations_and_declared_clauses_combine() {
        let source = "var a: int; var b: int;
            procedure P(); modifies b;
            implementation P() { if (*) { a := 1; } else { while (*) { havoc b; } } }";
        assert_eq!(inferred(source), vec![vec!["a", "b"]]);
    }

    #[test]
    fn without_the_option_missing_clauses_are_errors() {
        rejects!("var a: int; procedure P() { a := 1; }", "add `modifies a;` to procedure `P`");
    }
}
