//! HIR expressions → [`Term`](crate::vc::term::Term)s, and the program-level vocabulary
//! (the prelude) every implementation's VC starts from.
//!
//! Input: a checked [`hir::Program`] (see its invariants: resolved ids, expanded types,
//! no globals in axioms or function bodies). Output: terms in the [`Terms`] arena the
//! [`Translator`] owns. Where a variable of the program state is read, the translator
//! asks an [`Env`], so the same code serves implementation bodies (current incarnations),
//! callee contracts (actuals and post-call incarnations) and axioms (no state at all).
//!
//! The prelude (all symbols are named as in the program: Boogie identifiers cannot
//! contain `@`, `%` or `!`, which every generated name does):
//! - each uninterpreted type is a sort; each constant a nullary symbol; `unique`
//!   constants of one type are pairwise distinct;
//! - each function is a function symbol; a function with a body is *defined* by it, a
//!   [`Definition`] (SMT-LIB `define-fun-rec`), not by Boogie's definitional axiom
//!   `forall params :: {f(params)} f(params) == body`: z3 4.8.12's model finder answers
//!   `unknown` on such an axiom as soon as the body recurses (`sum(n) = n + sum(n-1)`),
//!   even for queries that never mention `f`, while its recursive-function solver
//!   unfolds definitions on demand and builds models. Recursion is assumed well-founded,
//!   as Boogie's axiom would have to be to be consistent. A body with a quantifier or a
//!   λ is the exception (z3 4.8.12 throws at the first unfolding of such a definition,
//!   which an API caller sees as `unknown`, or worse): it is Boogie's axiom;
//! - each axiom is asserted as written, if the implementation's runs can depend on it
//!   ([`crate::sema::relevance`]);
//! - reals and bit-vectors are SMT-LIB's; a function bound to a builtin by
//!   `{:bvbuiltin "…"}` or `{:builtin "…"}` is its operation ([`theory`]), not a symbol;
//!   `e[high:low]` is `(_ extract high-1 low)`, `++` `concat`, `**` Boogie's
//!   uninterpreted `real_pow`;
//! - `a <: b` applies the uninterpreted predicate `<:@<sort>` (Boogie's partial order,
//!   without order axioms: the core language has no `extends`).

use crate::sema::hir::{self, BinaryOp, ExprKind, Quantifier, UnaryOp};
use crate::sema::relevance::Relevant;
use crate::vc::term::{ArithOp, CmpOp, QuantKind, Sort, SymbolId, TermId, Terms, VarId};
use crate::vc::theory::{self, Builtin, Op};
use std::collections::BTreeMap;

/// Reads program variables for the [`Translator`].
pub(crate) trait Env {
    /// The term for `var` (a local or a global); `old` is set inside `old(..)`.
    fn read(&mut self, terms: &mut Terms, var: hir::Var, old: bool) -> TermId;
}

/// The environment of axioms and function bodies, which the checker guarantees read no
/// program variable.
pub(crate) struct Stateless;

impl Env for Stateless {
    fn read(&mut self, _terms: &mut Terms, var: hir::Var, _old: bool) -> TermId {
        panic!("the checker rejects program variables in axioms and function bodies, found {var:?}")
    }
}

/// The program-level part of a VC: what the translator asserts before any command.
#[derive(Clone, Debug, Default)]
pub struct Prelude {
    /// The constant term of each [`hir::Const`], by `ConstId`.
    pub consts: Vec<TermId>,
    /// The symbol of each [`hir::Function`], by `FunctionId`.
    pub functions: Vec<SymbolId>,
    /// Distinctness of the relevant `unique` constants, the definitional axioms of the
    /// functions whose bodies quantify, then the relevant axioms, in program order.
    pub axioms: Vec<TermId>,
    /// Each relevant axiom's term, with its index into the program's axioms.
    pub axiom_terms: Vec<(usize, TermId)>,
    /// The functions with a body that binds no variable, in program order.
    pub definitions: Vec<Definition>,
}

