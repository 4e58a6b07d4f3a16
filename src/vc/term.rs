//! Solver-independent terms: the language verification conditions are written in.
//!
//! A [`Terms`] arena holds a hash-consed DAG: building the same term twice returns the
//! same [`TermId`], so shared subterms (a block's transition relation used by each of its
//! successors) are stored once and the VC stays linear in the size of the program.
//!
//! Invariants:
//! - a term's children are created before it, so arena order (= creation order) is a
//!   topological order; a back end may translate the arena front to back in one pass;
//! - every term is well-sorted, and its [`Sort`] is computed once, at creation;
//! - [`Symbol`] names are unique in the arena (each kind of name has its own shape, see
//!   [`mod@crate::vc::encode`]), so a back end may declare each symbol by its name;
//! - bound variables ([`VarId`]) are named `<name>!<n>`, which no symbol name can be.
//!
//! Semantics are SMT-LIB's (theories Core, Ints, Reals_Ints, FixedSizeBitVectors,
//! ArraysEx): `div`/`mod` are Euclidean (`-7 div 2 == -4`, `-7 mod 2 == 1`), `x div 0`,
//! `x mod 0` and `x / 0.0` are unspecified but functional; bit-vector operations are
//! [`theory::Op`]s. Maps of any arity are total functions; a back end may curry them.
//!
//! Iteration order never depends on hashing: the dedup table is only ever probed.

use crate::sema::hir;
use crate::vc::theory;
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use std::collections::{HashMap, HashSet};
use std::fmt::{self, Write as _};
use std::sync::Arc;

/// A term of a [`Terms`] arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TermId(u32);

/// A declared constant or function of a [`Terms`] arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SymbolId(u32);

/// A variable bound by a quantifier or lambda of a [`Terms`] arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VarId(u32);

macro_rules! arena_index {
    ($name:ident, $what:literal) => {
        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }

            pub fn from_index(index: usize) -> $name {
                $name(u32::try_from(index).expect(concat!("fewer than 2^32 ", $what, " per arena")))
            }
        }
    };
}

arena_index!(TermId, "terms");
arena_index!(SymbolId, "symbols");
arena_index!(VarId, "bound variables");

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Sort {
    Bool,
    Int,
    Real,
    /// N-bit vectors.
    BitVec(u32),
    /// A user-declared uninterpreted type.
    Named(hir::TypeId),
    Array(Arc<ArraySort>),
}

/// A map sort `[domain]range`, of any arity.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ArraySort {
    pub domain: Vec<Sort>,
    pub range: Sort,
}

impl Sort {
    /// The sort of values of a HIR type (synonyms are already expanded there).
    pub fn of_type(ty: &hir::Type) -> Sort {
        match ty {
            hir::Type::Int => Sort::Int,
            hir::Type::Bool => Sort::Bool,
            hir::Type::Real => Sort::Real,
            hir::Type::BitVector(width) => Sort::BitVec(*width),
            hir::Type::Named(id, _) => Sort::Named(*id),
            hir::Type::Param(_) => {
                unreachable!("{}", crate::cfg::support::OUTSIDE_ENGINE)
            }
            hir::Type::Map(map) => {
                Sort::array(map.domain.iter().map(Sort::of_type).collect(), Sort::of_type(&map.range))
            }
        }
    }

    pub fn array(domain: Vec<Sort>, range: Sort) -> Sort {
        Sort::Array(Arc::new(ArraySort { domain, range }))
    }

    fn as_array(&self) -> &ArraySort {
        match self {
            Sort::Array(array) => array,
            other => panic!("expected a map sort, found {other}"),
        }
    }
}

impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sort::Bool => f.write_str("Bool"),
            Sort::Int => f.write_str("Int"),
            Sort::Real => f.write_str("Real"),
            Sort::BitVec(width) => write!(f, "(_ BitVec {width})"),
            Sort::Named(id) => write!(f, "T{}", id.0),
            Sort::Array(array) => {
                f.write_str("(Array")?;
                for sort in &array.domain {
                    write!(f, " {sort}")?;
                }
                write!(f, " {})", array.range)
            }
        }
    }
}

