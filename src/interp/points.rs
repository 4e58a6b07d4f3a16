//! Unbounded quantifiers and lambdas, decided exactly at finitely many representative
//! points.
//!
//! Input: `forall`/`exists`/`lambda` over variables x1..xn (each `int`, `bool` or of an
//! uninterpreted type; a quantifier's may also be `real`s or bit-vectors) whose body is in the *point fragment* below, and the state it
//! reads. Output: the representative values of each variable (a quantifier enumerates
//! their product, see [`super::quant`]), or a lambda's canonical [`MapValue`]; or why the
//! body is outside the fragment ([`Outside`]). Never an approximation.
//!
//! **The fragment.** A subexpression is *closed* when it mentions none of x1..xn (it may
//! mention program variables, constants and outer bound variables). The body is in the
//! fragment when every subexpression that is not closed is
//! - a variable xi, or `old(e)`, `!e`, `e1 && e2`, `e1 || e2`, `e1 ==> e2`,
//!   `e1 <==> e2`, `if c then e1 else e2`;
//! - a comparison `e1 op e2`, `op` one of `== != < <= > >=`;
//! - a selection `m[e1, .., ek]`, or an application `f(e1, .., ek)` of a function
//!   *without* a body.
//!
//! So arithmetic (`+ - * div mod`, unary `-`), `<:`, map updates, functions with a body
//! and nested quantifiers take only closed operands (`x + 1`, `2 * x`, `g(x)` with a
//! body are outside), and no xi has a map type.
//!
//! **The relevant points.** P: every integer in the values of the maximal closed
//! subexpressions (literals, `n`, `old(balance)`, ...), recursively into map keys,
//! values, defaults and curried rows, and in the table (arguments, results, default) of
//! each body-less function applied to open arguments (the result type's default when
//! the test gives no table). E_T: likewise, every element of each uninterpreted type T.
//!
//! **Why finitely many points are exact.** The *type* of an assignment α of the
//! variables records each bool's value; for each int variable, the point of P it equals
//! or the gap of P it lies in (between two consecutive points, below the least, above
//! the greatest); for each T variable, the element of E_T it equals or "fresh"; and the
//! order (ints) and equalities (elements) among the variables. By induction on the body,
//! two assignments α, β of one type give every subexpression either one same *P-value*
//! (an int in P, an element of E_T, a bool, a map whose ints and elements are all in P
//! and E_T) or the values α(xi), β(xi) of one same variable: a closed expression has one
//! P-value; a selection from a P-map, or a table lookup, at indices of one type hits the
//! same key (every key is in P, E_T) or misses under both, and yields a P-value; a
//! comparison of a variable with a P-value, or of two variables, is decided by the type;
//! connectives, `old` and `if` only combine. (`x + 1` is neither a P-value nor a variable:
//! that is what the fragment excludes.) A closed part with no value (`1 div 0`) has none
//! under any assignment, so it stops the run where it is reached.
//!
//! **Reals and bit-vectors** (quantifiers only). P_real: every real in the values above.
//! The type argument holds as for ints, with gaps of a dense order: a gap between two
//! points holds as many distinct reals as wanted, so its k representatives are k points
//! evenly spaced inside it (p + (q − p)·i/(k+1)), and the unbounded gaps take min P − i
//! and max P + i. A bit-vector is compared only by `==` and `!=` in the fragment (its
//! order and arithmetic are builtins, outside it), so its type is the point of P_bvN it
//! equals or "fresh": the points of its width, and k values of that width outside them
//! (all values when fewer exist).
//!
//! So one assignment per type decides a quantifier. When no two variables are compared
//! with each other, the type is just each variable's own class, and the representatives
//! of an int are the points p, p+1, q-1 for consecutive points p < q, min P − 1 and
//! max P + 1; of a T variable, E_T and one fresh element; of a bool, both values. When
//! some are compared (`i < j`), with k variables of a type, each gap gives its k least
//! and k greatest members (all of a smaller gap) and each unbounded gap k members, and
//! k fresh elements: a gap holding d ≤ k distinct values of an assignment then holds d
//! representatives in the same order. The product may hold at most as many assignments
//! as the run has steps left; else the run is over budget.
//!
//! **Lambdas** are curried: `lambda x1, .., xn :: e` is the map x1 ↦ `lambda x2, .., xn
//! :: e`, each row built the same way with its own default, and its variables may not be
//! compared with each other (the type is then each variable's own class). The row of x1
//! is the same at every key of a gap, except where `e` is x1 itself (`lambda i :: if 0 <
//! i && i < 3 then i else 0`): then the rows at the two ends of the gap differ, as x1
//! differs. So a bounded gap whose end rows agree takes that row at every key (no entry
//! where it is the default), and one whose ends differ is evaluated key by key (it is
//! finite). The default is the row above max P. It is exact only if the row below min P
//! is the same: each unbounded gap is infinite and a table differs from its default at
//! finitely many keys, while equal end rows exclude x1 showing through (min P − 1 and max
//! P + 1 are no P-values and differ), so the rows are one constant there. If they differ
//! (`lambda i :: i < 0`) no [`MapValue`] is the lambda, and it cannot be evaluated. With
//! P empty, the rows at 0 and 1 decide the same way. A T variable takes the value at two
//! fresh elements (equal, or the lambda is no finite table) as its default; a bool
//! variable takes the value at `false`, the form the interpreter's map equality
//! normalizes to.

