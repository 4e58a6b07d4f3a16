//! Branch distance (search-based testing's measure, as in Korel's and McMinn's work): how
//! far a branch's guard is from holding on a run's state, 0 when it holds. `r > 10` with
//! `r = 4` is 7 away; a conjunction adds its parts' distances, a disjunction takes the
//! nearest; a negation asks the inner guard to fail. The search ([`crate::gen`]) uses it
//! to take a step that brings a guard of an open goal closer to holding again, before
//! the step enters the goal.

use crate::sema::hir::{self, BinaryOp, ExprKind, UnaryOp};
use crate::vc::Value;
use num_bigint::BigInt;
use num_traits::{One, Zero};

/// The distance of `expr` from evaluating to `want`, each subexpression's value given by
/// `eval` (`None` when it has none: then the distance is unknown).
pub(super) fn distance(
    expr: &hir::Expr,
    want: bool,
    eval: &mut dyn FnMut(&hir::Expr) -> Option<Value>,
) -> Option<BigInt> {
    match &expr.kind {
        ExprKind::Unary { op: UnaryOp::Not, operand } => distance(operand, !want, eval),
        ExprKind::Binary { op, lhs, rhs } => match (op, want) {
            (BinaryOp::And, true) | (BinaryOp::Or, false) => {
                Some(distance(lhs, want, eval)? + distance(rhs, want, eval)?)
            }
            (BinaryOp::And, false) | (BinaryOp::Or, true) => {
                nearest(distance(lhs, want, eval), distance(rhs, want, eval))
            }
            // `a ==> b` is `!a || b`.
            (BinaryOp::Implies, true) => nearest(distance(lhs, false, eval), distance(rhs, true, eval)),
            (BinaryOp::Implies, false) => Some(distance(lhs, true, eval)? + distance(rhs, false, eval)?),
            (BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge | BinaryOp::Eq | BinaryOp::Neq, _) => {
                match (eval(lhs)?, eval(rhs)?) {
                    (Value::Int(left), Value::Int(right)) => Some(compare(*op, want, &left, &right)),
                    _ => truth(expr, want, eval),
                }
            }
            _ => truth(expr, want, eval),
        },
        _ => truth(expr, want, eval),
    }
}

/// The smaller of two distances, either of which may be unknown.
fn nearest(left: Option<BigInt>, right: Option<BigInt>) -> Option<BigInt> {
    match (left, right) {
        (Some(left), Some(right)) => Some(left.min(right)),
        (known, None) | (None, known) => known,
    }
}

/// 0 when `expr` evaluates to `want`, else 1: a guard with no measure of its own.
fn truth(expr: &hir::Expr, want: bool, eval: &mut dyn FnMut(&hir::Expr) -> Option<Value>) -> Option<BigInt> {
    match eval(expr)? {
        Value::Bool(value) => Some(if value == want { BigInt::zero() } else { BigInt::one() }),
        _ => None,
    }
}

/// The distance of `left op right` from `want`.
fn compare(op: BinaryOp, want: bool, left: &BigInt, right: &BigInt) -> BigInt {
    // A failing comparison is the one negated: `!(l < r)` is `l >= r`.
    let op = if want { op } else { op.negated().unwrap_or(BinaryOp::Eq) };
    let gap = |below: &BigInt, above: &BigInt, strict: bool| -> BigInt {
        // How much `below` must fall (or `above` rise) for `below < above` (`<=`).
        let needed = below - above + if strict { BigInt::one() } else { BigInt::zero() };
        needed.max(BigInt::zero())
    };
    match op {
        BinaryOp::Lt => gap(left, right, true),
        BinaryOp::Le => gap(left, right, false),
        BinaryOp::Gt => gap(right, left, true),
        BinaryOp::Ge => gap(right, left, false),
        BinaryOp::Eq => (left - right).magnitude().clone().into(),
        _ if left == right => BigInt::one(),
        _ => BigInt::zero(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparisons_measure_how_far_they_are_from_holding_or_failing() {
        let [four, ten] = [BigInt::from(4), BigInt::from(10)];
        assert_eq!(compare(BinaryOp::Gt, true, &four, &ten), BigInt::from(7), "4 > 10 needs 7 more");
        assert_eq!(compare(BinaryOp::Ge, true, &four, &ten), BigInt::from(6));
        assert_eq!(compare(BinaryOp::Lt, true, &four, &ten), BigInt::zero());
        assert_eq!(compare(BinaryOp::Lt, false, &four, &ten), BigInt::from(6), "4 >= 10 needs 6 more");
        assert_eq!(compare(BinaryOp::Eq, true, &ten, &four), BigInt::from(6));
        assert_eq!(compare(BinaryOp::Neq, true, &four, &four), BigInt::one());
        assert_eq!(compare(BinaryOp::Eq, false, &four, &four), BigInt::one());
    }
}
