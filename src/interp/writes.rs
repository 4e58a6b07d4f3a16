//! Table writes: the entries of a body-less function's table that a callee's
//! postcondition over a range of its points asks for, where the test's table has none.
//!
//! **Why.** An allocator's postcondition `forall x :: {Base(x)} new <= x && x < new +
//! size ==> Base(x) == new` speaks of `size` cells. A session expands narrow ranges
//! into instances (`smt/ranges.rs`), but the instances of a wide one (Boogie's driver
//! models allocate 512-byte buffers) make every check of the session cost more than
//! Boogie's whole run. Left to E-matching, the candidate's table of `Base` names only
//! the points z3 applied it at, and the run finds the postcondition false at the
//! others. Those points are the test's to choose: the table has no entry there.
//!
//! **What.** Where such a postcondition is false, the run records, for each point of
//! the range off the table's entries, the entry that makes the conclusion `f(x) == e`
//! hold there ([`super::Replay::table_writes`]); none when an entry the table does give
//! disagrees (the test is then no execution of the call, as before). The caller writes
//! them into the test's table and runs it again from the start (`gen/complete.rs`), so
//! every read of the function, earlier ones included, sees the same table: only replay
//! decides what the test does.

use super::eval::{Evaluator, State};
use super::quant::int_range;
use crate::sema::hir::{self, BinaryOp, ExprKind, Quantifier};
use crate::vc::Value;
use num_bigint::BigInt;
use num_traits::ToPrimitive;

/// The widest range written: an allocation's cells.
const MAX_WRITES: u64 = 4096;

/// One entry to write: `function(args) = value`.
pub type TableWrite = (hir::FunctionId, Vec<Value>, Value);

/// The entries `clause`, a false postcondition, asks for off the test's tables (see
/// the module documentation); empty when it is no range of a function's points, or
/// when writing cannot make it hold.
pub(super) fn range_writes(eval: &mut Evaluator<'_>, state: State<'_>, clause: &hir::Expr) -> Vec<TableWrite> {
    let ExprKind::Quant { quantifier: Quantifier::Forall, vars, body, .. } = &clause.kind else { return Vec::new() };
    let [var] = &vars[..] else { return Vec::new() };
    if var.ty != hir::Type::Int {
        return Vec::new();
    }
    let Some((lo, hi, conclusion)) = int_range(eval, state, var, body) else { return Vec::new() };
    let Some(width) = (&hi - &lo).to_u64().filter(|&width| width <= MAX_WRITES) else { return Vec::new() };
    let Some((function, value)) = applied_at(eval.program(), conclusion, var.id) else { return Vec::new() };
    let mut writes = Vec::new();
    for offset in 0..width {
        let point = Value::Int(&lo + BigInt::from(offset));
        let wanted = eval.with_bound(vec![(var.id, point.clone())], |eval| eval.eval(state, value));
        let Ok(wanted) = wanted else { return Vec::new() };
        match eval.table_entry(function, std::slice::from_ref(&point)) {
            Some(given) if given != wanted => return Vec::new(),
            Some(_) => {}
            None => writes.push((function, vec![point], wanted)),
        }
    }
    writes
}

/// For `f(x) == e` (either way round), `f` body-less and `x` the bound variable `var`:
/// `f` and `e`.
fn applied_at<'e>(
    program: &hir::Program,
    conclusion: &'e hir::Expr,
    var: hir::BoundId,
) -> Option<(hir::FunctionId, &'e hir::Expr)> {
    let ExprKind::Binary { op: BinaryOp::Eq, lhs, rhs } = &conclusion.kind else { return None };
    let applied = |side: &hir::Expr| match &side.kind {
        ExprKind::Apply { func, args, .. }
            if program.functions[func.index()].body.is_none()
                && matches!(&args[..], [arg] if matches!(arg.kind, ExprKind::Var(hir::Var::Bound(id)) if id == var)) =>
        {
            Some(*func)
        }
        _ => None,
    };
    applied(lhs).map(|func| (func, &**rhs)).or_else(|| applied(rhs).map(|func| (func, &**lhs)))
}