use super::eval::{Eval, EvalError, Evaluator, State};
use crate::sema::hir::{self, BinaryOp, ExprKind, UnaryOp};
use crate::source::Span;
use crate::vc::{MapValue, Value};
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, ToPrimitive};
use std::collections::{BTreeMap, BTreeSet};

/// Why a body is outside the fragment: "`x` is used in arithmetic".
#[derive(Debug)]
pub(super) struct Outside(pub String);

/// A body in the fragment, and what its points are read from.
pub(super) struct Fragment<'e> {
    /// The maximal closed subexpressions, each with whether it sits inside `old(..)`.
    closed: Vec<(&'e hir::Expr, bool)>,
    /// The body-less functions applied to arguments that are not closed.
    functions: BTreeSet<hir::FunctionId>,
    /// Whether two different variables are ever compared with each other.
    interacting: bool,
}

/// A subexpression seen by [`Walker`].
enum Node {
    Closed,
    /// Not closed; the variables (indices) whose value it may be.
    Open(Vec<usize>),
}

/// Checks a body against the fragment and gathers its closed parts.
struct Walker<'e, 'p> {
    program: &'p hir::Program,
    vars: &'e [hir::BoundVar],
    fragment: Fragment<'e>,
}

/// The body `body` of a quantifier or lambda over `vars` in the fragment, or why not.
pub(super) fn fragment<'e>(
    program: &hir::Program,
    vars: &'e [hir::BoundVar],
    body: &'e hir::Expr,
) -> Result<Fragment<'e>, Outside> {
    if let Some(var) = vars.iter().find(|var| matches!(var.ty, hir::Type::Map(_))) {
        return Err(Outside(format!("`{}` is a map", name(var))));
    }
    let fragment = Fragment { closed: Vec::new(), functions: BTreeSet::new(), interacting: false };
    let mut walker = Walker { program, vars, fragment };
    if let Node::Closed = walker.walk(body, false)? {
        walker.fragment.closed.push((body, false));
    }
    Ok(walker.fragment)
}

