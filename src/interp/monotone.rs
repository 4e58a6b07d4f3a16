//! Upper bounds of a quantified integer found at run time, on the run's concrete state,
//! from a guard the static shape of [`super::quant`]'s intervals does not read: a
//! conjunct `t(v) <= e` (or `<`, `==`) whose term grows with `v`, such as trial division's
//! `2 <= j && j * j <= a[i]`.
//!
//! **Why it is exact.** On the values `v >= lo` (`lo` the lower bound the intervals
//! found) the term is *nondecreasing and unbounded* by construction: `v` itself; a sum
//! of such terms and of constants (closed parts, evaluated on the state: the outer
//! bindings are in scope, so `a[i]` is a number here); a product of such terms whose
//! factors are nonnegative at `lo` (hence everywhere above it), both growing or one of
//! them at least 1; `t div k` and `t - k`
//! for a constant `k` (`k > 0` for `div`, whose Euclidean quotient is then monotone). So
//! once `t(hi + 1)` exceeds `e`, every larger `v` does too: the conjunct is false there,
//! which makes a `forall`'s body true and an `exists`'s body false, exactly as outside
//! an interval. `hi` is found by doubling then bisecting, each probe one evaluation of
//! `t` with `v` bound, charged to the run's steps like any evaluation.

use super::eval::{Eval, EvalError, Evaluator, State};
use crate::sema::hir::{self, BinaryOp, ExprKind};
use crate::vc::Value;
use num_bigint::BigInt;
use num_traits::{One, Signed};

/// How a term behaves on `v >= lo`, when it is monotone there.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Growth {
    /// Free of `v`: a constant on the state.
    Constant,
    /// Nondecreasing and unbounded above.
    Grows,
}

/// The most doublings of the search for the first value past the bound: 2^64 values of
/// `v` are far past any run's steps.
const MAX_DOUBLINGS: u32 = 64;

