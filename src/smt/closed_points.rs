//! The program's own integer quantifiers instantiated at the closed integer terms of
//! their bodies, in axiom-heavy sessions.
//!
//! **Why.** Replay decides a `forall x :: B(x)` of the program (an `assume`, an
//! invariant, a precondition) at the representative points of its body: the values of
//! its closed subterms and the gaps between them (`interp/points.rs`). E-matching
//! instantiates it only where a term matches its trigger. A candidate z3 gives under
//! E-matching alone then breaks it at a point replay evaluates and no trigger named:
//! Boogie's driver models assume, in a loop body, `forall r :: {BIT_BAND(BIT_BAND(F,
//! BIT_BNOT(128)), r)} POW2(r) && … ==> (BIT_BAND(F, r) != 0 <==> …)`, and replay finds it
//! false at `r = F`, where the candidate's `POW2` is true by default and the axiom `a ==
//! b ==> BIT_BAND(a, b) == a` fixes `BIT_BAND(F, F)`. The run stops at the assumption,
//! which gives refinement nothing to assert, and the goals of the loop body waited for
//! the ladder of exact unrollings.
//!
//! **What.** For each such quantifier of the encoding (one integer variable, not an
//! axiom), `Q ⇒ B(t)` for each closed integer subterm `t` of its body, at most
//! [`MAX_POINTS`] of them: a tautology, so every answer stays exact. The new terms
//! (`BIT_BAND(F, F)`) give E-matching the instances of the axioms at those points too.
//!
//! **Not axioms.** A prelude's axioms are hundreds, and their closed terms are its
//! constants: instantiated so, they weighed on every check of the driver models (both
//! `CreateClassObject` files went from 31 goals decided within three times Boogie's
//! time to 22). The program's own quantifiers are few.

use super::ranges::{instances_at, is_ground, one_variable_foralls};
use super::translate::Z3Terms;
use crate::vc::{Encoding, Sort, TermId};
use z3::ast::Bool;

/// The most closed terms a quantifier is instantiated at.
const MAX_POINTS: usize = 8;

/// The instances of `encoding`'s one-variable integer quantifiers that are no axiom at
/// the closed integer terms of their bodies (see the module documentation).
pub(super) fn closed_point_instances(encoding: &Encoding, image: &mut Z3Terms) -> Vec<Bool> {
    let mut instances = Vec::new();
    for (forall, var, body) in one_variable_foralls(encoding) {
        if encoding.terms.var(var).sort != Sort::Int || encoding.axiom_terms.iter().any(|&(_, axiom)| axiom == forall) {
            continue;
        }
        let points = closed_int_terms(encoding, body).into_iter().map(|point| image.ast(point).clone()).collect();
        instances.extend(instances_at(encoding, image, (forall, var, body), points));
    }
    instances
}

/// The maximal closed subterms of `body` of sort `int`, in the order first met, at
/// most [`MAX_POINTS`].
fn closed_int_terms(encoding: &Encoding, body: TermId) -> Vec<TermId> {
    let terms = &encoding.terms;
    let mut closed = Vec::new();
    let mut pending = vec![body];
    while let Some(next) = pending.pop() {
        if is_ground(encoding, next) {
            if *terms.sort(next) == Sort::Int && !closed.contains(&next) {
                closed.push(next);
            }
            continue;
        }
        let mut children = crate::vc::term::children(terms.get(next));
        children.reverse();
        pending.extend(children);
    }
    closed.truncate(MAX_POINTS);
    closed
}

#[cfg(test)]
mod tests {
    use super::closed_point_instances;
    use crate::smt::translate::{MapEncoding, Z3Terms};
    use crate::vc::testing::goal_encoding;

    #[test]
    fn a_quantifier_of_the_program_is_instantiated_at_its_closed_terms_and_an_axiom_is_not() {
        let source = "function f(x: int, y: int): int;\nfunction h(x: int): int;\n\
             axiom (forall x: int :: { h(x) } f(x, 3) > 0);\n\
             procedure P(p: int) { start: assume (forall x: int :: { h(x) } f(p, x) != 0 ==> x > 5); return; }";
        let (_, encoding) = goal_encoding(source, "P");
        let mut image = Z3Terms::new(&encoding, MapEncoding::Arrays);
        let instances: Vec<String> =
            closed_point_instances(&encoding, &mut image).iter().map(ToString::to_string).collect();
        // `p` and `0` (and `5`) are the assumption's closed terms; the axiom's `3` is not
        // used.
        assert!(instances.iter().any(|instance| instance.contains("(f p@0 p@0)")), "{instances:?}");
        assert!(instances.iter().any(|instance| instance.contains("(f p@0 0)")), "{instances:?}");
        assert!(instances.iter().all(|instance| !instance.contains("(f 3 3)")), "{instances:?}");
    }
}