/// A constant (empty `domain`) or an uninterpreted function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub domain: Vec<Sort>,
    pub range: Sort,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundVar {
    pub name: String,
    pub sort: Sort,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    /// Euclidean division (SMT-LIB `div`).
    Div,
    /// Euclidean remainder (SMT-LIB `mod`), never negative.
    Mod,
    /// Real division (SMT-LIB `/`).
    RealDiv,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QuantKind {
    Forall,
    Exists,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    Bool(bool),
    Int(BigInt),
    Real(BigRational),
    /// A bit-vector literal: its unsigned value (below `2^width`) and its width.
    BitVec(BigUint, u32),
    /// An interpreted operation of the reals or the bit-vectors.
    Op(theory::Op, Vec<TermId>),
    /// A symbol applied to arguments (none for a constant).
    App(SymbolId, Vec<TermId>),
    /// A bound variable, meaningful under its binder only.
    Var(VarId),
    Not(TermId),
    And(Vec<TermId>),
    Or(Vec<TermId>),
    Implies(TermId, TermId),
    Iff(TermId, TermId),
    Ite(TermId, TermId, TermId),
    Eq(TermId, TermId),
    Distinct(Vec<TermId>),
    Neg(TermId),
    Arith(ArithOp, TermId, TermId),
    Cmp(CmpOp, TermId, TermId),
    Select(TermId, Vec<TermId>),
    Store(TermId, Vec<TermId>, TermId),
    /// `patterns` are multi-patterns (triggers); empty: the solver chooses.
    Quant {
        kind: QuantKind,
        vars: Vec<VarId>,
        patterns: Vec<Vec<TermId>>,
        body: TermId,
    },
    /// The map `λ vars. body`, of sort `[sorts of vars]sort of body`.
    Lambda(Vec<VarId>, TermId),
}

/// The arena. See the module documentation for its invariants.
#[derive(Clone, Debug, Default)]
pub struct Terms {
    nodes: Vec<Term>,
    sorts: Vec<Sort>,
    /// Whether each term contains a lambda.
    lambdas: Vec<bool>,
    dedup: HashMap<Term, TermId>,
    symbols: Vec<Symbol>,
    symbol_names: HashMap<String, SymbolId>,
    vars: Vec<BoundVar>,
}

impl Terms {
    pub fn new() -> Terms {
        Terms::default()
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Every term id, in creation order (children before parents).
    pub fn ids(&self) -> impl Iterator<Item = TermId> {
        (0..self.nodes.len()).map(TermId::from_index)
    }

    pub fn get(&self, id: TermId) -> &Term {
        &self.nodes[id.index()]
    }

    pub fn sort(&self, id: TermId) -> &Sort {
        &self.sorts[id.index()]
    }

    /// Whether some term is a universal quantifier.
    pub fn has_forall(&self) -> bool {
        self.nodes.iter().any(|term| matches!(term, Term::Quant { kind: QuantKind::Forall, .. }))
    }

    /// How many distinct quantified terms there are (each counted once, however often
    /// it is shared).
    pub fn count_quantifiers(&self) -> usize {
        self.nodes.iter().filter(|term| matches!(term, Term::Quant { .. })).count()
    }

    /// Whether `id` has a lambda among its subterms (itself included).
    pub fn contains_lambda(&self, id: TermId) -> bool {
        self.lambdas[id.index()]
    }

    pub fn symbols(&self) -> &[Symbol] {
        &self.symbols
    }

    pub fn symbol(&self, id: SymbolId) -> &Symbol {
        &self.symbols[id.index()]
    }

    pub fn vars(&self) -> &[BoundVar] {
        &self.vars
    }

    pub fn var(&self, id: VarId) -> &BoundVar {
        &self.vars[id.index()]
    }

    /// Declares a symbol. Names are unique by construction of their callers.
    pub fn declare(&mut self, name: String, domain: Vec<Sort>, range: Sort) -> SymbolId {
        let id = SymbolId::from_index(self.symbols.len());
        let previous = self.symbol_names.insert(name.clone(), id);
        assert!(previous.is_none(), "symbol `{name}` declared twice");
        self.symbols.push(Symbol { name, domain, range });
        id
    }

    /// `name`, or when a symbol has it already, `name%2`, `name%3`, … (no Boogie
    /// identifier holds `%`): a program may declare one function or constant twice
    /// when one is `{:extern}`, as Boogie allows.
    pub fn unused_name(&self, name: &str) -> String {
        if !self.symbol_names.contains_key(name) {
            return name.to_string();
        }
        (2..)
            .map(|n| format!("{name}%{n}"))
            .find(|candidate| !self.symbol_names.contains_key(candidate))
            .expect("unbounded")
    }

    /// Declares a constant and returns it as a term.
    pub fn constant(&mut self, name: String, sort: Sort) -> TermId {
        let symbol = self.declare(name, Vec::new(), sort);
        self.app(symbol, Vec::new())
    }

    /// A new bound variable `<name>!<n>`; `n` makes it distinct from every other.
    pub fn fresh_var(&mut self, name: &str, sort: Sort) -> VarId {
        let id = VarId::from_index(self.vars.len());
        self.vars.push(BoundVar { name: format!("{name}!{}", id.0), sort });
        id
    }

    pub fn var_term(&mut self, var: VarId) -> TermId {
        let sort = self.var(var).sort.clone();
        self.intern(Term::Var(var), sort)
    }

    pub fn bool(&mut self, value: bool) -> TermId {
        self.intern(Term::Bool(value), Sort::Bool)
    }

    pub fn int(&mut self, value: BigInt) -> TermId {
        self.intern(Term::Int(value), Sort::Int)
    }

    pub fn real(&mut self, value: BigRational) -> TermId {
        self.intern(Term::Real(value), Sort::Real)
    }

    pub fn bit_vec(&mut self, value: BigUint, width: u32) -> TermId {
        debug_assert!(value.bits() <= u64::from(width), "{value} fits in {width} bits");
        self.intern(Term::BitVec(value, width), Sort::BitVec(width))
    }

    /// An interpreted operation; its operands' sorts are the checker's to make fit.
    pub fn op(&mut self, op: theory::Op, operands: Vec<TermId>) -> TermId {
        let sorts: Vec<&Sort> = operands.iter().map(|&operand| self.sort(operand)).collect();
        let sort = op.sort(&sorts).unwrap_or_else(|why| panic!("an ill-sorted operation: {why}"));
        self.intern(Term::Op(op, operands), sort)
    }

    pub fn app(&mut self, symbol: SymbolId, args: Vec<TermId>) -> TermId {
        let declared = self.symbol(symbol);
        debug_assert_eq!(declared.domain.len(), args.len(), "arity of `{}`", declared.name);
        debug_assert!(declared.domain.iter().zip(&args).all(|(sort, &arg)| sort == self.sort(arg)));
        let range = declared.range.clone();
        self.intern(Term::App(symbol, args), range)
    }

    pub fn not(&mut self, operand: TermId) -> TermId {
        match *self.get(operand) {
            Term::Bool(value) => self.bool(!value),
            Term::Not(inner) => inner,
            _ => self.intern(Term::Not(operand), Sort::Bool),
        }
    }

    /// Conjunction; `true` operands are dropped, a `false` one absorbs the rest. Nested
    /// conjunctions are kept nested, so that a shared prefix stays shared.
    pub fn and(&mut self, operands: Vec<TermId>) -> TermId {
        self.junction(operands, true, Term::And)
    }

    /// Disjunction; the dual of [`Terms::and`].
    pub fn or(&mut self, operands: Vec<TermId>) -> TermId {
        self.junction(operands, false, Term::Or)
    }

    fn junction(&mut self, operands: Vec<TermId>, unit: bool, make: fn(Vec<TermId>) -> Term) -> TermId {
        let mut kept = Vec::with_capacity(operands.len());
        for operand in operands {
            match *self.get(operand) {
                Term::Bool(value) if value == unit => {}
                Term::Bool(_) => return operand,
                _ if kept.contains(&operand) => {}
                _ => kept.push(operand),
            }
        }
        match kept.len() {
            0 => self.bool(unit),
            1 => kept[0],
            _ => self.intern(make(kept), Sort::Bool),
        }
    }

    pub fn implies(&mut self, lhs: TermId, rhs: TermId) -> TermId {
        match (self.get(lhs), self.get(rhs)) {
            (Term::Bool(true), _) => rhs,
            (Term::Bool(false), _) | (_, Term::Bool(true)) => self.bool(true),
            _ if lhs == rhs => self.bool(true),
            _ => self.intern(Term::Implies(lhs, rhs), Sort::Bool),
        }
    }

    pub fn iff(&mut self, lhs: TermId, rhs: TermId) -> TermId {
        if lhs == rhs {
            return self.bool(true);
        }
        self.intern(Term::Iff(lhs, rhs), Sort::Bool)
    }

    pub fn ite(&mut self, cond: TermId, then_term: TermId, else_term: TermId) -> TermId {
        debug_assert_eq!(self.sort(then_term), self.sort(else_term));
        match self.get(cond) {
            Term::Bool(true) => then_term,
            Term::Bool(false) => else_term,
            _ if then_term == else_term => then_term,
            _ => {
                let sort = self.sort(then_term).clone();
                self.intern(Term::Ite(cond, then_term, else_term), sort)
            }
        }
    }

    pub fn eq(&mut self, lhs: TermId, rhs: TermId) -> TermId {
        debug_assert_eq!(self.sort(lhs), self.sort(rhs));
        if lhs == rhs {
            return self.bool(true);
        }
        self.intern(Term::Eq(lhs, rhs), Sort::Bool)
    }

    pub fn distinct(&mut self, operands: Vec<TermId>) -> TermId {
        if operands.len() < 2 {
            return self.bool(true);
        }
        self.intern(Term::Distinct(operands), Sort::Bool)
    }

    pub fn neg(&mut self, operand: TermId) -> TermId {
        match self.get(operand) {
            Term::Int(value) => {
                let negated = -value.clone();
                self.int(negated)
            }
            Term::Real(value) => {
                let negated = -value.clone();
                self.real(negated)
            }
            _ => {
                let sort = self.sort(operand).clone();
                self.intern(Term::Neg(operand), sort)
            }
        }
    }

    /// Arithmetic on two `Int`s or two `Real`s (`div`, `mod`: `Int`s; `/`: `Real`s).
    pub fn arith(&mut self, op: ArithOp, lhs: TermId, rhs: TermId) -> TermId {
        let sort = self.sort(lhs).clone();
        debug_assert!(matches!(sort, Sort::Int | Sort::Real) && self.sort(rhs) == &sort);
        debug_assert!(match op {
            ArithOp::Div | ArithOp::Mod => sort == Sort::Int,
            ArithOp::RealDiv => sort == Sort::Real,
            ArithOp::Add | ArithOp::Sub | ArithOp::Mul => true,
        });
        self.intern(Term::Arith(op, lhs, rhs), sort)
    }

    /// A comparison of two `Int`s or two `Real`s.
    pub fn cmp(&mut self, op: CmpOp, lhs: TermId, rhs: TermId) -> TermId {
        debug_assert!(matches!(self.sort(lhs), Sort::Int | Sort::Real) && self.sort(rhs) == self.sort(lhs));
        self.intern(Term::Cmp(op, lhs, rhs), Sort::Bool)
    }

    pub fn select(&mut self, map: TermId, indices: Vec<TermId>) -> TermId {
        let array = self.sort(map).as_array();
        debug_assert_eq!(array.domain.len(), indices.len());
        let range = array.range.clone();
        self.intern(Term::Select(map, indices), range)
    }

    pub fn store(&mut self, map: TermId, indices: Vec<TermId>, value: TermId) -> TermId {
        debug_assert_eq!(&self.sort(map).as_array().range, self.sort(value));
        let sort = self.sort(map).clone();
        self.intern(Term::Store(map, indices, value), sort)
    }

    /// A quantifier; without variables it is its body. A multi-pattern that does not
    /// mention every bound variable is dropped: Boogie drops such triggers and z3
    /// rejects them, and splitting a bound heap into one map per instance
    /// ([`crate::mono`]) leaves a trigger on a selection naming one component only.
    /// Without patterns the solver chooses its own.
    pub fn quant(&mut self, kind: QuantKind, vars: Vec<VarId>, patterns: Vec<Vec<TermId>>, body: TermId) -> TermId {
        if vars.is_empty() || matches!(self.get(body), Term::Bool(_)) {
            return body;
        }
        let patterns = patterns.into_iter().filter(|pattern| self.mentions_all(pattern, &vars)).collect();
        self.intern(Term::Quant { kind, vars, patterns, body }, Sort::Bool)
    }

    /// Whether the terms `roots` mention each of `vars`.
    pub fn mentions_all(&self, roots: &[TermId], vars: &[VarId]) -> bool {
        let mut missing: Vec<VarId> = vars.to_vec();
        let mut pending: Vec<TermId> = roots.to_vec();
        let mut seen = std::collections::HashSet::new();
        while let Some(term) = pending.pop() {
            if missing.is_empty() {
                break;
            }
            if !seen.insert(term) {
                continue;
            }
            match self.get(term) {
                Term::Var(var) => missing.retain(|wanted| wanted != var),
                other => pending.extend(children(other)),
            }
        }
        missing.is_empty()
    }

    /// Whether `id` binds variables anywhere inside it (a quantifier or a λ).
    pub fn binds(&self, id: TermId) -> bool {
        let mut seen = HashSet::new();
        let mut stack = vec![id];
        while let Some(id) = stack.pop() {
            if !seen.insert(id) {
                continue;
            }
            match self.get(id) {
                Term::Quant { .. } | Term::Lambda(..) => return true,
                term => stack.extend(children(term)),
            }
        }
        false
    }

    pub fn forall(&mut self, vars: Vec<VarId>, patterns: Vec<Vec<TermId>>, body: TermId) -> TermId {
        self.quant(QuantKind::Forall, vars, patterns, body)
    }

    pub fn lambda(&mut self, vars: Vec<VarId>, body: TermId) -> TermId {
        let domain = vars.iter().map(|&var| self.var(var).sort.clone()).collect();
        let sort = Sort::array(domain, self.sort(body).clone());
        self.intern(Term::Lambda(vars, body), sort)
    }

    fn intern(&mut self, term: Term, sort: Sort) -> TermId {
        if let Some(&id) = self.dedup.get(&term) {
            return id;
        }
        let id = TermId::from_index(self.nodes.len());
        let lambda =
            matches!(term, Term::Lambda(..)) || children(&term).iter().any(|child| self.lambdas[child.index()]);
        self.nodes.push(term.clone());
        self.sorts.push(sort);
        self.lambdas.push(lambda);
        self.dedup.insert(term, id);
        id
    }

    /// The term as an SMT-LIB-like s-expression, fully expanded (for dumps and tests;
    /// shared subterms are printed at each use).
    pub fn render(&self, id: TermId) -> String {
        let mut out = String::new();
        self.render_into(id, &mut out);
        out
    }

    fn render_into(&self, id: TermId, out: &mut String) {
        match self.get(id) {
            Term::Bool(value) => push(out, format_args!("{value}")),
            Term::Int(value) if value.sign() == num_bigint::Sign::Minus => push(out, format_args!("(- {})", -value)),
            Term::Int(value) => push(out, format_args!("{value}")),
            Term::Real(value) => render_real(value, out),
            Term::BitVec(value, width) => push(out, format_args!("(_ bv{value} {width})")),
            Term::Op(op, args) => self.render_call(&op.smt_name(), args, out),
            Term::App(symbol, args) => self.render_call(&self.symbol(*symbol).name, args, out),
            Term::Var(var) => out.push_str(&self.var(*var).name),
            Term::Not(a) => self.render_call("not", &[*a], out),
            Term::And(args) => self.render_call("and", args, out),
            Term::Or(args) => self.render_call("or", args, out),
            Term::Implies(a, b) => self.render_call("=>", &[*a, *b], out),
            Term::Iff(a, b) | Term::Eq(a, b) => self.render_call("=", &[*a, *b], out),
            Term::Ite(c, t, e) => self.render_call("ite", &[*c, *t, *e], out),
            Term::Distinct(args) => self.render_call("distinct", args, out),
            Term::Neg(a) => self.render_call("-", &[*a], out),
            Term::Arith(op, a, b) => self.render_call(arith_name(*op), &[*a, *b], out),
            Term::Cmp(op, a, b) => self.render_call(cmp_name(*op), &[*a, *b], out),
            Term::Select(map, indices) => self.render_call("select", &[&[*map], &indices[..]].concat(), out),
            Term::Store(map, indices, value) => {
                self.render_call("store", &[&[*map], &indices[..], &[*value]].concat(), out)
            }
            Term::Quant { kind, vars, patterns, body } => {
                let keyword = match kind {
                    QuantKind::Forall => "forall",
                    QuantKind::Exists => "exists",
                };
                self.render_binder(keyword, vars, out);
                self.render_patterns(*body, patterns, out);
                out.push(')');
            }
            Term::Lambda(vars, body) => {
                self.render_binder("lambda", vars, out);
                self.render_into(*body, out);
                out.push(')');
            }
        }
    }

    fn render_call(&self, head: &str, args: &[TermId], out: &mut String) {
        if args.is_empty() {
            out.push_str(head);
            return;
        }
        push(out, format_args!("({head}"));
        for &arg in args {
            out.push(' ');
            self.render_into(arg, out);
        }
        out.push(')');
    }

    fn render_binder(&self, keyword: &str, vars: &[VarId], out: &mut String) {
        push(out, format_args!("({keyword} ("));
        for (index, &var) in vars.iter().enumerate() {
            let separator = if index == 0 { "" } else { " " };
            let bound = self.var(var);
            push(out, format_args!("{separator}({} {})", bound.name, bound.sort));
        }
        out.push_str(") ");
    }

    fn render_patterns(&self, body: TermId, patterns: &[Vec<TermId>], out: &mut String) {
        if patterns.is_empty() {
            self.render_into(body, out);
            return;
        }
        out.push_str("(! ");
        self.render_into(body, out);
        for pattern in patterns {
            out.push_str(" :pattern (");
            for (index, &term) in pattern.iter().enumerate() {
                if index > 0 {
                    out.push(' ');
                }
                self.render_into(term, out);
            }
            out.push(')');
        }
        out.push(')');
    }
}

/// The direct subterms of a term (patterns included).
pub fn children(term: &Term) -> Vec<TermId> {
    match term {
        Term::Bool(_) | Term::Int(_) | Term::Real(_) | Term::BitVec(..) | Term::Var(_) => Vec::new(),
        Term::Op(_, args) | Term::App(_, args) | Term::And(args) | Term::Or(args) | Term::Distinct(args) => {
            args.clone()
        }
        Term::Not(a) | Term::Neg(a) | Term::Lambda(_, a) => vec![*a],
        Term::Implies(a, b) | Term::Iff(a, b) | Term::Eq(a, b) | Term::Arith(_, a, b) | Term::Cmp(_, a, b) => {
            vec![*a, *b]
        }
        Term::Ite(a, b, c) => vec![*a, *b, *c],
        Term::Select(map, indices) => [&[*map], &indices[..]].concat(),
        Term::Store(map, indices, value) => [&[*map], &indices[..], &[*value]].concat(),
        Term::Quant { patterns, body, .. } => patterns.iter().flatten().copied().chain([*body]).collect(),
    }
}

/// A real literal as SMT-LIB writes one: `2.5` is `(/ 5.0 2.0)`, `-3` is `(- 3.0)`.
fn render_real(value: &BigRational, out: &mut String) {
    let magnitude = if value.numer().sign() == num_bigint::Sign::Minus { -value.clone() } else { value.clone() };
    let text = if magnitude.is_integer() {
        format!("{}.0", magnitude.numer())
    } else {
        format!("(/ {}.0 {}.0)", magnitude.numer(), magnitude.denom())
    };
    if magnitude == *value {
        out.push_str(&text);
    } else {
        push(out, format_args!("(- {text})"));
    }
}

fn push(out: &mut String, args: fmt::Arguments<'_>) {
    out.write_fmt(args).expect("writing to a String cannot fail");
}

fn arith_name(op: ArithOp) -> &'static str {
    match op {
        ArithOp::Add => "+",
        ArithOp::Sub => "-",
        ArithOp::Mul => "*",
        ArithOp::Div => "div",
        ArithOp::Mod => "mod",
        ArithOp::RealDiv => "/",
    }
}

fn cmp_name(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Lt => "<",
        CmpOp::Le => "<=",
        CmpOp::Gt => ">",
        CmpOp::Ge => ">=",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_declared_twice_gets_a_suffix() {
        let mut terms = Terms::new();
        terms.constant("f".into(), Sort::Int);
        assert_eq!(terms.unused_name("g"), "g");
        assert_eq!(terms.unused_name("f"), "f%2");
        terms.constant("f%2".into(), Sort::Int);
        assert_eq!(terms.unused_name("f"), "f%3");
    }

    #[test]
    fn hash_consing_shares_equal_terms() {
        let mut terms = Terms::new();
        let x = terms.constant("x@0".into(), Sort::Int);
        let one = terms.int(1.into());
        let a = terms.arith(ArithOp::Add, x, one);
        let b = terms.arith(ArithOp::Add, x, one);
        assert_eq!(a, b);
        assert_eq!(terms.len(), 3);
        assert!(terms.ids().all(|id| match terms.get(id) {
            Term::Arith(_, lhs, rhs) => lhs < &id && rhs < &id,
            _ => true,
        }));
    }

    #[test]
    fn connectives_simplify_units() {
        let mut terms = Terms::new();
        let p = terms.constant("p".into(), Sort::Bool);
        let t = terms.bool(true);
        let f = terms.bool(false);
        assert_eq!(terms.and(vec![t, p, t]), p);
        assert_eq!(terms.and(vec![p, f]), f);
        assert_eq!(terms.or(vec![]), f);
        assert_eq!(terms.implies(t, p), p);
        let not_p = terms.not(p);
        assert_eq!(terms.not(not_p), p);
    }

    #[test]
    fn renders_smtlib_like_text() {
        let mut terms = Terms::new();
        let sort = Sort::array(vec![Sort::Int, Sort::Int], Sort::Bool);
        let m = terms.constant("m@0".into(), sort);
        let i = terms.fresh_var("i", Sort::Int);
        let i_term = terms.var_term(i);
        let minus_one = terms.int((-1).into());
        let cell = terms.select(m, vec![i_term, minus_one]);
        let all = terms.forall(vec![i], vec![vec![cell]], cell);
        assert_eq!(
            terms.render(all),
            "(forall ((i!0 Int)) (! (select m@0 i!0 (- 1)) :pattern ((select m@0 i!0 (- 1)))))"
        );
        assert_eq!(terms.sort(cell), &Sort::Bool);
    }
}