impl Evaluator<'_> {
    /// The largest `v >= lo` that satisfies some conjunct of `guards` of the form
    /// `t(v) <= e` / `t(v) < e` / `t(v) == e` (either side written first) whose term grows with `v`;
    /// `lo - 1` when `lo` does not. `None` when no conjunct has that form.
    pub(super) fn monotone_upper(
        &mut self,
        (state, old): (State<'_>, bool),
        guards: &[&hir::Expr],
        (ids, var): (&[hir::BoundId], usize),
        lo: &BigInt,
    ) -> Eval<Option<BigInt>> {
        let mut best: Option<BigInt> = None;
        for guard in guards {
            let ExprKind::Binary { op, lhs, rhs } = &guard.kind else { continue };
            // `t == e` is false wherever `t <= e` is.
            let (term, limit, strict) = match op {
                BinaryOp::Le | BinaryOp::Lt => (&**lhs, &**rhs, *op == BinaryOp::Lt),
                BinaryOp::Ge | BinaryOp::Gt => (&**rhs, &**lhs, *op == BinaryOp::Gt),
                BinaryOp::Eq if mentions(rhs, ids) => (&**rhs, &**lhs, false),
                BinaryOp::Eq => (&**lhs, &**rhs, false),
                _ => continue,
            };
            if mentions(limit, ids) {
                continue;
            }
            // A part without a value (an opaque lookup) bounds nothing: another conjunct
            // may, or the quantifier stays unbounded.
            let hi = match self.bound_by((state, old), (term, limit, strict), (ids, var), lo) {
                Ok(Some(hi)) => hi,
                Ok(None) | Err(EvalError::Cannot { .. }) => continue,
                Err(budget) => return Err(budget),
            };
            if best.as_ref().is_none_or(|best| hi < *best) {
                best = Some(hi);
            }
        }
        Ok(best)
    }

    /// The largest `v >= lo` with `term(v) <= limit` (`< limit` when `strict`), when
    /// `term` grows with `v`.
    fn bound_by(
        &mut self,
        (state, old): (State<'_>, bool),
        (term, limit, strict): (&hir::Expr, &hir::Expr, bool),
        (ids, var): (&[hir::BoundId], usize),
        lo: &BigInt,
    ) -> Eval<Option<BigInt>> {
        if self.growth((state, old), term, (ids, var), lo)? != Some(Growth::Grows) {
            return Ok(None);
        }
        let Value::Int(limit) = self.eval_in(state, limit, old)? else { return Ok(None) };
        let limit = if strict { limit - 1 } else { limit };
        self.last_within((state, old), term, (ids[var], lo), &limit).map(Some)
    }

    /// Whether `term` is constant or grows on `v >= lo` (see the module header); `None`
    /// when neither is shown.
    fn growth(
        &mut self,
        (state, old): (State<'_>, bool),
        term: &hir::Expr,
        (ids, var): (&[hir::BoundId], usize),
        lo: &BigInt,
    ) -> Eval<Option<Growth>> {
        if !mentions(term, ids) {
            return Ok(Some(Growth::Constant));
        }
        Ok(match &term.kind {
            ExprKind::Var(hir::Var::Bound(id)) if *id == ids[var] => Some(Growth::Grows),
            ExprKind::Binary { op, lhs, rhs } => {
                let left = self.growth((state, old), lhs, (ids, var), lo)?;
                let right = self.growth((state, old), rhs, (ids, var), lo)?;
                match (op, left, right) {
                    (BinaryOp::Add, Some(_), Some(_)) => Some(Growth::Grows),
                    (BinaryOp::Sub, Some(Growth::Grows), Some(Growth::Constant)) => Some(Growth::Grows),
                    (BinaryOp::Div, Some(Growth::Grows), Some(Growth::Constant)) => {
                        self.positive_at((state, old), rhs, (ids[var], lo))?.then_some(Growth::Grows)
                    }
                    // Nonnegative factors keep the product nondecreasing; it is unbounded
                    // when both grow, or one does and the other is at least 1.
                    (BinaryOp::Mul, Some(left), Some(right)) => {
                        let low_left = self.term_at((state, old), lhs, (ids[var], lo))?;
                        let low_right = self.term_at((state, old), rhs, (ids[var], lo))?;
                        let at_least = |low: &Option<BigInt>, floor: i32| {
                            low.as_ref().is_some_and(|low| *low >= BigInt::from(floor))
                        };
                        let unbounded = match (left, right) {
                            (Growth::Grows, Growth::Grows) => true,
                            (Growth::Grows, Growth::Constant) => at_least(&low_right, 1),
                            (Growth::Constant, _) => at_least(&low_left, 1),
                        };
                        (at_least(&low_left, 0) && at_least(&low_right, 0) && unbounded).then_some(Growth::Grows)
                    }
                    _ => None,
                }
            }
            _ => None,
        })
    }

    /// Whether `term` is at least 1 at `v = lo` (so, nondecreasing, everywhere above).
    fn positive_at(
        &mut self,
        (state, old): (State<'_>, bool),
        term: &hir::Expr,
        (var, lo): (hir::BoundId, &BigInt),
    ) -> Eval<bool> {
        Ok(matches!(self.term_at((state, old), term, (var, lo))?, Some(value) if value.is_positive()))
    }

    fn term_at(
        &mut self,
        (state, old): (State<'_>, bool),
        term: &hir::Expr,
        (var, at): (hir::BoundId, &BigInt),
    ) -> Eval<Option<BigInt>> {
        let value = self.with_bound(vec![(var, Value::Int(at.clone()))], |this| this.eval_in(state, term, old))?;
        Ok(match value {
            Value::Int(value) => Some(value),
            _ => None,
        })
    }

    /// The largest `v >= lo` with `term(v) <= limit` (`lo - 1` if none), `term` growing.
    fn last_within(
        &mut self,
        (state, old): (State<'_>, bool),
        term: &hir::Expr,
        (var, lo): (hir::BoundId, &BigInt),
        limit: &BigInt,
    ) -> Eval<BigInt> {
        let within = |this: &mut Self, at: &BigInt| -> Eval<bool> {
            Ok(matches!(this.term_at((state, old), term, (var, at))?, Some(value) if value <= *limit))
        };
        if !within(self, lo)? {
            return Ok(lo - 1);
        }
        // `inside` satisfies the conjunct, `outside` does not.
        let (mut inside, mut step) = (lo.clone(), BigInt::one());
        let mut outside = None;
        for _ in 0..MAX_DOUBLINGS {
            let probe = lo + &step;
            if !within(self, &probe)? {
                outside = Some(probe);
                break;
            }
            inside = probe;
            step *= 2;
        }
        let Some(mut outside) = outside else {
            return Err(EvalError::Budget { message: "a quantifier bound past 2^64 values".to_string() });
        };
        while &outside - &inside > BigInt::one() {
            let middle: BigInt = (&inside + &outside) / 2;
            if within(self, &middle)? {
                inside = middle;
            } else {
                outside = middle;
            }
        }
        Ok(inside)
    }
}

/// Whether `expr` mentions one of the quantifier's variables `ids`.
pub(super) fn mentions(expr: &hir::Expr, ids: &[hir::BoundId]) -> bool {
    let mut found = false;
    crate::cfg::uninit::for_each_var(expr, &mut |var| {
        found |= matches!(var, hir::Var::Bound(id) if ids.contains(&id));
    });
    found
}