impl<'e> Walker<'e, '_> {
    fn walk(&mut self, expr: &'e hir::Expr, old: bool) -> Result<Node, Outside> {
        match &expr.kind {
            ExprKind::Bool(_) | ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::BitVector { .. } => Ok(Node::Closed),
            ExprKind::Extract { operand, .. } => match self.children(old, &[&**operand])? {
                None => Ok(Node::Closed),
                Some(_) => Err(self.outside(expr, "is used in a bit-vector operation")),
            },
            ExprKind::Var(hir::Var::Bound(id)) => Ok(self.variable(*id)),
            ExprKind::Var(_) => Ok(Node::Closed),
            ExprKind::Old(inner) => self.walk(inner, true),
            ExprKind::Unary { op, operand } => match (self.children(old, &[&**operand])?, op) {
                (None, _) => Ok(Node::Closed),
                (Some(_), UnaryOp::Not) => Ok(Node::Open(Vec::new())),
                (Some(_), UnaryOp::Neg) => Err(self.outside(expr, "is used in arithmetic")),
                (Some(_), UnaryOp::ToInt | UnaryOp::ToReal) => Err(self.outside(expr, "is converted")),
            },
            ExprKind::Binary { op, lhs, rhs } => self.binary(expr, *op, (lhs, rhs), old),
            ExprKind::Select { map, indices } => {
                let parts: Vec<&hir::Expr> = std::iter::once(&**map).chain(indices).collect();
                Ok(self.children(old, &parts)?.map_or(Node::Closed, |_| Node::Open(Vec::new())))
            }
            ExprKind::Apply { func, args, .. } => self.apply(expr, *func, args, old),
            ExprKind::Store { map, indices, value } => {
                let parts: Vec<&hir::Expr> = std::iter::once(&**map).chain(indices).chain([&**value]).collect();
                match self.children(old, &parts)? {
                    None => Ok(Node::Closed),
                    Some(_) => Err(self.outside(expr, "is used in a map update")),
                }
            }
            ExprKind::IfThenElse { cond, then_expr, else_expr } => {
                match self.children(old, &[&**cond, &**then_expr, &**else_expr])?.as_deref() {
                    None => Ok(Node::Closed),
                    Some([_, then_node, else_node]) => Ok(Node::Open([vars(then_node), vars(else_node)].concat())),
                    Some(_) => unreachable!("three parts, three nodes"),
                }
            }
            // A nested quantifier's points would depend on the outer variables.
            ExprKind::Quant { body, .. } => match self.mentioned(body) {
                None => Ok(Node::Closed),
                Some(_) => Err(self.outside(expr, "is used in a nested quantifier")),
            },
        }
    }

    /// A bool variable is a P-value (the type fixes it); an int or element is itself.
    fn variable(&self, id: hir::BoundId) -> Node {
        match self.vars.iter().position(|var| var.id == id) {
            None => Node::Closed,
            Some(index) if self.vars[index].ty == hir::Type::Bool => Node::Open(Vec::new()),
            Some(index) => Node::Open(vec![index]),
        }
    }

    fn binary(
        &mut self,
        expr: &'e hir::Expr,
        op: BinaryOp,
        (lhs, rhs): (&'e hir::Expr, &'e hir::Expr),
        old: bool,
    ) -> Result<Node, Outside> {
        let Some(nodes) = self.children(old, &[lhs, rhs])? else { return Ok(Node::Closed) };
        match op {
            BinaryOp::And | BinaryOp::Or | BinaryOp::Implies | BinaryOp::Iff => Ok(Node::Open(Vec::new())),
            BinaryOp::Eq | BinaryOp::Neq | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => {
                let (left, right) = (vars(&nodes[0]), vars(&nodes[1]));
                self.fragment.interacting |= left.iter().any(|a| right.iter().any(|b| a != b));
                Ok(Node::Open(Vec::new()))
            }
            BinaryOp::Subtype => Err(self.outside(expr, "is compared by `<:`")),
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod => {
                Err(self.outside(expr, "is used in arithmetic"))
            }
            BinaryOp::RealDiv | BinaryOp::Power | BinaryOp::Concat => Err(self.outside(expr, "is used in arithmetic")),
        }
    }

    fn apply(
        &mut self,
        expr: &'e hir::Expr,
        func: hir::FunctionId,
        args: &'e [hir::Expr],
        old: bool,
    ) -> Result<Node, Outside> {
        let parts: Vec<&hir::Expr> = args.iter().collect();
        if self.children(old, &parts)?.is_none() {
            return Ok(Node::Closed);
        }
        match self.program.functions.get(func.index()) {
            Some(function) if crate::vc::theory::builtin(function).is_some() => {
                Err(self.outside(expr, &format!("is an argument of `{}`, a builtin", function.name)))
            }
            Some(function) if function.body.is_none() => {
                self.fragment.functions.insert(func);
                Ok(Node::Open(Vec::new()))
            }
            Some(function) => {
                Err(self.outside(expr, &format!("is an argument of `{}`, a function with a body", function.name)))
            }
            None => Err(Outside("an unknown function is applied".to_string())),
        }
    }

    /// Walks `parts`: `None` when all are closed (so is their parent), else their nodes,
    /// the closed ones kept as maximal closed subexpressions.
    fn children(&mut self, old: bool, parts: &[&'e hir::Expr]) -> Result<Option<Vec<Node>>, Outside> {
        let nodes = parts.iter().map(|part| self.walk(part, old)).collect::<Result<Vec<_>, _>>()?;
        if nodes.iter().all(|node| matches!(node, Node::Closed)) {
            return Ok(None);
        }
        for (part, node) in parts.iter().zip(&nodes) {
            if let Node::Closed = node {
                self.fragment.closed.push((part, old));
            }
        }
        Ok(Some(nodes))
    }

    /// The first of the variables `expr` mentions.
    fn mentioned(&self, expr: &hir::Expr) -> Option<&'e hir::BoundVar> {
        let mut found = None;
        crate::cfg::uninit::for_each_var(expr, &mut |var| {
            if let (None, hir::Var::Bound(id)) = (found, var) {
                found = self.vars.iter().find(|candidate| candidate.id == id);
            }
        });
        found
    }

    fn outside(&self, expr: &hir::Expr, what: &str) -> Outside {
        let var = self.mentioned(expr).map_or("_", name);
        Outside(format!("`{var}` {what}"))
    }
}

