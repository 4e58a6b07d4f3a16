//! Which global declarations the runs of one implementation can depend on: Boogie's
//! axiom pruning, computed on the checked program.
//!
//! Input: a [`Program`] and an implementation. Output: [`Relevant`]: the constants,
//! functions and axioms whose meaning can reach the implementation's runs.
//!
//! **Why.** Every axiom asserted in a session is work for z3 at every check, and an
//! axiom z3 cannot model (`forall x :: g(x) > x`) turns each check of every procedure
//! into an `unknown` after rounds of model-based instantiation, even in a procedure that
//! never mentions `g` (`corpus/types_axioms.bpl`: 74 ms for a procedure that takes 20
//! without it; the engine's budget for a whole run is 50 ms). An axiom that shares no symbol
//! with what a run reads constrains nothing the run sees.
//!
//! **The rule.** The symbols are the constants, functions and uninterpreted types. The
//! roots are the symbols of the implementation, of its procedure and of every procedure
//! it may reach through calls (bodies and contracts: callees are inlined or modelled by
//! their contracts, and replay runs their bodies), and of the globals (their types and
//! `where` clauses). The closure adds the signature and body of each function, the type
//! of each constant, and every axiom that mentions a symbol already in, with all of its
//! own symbols; an axiom that mentions no symbol at all is always in. An axiom that is a
//! `forall` with triggers comes in only through a trigger: when every function and
//! constant of one of its triggers is already in (Boogie's pruning does the same,
//! `Prune/AxiomVisitor.cs`). This is what keeps a prelude's axioms about operations an
//! implementation never applies out of its encoding: `Length(Build(s, v)) == 1 +
//! Length(s)` stays out of an implementation that only reads lengths, whose models it
//! would otherwise force to be infinite.
//!
//! **Soundness.** Dropping axioms weakens the encoding: an unsatisfiable query stays
//! unsatisfiable with every axiom, so "proved unreachable" and `verify`'s proofs keep
//! their meaning (unless the dropped axioms contradict themselves, where every proof
//! would hold vacuously, as under Boogie's pruning); models are replayed, and replay
//! checks the same axioms ([`crate::interp`]), so what a test runs on is consistent with
//! them, and the symbols it leaves out are never read.

use super::hir::{ConstId, Expr, ExprKind, FunctionId, Guard, ImplId, ProcId, Program, Stmt, StmtKind, Type, TypeId};
use std::collections::BTreeSet;

/// The declarations one implementation's runs can depend on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Relevant {
    consts: BTreeSet<ConstId>,
    functions: BTreeSet<FunctionId>,
    axioms: BTreeSet<usize>,
}

impl Relevant {
    pub fn has_const(&self, id: ConstId) -> bool {
        self.consts.contains(&id)
    }

    pub fn has_function(&self, id: FunctionId) -> bool {
        self.functions.contains(&id)
    }

    /// Whether the axiom at `index` of [`Program::axioms`] is in.
    pub fn has_axiom(&self, index: usize) -> bool {
        self.axioms.contains(&index)
    }
}

/// The symbols an expression, a type or a statement mentions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Symbols {
    consts: BTreeSet<ConstId>,
    functions: BTreeSet<FunctionId>,
    types: BTreeSet<TypeId>,
}

impl Symbols {
    fn is_empty(&self) -> bool {
        self.consts.is_empty() && self.functions.is_empty() && self.types.is_empty()
    }

    fn meets(&self, other: &Symbols) -> bool {
        !self.consts.is_disjoint(&other.consts)
            || !self.functions.is_disjoint(&other.functions)
            || !self.types.is_disjoint(&other.types)
    }

    /// Whether every function and constant of `self` is in `other`.
    fn within(&self, other: &Symbols) -> bool {
        self.consts.is_subset(&other.consts) && self.functions.is_subset(&other.functions)
    }

    fn absorb(&mut self, other: &Symbols) {
        self.consts.extend(&other.consts);
        self.functions.extend(&other.functions);
        self.types.extend(&other.types);
    }

    fn ty(&mut self, ty: &Type) {
        match ty {
            Type::Int | Type::Bool | Type::Real | Type::BitVector(_) | Type::Param(_) => {}
            Type::Named(id, args) => {
                self.types.insert(*id);
                args.iter().for_each(|arg| self.ty(arg));
            }
            Type::Map(map) => {
                map.domain.iter().for_each(|ty| self.ty(ty));
                self.ty(&map.range);
            }
        }
    }

    fn expr(&mut self, expr: &Expr) {
        self.ty(&expr.ty);
        match &expr.kind {
            ExprKind::Var(super::hir::Var::Const(id)) => {
                self.consts.insert(*id);
            }
            ExprKind::Apply { func, type_args, .. } => {
                self.functions.insert(*func);
                type_args.iter().for_each(|ty| self.ty(ty));
            }
            ExprKind::Quant { vars, .. } => vars.iter().for_each(|var| self.ty(&var.ty)),
            _ => {}
        }
        // Triggers included: a symbol only a trigger mentions still selects its axioms.
        expr.for_each_child(&mut |child| self.expr(child));
    }

