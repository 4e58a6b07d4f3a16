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
//! **Maps without the array theory.** A session may instead encode maps as Boogie 2.4.1
//! does without `/useArrayTheory` ([`MapEncoding::Uninterpreted`]): each (curried) level
//! `[K]V` is an uninterpreted sort `T@[K]V` with `Select_[K]V : T@[K]V × K → V` and, once
//! a map of it is updated, `Store_[K]V : T@[K]V × K × V → T@[K]V` and Boogie's two
//! axioms, `Select(Store(m, i, v), i) == v` and `i != j ==> Select(Store(m, i, v), j) ==
//! Select(m, j)` (no patterns: z3 infers Boogie's). There is no extensionality, so this
//! theory is weaker than the arrays': every model of the array encoding is one of this
//! (the sort read as the functions from `K` to `V`), so `unsat` stays a proof, and a
//! model may only be spurious, which replay judges. On Boogie's driver models
//! (`Test/havoc0`) z3 answers Boogie's queries in 0.8 s this way and in 20.7 s with the
//! array theory. A lambda has no image under this scheme: an encoding with one keeps
//! the arrays ([`MapEncoding::for_encoding`]).
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

/// How an image encodes maps (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum MapEncoding {
    /// z3's array theory, curried.
    Arrays,
    /// Boogie 2.4.1's encoding without the array theory: an uninterpreted sort per
    /// curried level, with `Select` and `Store` functions and their two axioms.
    Uninterpreted,
}

impl MapEncoding {
    /// `wanted`, unless it is [`MapEncoding::Uninterpreted`] and `encoding` has a lambda,
    /// which only the array theory expresses: then [`MapEncoding::Arrays`] for the whole
    /// encoding rather than half of it translated each way.
    pub(super) fn for_encoding(wanted: MapEncoding, encoding: &Encoding) -> MapEncoding {
        if wanted == MapEncoding::Uninterpreted && super::session::has_lambda(encoding) {
            MapEncoding::Arrays
        } else {
            wanted
        }
    }
}

/// One curried level `[K]V` of a map sort under [`MapEncoding::Uninterpreted`].
struct MapLevel {
    /// `T@[K]V`.
    sort: z3::Sort,
    /// `Select_[K]V`.
    select: FuncDecl,
    /// `K`.
    key: z3::Sort,
    /// `Store_[K]V`, declared (and its axioms made) when a map of the level is first
    /// updated.
    store: Option<FuncDecl>,
}

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
    /// The fresh keys at which wished constant maps are read
    /// ([`super::simple_maps`]'s probes): points a candidate may name.
    probes: Vec<Dynamic>,
    maps: MapEncoding,
    /// Under [`MapEncoding::Uninterpreted`], each curried level by its one-index sort
    /// ([`level_sort`]).
    levels: BTreeMap<Sort, MapLevel>,
    /// The axioms of the `Store` functions declared since the last
    /// [`Z3Terms::take_map_axioms`], to be asserted.
    map_axioms: Vec<Bool>,
    /// Every map level's axioms made so far ([`Z3Terms::store_axioms`]).
    store_axioms: Vec<Bool>,
}

/// A map input wished of a `form` while `literal` holds: its model value is then read
/// as that form says, so that the decoded table agrees with the form at every key,
/// where z3's own value of the input is exact only at the keys its search touched.
#[derive(Clone)]
pub(super) struct Shape {
    pub literal: Bool,
    pub form: ShapeForm,
}

