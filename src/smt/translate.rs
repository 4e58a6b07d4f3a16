//! [`vc::Terms`](crate::vc::Terms) → z3 ASTs, in the thread-local z3 context of the
//! calling thread.
//!
//! Input: an [`Encoding`]'s arena. Output: one z3 AST per [`TermId`] and one declaration
//! per [`SymbolId`], built in one pass over the arena (children come first, see
//! [`crate::vc::term`]).
//!
//! Maps are **curried**: `[A, B]R` becomes `(Array A (Array B R))`, `m[i, j]` becomes
//! `(select (select m i) j)`, `m[i, j := v]` becomes
//! `(store m i (store (select m i) j v))`, and `λ i, j. e` becomes `λ i. λ j. e`. This is
//! exact (maps are total functions, and currying is a bijection between the two function
//! spaces, preserving extensional equality), needs only the single-index array API the
//! z3 crate offers safely, and z3 4.8.12 solves it as well as n-ary arrays. Lambdas stay
//! z3 lambdas: the alternative, a fresh array constant with a `forall` axiom, makes z3
//! 4.8.12 give up (`unknown`) on simple equalities such as `a == (λ x. x + 1)`.
//!
//! Functions with a body are z3 recursive functions (`define-fun-rec`, see
//! [`crate::vc::Definition`] for why not an axiom); the others uninterpreted.
//!
//! Reals and bit-vectors are z3's (SMT-LIB's); `**` applies the uninterpreted
//! `%real_pow`, as Boogie's `real_pow` (see [`crate::vc::theory`]).
//!
//! Bound variables are z3 constants named `<name>!<n>`, abstracted by `forall_const`,
//! `exists_const` and `lambda_const`; no symbol has such a name.

use crate::vc::term::{ArithOp, CmpOp, QuantKind, Sort, Term, TermId};
use crate::vc::theory::{BvCmp, BvOp, BvUnary, Op};
use crate::vc::{Encoding, SymbolId};
use num_rational::BigRational;
use num_traits::Signed;
use std::collections::{BTreeMap, BTreeSet};
use std::str::FromStr;
use z3::ast::{self, Ast, Bool, Dynamic, Int, Real, BV};
use z3::{FuncDecl, Pattern, RecFuncDecl, Symbol};

/// The z3 image of an arena.
pub(super) struct Z3Terms {
    asts: Vec<Dynamic>,
    decls: Vec<Decl>,
    sorts: BTreeMap<Sort, z3::Sort>,
    /// `%real_pow`, declared when `**` is first used.
    real_pow: Option<FuncDecl>,
    /// Per map input, the shapes a first look may have wished it
    /// ([`super::simple_maps`]): a model in which one's literal holds is decoded by it.
    shapes: BTreeMap<TermId, Vec<Shape>>,
}

/// A map input wished equal to `before` changed at most at `change` (an index and a
/// value, fresh constants) while `literal` holds: its model value is then read as that,
/// so that the decoded table agrees with `before`'s at every key, where z3's own value
/// of the input is exact only at the keys its search touched.
#[derive(Clone)]
pub(super) struct Shape {
    pub literal: Bool,
    pub before: TermId,
    pub change: Option<(Dynamic, Dynamic)>,
}

/// A declared symbol: uninterpreted, or defined by a (possibly recursive) body.
enum Decl {
    Uninterpreted(FuncDecl),
    Defined(RecFuncDecl),
}

impl Decl {
    fn func(&self) -> &FuncDecl {
        match self {
            Decl::Uninterpreted(decl) => decl,
            Decl::Defined(decl) => decl,
        }
    }
}

impl Z3Terms {
    pub fn new(encoding: &Encoding) -> Z3Terms {
        let mut image = Z3Terms {
            asts: Vec::with_capacity(encoding.terms.len()),
            decls: Vec::new(),
            sorts: BTreeMap::new(),
            real_pow: None,
            shapes: BTreeMap::new(),
        };
        let defined: BTreeSet<SymbolId> = encoding.definitions.iter().map(|definition| definition.symbol).collect();
        for (index, symbol) in encoding.terms.symbols().iter().enumerate() {
            let domain: Vec<z3::Sort> = symbol.domain.iter().map(|sort| image.sort(encoding, sort)).collect();
            let domain_refs: Vec<&z3::Sort> = domain.iter().collect();
            let range = image.sort(encoding, &symbol.range);
            let name = symbol.name.as_str();
            image.decls.push(if defined.contains(&SymbolId::from_index(index)) {
                Decl::Defined(RecFuncDecl::new(name, &domain_refs, &range))
            } else {
                Decl::Uninterpreted(FuncDecl::new(name, &domain_refs, &range))
            });
        }
        for id in encoding.terms.ids() {
            let ast = image.translate(encoding, id);
            image.asts.push(ast);
        }
        for definition in &encoding.definitions {
            // (define-fun-rec f ((params)) body): the parameters are abstracted like a
            // quantifier's bound variables.
            let params: Vec<Dynamic> = definition.params.iter().map(|&var| image.bound(encoding, var)).collect();
            let params: Vec<&dyn Ast> = params.iter().map(|param| param as &dyn Ast).collect();
            let Decl::Defined(decl) = &image.decls[definition.symbol.index()] else {
                unreachable!("defined symbols are declared as recursive functions above")
            };
            decl.add_def(&params, image.ast(definition.body));
        }
        image
    }