    fn stmts(&mut self, stmts: &[Stmt]) {
        stmts.iter().for_each(|stmt| self.stmt(stmt));
    }

    fn stmt(&mut self, stmt: &Stmt) {
        match &stmt.kind {
            StmtKind::Label(_) | StmtKind::Havoc { .. } | StmtKind::Break { .. } | StmtKind::Return => {}
            StmtKind::Goto { .. } => {}
            StmtKind::Assert { expr, .. } | StmtKind::Assume { expr, .. } => self.expr(expr),
            StmtKind::Assign { lhs, rhs } => {
                for target in lhs {
                    self.ty(&target.ty);
                    target.indices.iter().flatten().for_each(|index| self.expr(index));
                }
                rhs.iter().for_each(|value| self.expr(value));
            }
            StmtKind::Call { args, .. } => args.iter().for_each(|arg| self.expr(arg)),
            StmtKind::If { branches, else_block } => {
                for branch in branches {
                    self.guard(&branch.guard);
                    self.stmts(&branch.block);
                }
                if let Some(block) = else_block {
                    self.stmts(block);
                }
            }
            StmtKind::While { guard, invariants, body } => {
                self.guard(guard);
                invariants.iter().for_each(|clause| self.expr(&clause.expr));
                self.stmts(body);
            }
        }
    }

    fn guard(&mut self, guard: &Guard) {
        if let Guard::Expr(expr) = guard {
            self.expr(expr);
        }
    }
}

/// Each axiom's symbols and the symbols of its triggers ([`trigger_gates`]): the part
/// of [`relevant`] that does not depend on the implementation, computed once for a
/// program whose implementations are all asked (a monomorphic Viper program has
/// thousands of axioms and hundreds of implementations).
pub struct AxiomSymbols(Vec<(Symbols, Vec<Symbols>)>);

impl AxiomSymbols {
    pub fn of(program: &Program) -> AxiomSymbols {
        let symbols = (program.axioms.iter())
            .map(|axiom| {
                let mut own = Symbols::default();
                own.expr(&axiom.expr);
                (own, trigger_gates(&axiom.expr))
            })
            .collect();
        AxiomSymbols(symbols)
    }
}

/// The declarations the runs of `implementation` can depend on (see the module
/// documentation for the rule).
pub fn relevant(program: &Program, implementation: ImplId) -> Relevant {
    relevant_among(program, &AxiomSymbols::of(program), implementation)
}

/// [`relevant`], with the program's [`AxiomSymbols`] computed already.
pub fn relevant_among(program: &Program, axiom_symbols: &AxiomSymbols, implementation: ImplId) -> Relevant {
    let mut symbols = roots(program, implementation);
    close_over_declarations(program, &mut symbols);
    let mut axioms = BTreeSet::new();
    loop {
        let before = axioms.len();
        for (index, (own, gates)) in axiom_symbols.0.iter().enumerate() {
            let enters = match gates.is_empty() {
                true => own.is_empty() || own.meets(&symbols),
                false => gates.iter().any(|gate| gate.within(&symbols)),
            };
            if !axioms.contains(&index) && enters {
                axioms.insert(index);
                symbols.absorb(own);
            }
        }
        if axioms.len() == before {
            break;
        }
        close_over_declarations(program, &mut symbols);
    }
    Relevant { consts: symbols.consts, functions: symbols.functions, axioms }
}

/// The symbols of each trigger of an axiom that is a `forall` with triggers, each of
/// which has a function or a constant; empty otherwise (the axiom then enters by any
/// symbol it shares).
fn trigger_gates(axiom: &Expr) -> Vec<Symbols> {
    let ExprKind::Quant { quantifier: super::hir::Quantifier::Forall, triggers, .. } = &axiom.kind else {
        return Vec::new();
    };
    let gates: Vec<Symbols> = triggers
        .iter()
        .map(|trigger| {
            let mut symbols = Symbols::default();
            trigger.iter().for_each(|term| symbols.expr(term));
            symbols
        })
        .collect();
    if gates.iter().any(|gate| gate.consts.is_empty() && gate.functions.is_empty()) {
        return Vec::new();
    }
    gates
}

/// The symbols of the implementation, the procedures it may reach through calls, and
/// the globals.
fn roots(program: &Program, implementation: ImplId) -> Symbols {
    let mut symbols = Symbols::default();
    for global in &program.globals {
        symbols.ty(&global.ty);
        if let Some(clause) = &global.where_clause {
            symbols.expr(clause);
        }
    }
    let start = program.implementations[implementation.index()].proc;
    for procedure in reachable_procedures(program, start) {
        let declaration = &program.procedures[procedure.index()];
        for local in &declaration.locals {
            symbols.ty(&local.ty);
        }
        declaration.requires.iter().chain(&declaration.ensures).for_each(|clause| symbols.expr(&clause.expr));
        for &body in &declaration.implementations {
            let body = &program.implementations[body.index()];
            for local in &body.locals {
                symbols.ty(&local.ty);
                if let Some(clause) = &local.where_clause {
                    symbols.expr(clause);
                }
            }
            symbols.stmts(&body.body);
        }
    }
    symbols
}

