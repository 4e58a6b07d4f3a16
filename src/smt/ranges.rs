//! Quantifiers over a few consecutive integers, expanded: in an axiom-heavy session, a
//! `forall x :: lo <= x && x < hi ==> P(x)` of the encoding whose range has a small
//! constant width (`hi - lo` a numeral once simplified, as after `call p :=
//! malloc(16)`: `p <= x && x < p + 16`) gets its instances at `lo`, `lo + 1`, …,
//! `hi - 1` asserted beside it, each as `Q ⇒ P(lo + i)` (a tautology, so every answer
//! stays exact).
//!
//! **Why.** E-matching instantiates a quantifier only at terms its trigger matches, and
//! a range's points other than those the program names are no term of the encoding:
//! the first look's candidate then breaks the formula at them (Boogie's driver models:
//! `forall x :: {Base(x)} new <= x && x < new + obj_size ==> Base(x) == new`, a
//! postcondition of the allocator, false at `new + 1` on the candidate's table of
//! `Base`), which replay finds, and the run is no execution. With the instances, the
//! points are terms, and the candidate's tables agree with the formula on all of them.
//! A finite range is exactly what replay evaluates point by point, so these are the
//! instances a run reads.

use super::model::simplified;
use super::translate::Z3Terms;
use crate::vc::term::{CmpOp, QuantKind, Term, VarId};
use crate::vc::{Encoding, TermId};
use z3::ast::{Ast, Bool, Dynamic, Int};

/// The widest range expanded: a structure's cells. A wider one (Boogie's driver models
/// allocate 512-byte buffers) is left to E-matching: its 512 instances made every check
/// of those sessions cost about 100 ms and the first 1.8 s, and a candidate's table
/// that breaks it off its entries is completed by replay (`interp/writes.rs`).
const MAX_WIDTH: i64 = 64;

/// The instances of `encoding`'s small integer ranges (see the module documentation),
/// as formulas to assert.
pub(super) fn small_range_instances(encoding: &Encoding, image: &mut Z3Terms) -> Vec<Bool> {
    let mut instances = Vec::new();
    for (forall, var, body) in one_variable_foralls(encoding) {
        let Some((lo, width)) = small_range(encoding, image, var, body) else { continue };
        let lo = image.ast(lo).as_int().expect("a range's bound is an integer");
        let points = (0..width).map(|offset| Int::add(&[&lo, &Int::from_i64(offset)]).into()).collect();
        instances.extend(instances_at(encoding, image, (forall, var, body), points));
    }
    instances
}

/// The `forall`s of `encoding` over one variable: each term, its variable and its body.
pub(super) fn one_variable_foralls(encoding: &Encoding) -> impl Iterator<Item = (TermId, VarId, TermId)> + '_ {
    let terms = &encoding.terms;
    terms.ids().filter_map(|id| match terms.get(id) {
        Term::Quant { kind: QuantKind::Forall, vars, body, .. } if vars.len() == 1 => Some((id, vars[0], *body)),
        _ => None,
    })
}

/// `forall ⇒ body[var := point]` for each of `points`: tautologies.
pub(super) fn instances_at(
    encoding: &Encoding,
    image: &mut Z3Terms,
    (forall, var, body): (TermId, VarId, TermId),
    points: Vec<Dynamic>,
) -> Vec<Bool> {
    let bound = image.bound(encoding, var);
    let quantified = image.bool(forall);
    (points.iter())
        .filter_map(|point| image.ast(body).substitute(&[(&bound, point)]).as_bool())
        .map(|instance| quantified.implies(&instance))
        .collect()
}

/// For `body = (lo <= x && x < hi && …) ==> P` (the bounds in any of the usual forms,
/// ground), the lower bound and the width `hi - lo` when z3 simplifies it to a numeral
/// within [`MAX_WIDTH`]. The body is instantiated whole: the guard is then a tautology
/// at each point.
fn small_range(encoding: &Encoding, image: &Z3Terms, var: VarId, body: TermId) -> Option<(TermId, i64)> {
    let terms = &encoding.terms;
    let Term::Implies(guard, _) = terms.get(body) else { return None };
    let conjuncts = match terms.get(*guard) {
        Term::And(conjuncts) => conjuncts.clone(),
        _ => vec![*guard],
    };
    let is_var = |term: TermId| matches!(terms.get(term), Term::Var(v) if *v == var);
    let mut lower: Option<(TermId, i64)> = None;
    let mut upper: Option<(TermId, i64)> = None;
    for conjunct in conjuncts {
        let Term::Cmp(op, left, right) = terms.get(conjunct) else { continue };
        // (bound term, inclusive adjustment): x >= lo + adj for lower, x < hi + adj for upper.
        match (op, is_var(*left), is_var(*right)) {
            (CmpOp::Le, false, true) => lower = Some((*left, 0)),
            (CmpOp::Lt, false, true) => lower = Some((*left, 1)),
            (CmpOp::Ge, true, false) => lower = Some((*right, 0)),
            (CmpOp::Gt, true, false) => lower = Some((*right, 1)),
            (CmpOp::Lt, true, false) => upper = Some((*right, 0)),
            (CmpOp::Le, true, false) => upper = Some((*right, 1)),
            (CmpOp::Gt, false, true) => upper = Some((*left, 0)),
            (CmpOp::Ge, false, true) => upper = Some((*left, 1)),
            _ => {}
        }
    }
    let ((lo, lo_adjust), (hi, hi_adjust)) = (lower?, upper?);
    if lo_adjust != 0 || !is_ground(encoding, lo) || !is_ground(encoding, hi) {
        return None;
    }
    let (low, high) = (image.ast(lo).as_int()?, image.ast(hi).as_int()?);
    let width = simplified(&Int::sub(&[&high, &low]).into())?.as_int()?.as_i64()? + hi_adjust;
    (0 < width && width <= MAX_WIDTH).then_some((lo, width))
}

/// Whether `term` reads no bound variable.
pub(super) fn is_ground(encoding: &Encoding, term: TermId) -> bool {
    let terms = &encoding.terms;
    let mut pending = vec![term];
    while let Some(next) = pending.pop() {
        match terms.get(next) {
            Term::Var(_) | Term::Quant { .. } | Term::Lambda(..) => return false,
            other => pending.extend(crate::vc::term::children(other)),
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::small_range_instances;
    use crate::smt::translate::{MapEncoding, Z3Terms};
    use crate::vc::testing::goal_encoding;

    #[test]
    fn a_quantifier_over_three_consecutive_integers_gets_three_instances() {
        let source = "function f(x: int): int;\nfunction h(x: int): int;\n\
             procedure P(p: int) { start: assume (forall x: int :: { h(x) } p <= x && x < p + 3 ==> f(x) == 7); \
             assume (forall x: int :: { h(x) } p <= x ==> f(x) > 0); \
             assume (forall x: int :: { h(x) } p <= x && x < p + 2000 ==> f(x) < 9); return; }";
        let (_, encoding) = goal_encoding(source, "P");
        let mut image = Z3Terms::new(&encoding, MapEncoding::Arrays);
        let instances = small_range_instances(&encoding, &mut image);
        // The unbounded and the wide ranges are left to E-matching.
        assert_eq!(instances.len(), 3, "{instances:?}");
        assert!(instances[1].to_string().contains("(f (+ p@0 1))"), "{}", instances[1]);
    }
}