    /// Records a shape map input `term` may have been wished ([`Shape`]).
    pub(super) fn add_shape(&mut self, term: TermId, shape: Shape) {
        self.shapes.entry(term).or_default().push(shape);
    }

    /// The shapes map input `term` may have been wished.
    pub(super) fn shapes(&self, term: TermId) -> &[Shape] {
        self.shapes.get(&term).map_or(&[], Vec::as_slice)
    }

    pub fn ast(&self, id: TermId) -> &Dynamic {
        &self.asts[id.index()]
    }

    pub fn bool(&self, id: TermId) -> Bool {
        self.ast(id).as_bool().expect("the encoding passes Boolean terms where formulas are expected")
    }

    pub fn decl(&self, symbol: SymbolId) -> &FuncDecl {
        self.decls[symbol.index()].func()
    }

    /// The z3 sort of `sort`, curried for maps.
    pub fn sort(&mut self, encoding: &Encoding, sort: &Sort) -> z3::Sort {
        if let Some(known) = self.sorts.get(sort) {
            return known.clone();
        }
        let made = match sort {
            Sort::Bool => z3::Sort::bool(),
            Sort::Int => z3::Sort::int(),
            Sort::Real => z3::Sort::real(),
            Sort::BitVec(width) => z3::Sort::bitvector(*width),
            Sort::Named(id) => z3::Sort::uninterpreted(Symbol::String(encoding.type_names[id.index()].clone())),
            Sort::Array(array) => {
                let range = self.sort(encoding, &array.range);
                array
                    .domain
                    .iter()
                    .rev()
                    .fold(range, |inner, index| z3::Sort::array(&self.sort(encoding, index), &inner))
            }
        };
        self.sorts.insert(sort.clone(), made.clone());
        made
    }

    fn int(&self, id: TermId) -> Int {
        self.ast(id).as_int().expect("integer operands are integers")
    }

    fn real(&self, id: TermId) -> Real {
        self.ast(id).as_real().expect("real operands are reals")
    }

    fn bv(&self, id: TermId) -> BV {
        self.ast(id).as_bv().expect("bit-vector operands are bit-vectors")
    }

    fn bools(&self, ids: &[TermId]) -> Vec<Bool> {
        ids.iter().map(|&id| self.bool(id)).collect()
    }

