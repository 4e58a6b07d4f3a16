//! Predicates that two clauses define.
//!
//! Input: a program's axioms. Output: the body-less Boolean functions `p` whose every
//! value a pair of axioms fixes, each as a [`Definition`] with a [`Body::Negation`] body,
//! which the interpreter evaluates instead of reading a solver candidate's table of `p`.
//!
//! Set theories written for E-matching state a predicate in two halves, each with its
//! own triggers, rather than as one equivalence (which would let z3 instantiate the
//! quantified side everywhere). HAVOC's driver models and VCC's prelude:
//!
//! ```boogie
//! axiom (forall x: int, S: [int]bool, T: [int]bool :: S[x] && Subset(S,T) ==> T[x]);
//! axiom (forall S: [int]bool, T: [int]bool :: Subset(S,T) || (exists x: int :: S[x] && !T[x]));
//! ```
//!
//! Read as clauses (disjunctions of literals, implications and negated conjunctions
//! unfolded), the first has the literal `!p(xs)` and others `L` over `xs` and the
//! variables `ys` it binds besides: `p(xs) ==> forall ys :: ∨L`. The second binds
//! exactly `xs'`, and is `p(xs') || R` for one literal `R` not applying `p`: `!R ==>
//! p(xs')`. When `¬R` is `forall ys :: ∨L` up to renaming, that is, `R` is `exists ys' ::
//! B` (or, with no `ys`, a literal `r`) and the conjuncts of `B` are the negations of
//! `L`, the two say `p(xs') <==> !R`, and `p`'s value is `!R` at every argument. An
//! application of a candidate's table of `Subset` reads whatever z3's relevancy left
//! there; `!(exists x :: Empty()[x] && !T[x])` is decided on the run's maps (no member of
//! the empty set to try). Anything not proved so (a clause with several literals beside
//! `p`, conjuncts that differ, variables that do not pair up) defines nothing.

use super::define::{applies, Body, Definition};
use super::members::{conjuncts, Matcher};
use crate::sema::hir::{self, BinaryOp, BoundId, ExprKind, FunctionId, Quantifier, UnaryOp};
use std::collections::BTreeMap;

/// The most bound variables `ys` a pair may pair up in every order (a permutation each).
const MAX_PAIRED_VARS: usize = 4;

/// A literal of a clause: `expr` or, when `negated`, `!expr`.
#[derive(Clone, Copy)]
struct Literal<'p> {
    negated: bool,
    expr: &'p hir::Expr,
}

/// One axiom read as a clause with a literal applying a Boolean body-less function to
/// distinct bound variables.
struct Clause<'p> {
    axiom: usize,
    function: FunctionId,
    /// The application's arguments, each a bound variable of the axiom.
    params: Vec<BoundId>,
    /// Whether the application's literal is `!p(xs)` (the forward half).
    negated: bool,
    /// The clause's variables that are no argument (`ys`).
    others: Vec<hir::BoundVar>,
    /// The clause's other literals.
    rest: Vec<Literal<'p>>,
}

/// The predicate definitions among `program`'s axioms, at most one per function (the
/// first), none for a function in `defined`.
pub(super) fn clause_definitions<'p>(program: &'p hir::Program, defined: &[FunctionId]) -> Vec<Definition<'p>> {
    let clauses: Vec<Clause<'p>> =
        program.axioms.iter().enumerate().flat_map(|(index, axiom)| clauses(program, &axiom.expr, index)).collect();
    let mut found: Vec<Definition<'p>> = Vec::new();
    for backward in clauses.iter().filter(|clause| !clause.negated && clause.others.is_empty()) {
        let function = backward.function;
        if defined.contains(&function) || found.iter().any(|definition| definition.function == function) {
            continue;
        }
        let [converse] = backward.rest[..] else { continue };
        let paired = clauses
            .iter()
            .find(|forward| forward.negated && forward.function == function && defines(forward, backward, converse));
        if let Some(forward) = paired {
            // `p || !r`: `p` is `r`'s negation negated.
            let body = if converse.negated { Body::Value(converse.expr) } else { Body::Negation(converse.expr) };
            let axioms = vec![forward.axiom, backward.axiom];
            found.push(Definition { function, params: backward.params.clone(), body, axioms });
        }
    }
    found
}

/// The clauses `expr` (axiom `axiom`) is, one per literal applying a Boolean body-less
/// function to distinct variables.
fn clauses<'p>(program: &hir::Program, expr: &'p hir::Expr, axiom: usize) -> Vec<Clause<'p>> {
    let ExprKind::Quant { quantifier: Quantifier::Forall, vars, body, .. } = &expr.kind else { return Vec::new() };
    let mut literals = Vec::new();
    disjuncts(body, false, &mut literals);
    let mut found = Vec::new();
    for (position, literal) in literals.iter().enumerate() {
        let Some((function, params)) = predicate(program, literal.expr, vars) else { continue };
        let rest: Vec<Literal<'p>> = (literals.iter().enumerate())
            .filter(|&(other, _)| other != position)
            .map(|(_, literal)| *literal)
            .collect();
        if rest.iter().any(|literal| applies(literal.expr, function)) {
            continue;
        }
        let others = vars.iter().filter(|var| !params.contains(&var.id)).cloned().collect();
        found.push(Clause { axiom, function, params, negated: literal.negated, others, rest });
    }
    found
}