fn vars(node: &Node) -> Vec<usize> {
    match node {
        Node::Closed => Vec::new(),
        Node::Open(vars) => vars.clone(),
    }
}

pub(super) fn name(var: &hir::BoundVar) -> &str {
    var.name.as_deref().unwrap_or("_")
}

/// The values a body in the fragment can observe: P and the E_T.
#[derive(Default)]
struct Points {
    ints: BTreeSet<BigInt>,
    reals: BTreeSet<BigRational>,
    /// The bit-vectors by width.
    bit_vecs: BTreeMap<u32, BTreeSet<BigUint>>,
    elems: BTreeMap<hir::TypeId, BTreeSet<u32>>,
    /// The values visited, charged to the run's budget.
    visited: u64,
}

impl Points {
    /// Adds the ints and elements in `value`; `false` when it holds an opaque value,
    /// whose contents are unknown.
    fn add(&mut self, value: &Value) -> bool {
        self.visited = self.visited.saturating_add(1);
        match value {
            Value::Bool(_) => true,
            Value::Real(real) => {
                self.reals.insert(real.clone());
                true
            }
            Value::BitVec { value, width } => {
                self.bit_vecs.entry(*width).or_default().insert(value.clone());
                true
            }
            Value::Int(int) => {
                self.ints.insert(int.clone());
                true
            }
            Value::Elem { ty, index } => {
                self.elems.entry(*ty).or_default().insert(*index);
                true
            }
            Value::Map(map) => {
                self.add(&map.default) && map.entries.iter().all(|(key, value)| self.add(key) && self.add(value))
            }
            Value::Opaque(_) => false,
        }
    }

