//! The finite support of a quantified variable, found at run time: a guard that reads
//! the variable only as the index of maps the state gives, and is false wherever those
//! maps read their default, confines the variable to the maps' explicit keys. This is
//! how memory models write their invariants: `forall x :: Inverse(Res, 1)[x] ==> P(x)`
//! (the objects a resource map holds), `forall y :: ReachBetweenSet(f, a, b)[y] ==> Q(y)`,
//! `forall m :: Res[m] == 1 ==> R(m)`, where `P` may do arithmetic on `x` (a field's
//! address `x + 40`) that representative points cannot follow.
//!
//! **Why it is exact.** Let `g` be a conjunct of a `forall`'s antecedents (or of an
//! `exists`'s body) in which the quantifier's variable `v` occurs only as the whole index
//! `M[v]` of selections whose map `M` mentions no variable of the quantifier (so `M` is
//! one concrete map on the state, outer bindings in scope). Off the union `K` of those
//! maps' explicit keys every `M[v]` is its map's default, so `g` has one value there; it
//! is computed once, at a value outside `K`. When it is false, every `v` outside `K`
//! makes a `forall`'s body true and an `exists`'s body false, so enumerating `K` (with
//! the whole body evaluated at each key, guard included) gives the exact value, as an
//! interval does in [`super::quant`]. A map whose default has no value (opaque) gives no
//! support: the guard cannot be evaluated off `K`.

use super::eval::{Eval, EvalError, Evaluator, State};
use super::monotone::mentions;
use crate::sema::hir::{self, ExprKind};
use crate::vc::Value;
use num_bigint::BigInt;
use num_traits::One;
use std::collections::BTreeSet;

impl Evaluator<'_> {
    /// The explicit keys some conjunct of `guards` confines the integer variable
    /// `ids[var]` to (see the module header), the fewest found; `None` when no conjunct
    /// has that form or its maps have no value.
    pub(super) fn int_support(
        &mut self,
        (state, old): (State<'_>, bool),
        guards: &[&hir::Expr],
        (ids, var): (&[hir::BoundId], usize),
    ) -> Eval<Option<BTreeSet<BigInt>>> {
        let mut best: Option<BTreeSet<BigInt>> = None;
        for guard in guards {
            let mut maps = Vec::new();
            if !indexes_only(guard, ids, ids[var], false, &mut maps) || maps.is_empty() {
                continue;
            }
            let keys = match self.support_of((state, old), guard, ids[var], &maps) {
                Ok(Some(keys)) => keys,
                Ok(None) | Err(EvalError::Cannot { .. }) => continue,
                Err(budget) => return Err(budget),
            };
            if best.as_ref().is_none_or(|best| keys.len() < best.len()) {
                best = Some(keys);
            }
        }
        Ok(best)
    }

    /// The keys of `maps` (each with whether it sits inside `old(..)`) when `guard` is
    /// false off them.
    fn support_of(
        &mut self,
        (state, old): (State<'_>, bool),
        guard: &hir::Expr,
        var: hir::BoundId,
        maps: &[(&hir::Expr, bool)],
    ) -> Eval<Option<BTreeSet<BigInt>>> {
        let mut keys = BTreeSet::new();
        for &(map, inside_old) in maps {
            let Value::Map(value) = self.eval_in(state, map, old || inside_old)? else { return Ok(None) };
            for (key, _) in &value.entries {
                let Value::Int(key) = key else { return Ok(None) };
                keys.insert(key.clone());
            }
        }
        let outside = keys.last().map_or_else(BigInt::default, |last| last + BigInt::one());
        let off_keys = self.with_bound(vec![(var, Value::Int(outside))], |this| this.eval_in(state, guard, old))?;
        Ok((off_keys == Value::Bool(false)).then_some(keys))
    }
}

/// Whether every occurrence of the variable `var` in `expr` is the whole index of a
/// selection whose map mentions none of `ids` (pushed on `maps` with whether it sits
/// inside `old(..)`, `old` saying whether `expr` does), and `expr` mentions no other
/// variable of `ids`.
fn indexes_only<'e>(
    expr: &'e hir::Expr,
    ids: &[hir::BoundId],
    var: hir::BoundId,
    old: bool,
    maps: &mut Vec<(&'e hir::Expr, bool)>,
) -> bool {
    match &expr.kind {
        ExprKind::Var(hir::Var::Bound(id)) => !ids.contains(id),
        ExprKind::Select { map, indices } if matches!(indices.as_slice(), [index] if matches!(index.kind, ExprKind::Var(hir::Var::Bound(id)) if id == var)) =>
        {
            if mentions(map, ids) {
                return false;
            }
            maps.push((map, old));
            true
        }
        // A nested binder may shadow nothing (ids are unique), but its body is a
        // function of the variable this module cannot see through.
        ExprKind::Quant { .. } => !mentions(expr, ids),
        ExprKind::Old(inner) => indexes_only(inner, ids, var, true, maps),
        _ => super::quant::subexpressions(expr).into_iter().all(|child| indexes_only(child, ids, var, old, maps)),
    }
}