    fn translate(&mut self, encoding: &Encoding, id: TermId) -> Dynamic {
        let terms = &encoding.terms;
        match terms.get(id) {
            Term::Bool(value) => Bool::from_bool(*value).into(),
            Term::Int(value) => Int::from_str(&value.to_string()).expect("a decimal numeral is a z3 numeral").into(),
            Term::Real(value) => real_numeral(value).into(),
            Term::BitVec(value, width) => {
                BV::from_str(*width, &value.to_string()).expect("a decimal numeral is a z3 bit-vector numeral").into()
            }
            Term::Op(op, operands) => self.op(*op, operands),
            Term::App(symbol, args) => {
                let args: Vec<&dyn Ast> = args.iter().map(|&arg| self.ast(arg) as &dyn Ast).collect();
                self.decls[symbol.index()].func().apply(&args)
            }
            Term::Var(var) => self.bound(encoding, *var),
            Term::Not(operand) => self.bool(*operand).not().into(),
            Term::And(operands) => Bool::and(&self.bools(operands)).into(),
            Term::Or(operands) => Bool::or(&self.bools(operands)).into(),
            Term::Implies(lhs, rhs) => self.bool(*lhs).implies(self.bool(*rhs)).into(),
            Term::Iff(lhs, rhs) => self.bool(*lhs).iff(self.bool(*rhs)).into(),
            Term::Ite(cond, then_term, else_term) => self.bool(*cond).ite(self.ast(*then_term), self.ast(*else_term)),
            Term::Eq(lhs, rhs) => self.ast(*lhs).eq(self.ast(*rhs)).into(),
            Term::Distinct(operands) => {
                let operands: Vec<&Dynamic> = operands.iter().map(|&operand| self.ast(operand)).collect();
                Dynamic::distinct(&operands).into()
            }
            Term::Neg(operand) if terms.sort(*operand) == &Sort::Real => self.real(*operand).unary_minus().into(),
            Term::Neg(operand) => self.int(*operand).unary_minus().into(),
            Term::Arith(op, lhs, rhs) if terms.sort(*lhs) == &Sort::Real => self.real_arith(*op, *lhs, *rhs).into(),
            Term::Arith(op, lhs, rhs) => self.arith(*op, *lhs, *rhs).into(),
            Term::Cmp(op, lhs, rhs) if terms.sort(*lhs) == &Sort::Real => self.real_cmp(*op, *lhs, *rhs).into(),
            Term::Cmp(op, lhs, rhs) => self.cmp(*op, *lhs, *rhs).into(),
            Term::Select(map, indices) => self.select(self.ast(*map).clone(), indices),
            Term::Store(map, indices, value) => self.store(self.ast(*map).clone(), indices, self.ast(*value)),
            Term::Quant { kind, vars, patterns, body } => {
                let bounds: Vec<Dynamic> = vars.iter().map(|&var| self.bound(encoding, var)).collect();
                let bounds: Vec<&dyn Ast> = bounds.iter().map(|bound| bound as &dyn Ast).collect();
                let patterns: Vec<Pattern> = patterns.iter().map(|pattern| self.pattern(pattern)).collect();
                let pattern_refs: Vec<&Pattern> = patterns.iter().collect();
                let body = self.bool(*body);
                match kind {
                    QuantKind::Forall => ast::forall_const(&bounds, &pattern_refs, &body).into(),
                    QuantKind::Exists => ast::exists_const(&bounds, &pattern_refs, &body).into(),
                }
            }
            Term::Lambda(vars, body) => {
                // λ v1 … vn. e  =  λ v1. (λ v2. … (λ vn. e))
                let mut curried = self.ast(*body).clone();
                for &var in vars.iter().rev() {
                    let bound = self.bound(encoding, var);
                    curried = ast::lambda_const(&[&bound as &dyn Ast], &curried).into();
                }
                curried
            }
        }
    }

    /// The z3 constant standing for a bound variable; z3 hash-conses it, so this is the
    /// same AST as its `Var` terms.
    pub(super) fn bound(&mut self, encoding: &Encoding, var: crate::vc::term::VarId) -> Dynamic {
        let bound = encoding.terms.var(var);
        let sort = self.sort(encoding, &bound.sort);
        Dynamic::new_const(bound.name.as_str(), &sort)
    }

    fn pattern(&self, terms: &[TermId]) -> Pattern {
        let terms: Vec<&dyn Ast> = terms.iter().map(|&term| self.ast(term) as &dyn Ast).collect();
        Pattern::new(&terms)
    }

    fn arith(&self, op: ArithOp, lhs: TermId, rhs: TermId) -> Int {
        let (lhs, rhs) = (self.int(lhs), self.int(rhs));
        match op {
            ArithOp::Add => Int::add(&[lhs, rhs]),
            ArithOp::Sub => Int::sub(&[lhs, rhs]),
            ArithOp::Mul => Int::mul(&[lhs, rhs]),
            // z3's integer `div` and `mod` are SMT-LIB's: Euclidean.
            ArithOp::Div => lhs.div(rhs),
            ArithOp::Mod => lhs.modulo(rhs),
            ArithOp::RealDiv => unreachable!("`/` has real operands (the checker converts integers)"),
        }
    }

    fn real_arith(&self, op: ArithOp, lhs: TermId, rhs: TermId) -> Real {
        let (lhs, rhs) = (self.real(lhs), self.real(rhs));
        match op {
            ArithOp::Add => Real::add(&[lhs, rhs]),
            ArithOp::Sub => Real::sub(&[lhs, rhs]),
            ArithOp::Mul => Real::mul(&[lhs, rhs]),
            ArithOp::RealDiv => lhs.div(rhs),
            ArithOp::Div | ArithOp::Mod => unreachable!("`div` and `mod` have integer operands"),
        }
    }

    fn cmp(&self, op: CmpOp, lhs: TermId, rhs: TermId) -> Bool {
        let (lhs, rhs) = (self.int(lhs), self.int(rhs));
        match op {
            CmpOp::Lt => lhs.lt(rhs),
            CmpOp::Le => lhs.le(rhs),
            CmpOp::Gt => lhs.gt(rhs),
            CmpOp::Ge => lhs.ge(rhs),
        }
    }

    fn real_cmp(&self, op: CmpOp, lhs: TermId, rhs: TermId) -> Bool {
        let (lhs, rhs) = (self.real(lhs), self.real(rhs));
        match op {
            CmpOp::Lt => lhs.lt(rhs),
            CmpOp::Le => lhs.le(rhs),
            CmpOp::Gt => lhs.gt(rhs),
            CmpOp::Ge => lhs.ge(rhs),
        }
    }