    /// The representatives of `var` when `k` variables of its type may be compared with
    /// each other; `fresh` elements outside E_T (at least `k`).
    fn candidates(&self, var: &hir::BoundVar, k: usize, fresh: usize) -> Vec<Value> {
        match &var.ty {
            hir::Type::Bool => vec![Value::Bool(false), Value::Bool(true)],
            hir::Type::Int => int_candidates(&self.ints, k).into_iter().map(Value::Int).collect(),
            // E_T is the test's whole universe of T, so a quantifier needs no fresh
            // element; a lambda takes its default from `fresh` ones (any value would
            // do there, and this one makes `(lambda c :: 0)[Red := 1]` canonical).
            hir::Type::Named(ty, _) => {
                let known = self.elems.get(ty).cloned().unwrap_or_default();
                let unused = (0..=u32::MAX).filter(|index| !known.contains(index)).take(fresh);
                known.iter().copied().chain(unused).map(|index| Value::Elem { ty: *ty, index }).collect()
            }
            hir::Type::Real => real_candidates(&self.reals, k).into_iter().map(Value::Real).collect(),
            hir::Type::BitVector(width) => {
                let known = self.bit_vecs.get(width).cloned().unwrap_or_default();
                bit_vec_candidates(&known, *width, k.max(fresh))
                    .into_iter()
                    .map(|value| Value::BitVec { value, width: *width })
                    .collect()
            }
            hir::Type::Map(_) => unreachable!("the fragment has no map variables"),
            hir::Type::Param(_) => unreachable!("{}", crate::cfg::support::OUTSIDE_ENGINE),
        }
    }
}

/// P, the k least and k greatest members of each gap, and k members of each unbounded
/// gap (`0..=k` when P is empty), ascending.
fn int_candidates(points: &BTreeSet<BigInt>, k: usize) -> Vec<BigInt> {
    let (Some(min), Some(max)) = (points.first(), points.last()) else {
        return (0..=k).map(BigInt::from).collect();
    };
    let k = BigInt::from(k);
    let mut found: Vec<BigInt> = range(&(min - &k), min).collect();
    for (low, high) in points.iter().zip(points.iter().skip(1)) {
        found.push(low.clone());
        let lower_end: BigInt = (low + &k + 1u8).min(high.clone());
        let upper_start = (high - &k).max(lower_end.clone());
        found.extend(range(&(low + 1), &lower_end).chain(range(&upper_start, high)));
    }
    found.push(max.clone());
    found.extend(range(&(max + 1), &(max + &k + 1)));
    found
}

/// P, k points evenly spaced inside each gap, and k members of each unbounded gap
/// (`0..=k` when P is empty), ascending.
fn real_candidates(points: &BTreeSet<BigRational>, k: usize) -> Vec<BigRational> {
    let whole = |n: usize| BigRational::from_integer(BigInt::from(n));
    let (Some(min), Some(max)) = (points.first(), points.last()) else {
        return (0..=k).map(whole).collect();
    };
    let mut found: Vec<BigRational> = (1..=k).rev().map(|i| min - whole(i)).collect();
    for (low, high) in points.iter().zip(points.iter().skip(1)) {
        found.push(low.clone());
        let step = (high - low) / whole(k + 1);
        found.extend((1..=k).map(|i| low + &step * whole(i)));
    }
    found.push(max.clone());
    found.extend((1..=k).map(|i| max + whole(i)));
    found
}

/// The points of one width and `fresh` values of that width outside them (fewer when
/// the width has fewer), ascending.
fn bit_vec_candidates(points: &BTreeSet<BigUint>, width: u32, fresh: usize) -> Vec<BigUint> {
    let top = BigUint::one() << width;
    let unused = std::iter::successors(Some(BigUint::default()), |value| Some(value + 1u8))
        .take_while(|value| *value < top)
        .filter(|value| !points.contains(value))
        .take(fresh.max(1));
    let mut found: Vec<BigUint> = points.iter().cloned().chain(unused).collect();
    found.sort();
    found
}