/// `expr` (negated when `negated`) split into the literals of its disjunction:
/// `A ==> B` is `!A || B`, `!(A && B)` is `!A || !B`, `!!A` is `A`.
fn disjuncts<'p>(expr: &'p hir::Expr, negated: bool, found: &mut Vec<Literal<'p>>) {
    match (&expr.kind, negated) {
        (ExprKind::Binary { op: BinaryOp::Or, lhs, rhs }, false)
        | (ExprKind::Binary { op: BinaryOp::And, lhs, rhs }, true) => {
            disjuncts(lhs, negated, found);
            disjuncts(rhs, negated, found);
        }
        (ExprKind::Binary { op: BinaryOp::Implies, lhs, rhs }, false) => {
            disjuncts(lhs, true, found);
            disjuncts(rhs, false, found);
        }
        (ExprKind::Unary { op: UnaryOp::Not, operand }, _) => disjuncts(operand, !negated, found),
        _ => found.push(Literal { negated, expr }),
    }
}

/// `expr` as `p(xs)`: `p` body-less, no builtin, returning `bool`, the arguments distinct
/// variables of `vars`.
fn predicate(program: &hir::Program, expr: &hir::Expr, vars: &[hir::BoundVar]) -> Option<(FunctionId, Vec<BoundId>)> {
    let ExprKind::Apply { func, args, .. } = &expr.kind else { return None };
    let function = program.functions.get(func.index())?;
    if function.result != hir::Type::Bool || function.body.is_some() || crate::vc::theory::builtin(function).is_some() {
        return None;
    }
    let mut params: Vec<BoundId> = Vec::new();
    for arg in args {
        let ExprKind::Var(hir::Var::Bound(id)) = arg.kind else { return None };
        if params.contains(&id) || !vars.iter().any(|var| var.id == id) {
            return None;
        }
        params.push(id);
    }
    Some((*func, params))
}

/// Whether `forward` (`p(xs) ==> forall ys :: ∨L`) and `backward` (`p(xs') || R`, `R`
/// being `converse`) together say `p(xs') <==> !R`: `R` is `exists ys' :: B` with the
/// conjuncts of `B` the negations of `L`, `ys'` paired with `ys` in some order.
fn defines(forward: &Clause<'_>, backward: &Clause<'_>, converse: Literal<'_>) -> bool {
    let (exists_vars, body): (&[hir::BoundVar], &hir::Expr) = match &converse.expr.kind {
        ExprKind::Quant { quantifier: Quantifier::Exists, type_params, vars, body, .. }
            if !converse.negated && type_params.is_empty() =>
        {
            (vars, body)
        }
        _ => (&[], converse.expr),
    };
    if exists_vars.len() != forward.others.len() || exists_vars.len() > MAX_PAIRED_VARS {
        return false;
    }
    let negations: Vec<Literal<'_>> = if exists_vars.is_empty() {
        vec![Literal { negated: !converse.negated, expr: converse.expr }]
    } else {
        let mut found = Vec::new();
        conjuncts(body, &mut found);
        found.into_iter().map(negation).collect()
    };
    let renaming: BTreeMap<BoundId, BoundId> =
        backward.params.iter().copied().zip(forward.params.iter().copied()).collect();
    orders(forward.others.len()).into_iter().any(|order| {
        let paired = exists_vars.iter().zip(order.iter().map(|&at| &forward.others[at]));
        if !paired.clone().all(|(var, other)| var.ty == other.ty) {
            return false;
        }
        let mut renaming = renaming.clone();
        renaming.extend(paired.map(|(var, other)| (var.id, other.id)));
        same_literals(&mut Matcher::new(renaming), &forward.rest, &negations)
    })
}

/// `expr`'s negation as a literal (`!A` negated is `A`).
fn negation(expr: &hir::Expr) -> Literal<'_> {
    match &expr.kind {
        ExprKind::Unary { op: UnaryOp::Not, operand } => Literal { negated: false, expr: operand },
        _ => Literal { negated: true, expr },
    }
}

/// Whether the two lists hold the same literals, each of one matched by one of the other.
fn same_literals(matcher: &mut Matcher, forward: &[Literal<'_>], backward: &[Literal<'_>]) -> bool {
    let mut same =
        |left: &Literal<'_>, right: &Literal<'_>| left.negated == right.negated && matcher.same(left.expr, right.expr);
    forward.iter().all(|left| backward.iter().any(|right| same(left, right)))
        && backward.iter().all(|right| forward.iter().any(|left| same(left, right)))
}