/// `f(params) = body`, for every value of the parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definition {
    pub symbol: SymbolId,
    pub params: Vec<VarId>,
    pub body: TermId,
}

/// Translates HIR expressions of one program into one arena.
pub(crate) struct Translator<'p> {
    pub program: &'p hir::Program,
    pub terms: Terms,
    pub prelude: Prelude,
    /// Bound variables by their program-wide unique id.
    bound: BTreeMap<hir::BoundId, VarId>,
    /// The builtin each function is bound to, by `FunctionId`.
    builtins: Vec<Option<Builtin>>,
    /// Whether each function is expanded at its applications, by `FunctionId`
    /// ([`hir::Function::expands_at_applications`]).
    expanded: Vec<bool>,
    /// The arguments of the applications being expanded, by parameter.
    arguments: BTreeMap<hir::BoundId, TermId>,
}

impl<'p> Translator<'p> {
    /// A translator whose arena already holds the program's prelude, its facts (unique
    /// constants, definitions, axioms) restricted to the declarations in `relevant`
    /// (Boogie's pruning; see [`crate::sema::relevance`]). Every constant and function
    /// is declared all the same, so ids index the prelude as they index the program.
    pub fn new(program: &'p hir::Program, relevant: &Relevant) -> Translator<'p> {
        let mut translator = Translator {
            program,
            terms: Terms::new(),
            prelude: Prelude::default(),
            bound: BTreeMap::new(),
            builtins: theory::builtins(program),
            expanded: program.functions.iter().map(hir::Function::expands_at_applications).collect(),
            arguments: BTreeMap::new(),
        };
        translator.declare_constants(relevant);
        translator.declare_functions();
        translator.define_functions(relevant);
        for (index, axiom) in program.axioms.iter().enumerate() {
            if relevant.has_axiom(index) {
                let term = translator.expr(&mut Stateless, &axiom.expr);
                translator.prelude.axioms.push(term);
                translator.prelude.axiom_terms.push((index, term));
            }
        }
        translator
    }

    fn declare_constants(&mut self, relevant: &Relevant) {
        let mut unique: BTreeMap<Sort, Vec<TermId>> = BTreeMap::new();
        for (index, constant) in self.program.consts.iter().enumerate() {
            let sort = Sort::of_type(&constant.ty);
            let term = self.terms.constant(self.terms.unused_name(&constant.name), sort.clone());
            self.prelude.consts.push(term);
            if constant.unique && relevant.has_const(hir::ConstId::from_index(index)) {
                unique.entry(sort).or_default().push(term);
            }
        }
        for (_, group) in unique.into_iter().filter(|(_, group)| group.len() > 1) {
            // `unique` constants of one type denote pairwise different values.
            let distinct = self.terms.distinct(group);
            self.prelude.axioms.push(distinct);
        }
    }

    fn declare_functions(&mut self) {
        for function in &self.program.functions {
            let domain = function.params.iter().map(|param| Sort::of_type(&param.ty)).collect();
            let name = self.terms.unused_name(&function.name);
            let symbol = self.terms.declare(name, domain, Sort::of_type(&function.result));
            self.prelude.functions.push(symbol);
        }
    }

    /// `function f(params): T { body }` ⇒ the definition `f(params) = body`.
    fn define_functions(&mut self, relevant: &Relevant) {
        for (index, function) in self.program.functions.iter().enumerate() {
            let Some(body) = &function.body else { continue };
            if !relevant.has_function(hir::FunctionId::from_index(index)) || self.expanded[index] {
                continue;
            }
            let params: Vec<VarId> = function.params.iter().map(|param| self.bound_var(param)).collect();
            let body = self.expr(&mut Stateless, body);
            let symbol = self.prelude.functions[index];
            if self.terms.binds(body) {
                // z3 4.8.12 gives up on a recursive definition whose body quantifies
                // ("quantified formulas in recursive functions are not supported", thrown
                // at the first unfolding): Boogie's definitional axiom instead.
                let args = params.iter().map(|&param| self.terms.var_term(param)).collect();
                let application = self.terms.app(symbol, args);
                let equation = self.terms.eq(application, body);
                let axiom = self.terms.forall(params, vec![vec![application]], equation);
                self.prelude.axioms.push(axiom);
                continue;
            }
            self.prelude.definitions.push(Definition { symbol, params, body });
        }
    }

    fn bound_var(&mut self, var: &hir::BoundVar) -> VarId {
        if let Some(&id) = self.bound.get(&var.id) {
            return id;
        }
        let name = var.name.as_deref().unwrap_or("%p");
        let id = self.terms.fresh_var(name, Sort::of_type(&var.ty));
        self.bound.insert(var.id, id);
        id
    }

    /// Translates `expr`, reading program variables from `env`.
    pub fn expr(&mut self, env: &mut dyn Env, expr: &hir::Expr) -> TermId {
        self.expr_in(env, expr, false)
    }

    fn expr_in(&mut self, env: &mut dyn Env, expr: &hir::Expr, old: bool) -> TermId {
        match &expr.kind {
            ExprKind::Bool(value) => self.terms.bool(*value),
            ExprKind::Int(value) => self.terms.int(value.clone()),
            ExprKind::Var(var) => self.var(env, *var, old),
            ExprKind::Real(value) => self.terms.real(value.clone()),
            ExprKind::BitVector { value, width } => self.terms.bit_vec(value.clone(), *width),
            ExprKind::Extract { operand, high, low } => {
                let operand = self.expr_in(env, operand, old);
                self.terms.op(Op::Extract { high: high - 1, low: *low }, vec![operand])
            }
            ExprKind::Apply { func, args, .. } => {
                let args = self.exprs(env, args, old);
                match self.builtins[func.index()] {
                    Some(Builtin::Arith(op)) => self.terms.arith(op, args[0], args[1]),
                    Some(Builtin::Op(op)) => self.terms.op(op, args),
                    None if self.expanded[func.index()] => self.expand(*func, args),
                    None => self.terms.app(self.prelude.functions[func.index()], args),
                }
            }
            // old(e) reads the globals of the pre-state; locals are unaffected (Boogie).
            ExprKind::Old(inner) => self.expr_in(env, inner, true),
            ExprKind::Unary { op, operand } => {
                let operand = self.expr_in(env, operand, old);
                match op {
                    UnaryOp::Not => self.terms.not(operand),
                    UnaryOp::Neg => self.terms.neg(operand),
                    UnaryOp::ToInt => self.terms.op(Op::ToInt, vec![operand]),
                    UnaryOp::ToReal => self.terms.op(Op::ToReal, vec![operand]),
                }
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let lhs_term = self.expr_in(env, lhs, old);
                let rhs_term = self.expr_in(env, rhs, old);
                self.binary(*op, lhs_term, rhs_term)
            }
            ExprKind::Select { map, indices } => {
                let map = self.expr_in(env, map, old);
                let indices = self.exprs(env, indices, old);
                self.terms.select(map, indices)
            }
            ExprKind::Store { map, indices, value } => {
                let map = self.expr_in(env, map, old);
                let indices = self.exprs(env, indices, old);
                let value = self.expr_in(env, value, old);
                self.terms.store(map, indices, value)
            }
            ExprKind::IfThenElse { cond, then_expr, else_expr } => {
                let cond = self.expr_in(env, cond, old);
                let then_term = self.expr_in(env, then_expr, old);
                let else_term = self.expr_in(env, else_expr, old);
                self.terms.ite(cond, then_term, else_term)
            }
            ExprKind::Quant { quantifier, vars, triggers, body, .. } => {
                let bound: Vec<VarId> = vars.iter().map(|var| self.bound_var(var)).collect();
                let body = self.expr_in(env, body, old);
                match quantifier {
                    Quantifier::Lambda => self.terms.lambda(bound, body),
                    Quantifier::Forall | Quantifier::Exists => {
                        // A trigger an expansion put a binder in is no pattern (z3 rejects it).
                        let mut patterns: Vec<Vec<TermId>> =
                            triggers.iter().map(|trigger| self.exprs(env, trigger, old)).collect();
                        patterns.retain(|pattern| !pattern.iter().any(|&term| self.terms.binds(term)));
                        let kind =
                            if *quantifier == Quantifier::Forall { QuantKind::Forall } else { QuantKind::Exists };
                        self.terms.quant(kind, bound, patterns, body)
                    }
                }
            }
        }
    }

    /// The body of `func` at `args`. Its bound variables are the same at every
    /// expansion, which is sound as long as no argument mentions them free: only an
    /// expansion inside the function's own body would, and Boogie rejects recursion
    /// through `{:inline}` functions (here it stays an application, uninterpreted).
    fn expand(&mut self, func: hir::FunctionId, args: Vec<TermId>) -> TermId {
        let function = &self.program.functions[func.index()];
        let body = function.body.as_ref().expect("only functions with bodies are expanded");
        let params: Vec<hir::BoundId> = function.params.iter().map(|param| param.id).collect();
        if params.iter().any(|param| self.arguments.contains_key(param)) {
            return self.terms.app(self.prelude.functions[func.index()], args);
        }
        self.arguments.extend(params.iter().copied().zip(args));
        let term = self.expr_in(&mut Stateless, body, false);
        params.iter().for_each(|param| {
            self.arguments.remove(param);
        });
        term
    }

    fn exprs(&mut self, env: &mut dyn Env, exprs: &[hir::Expr], old: bool) -> Vec<TermId> {
        exprs.iter().map(|expr| self.expr_in(env, expr, old)).collect()
    }

    fn var(&mut self, env: &mut dyn Env, var: hir::Var, old: bool) -> TermId {
        match var {
            hir::Var::Const(id) => self.prelude.consts[id.index()],
            hir::Var::Bound(id) if self.arguments.contains_key(&id) => self.arguments[&id],
            hir::Var::Bound(id) => {
                let var = *self.bound.get(&id).expect("a bound variable is used under its binder");
                self.terms.var_term(var)
            }
            hir::Var::Local(_) | hir::Var::Global(_) => env.read(&mut self.terms, var, old),
        }
    }

    fn binary(&mut self, op: BinaryOp, lhs: TermId, rhs: TermId) -> TermId {
        let terms = &mut self.terms;
        match op {
            BinaryOp::Iff => terms.iff(lhs, rhs),
            BinaryOp::Implies => terms.implies(lhs, rhs),
            BinaryOp::And => terms.and(vec![lhs, rhs]),
            BinaryOp::Or => terms.or(vec![lhs, rhs]),
            BinaryOp::Eq => terms.eq(lhs, rhs),
            BinaryOp::Neq => {
                let equal = terms.eq(lhs, rhs);
                terms.not(equal)
            }
            BinaryOp::Lt => terms.cmp(CmpOp::Lt, lhs, rhs),
            BinaryOp::Le => terms.cmp(CmpOp::Le, lhs, rhs),
            BinaryOp::Gt => terms.cmp(CmpOp::Gt, lhs, rhs),
            BinaryOp::Ge => terms.cmp(CmpOp::Ge, lhs, rhs),
            BinaryOp::Add => terms.arith(ArithOp::Add, lhs, rhs),
            BinaryOp::Sub => terms.arith(ArithOp::Sub, lhs, rhs),
            BinaryOp::Mul => terms.arith(ArithOp::Mul, lhs, rhs),
            BinaryOp::Div => terms.arith(ArithOp::Div, lhs, rhs),
            BinaryOp::Mod => terms.arith(ArithOp::Mod, lhs, rhs),
            BinaryOp::Subtype => unreachable!("{}", crate::cfg::support::OUTSIDE_ENGINE),
            BinaryOp::RealDiv => terms.arith(ArithOp::RealDiv, lhs, rhs),
            BinaryOp::Power => terms.op(Op::RealPow, vec![lhs, rhs]),
            BinaryOp::Concat => terms.op(Op::Concat, vec![lhs, rhs]),
        }
    }
}