/// See [`Shape`].
#[derive(Clone)]
pub(super) enum ShapeForm {
    /// Equal to `before` changed at most at `change` (an index and a value, fresh
    /// constants).
    Changed { before: TermId, change: Option<(Dynamic, Dynamic)> },
    /// Constantly the value but at most at `change` (an index and a value, fresh
    /// constants). Decoded by this shape under [`MapEncoding::Uninterpreted`], where the
    /// model's `Select` table of the constant map has only the keys E-matching touched;
    /// the arrays' constant map decodes as one by itself, and the shape only names the
    /// index ([`Z3Terms::wished_indices`]).
    Constant { value: Dynamic, change: Option<(Dynamic, Dynamic)> },
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
    /// The image of `encoding` with maps encoded as `maps` says (see
    /// [`MapEncoding::for_encoding`]); under [`MapEncoding::Uninterpreted`] the caller
    /// asserts [`Z3Terms::take_map_axioms`] beside the encoding's assertions.
    pub fn new(encoding: &Encoding, maps: MapEncoding) -> Z3Terms {
        let mut image = Z3Terms {
            asts: Vec::with_capacity(encoding.terms.len()),
            decls: Vec::new(),
            sorts: BTreeMap::new(),
            real_pow: None,
            shapes: BTreeMap::new(),
            probes: Vec::new(),
            maps,
            levels: BTreeMap::new(),
            map_axioms: Vec::new(),
            store_axioms: Vec::new(),
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

    /// Records `probe`, a fresh key at which a wished map is read.
    pub(super) fn add_probe(&mut self, probe: Dynamic) {
        self.probes.push(probe);
    }

    /// The fresh indices at which wished maps may differ from the map they are wished
    /// like (a constant, or the map before a call), in input order, then the probes:
    /// the fresh points of the wishes, which name points a candidate made up.
    pub(super) fn wished_indices(&self) -> impl Iterator<Item = &Dynamic> {
        let changes = self.shapes.values().flatten().filter_map(|shape| match &shape.form {
            ShapeForm::Changed { change, .. } | ShapeForm::Constant { change, .. } => {
                change.as_ref().map(|(index, _)| index)
            }
        });
        changes.chain(&self.probes)
    }

    /// How this image encodes maps.
    pub(super) fn maps(&self) -> MapEncoding {
        self.maps
    }

    /// The axioms of the map levels updated since the last call (under
    /// [`MapEncoding::Uninterpreted`]; none under the arrays), to be asserted.
    pub(super) fn take_map_axioms(&mut self) -> Vec<Bool> {
        std::mem::take(&mut self.map_axioms)
    }

    /// The axioms of every map level updated so far (under
    /// [`MapEncoding::Uninterpreted`]), taken or not: for a second solver.
    pub(super) fn store_axioms(&self) -> &[Bool] {
        &self.store_axioms
    }

    /// `Select_[K]V` of the level with keys `key` and values `value`, and the z3 sort of
    /// its keys (under [`MapEncoding::Uninterpreted`], once the level is declared).
    pub(super) fn select_decl(&self, key: &Sort, value: &Sort) -> Option<(&FuncDecl, &z3::Sort)> {
        self.levels.get(&level_sort(key, value)).map(|level| (&level.select, &level.key))
    }

    /// `map[index]` at one level of keys `key` and values `value`, in either encoding.
    pub(super) fn select_one(
        &mut self,
        encoding: &Encoding,
        map: &Dynamic,
        (key, value): (&Sort, &Sort),
        index: &Dynamic,
    ) -> Dynamic {
        match self.maps {
            MapEncoding::Arrays => map.as_array().expect("only maps are selected from").select(index),
            MapEncoding::Uninterpreted => self.level(encoding, key, value).select.apply(&[map, index]),
        }
    }

    /// `map[index := new]` at one level of keys `key` and values `value`, in either
    /// encoding.
    pub(super) fn store_one(
        &mut self,
        encoding: &Encoding,
        map: &Dynamic,
        (key, value): (&Sort, &Sort),
        (index, new): (&Dynamic, &Dynamic),
    ) -> Dynamic {
        match self.maps {
            MapEncoding::Arrays => map.as_array().expect("only maps are updated").store(index, new).into(),
            MapEncoding::Uninterpreted => self.store_decl(encoding, key, value).apply(&[map, index, new]),
        }
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
            Sort::Array(array) if self.maps == MapEncoding::Uninterpreted => match array.domain.split_first() {
                Some((key, rest)) => self.level(encoding, key, &curried(rest, &array.range)).sort.clone(),
                None => self.sort(encoding, &array.range),
            },
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
            Term::Select(map, indices) => {
                let levels = levels(terms.sort(*map), indices.len());
                let indices: Vec<Dynamic> = indices.iter().map(|&index| self.ast(index).clone()).collect();
                self.select(encoding, self.ast(*map).clone(), &levels, &indices)
            }
            Term::Store(map, indices, value) => {
                let levels = levels(terms.sort(*map), indices.len());
                let indices: Vec<Dynamic> = indices.iter().map(|&index| self.ast(index).clone()).collect();
                self.store(encoding, self.ast(*map).clone(), (&levels, &indices), &self.ast(*value).clone())
            }
            Term::Quant { kind, vars, patterns, body } => {
                self.quantifier(encoding, *kind, vars, patterns, *body).into()
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

    /// The quantifier `kind vars {patterns} body` over terms of `encoding` already
    /// translated (a quantified term's own, or the same body under other triggers).
    pub(super) fn quantifier(
        &mut self,
        encoding: &Encoding,
        kind: QuantKind,
        vars: &[crate::vc::term::VarId],
        patterns: &[Vec<TermId>],
        body: TermId,
    ) -> Bool {
        let bounds: Vec<Dynamic> = vars.iter().map(|&var| self.bound(encoding, var)).collect();
        let bounds: Vec<&dyn Ast> = bounds.iter().map(|bound| bound as &dyn Ast).collect();
        let patterns: Vec<Pattern> = patterns.iter().map(|pattern| self.pattern(pattern)).collect();
        let pattern_refs: Vec<&Pattern> = patterns.iter().collect();
        let body = self.bool(body);
        if bounds.is_empty() {
            // A quantifier over no variable is its body; z3 refuses to build one (a
            // type-quantified formula of the program, once monomorphized, may bind none).
            return body;
        }
        match kind {
            QuantKind::Forall => ast::forall_const(&bounds, &pattern_refs, &body),
            QuantKind::Exists => ast::exists_const(&bounds, &pattern_refs, &body),
        }
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

    /// m[i1, …, in] = (select … (select m i1) … in); `levels` are the (key, value)
    /// sorts of each selection.
    fn select(&mut self, encoding: &Encoding, map: Dynamic, levels: &[(Sort, Sort)], indices: &[Dynamic]) -> Dynamic {
        (levels.iter().zip(indices))
            .fold(map, |curried, ((key, value), index)| self.select_one(encoding, &curried, (key, value), index))
    }

    /// m[i1, i2, … := v] = (store m i1 m[i1][i2, … := v]); a nullary map (`[]int`,
    /// whose sort is its range's) updated with no index is the value itself.
    fn store(
        &mut self,
        encoding: &Encoding,
        map: Dynamic,
        (levels, indices): (&[(Sort, Sort)], &[Dynamic]),
        value: &Dynamic,
    ) -> Dynamic {
        let (Some(((key, range), rest)), Some((first, rest_indices))) = (levels.split_first(), indices.split_first())
        else {
            return value.clone();
        };
        let row = self.select_one(encoding, &map, (key, range), first);
        let updated_row = self.store(encoding, row, (rest, rest_indices), value);
        self.store_one(encoding, &map, (key, range), (first, &updated_row))
    }

    /// The level of keys `key` and values `value` (curried), declared at first use.
    fn level(&mut self, encoding: &Encoding, key: &Sort, value: &Sort) -> &MapLevel {
        let sort = level_sort(key, value);
        if !self.levels.contains_key(&sort) {
            let name = sort_name(encoding, &sort);
            let (key_sort, value_sort) = (self.sort(encoding, key), self.sort(encoding, value));
            let map_sort = z3::Sort::uninterpreted(Symbol::String(format!("T@{name}")));
            let select = FuncDecl::new(format!("Select_{name}"), &[&map_sort, &key_sort], &value_sort);
            self.levels.insert(sort.clone(), MapLevel { sort: map_sort, select, key: key_sort, store: None });
        }
        &self.levels[&sort]
    }

    /// `Store_[K]V` of the level of keys `key` and values `value`; declared at first
    /// use, when its two axioms join [`Z3Terms::take_map_axioms`].
    fn store_decl(&mut self, encoding: &Encoding, key: &Sort, value: &Sort) -> &FuncDecl {
        if self.level(encoding, key, value).store.is_none() {
            self.declare_store(encoding, key, value);
        }
        self.levels[&level_sort(key, value)].store.as_ref().expect("declared above")
    }

    /// See [`Z3Terms::store_decl`].
    fn declare_store(&mut self, encoding: &Encoding, key: &Sort, value: &Sort) {
        let name = sort_name(encoding, &level_sort(key, value));
        let (key_sort, value_sort) = (self.sort(encoding, key), self.sort(encoding, value));
        let level = self.levels.get_mut(&level_sort(key, value)).expect("the level was just declared");
        let store = FuncDecl::new(format!("Store_{name}"), &[&level.sort, &key_sort, &value_sort], &level.sort);
        let map = Dynamic::new_const("%map!m", &level.sort);
        let (index, other) = (Dynamic::new_const("%map!i", &key_sort), Dynamic::new_const("%map!j", &key_sort));
        let new = Dynamic::new_const("%map!v", &value_sort);
        let stored = store.apply(&[&map, &index, &new]);
        let at_index = level.select.apply(&[&stored, &index]).eq(&new);
        let elsewhere = index
            .eq(&other)
            .not()
            .implies(level.select.apply(&[&stored, &other]).eq(level.select.apply(&[&map, &other])));
        let axioms = [
            ast::forall_const(&[&map, &index, &new], &[], &at_index),
            ast::forall_const(&[&map, &index, &other, &new], &[], &elsewhere),
        ];
        self.map_axioms.extend(axioms.iter().cloned());
        self.store_axioms.extend(axioms);
        level.store = Some(store);
    }
}

/// The one-index sort of a curried level: keys `key`, values `value` curried.
fn level_sort(key: &Sort, value: &Sort) -> Sort {
    Sort::array(vec![key.clone()], curry(value))
}

/// `sort` with every map curried (`[A, B]R` as `[A][B]R`).
fn curry(sort: &Sort) -> Sort {
    match sort {
        Sort::Array(array) => curried(&array.domain, &array.range),
        other => other.clone(),
    }
}

/// The curried sort of a map with keys `domain` and values `range` (`range` itself when
/// there is no key).
fn curried(domain: &[Sort], range: &Sort) -> Sort {
    match domain.split_first() {
        Some((key, rest)) => Sort::array(vec![key.clone()], curried(rest, range)),
        None => curry(range),
    }
}

/// The (key, value) sorts of the first `count` curried selections from a map of `sort`.
pub(super) fn levels(sort: &Sort, count: usize) -> Vec<(Sort, Sort)> {
    let Sort::Array(array) = sort else { return Vec::new() };
    (0..count.min(array.domain.len()))
        .map(|position| (array.domain[position].clone(), curried(&array.domain[position + 1..], &array.range)))
        .collect()
}

/// Boogie's name of a sort in its map functions: `Int`, `[Int]Bool`, `[ref][Int]Int`.
fn sort_name(encoding: &Encoding, sort: &Sort) -> String {
    match sort {
        Sort::Bool => "Bool".to_string(),
        Sort::Int => "Int".to_string(),
        Sort::Real => "Real".to_string(),
        Sort::BitVec(width) => format!("bv{width}"),
        Sort::Named(id) => encoding.type_names[id.index()].clone(),
        Sort::Array(array) => match array.domain.split_first() {
            Some((key, rest)) => {
                format!("[{}]{}", sort_name(encoding, key), sort_name(encoding, &curried(rest, &array.range)))
            }
            None => sort_name(encoding, &array.range),
        },
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
/// A Boolean, integer, real or bit-vector value as its literal; `None` for any other
/// value (an element, a map, an opaque value), which has no literal.
pub(super) fn scalar_literal(value: &crate::vc::Value) -> Option<Dynamic> {
    use crate::vc::Value;
    match value {
        Value::Bool(value) => Some(Bool::from_bool(*value).into()),
        Value::Int(value) => Int::from_str(&value.to_string()).ok().map(Dynamic::from),
        Value::Real(value) => Some(real_numeral(value).into()),
        Value::BitVec { value, width } => BV::from_str(*width, &value.to_string()).map(Dynamic::from),
        Value::Elem { .. } | Value::Map(_) | Value::Opaque(_) => None,
    }
}

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

#[cfg(test)]
mod tests {
    use super::MapEncoding;
    use crate::smt::{to_smt2, Reach, Session, SessionOptions};
    use crate::vc::testing::{block, goal_encoding};
    use crate::vc::{InputKind, MapValue, Model, Value};
    use num_bigint::BigInt;
    use std::sync::Arc;

    /// `declarations`, then a hundred weak axioms when `heavy` (so the session is
    /// axiom-heavy and encodes maps without the array theory), then `procedure`.
    fn program(heavy: bool, declarations: &str, procedure: &str) -> String {
        let mut source = format!("{declarations}\nfunction g(x: int): int;\n");
        for k in 0..if heavy { 100 } else { 0 } {
            source.push_str(&format!("axiom (forall x: int :: {{ g(x + {k}) }} g(x + {k}) > -1000);\n"));
        }
        source.push_str(procedure);
        source
    }

    fn reach(heavy: bool, declarations: &str, procedure: &str) -> Reach {
        let (cfg, encoding) = goal_encoding(&program(heavy, declarations, procedure), "P");
        let mut session = Session::new(Arc::new(encoding), SessionOptions::default());
        assert_eq!(session.validates_candidates(), heavy);
        session.first_look(&[block(&cfg, "Bad")])
    }

    fn model(reach: Reach) -> Model {
        match reach {
            Reach::Sat(model) | Reach::Unknown { candidate: Some(model), .. } => model,
            other => panic!("a model: {other:?}"),
        }
    }

    fn global_map(model: &Model) -> MapValue {
        let global = model.entry.iter().find(|assignment| matches!(assignment.kind, InputKind::Global(_)));
        match &global.expect("the map is an entry input").value {
            Value::Map(map) => map.clone(),
            other => panic!("a map: {other:?}"),
        }
    }

    fn int(value: i64) -> Value {
        Value::Int(BigInt::from(value))
    }

    #[test]
    fn an_axiom_heavy_encoding_has_boogies_map_functions_and_no_arrays() {
        let procedure = "procedure P(y: int) modifies a; { start: assume g(0) > -2000; a[y] := g(y); return; }";
        let (_, heavy) = goal_encoding(&program(true, "var a: [int]int;", procedure), "P");
        let script = to_smt2(Arc::new(heavy));
        assert!(script.contains("Select_[Int]Int") && script.contains("Store_[Int]Int"), "{script}");
        assert!(!script.contains("(Array"), "no array theory: {script}");
        let (_, light) = goal_encoding(&program(false, "var a: [int]int;", procedure), "P");
        assert!(to_smt2(Arc::new(light)).contains("(Array Int Int)"), "other sessions keep the arrays");
    }

    #[test]
    fn an_encoding_with_a_lambda_keeps_the_arrays() {
        let procedure =
            "procedure P() { var b: [int]int; start: assume g(0) > -2000; b := (lambda x: int :: x + 1); return; }";
        let (_, encoding) = goal_encoding(&program(true, "", procedure), "P");
        assert_eq!(MapEncoding::for_encoding(MapEncoding::Uninterpreted, &encoding), MapEncoding::Arrays);
    }

    #[test]
    fn maps_decode_the_same_either_way() {
        let declarations = "var a: [int]int; var m: [int][int]int;";
        for (procedure, read) in [
            ("procedure P() { start: assume g(0) > -2000; goto Bad, Fine; Bad: assume a[2] == 5 && a[3] == 7; return; Fine: return; }", 0),
            ("procedure P() { start: assume g(0) > -2000; goto Bad, Fine; Bad: assume m[1][2] == 3 && m[1][4] == 6; return; Fine: return; }", 1),
        ] {
            for heavy in [false, true] {
                let model = model(reach(heavy, declarations, procedure));
                let maps: Vec<MapValue> = (model.entry.iter())
                    .filter(|assignment| matches!(assignment.kind, InputKind::Global(_)))
                    .map(|assignment| match &assignment.value {
                        Value::Map(map) => map.clone(),
                        other => panic!("a map: {other:?}"),
                    })
                    .collect();
                let values = match read {
                    0 => vec![maps[0].get(&int(2)).clone(), maps[0].get(&int(3)).clone()],
                    _ => {
                        let Value::Map(row) = maps[1].get(&int(1)) else { panic!("a row: {:?}", maps[1]) };
                        vec![row.get(&int(2)).clone(), row.get(&int(4)).clone()]
                    }
                };
                let expected = if read == 0 { vec![int(5), int(7)] } else { vec![int(3), int(6)] };
                assert_eq!(values, expected, "axiom-heavy: {heavy}");
            }
        }
    }

    #[test]
    fn an_update_is_still_read_back_and_unreachable_goals_still_proved() {
        // Without extensionality the two axioms still decide reads of updated maps.
        let declarations = "var a: [int]int;";
        for procedure in [
            "procedure P(y: int) modifies a; { start: assume g(0) > -2000; a[y] := 2; goto Bad, Fine; Bad: assume a[y] != 2; return; Fine: return; }",
            "procedure P(y: int, z: int) modifies a; { var b: int; start: assume g(0) > -2000; b := a[z]; a[y] := 2; goto Bad, Fine; \
             Bad: assume y != z && a[z] != b; return; Fine: return; }",
        ] {
            assert_eq!(reach(true, declarations, procedure), Reach::Unsat, "{procedure}");
        }
        let procedure = "procedure P(y: int) modifies a; { start: assume g(0) > -2000; a[y] := 2; goto Bad, Fine; \
                         Bad: assume y == 4 && a[5] == 9; return; Fine: return; }";
        let map = global_map(&model(reach(true, declarations, procedure)));
        assert_eq!(map.get(&int(5)), &int(9), "{map:?}");
    }
}