/// Every order of `0..count` (`count` at most [`MAX_PAIRED_VARS`]).
fn orders(count: usize) -> Vec<Vec<usize>> {
    if count == 0 {
        return vec![Vec::new()];
    }
    let mut found = Vec::new();
    for shorter in orders(count - 1) {
        for at in 0..=shorter.len() {
            let mut order = shorter.clone();
            order.insert(at, count - 1);
            found.push(order);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::super::define::Body;
    use super::super::tests::{defined_where, set, Candidate};
    use super::super::Outcome;
    use crate::vc::Value;

    /// The functions `source`'s axioms define by a pair of clauses, by name, with their
    /// defining axioms.
    fn defined(source: &str) -> Vec<(String, Vec<usize>)> {
        defined_where(source, |definition| matches!(definition.body, Body::Negation(_)))
    }

    /// HAVOC's `Subset` and `Disjoint`, as its driver models state them.
    const PREDICATES: &str = "
        function Subset([int]bool, [int]bool): bool;
        function Disjoint([int]bool, [int]bool): bool;
        axiom (forall x: int, S: [int]bool, T: [int]bool :: {S[x], Subset(S,T)} S[x] && Subset(S,T) ==> T[x]);
        axiom (forall S: [int]bool, T: [int]bool :: {Subset(S,T)} Subset(S,T) || (exists x: int :: S[x] && !T[x]));
        axiom (forall x: int, S: [int]bool, T: [int]bool :: !(S[x] && Disjoint(S,T) && T[x]));
        axiom (forall S: [int]bool, T: [int]bool :: {Disjoint(S,T)} Disjoint(S,T) || (exists x: int :: S[x] && T[x]));
        ";

    #[test]
    fn a_predicate_two_clauses_state_in_halves_is_defined() {
        assert_eq!(defined(PREDICATES), [("Subset".to_string(), vec![0, 1]), ("Disjoint".to_string(), vec![2, 3])]);
        // The variables renamed, the conjuncts in another order, the forward half as an
        // implication to a disjunction.
        let renamed = "
            function Within(a: [int]bool, b: [int]bool, c: [int]bool): bool;
            axiom (forall p: [int]bool, q: [int]bool, r: [int]bool, o: int :: Within(p, q, r) ==> !p[o] || q[o] || r[o]);
            axiom (forall s: [int]bool, t: [int]bool, u: [int]bool :: (exists k: int :: !u[k] && s[k] && !t[k]) || Within(s, t, u));
            ";
        assert_eq!(defined(renamed), [("Within".to_string(), vec![0, 1])]);
    }

    #[test]
    fn halves_that_do_not_say_the_same_define_nothing() {
        for source in [
            // The converse misses a conjunct.
            "function Sub(a: [int]bool, b: [int]bool): bool;
            axiom (forall x: int, S: [int]bool, T: [int]bool :: S[x] && Sub(S,T) ==> T[x]);
            axiom (forall S: [int]bool, T: [int]bool :: Sub(S,T) || (exists x: int :: S[x]));",
            // Two literals beside the predicate in the converse.
            "function Sub(a: [int]bool, b: [int]bool): bool;
            axiom (forall x: int, S: [int]bool, T: [int]bool :: S[x] && Sub(S,T) ==> T[x]);
            axiom (forall S: [int]bool, T: [int]bool :: Sub(S,T) || S[0] || (exists x: int :: S[x] && !T[x]));",
            // The arguments swapped between the halves.
            "function Sub(a: [int]bool, b: [int]bool): bool;
            axiom (forall x: int, S: [int]bool, T: [int]bool :: S[x] && Sub(S,T) ==> T[x]);
            axiom (forall S: [int]bool, T: [int]bool :: Sub(T,S) || (exists x: int :: S[x] && !T[x]));",
            // One half only.
            "function Sub(a: [int]bool, b: [int]bool): bool;
            axiom (forall x: int, S: [int]bool, T: [int]bool :: S[x] && Sub(S,T) ==> T[x]);",
        ] {
            assert_eq!(defined(source), [], "{source}");
        }
    }

    #[test]
    fn subset_and_disjoint_are_decided_on_the_runs_sets() {
        let candidate = Candidate::new(&format!(
            "{PREDICATES}
            function Empty(): [int]bool;
            axiom (forall x: int :: !Empty()[x]);
            procedure Compare(a: [int]bool, b: [int]bool) returns (sub: bool, empty: bool, apart: bool)
            {{ sub := Subset(a, b); empty := Subset(Empty(), b); apart := Disjoint(a, b); }}"
        ));
        // The candidate's tables say the opposite of the truth everywhere, and its
        // empty set holds 3.
        let tables = || {
            let wrong = |value: bool| vec![(vec![set(&[1]), set(&[1, 2])], Value::Bool(value))];
            vec![
                ("Subset", wrong(false), Value::Bool(false)),
                ("Disjoint", wrong(true), Value::Bool(true)),
                ("Empty", Vec::new(), set(&[3])),
            ]
        };
        let bools = |values: [bool; 3]| values.map(Value::Bool).to_vec();
        let mut input = candidate.input("Compare", vec![set(&[1]), set(&[1, 2])], tables());
        assert_eq!(candidate.run(&mut input), (Outcome::Passed, bools([true, true, false])));
        let mut input = candidate.input("Compare", vec![set(&[1, 5]), set(&[2])], tables());
        assert_eq!(candidate.run(&mut input), (Outcome::Passed, bools([false, true, true])));
    }
}
