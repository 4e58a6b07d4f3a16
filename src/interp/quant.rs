//! Quantifiers: `forall`/`exists` evaluated by enumerating their variables, and `lambda`
//! handed to [`super::points`].
//!
//! Input: a quantifier whose variables are `bool`s or `int`s the body bounds, or whose
//! body is in the point fragment of [`super::points`]. Output: its truth value, or
//! [`EvalError::Cannot`] for anything else (never silently true).
//!
//! Two methods, the cheaper first. *Intervals*: the bounds are found in the antecedents
//! of `forall i :: A1 ==> A2 ==> P` and in the conjuncts of `exists i :: C1 && C2 && P`,
//! each antecedent split at `&&`. A conjunct `i op e` or `e op i` (`op` one of `< <= > >=
//! ==`, `e` free of the quantifier's variables) bounds `i`; `i op j` between two of its
//! variables passes bounds from one to the other (`0 <= i && i < j && j < n`). Every
//! value outside the bounds falsifies a conjunct, so makes a `forall`'s body true and an
//! `exists`'s body false: enumerating the bounded box (and evaluating the whole body,
//! guard included, at each point) gives the exact value. This handles arithmetic on the
//! variables (`a[i + 1]`). *Points*: when a variable is unbounded, is of an uninterpreted
//! type, or the box is larger than the steps left, and the body is in the point
//! fragment, the product of the representatives [`super::points`] gives is enumerated
//! instead (exact by the argument there). Either way the points enumerated may be at
//! most as many as the run has steps left.

use super::eval::{as_bool, contains_opaque, Eval, EvalError, Evaluator, State};
use super::points::{self, name};
use crate::sema::hir::{self, BinaryOp, ExprKind, Quantifier};
use crate::source::Span;
use crate::vc::Value;
use num_bigint::BigInt;
use num_traits::{One, ToPrimitive, Zero};

/// The values one variable ranges over.
#[derive(Clone, Debug)]
enum Range {
    Bools,
    /// `lo..=hi`, empty when `lo > hi`.
    Ints {
        lo: BigInt,
        hi: BigInt,
    },
    /// Representatives ([`super::points`]).
    Values(Vec<Value>),
}

impl Range {
    fn len(&self) -> BigInt {
        match self {
            Range::Bools => BigInt::from(2),
            Range::Ints { lo, hi } if lo <= hi => hi - lo + 1,
            Range::Ints { .. } => BigInt::zero(),
            Range::Values(values) => BigInt::from(values.len()),
        }
    }

    /// The value at `position`, which is below [`Range::len`].
    fn value(&self, position: u64) -> Value {
        match self {
            Range::Bools => Value::Bool(position == 1),
            Range::Ints { lo, .. } => Value::Int(lo + position),
            Range::Values(values) => values[usize::try_from(position).expect("a representative's position")].clone(),
        }
    }
}

