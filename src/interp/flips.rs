//! Cell flips: the variables a test sets (globals, the entry implementation's locals)
//! and the cells of their maps that the guard of a branch a run did not take compares,
//! each with a value under which that comparison holds (input-to-state correspondence
//! for map cells, as the Redqueen fuzzer finds the input bytes a comparison reads).
//!
//! **Why.** A branch of a driver model such as `Mem[T.PnP][PnP(data)] != 0` reads a
//! cell of a global map that the test sets only through the map's default. No integer
//! the test sets is that cell alone, so neither the operand replacements
//! (`gen/operands.rs`) nor the neighbourhood search (a new default changes every cell)
//! reach it, and in an axiom-heavy session the solver's candidates for the branch
//! break the axioms elsewhere. The run knows the cell (the variable and its keys) and
//! the value the guard compares it with; the test with that one cell changed, in every
//! value the test gives the variable, enters the branch where nothing else decides it.
//! A local a body-less callee's result set (`irp != 0` after `call irp := Alloc()`) is
//! flipped the same way, in the trace's value.
//!
//! **What the run records** ([`super::Replay::cell_flips`]): per branch of the entry
//! frame not taken, the first [`MAX_PER_BRANCH`] flips its leading `assume`s suggest;
//! [`super::Machine::flipped`] makes the test from one.

use super::eval::{Evaluator, State};
use super::CellFlip;
use crate::sema::hir::{self, BinaryOp, ExprKind, UnaryOp};
use crate::vc::Value;
use num_bigint::BigInt;
use num_traits::One;

/// The most flips recorded per branch: a loop passes a branch once per iteration, at
/// other cells each time, and the first are the nearest to the test as it is.
pub(super) const MAX_PER_BRANCH: usize = 4;

/// Appends to `flips` (up to [`MAX_PER_BRANCH`]) the flips under which an atom of
/// `expr` that keeps it from evaluating to `want` would hold as `want` needs.
pub(super) fn collect(
    expr: &hir::Expr,
    want: bool,
    (eval, state): (&mut Evaluator<'_>, State<'_>),
    flips: &mut Vec<CellFlip>,
) {
    if flips.len() >= MAX_PER_BRANCH {
        return;
    }
    match &expr.kind {
        ExprKind::Unary { op: UnaryOp::Not, operand } => collect(operand, !want, (eval, state), flips),
        ExprKind::Binary { op: BinaryOp::And | BinaryOp::Or, lhs, rhs } => {
            collect(lhs, want, (eval, state), flips);
            collect(rhs, want, (eval, state), flips);
        }
        ExprKind::Binary { op: BinaryOp::Implies, lhs, rhs } => {
            collect(lhs, !want, (eval, state), flips);
            collect(rhs, want, (eval, state), flips);
        }
        ExprKind::Binary { op, lhs, rhs } if op.negated().is_some() => {
            let flip = compared(eval, state, (*op, lhs, rhs), want)
                .or_else(|| compared(eval, state, (op.swapped(), rhs, lhs), want));
            if let Some((var, keys, read, wanted)) = flip {
                push(flips, CellFlip { var, keys, read, wanted });
            }
        }
        ExprKind::Select { .. } | ExprKind::Var(_) => {
            if let Some((var, keys, read @ Value::Bool(value))) = eval.variable_cell(state, expr) {
                if value != want {
                    push(flips, CellFlip { var, keys, read, wanted: Value::Bool(want) });
                }
            }
        }
        _ => {}
    }
}

fn push(flips: &mut Vec<CellFlip>, flip: CellFlip) {
    if flips.len() < MAX_PER_BRANCH && !flips.contains(&flip) {
        flips.push(flip);
    }
}

/// When `cell op other` reads a variable the test sets (or a cell of one) on its left
/// and does not evaluate to `want`: the cell (variable, keys, value read) and a value
/// of it under which it does.
fn compared(
    eval: &mut Evaluator<'_>,
    state: State<'_>,
    (op, cell, other): (BinaryOp, &hir::Expr, &hir::Expr),
    want: bool,
) -> Option<(hir::Var, Vec<Value>, Value, Value)> {
    let (var, keys, read) = eval.variable_cell(state, cell)?;
    let other = eval.eval(state, other).ok()?;
    let wanted = wanted(op, want, &read, other)?;
    Some((var, keys, read, wanted))
}

/// A value `x` with `x op other == want`, when `read` is not one: the nearest to
/// `other` (equal, or one past it).
fn wanted(op: BinaryOp, want: bool, read: &Value, other: Value) -> Option<Value> {
    // The comparison that must hold: `!(x < o)` is `x >= o`.
    let op = if want { op } else { op.negated()? };
    match (op, read, other) {
        (BinaryOp::Eq, read, other) => (*read != other).then_some(other),
        (BinaryOp::Neq, read, Value::Int(other)) => (*read == Value::Int(other.clone())).then(|| Value::Int(other + 1)),
        (BinaryOp::Neq, read, Value::Bool(other)) => (*read == Value::Bool(other)).then_some(Value::Bool(!other)),
        (op, Value::Int(read), Value::Int(other)) => {
            let one = BigInt::one();
            let (holds, wanted) = match op {
                BinaryOp::Lt => (*read < other, &other - one),
                BinaryOp::Le => (*read <= other, other.clone()),
                BinaryOp::Gt => (*read > other, &other + one),
                _ => (*read >= other, other.clone()),
            };
            (!holds).then_some(Value::Int(wanted))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(value: i64) -> Value {
        Value::Int(BigInt::from(value))
    }

    #[test]
    fn the_wanted_value_is_the_nearest_that_makes_the_comparison_hold() {
        assert_eq!(wanted(BinaryOp::Neq, true, &int(0), int(0)), Some(int(1)), "`m[k] != 0` read 0");
        assert_eq!(wanted(BinaryOp::Eq, false, &int(0), int(0)), Some(int(1)), "`!(m[k] == 0)` read 0");
        assert_eq!(wanted(BinaryOp::Eq, true, &int(0), int(7)), Some(int(7)));
        assert_eq!(wanted(BinaryOp::Gt, true, &int(4), int(10)), Some(int(11)));
        assert_eq!(wanted(BinaryOp::Lt, false, &int(4), int(10)), Some(int(10)), "`!(x < 10)` is `x >= 10`");
        assert_eq!(wanted(BinaryOp::Le, true, &int(12), int(10)), Some(int(10)));
        assert_eq!(wanted(BinaryOp::Neq, true, &Value::Bool(true), Value::Bool(true)), Some(Value::Bool(false)));
    }

    #[test]
    fn a_comparison_that_already_holds_wants_no_flip() {
        assert_eq!(wanted(BinaryOp::Gt, true, &int(11), int(10)), None);
        assert_eq!(wanted(BinaryOp::Neq, true, &int(3), int(0)), None);
        assert_eq!(wanted(BinaryOp::Eq, true, &int(7), int(7)), None);
    }
}