/// `from..to` over big integers.
fn range(from: &BigInt, to: &BigInt) -> impl Iterator<Item = BigInt> {
    let to = to.clone();
    std::iter::successors(Some(from.clone()), |current| Some(current + 1)).take_while(move |current| *current < to)
}

/// A lambda being tabulated.
struct Lambda<'e> {
    vars: &'e [hir::BoundVar],
    body: &'e hir::Expr,
    /// Per variable, its representatives.
    candidates: Vec<Vec<Value>>,
    points: BTreeSet<BigInt>,
    span: Span,
}

impl Evaluator<'_> {
    /// The representatives of each variable of a quantifier whose body is `fragment`.
    pub(super) fn point_candidates(
        &mut self,
        (state, old): (State<'_>, bool),
        vars: &[hir::BoundVar],
        fragment: &Fragment<'_>,
        span: Span,
    ) -> Eval<Vec<Vec<Value>>> {
        let points = self.points((state, old), fragment, span)?;
        // Only variables compared with each other need several members per gap.
        let compared = |var: &hir::BoundVar| {
            if fragment.interacting {
                vars.iter().filter(|other| other.ty == var.ty).count()
            } else {
                1
            }
        };
        Ok(vars.iter().map(|var| points.candidates(var, compared(var), 0)).collect())
    }

    /// `lambda vars :: body` as a canonical map (see the module header).
    pub(super) fn lambda(
        &mut self,
        (state, old): (State<'_>, bool),
        vars: &[hir::BoundVar],
        body: &hir::Expr,
        span: Span,
    ) -> Eval<Value> {
        let unfolded_body;
        let (body, fragment) = match fragment(self.program(), vars, body) {
            Ok(found) => (body, found),
            Err(outside) => {
                unfolded_body = unfolded(self.program(), vars, body)
                    .ok_or_else(|| cannot(span, format!("a lambda where {}", outside.0)))?;
                let found = fragment(self.program(), vars, &unfolded_body)
                    .map_err(|outside| cannot(span, format!("a lambda where {}", outside.0)))?;
                (&unfolded_body, found)
            }
        };
        if fragment.interacting {
            return Err(cannot(span, "a lambda comparing its variables with each other"));
        }
        // A map indexed by reals or bit-vectors would need its own tabulation by gaps.
        if let Some(var) = vars.iter().find(|var| matches!(var.ty, hir::Type::Real | hir::Type::BitVector(_))) {
            return Err(cannot(span, format!("a lambda over `{}`, a real or a bit-vector", name(var))));
        }
        let points = self.points((state, old), &fragment, span)?;
        let candidates: Vec<Vec<Value>> = vars.iter().map(|var| points.candidates(var, 1, 2)).collect();
        let evaluations = candidates.iter().fold(BigInt::one(), |product, values| product * values.len());
        if evaluations > BigInt::from(self.steps_left()) {
            return Err(EvalError::Budget { message: format!("a lambda tabulated at {evaluations} points") });
        }
        let lambda = Lambda { vars, body, candidates, points: points.ints, span };
        self.curried((state, old), &lambda, 0)
    }

    /// P and the E_T of `fragment` (see the module header).
    fn points(&mut self, (state, old): (State<'_>, bool), fragment: &Fragment<'_>, span: Span) -> Eval<Points> {
        let mut points = Points::default();
        let mut values = Vec::new();
        for &(expr, inside_old) in &fragment.closed {
            match self.eval_in(state, expr, old || inside_old) {
                Ok(value) => values.push(value),
                // No value here means none at any point: the run stops where it is reached.
                Err(EvalError::Cannot { .. }) => {}
                Err(budget) => return Err(budget),
            }
        }
        values.extend(fragment.functions.iter().flat_map(|&function| self.function_values(function)));
        if !values.iter().all(|value| points.add(value)) {
            return Err(cannot(span, "a quantifier or lambda reading an opaque value"));
        }
        self.charge(points.visited)?;
        for (ty, elements) in &self.universes {
            points.elems.entry(*ty).or_default().extend(elements);
        }
        Ok(points)
    }

    /// The map `lambda.vars[level..] :: lambda.body`, the earlier variables bound.
    fn curried(&mut self, ctx: (State<'_>, bool), lambda: &Lambda<'_>, level: usize) -> Eval<Value> {
        let Some(var) = lambda.vars.get(level) else { return self.eval_in(ctx.0, lambda.body, ctx.1) };
        let mut rows = BTreeMap::new();
        for key in &lambda.candidates[level] {
            rows.insert(key.clone(), self.row(ctx, lambda, level, key.clone())?);
        }
        let map = match &var.ty {
            hir::Type::Bool => {
                let at = |key: bool| rows[&Value::Bool(key)].clone();
                MapValue::new(vec![(Value::Bool(true), at(true))], at(false))
            }
            hir::Type::Int => self.int_table(ctx, lambda, level, &rows)?,
            _ => element_table(lambda, level, rows)?,
        };
        Ok(Value::Map(map))
    }

    /// The row at `key` of the map at `level`.
    fn row(&mut self, ctx: (State<'_>, bool), lambda: &Lambda<'_>, level: usize, key: Value) -> Eval<Value> {
        self.with_bound(vec![(lambda.vars[level].id, key)], |this| this.curried(ctx, lambda, level + 1))
    }

    /// An int-indexed level: entries at the points and in the gaps, the default from
    /// above max P (the module header says why that is exact).
    fn int_table(
        &mut self,
        ctx: (State<'_>, bool),
        lambda: &Lambda<'_>,
        level: usize,
        rows: &BTreeMap<Value, Value>,
    ) -> Eval<MapValue> {
        let (Some((_, below)), Some((_, above))) = (rows.first_key_value(), rows.last_key_value()) else {
            unreachable!("an int has representatives")
        };
        if below != above {
            let var = name(&lambda.vars[level]);
            return Err(cannot(
                lambda.span,
                format!("a lambda that is no finite table: far below and far above, its values at `{var}` differ"),
            ));
        }
        let default = above.clone();
        let mut entries: Vec<(Value, Value)> = lambda
            .points
            .iter()
            .map(|point| (Value::Int(point.clone()), rows[&Value::Int(point.clone())].clone()))
            .collect();
        for (low, high) in lambda.points.iter().zip(lambda.points.iter().skip(1)) {
            self.gap(ctx, lambda, level, (low, high), rows, &default, &mut entries)?;
        }
        Ok(MapValue::new(entries, default))
    }

    /// The entries strictly between consecutive points `low` and `high`.
    #[allow(clippy::too_many_arguments)]
    fn gap(
        &mut self,
        ctx: (State<'_>, bool),
        lambda: &Lambda<'_>,
        level: usize,
        (low, high): (&BigInt, &BigInt),
        rows: &BTreeMap<Value, Value>,
        default: &Value,
        entries: &mut Vec<(Value, Value)>,
    ) -> Eval<()> {
        let size: BigInt = high - low - 1u8;
        if size < BigInt::one() {
            return Ok(());
        }
        let (first, last) = (&rows[&Value::Int(low + 1)], &rows[&Value::Int(high - 1)]);
        if first == last && first == default {
            return Ok(());
        }
        self.charge(size.to_u64().unwrap_or(u64::MAX))?;
        for key in range(&(low + 1), high) {
            let row = if first == last {
                first.clone()
            } else if let Some(row) = rows.get(&Value::Int(key.clone())) {
                row.clone()
            } else {
                // The row shows the key itself somewhere, so it differs from key to key.
                self.row(ctx, lambda, level, Value::Int(key.clone()))?
            };
            entries.push((Value::Int(key), row));
        }
        Ok(())
    }
}

/// An element-indexed level: entries at E_T, the default from the two fresh elements
/// (the last two representatives; both must agree).
fn element_table(lambda: &Lambda<'_>, level: usize, mut rows: BTreeMap<Value, Value>) -> Eval<MapValue> {
    let candidates = &lambda.candidates[level];
    let fresh: Vec<Value> = candidates[candidates.len() - 2..]
        .iter()
        .map(|key| rows.remove(key).expect("a row per representative"))
        .collect();
    if fresh[0] != fresh[1] {
        let var = name(&lambda.vars[level]);
        return Err(cannot(
            lambda.span,
            format!("a lambda that is no finite table: its values at fresh `{var}` differ"),
        ));
    }
    let default = fresh.into_iter().next().expect("two fresh elements");
    Ok(MapValue::new(rows.into_iter().collect(), default))
}

fn cannot(span: Span, message: impl Into<String>) -> EvalError {
    EvalError::Cannot { span, message: message.into() }
}

/// How deep [`unfolded`] expands applications within applications' bodies.
const MAX_UNFOLDING: usize = 8;

/// `expr` with each application of a function with a body, whose arguments are not all
/// closed in `vars`, replaced by the body with the arguments for the parameters (its
/// definition, so the value is the same), to [`MAX_UNFOLDING`] levels and never a
/// function inside its own body; `None` when there is none. A front end's frame
/// `lambda o: ref, f: Field a :: o != null && read(H, o, alloc) ==> ...` reads the
/// heap through a function whose body is a selection, in the fragment once unfolded.
pub(super) fn unfolded(program: &hir::Program, vars: &[hir::BoundVar], expr: &hir::Expr) -> Option<hir::Expr> {
    let mut copy = expr.clone();
    let mut unfolder = Unfolder { program, vars, active: Vec::new(), changed: false };
    unfolder.unfold(&mut copy);
    unfolder.changed.then_some(copy)
}

struct Unfolder<'p> {
    program: &'p hir::Program,
    vars: &'p [hir::BoundVar],
    /// The functions whose bodies are being unfolded, outermost first.
    active: Vec<hir::FunctionId>,
    changed: bool,
}

impl Unfolder<'_> {
    fn unfold(&mut self, expr: &mut hir::Expr) {
        expr.for_each_child_mut(&mut |child| self.unfold(child));
        let ExprKind::Apply { func, args, .. } = &expr.kind else { return };
        let function = &self.program.functions[func.index()];
        let Some(body) = &function.body else { return };
        let open = args.iter().any(|arg| self.mentions_vars(arg));
        if !open || self.active.len() >= MAX_UNFOLDING || self.active.contains(func) {
            return;
        }
        let func = *func;
        let mut replaced = body.clone();
        let params: Vec<hir::BoundId> = function.params.iter().map(|param| param.id).collect();
        substitute(&mut replaced, &params, args);
        self.active.push(func);
        self.unfold(&mut replaced);
        self.active.pop();
        *expr = replaced;
        self.changed = true;
    }

    fn mentions_vars(&self, expr: &hir::Expr) -> bool {
        let mut found = false;
        crate::cfg::uninit::for_each_var(expr, &mut |var| {
            found |= matches!(var, hir::Var::Bound(id) if self.vars.iter().any(|bound| bound.id == id));
        });
        found
    }
}

/// Replaces each parameter `params[i]` of `expr` by `args[i]`.
fn substitute(expr: &mut hir::Expr, params: &[hir::BoundId], args: &[hir::Expr]) {
    if let ExprKind::Var(hir::Var::Bound(id)) = &expr.kind {
        if let Some(at) = params.iter().position(|param| param == id) {
            *expr = args[at].clone();
        }
        return;
    }
    expr.for_each_child_mut(&mut |child| substitute(child, params, args));
}