/// A bound found in the body, on variable `var` (an index into the quantifier's vars).
enum Bound<'e> {
    /// `var >= expr` (`strict`: `var > expr`).
    Lower { var: usize, expr: &'e hir::Expr, strict: bool },
    /// `var <= expr` (`strict`: `var < expr`).
    Upper { var: usize, expr: &'e hir::Expr, strict: bool },
    /// `below <= above` (`strict`: `below < above`), both variables of the quantifier.
    Order { below: usize, above: usize, strict: bool },
}

impl Evaluator<'_> {
    pub(super) fn quantifier(
        &mut self,
        (state, old): (State<'_>, bool),
        quantifier: Quantifier,
        vars: &[hir::BoundVar],
        body: &hir::Expr,
        span: Span,
    ) -> Eval<Value> {
        let forall = match quantifier {
            Quantifier::Forall => true,
            Quantifier::Exists => false,
            Quantifier::Lambda => return self.lambda((state, old), vars, body, span),
        };
        let ranges = match self.ranges((state, old), forall, vars, body, span) {
            Ok(ranges) if size(&ranges) <= BigInt::from(self.steps_left()) => ranges,
            intervals => match points::fragment(self.program(), vars, body) {
                Ok(fragment) => {
                    let candidates = self.point_candidates((state, old), vars, &fragment, span)?;
                    candidates.into_iter().map(Range::Values).collect()
                }
                Err(outside) => return Err(why_not(intervals, outside)),
            },
        };
        self.enumerate((state, old), forall, vars, &ranges, body)
    }

    /// Evaluates `body` at every point of the box `ranges` until one decides.
    fn enumerate(
        &mut self,
        (state, old): (State<'_>, bool),
        forall: bool,
        vars: &[hir::BoundVar],
        ranges: &[Range],
        body: &hir::Expr,
    ) -> Eval<Value> {
        let points = size(ranges);
        if points > BigInt::from(self.steps_left()) {
            return Err(EvalError::Budget { message: format!("a quantifier over {points} values") });
        }
        if points.is_zero() {
            return Ok(Value::Bool(forall));
        }
        // Every length is at most the product, which fits the steps left (a `u64`).
        let lengths: Vec<u64> =
            ranges.iter().map(|range| range.len().to_u64().expect("a length within budget")).collect();
        let mut positions = vec![0u64; ranges.len()];
        loop {
            let values = ranges.iter().zip(&positions).map(|(range, &position)| range.value(position));
            let bindings = vars.iter().map(|var| var.id).zip(values).collect();
            let holds = self.with_bound(bindings, |this| this.eval_in(state, body, old))?;
            // forall: the first counterexample decides; exists: the first witness.
            if as_bool(holds, body.span)? != forall {
                return Ok(Value::Bool(!forall));
            }
            if !advance(&lengths, &mut positions) {
                return Ok(Value::Bool(forall));
            }
        }
    }

    /// The range of each variable; an unbounded `int` or a variable of another type has
    /// none.
    fn ranges(
        &mut self,
        (state, old): (State<'_>, bool),
        forall: bool,
        vars: &[hir::BoundVar],
        body: &hir::Expr,
        span: Span,
    ) -> Eval<Vec<Range>> {
        let ids: Vec<hir::BoundId> = vars.iter().map(|var| var.id).collect();
        let mut lower: Vec<Option<BigInt>> = vec![None; vars.len()];
        let mut upper: Vec<Option<BigInt>> = vec![None; vars.len()];
        let mut orders = Vec::new();
        for bound in bounds(&guards(forall, body), &ids) {
            match bound {
                Bound::Lower { var, expr, strict } => {
                    let value = self.bound_value((state, old), expr)? + BigInt::from(u8::from(strict));
                    tighten(&mut lower[var], value, true);
                }
                Bound::Upper { var, expr, strict } => {
                    let value = self.bound_value((state, old), expr)? - BigInt::from(u8::from(strict));
                    tighten(&mut upper[var], value, false);
                }
                Bound::Order { below, above, strict } => orders.push((below, above, strict)),
            }
        }
        propagate(&orders, &mut lower, &mut upper);
        vars.iter()
            .enumerate()
            .map(|(index, var)| match (&var.ty, lower[index].take(), upper[index].take()) {
                (hir::Type::Bool, _, _) => Ok(Range::Bools),
                (hir::Type::Int, Some(lo), Some(hi)) => Ok(Range::Ints { lo, hi }),
                (hir::Type::Int, _, _) => Err(cannot(span, format!("a quantifier with `{}` unbounded", name(var)))),
                _ => Err(cannot(span, format!("a quantifier over `{}`, neither int nor bool", name(var)))),
            })
            .collect()
    }

    fn bound_value(&mut self, (state, old): (State<'_>, bool), expr: &hir::Expr) -> Eval<BigInt> {
        match self.eval_in(state, expr, old)? {
            Value::Int(value) => Ok(value),
            other if contains_opaque(&other) => Err(cannot(expr.span, "an opaque value bounds a quantifier")),
            _ => Err(cannot(expr.span, "a quantifier bound that is not an integer")),
        }
    }
}

fn cannot(span: Span, message: impl Into<String>) -> EvalError {
    EvalError::Cannot { span, message: message.into() }
}

/// The number of points of the box `ranges`.
fn size(ranges: &[Range]) -> BigInt {
    ranges.iter().fold(BigInt::one(), |product, range| product * range.len())
}

/// Why neither method applies: the intervals' reason and the fragment's. A box over the
/// budget stays over the budget.
fn why_not(intervals: Eval<Vec<Range>>, outside: points::Outside) -> EvalError {
    match intervals {
        Ok(ranges) => EvalError::Budget { message: format!("a quantifier over {} values", size(&ranges)) },
        Err(EvalError::Cannot { span, message }) => {
            EvalError::Cannot { span, message: format!("{message}, and {}", outside.0) }
        }
        Err(budget) => budget,
    }
}

/// The conjuncts that must hold for the body to matter: a `forall`'s antecedents, an
/// `exists`'s conjuncts.
fn guards(forall: bool, body: &hir::Expr) -> Vec<&hir::Expr> {
    let mut found = Vec::new();
    if forall {
        let mut rest = body;
        while let ExprKind::Binary { op: BinaryOp::Implies, lhs, rhs } = &rest.kind {
            conjuncts(lhs, &mut found);
            rest = rhs;
        }
    } else {
        conjuncts(body, &mut found);
    }
    found
}

fn conjuncts<'e>(expr: &'e hir::Expr, found: &mut Vec<&'e hir::Expr>) {
    match &expr.kind {
        ExprKind::Binary { op: BinaryOp::And, lhs, rhs } => {
            conjuncts(lhs, found);
            conjuncts(rhs, found);
        }
        _ => found.push(expr),
    }
}

/// The bounds among `guards` on the variables `ids`.
fn bounds<'e>(guards: &[&'e hir::Expr], ids: &[hir::BoundId]) -> Vec<Bound<'e>> {
    let var_of = |expr: &hir::Expr| match &expr.kind {
        ExprKind::Var(hir::Var::Bound(id)) => ids.iter().position(|candidate| candidate == id),
        _ => None,
    };
    let closed = |expr: &hir::Expr| {
        let mut mentions = false;
        crate::cfg::uninit::for_each_var(expr, &mut |var| {
            mentions |= matches!(var, hir::Var::Bound(id) if ids.contains(&id));
        });
        !mentions
    };
    let mut found = Vec::new();
    for guard in guards {
        let ExprKind::Binary { op, lhs, rhs } = &guard.kind else { continue };
        // Written as `var op expr`: `e < i` is `i > e`.
        let (op, left, right) = match (var_of(lhs), var_of(rhs)) {
            (Some(left), Some(right)) => {
                found.extend(order(*op, left, right));
                continue;
            }
            (Some(var), None) => (*op, var, &**rhs),
            (None, Some(var)) => (flip(*op), var, &**lhs),
            (None, None) => continue,
        };
        if !closed(right) {
            continue;
        }
        match op {
            BinaryOp::Lt | BinaryOp::Le => {
                found.push(Bound::Upper { var: left, expr: right, strict: op == BinaryOp::Lt });
            }
            BinaryOp::Gt | BinaryOp::Ge => {
                found.push(Bound::Lower { var: left, expr: right, strict: op == BinaryOp::Gt });
            }
            BinaryOp::Eq => {
                found.push(Bound::Lower { var: left, expr: right, strict: false });
                found.push(Bound::Upper { var: left, expr: right, strict: false });
            }
            _ => {}
        }
    }
    found
}