    /// An interpreted operation of the reals or the bit-vectors.
    fn op(&mut self, op: Op, operands: &[TermId]) -> Dynamic {
        let first = operands[0];
        match op {
            Op::ToReal => Real::from_int(&self.int(first)).into(),
            Op::ToInt => self.real(first).to_int().into(),
            Op::RealPow => {
                let real = z3::Sort::real();
                let decl = self.real_pow.get_or_insert_with(|| FuncDecl::new("%real_pow", &[&real, &real], &real));
                let operands: Vec<&dyn Ast> =
                    operands.iter().map(|&operand| &self.asts[operand.index()] as &dyn Ast).collect();
                decl.apply(&operands)
            }
            Op::Bv(op) => self.bv_op(op, &self.bv(first), &self.bv(operands[1])).into(),
            Op::BvUnary(BvUnary::Not) => self.bv(first).bvnot().into(),
            Op::BvUnary(BvUnary::Neg) => self.bv(first).bvneg().into(),
            Op::BvCmp(cmp) => bv_cmp(cmp, &self.bv(first), &self.bv(operands[1])).into(),
            Op::Extract { high, low } => self.bv(first).extract(high, low).into(),
            Op::Concat => self.bv(first).concat(self.bv(operands[1])).into(),
            Op::SignExtend(more) => self.bv(first).sign_ext(more).into(),
            Op::ZeroExtend(more) => self.bv(first).zero_ext(more).into(),
            Op::Bv2Nat => self.bv(first).to_int(false).into(),
            Op::Int2Bv(width) => BV::from_int(&self.int(first), width).into(),
        }
    }

    fn bv_op(&self, op: BvOp, lhs: &BV, rhs: &BV) -> BV {
        match op {
            BvOp::Add => lhs.bvadd(rhs),
            BvOp::Sub => lhs.bvsub(rhs),
            BvOp::Mul => lhs.bvmul(rhs),
            BvOp::Udiv => lhs.bvudiv(rhs),
            BvOp::Urem => lhs.bvurem(rhs),
            BvOp::Sdiv => lhs.bvsdiv(rhs),
            BvOp::Srem => lhs.bvsrem(rhs),
            BvOp::Smod => lhs.bvsmod(rhs),
            BvOp::Shl => lhs.bvshl(rhs),
            BvOp::Lshr => lhs.bvlshr(rhs),
            BvOp::Ashr => lhs.bvashr(rhs),
            BvOp::And => lhs.bvand(rhs),
            BvOp::Or => lhs.bvor(rhs),
            BvOp::Xor => lhs.bvxor(rhs),
        }
    }

    /// m[i1, …, in] = (select … (select m i1) … in)
    fn select(&self, map: Dynamic, indices: &[TermId]) -> Dynamic {
        indices.iter().fold(map, |curried, &index| {
            curried.as_array().expect("only maps are selected from").select(self.ast(index))
        })
    }

    /// m[i1, i2, … := v] = (store m i1 m[i1][i2, … := v]); a nullary map (`[]int`,
    /// whose sort is its range's) updated with no index is the value itself.
    fn store(&self, map: Dynamic, indices: &[TermId], value: &Dynamic) -> Dynamic {
        let Some((&first, rest)) = indices.split_first() else {
            return value.clone();
        };
        let array = map.as_array().expect("only maps are updated");
        let first = self.ast(first);
        let row = array.select(first);
        let updated_row = self.store(row, rest, value);
        array.store(first, &updated_row).into()
    }
}

fn bv_cmp(cmp: BvCmp, lhs: &BV, rhs: &BV) -> Bool {
    match cmp {
        BvCmp::Ult => lhs.bvult(rhs),
        BvCmp::Ule => lhs.bvule(rhs),
        BvCmp::Ugt => lhs.bvugt(rhs),
        BvCmp::Uge => lhs.bvuge(rhs),
        BvCmp::Slt => lhs.bvslt(rhs),
        BvCmp::Sle => lhs.bvsle(rhs),
        BvCmp::Sgt => lhs.bvsgt(rhs),
        BvCmp::Sge => lhs.bvsge(rhs),
    }
}

/// An exact real numeral: z3 reads `n/d` with a non-negative numerator; a negative one
/// is the negation of its magnitude.
pub(super) fn real_numeral(value: &BigRational) -> Real {
    let magnitude = value.abs();
    let numeral = Real::from_rational_str(&magnitude.numer().to_string(), &magnitude.denom().to_string())
        .expect("decimal numerals are z3 real numerals");
    if value.is_negative() {
        numeral.unary_minus()
    } else {
        numeral
    }
}