/// `start` and every procedure an implementation of a procedure in the set calls.
fn reachable_procedures(program: &Program, start: ProcId) -> BTreeSet<ProcId> {
    let mut reached = BTreeSet::from([start]);
    let mut pending = vec![start];
    while let Some(procedure) = pending.pop() {
        for &body in &program.procedures[procedure.index()].implementations {
            let mut callees = BTreeSet::new();
            calls(&program.implementations[body.index()].body, &mut callees);
            for callee in callees {
                if reached.insert(callee) {
                    pending.push(callee);
                }
            }
        }
    }
    reached
}

fn calls(stmts: &[Stmt], callees: &mut BTreeSet<ProcId>) {
    for stmt in stmts {
        match &stmt.kind {
            StmtKind::Call { callee, .. } => {
                callees.insert(*callee);
            }
            StmtKind::If { branches, else_block } => {
                branches.iter().for_each(|branch| calls(&branch.block, callees));
                if let Some(block) = else_block {
                    calls(block, callees);
                }
            }
            StmtKind::While { body, .. } => calls(body, callees),
            _ => {}
        }
    }
}

/// Adds the signature and body of every function in `symbols`, and the type of every
/// constant, until nothing new comes in.
fn close_over_declarations(program: &Program, symbols: &mut Symbols) {
    let mut done: BTreeSet<FunctionId> = BTreeSet::new();
    loop {
        let pending: Vec<FunctionId> = symbols.functions.difference(&done).copied().collect();
        if pending.is_empty() {
            break;
        }
        for id in pending {
            done.insert(id);
            let function = &program.functions[id.index()];
            function.params.iter().for_each(|param| symbols.ty(&param.ty));
            symbols.ty(&function.result);
            if let Some(body) = &function.body {
                symbols.expr(body);
            }
        }
    }
    let consts: Vec<ConstId> = symbols.consts.iter().copied().collect();
    for id in consts {
        symbols.ty(&program.consts[id.index()].ty);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn relevant_to(source: &str, implementation: usize) -> Relevant {
        let program = accepts!(source);
        relevant(&program, ImplId::from_index(implementation))
    }

    const TWO_WORLDS: &str = "
        type Color;
        const unique Red, Green: Color;
        axiom (forall c: Color :: c == Red || c == Green);
        function grow(x: int): int;
        axiom (forall x: int :: grow(x) > x);
        axiom 1 < 2;
        procedure Paint(c: Color) returns (d: Color) { d := c; }
        procedure Grow(x: int) returns (y: int) { y := grow(x); }
    ";

    #[test]
    fn axioms_about_other_symbols_are_left_out() {
        let paint = relevant_to(TWO_WORLDS, 0);
        assert_eq!(paint.axioms, BTreeSet::from([0, 2]), "the Color axiom (by its type) and the symbol-free one");
        assert!(paint.has_const(ConstId::from_index(0)) && !paint.has_function(FunctionId::from_index(0)));
        let grow = relevant_to(TWO_WORLDS, 1);
        assert_eq!(grow.axioms, BTreeSet::from([1, 2]));
        assert!(!grow.has_const(ConstId::from_index(0)) && grow.has_function(FunctionId::from_index(0)));
    }

    #[test]
    fn axioms_chain_through_shared_symbols_and_callees() {
        let source = "
            function f(x: int): int;
            function g(x: int): int;
            const K: int;
            axiom (forall x: int :: f(x) == g(x));
            axiom g(0) == K;
            axiom K > 3;
            procedure Callee(x: int) returns (y: int);
              ensures y == f(x);
            procedure Caller() returns (y: int) { call y := Callee(0); }
        ";
        let caller = relevant_to(source, 0);
        assert_eq!(caller.axioms, BTreeSet::from([0, 1, 2]));
        assert!(caller.has_const(ConstId::from_index(0)));
    }

    #[test]
    fn function_bodies_bring_their_symbols() {
        let source = "
            const K: int;
            axiom K == 7;
            function h(x: int): int { x + K }
            procedure P(x: int) returns (y: int) { y := h(x); }
        ";
        assert_eq!(relevant_to(source, 0).axioms, BTreeSet::from([0]));
    }

    #[test]
    fn a_triggered_axiom_enters_only_through_a_whole_trigger() {
        let source = "
            type Seq;
            function Length(s: Seq): int;
            function Build(s: Seq, v: int): Seq;
            axiom (forall s: Seq :: { Length(s) } Length(s) >= 0);
            axiom (forall s: Seq, v: int :: { Length(Build(s, v)) } Length(Build(s, v)) == 1 + Length(s));
            procedure Reads(s: Seq) returns (n: int) { n := Length(s); }
            procedure Builds(s: Seq) returns (n: int) { n := Length(Build(s, 1)); }
        ";
        assert_eq!(relevant_to(source, 0).axioms, BTreeSet::from([0]));
        assert_eq!(relevant_to(source, 1).axioms, BTreeSet::from([0, 1]));
    }
}