/// `a op b` with the operands swapped.
fn flip(op: BinaryOp) -> BinaryOp {
    match op {
        BinaryOp::Lt => BinaryOp::Gt,
        BinaryOp::Le => BinaryOp::Ge,
        BinaryOp::Gt => BinaryOp::Lt,
        BinaryOp::Ge => BinaryOp::Le,
        other => other,
    }
}

/// The order `left op right` between two variables, if `op` is one.
fn order<'e>(op: BinaryOp, left: usize, right: usize) -> Option<Bound<'e>> {
    match op {
        BinaryOp::Lt | BinaryOp::Le => Some(Bound::Order { below: left, above: right, strict: op == BinaryOp::Lt }),
        BinaryOp::Gt | BinaryOp::Ge => Some(Bound::Order { below: right, above: left, strict: op == BinaryOp::Gt }),
        _ => None,
    }
}

/// Keeps the tighter of two bounds (`lower`: the larger one).
fn tighten(slot: &mut Option<BigInt>, value: BigInt, lower: bool) {
    let tighter = match slot {
        Some(current) => (lower && value > *current) || (!lower && value < *current),
        None => true,
    };
    if tighter {
        *slot = Some(value);
    }
}

/// Passes bounds along `below < above` (or `<=`): `above`'s lower bound from
/// `below`'s, `below`'s upper bound from `above`'s. Each round is sound on its own;
/// as many rounds as variables carry a bound along any chain.
fn propagate(orders: &[(usize, usize, bool)], lower: &mut [Option<BigInt>], upper: &mut [Option<BigInt>]) {
    for _ in 0..lower.len() {
        for &(below, above, strict) in orders {
            let gap = BigInt::from(u8::from(strict));
            if let Some(lo) = lower[below].clone() {
                tighten(&mut lower[above], lo + &gap, true);
            }
            if let Some(hi) = upper[above].clone() {
                tighten(&mut upper[below], hi - &gap, false);
            }
        }
    }
}

/// Steps `positions` to the next point of the box with these `lengths`, last variable
/// fastest; `false` after the last point.
fn advance(lengths: &[u64], positions: &mut [u64]) -> bool {
    for index in (0..lengths.len()).rev() {
        if positions[index] + 1 < lengths[index] {
            positions[index] += 1;
            return true;
        }
        positions[index] = 0;
    }
    false
}
