//! Counterexample-guided ground instantiation ("refinement by replay"): the instance
//! of a quantified axiom or precondition that a candidate model breaks, asserted in the
//! session so that the next check cannot break it again.
//!
//! **Why.** On an axiom-heavy encoding a session's first look uses E-matching alone
//! (Boogie's configuration, [`super::session`]), and z3 answers `unknown` with a
//! candidate model that satisfies every instance E-matching made but may break a
//! quantified axiom or `requires` at a point no trigger ever matched (Boogie's driver
//! models: `forall _H_x :: Inverse(Res_DEV_OBJ_INIT, 1)[_H_x] ==> …` false at `_H_x =
//! -1`, a point whose trigger term occurs nowhere in the verification condition). The
//! interpreter replaying the candidate finds the formula false and knows the binding
//! where its body is ([`crate::interp::Refutation`]).
//!
//! **What.** That binding as ground terms of the encoding: integers, Booleans, reals and
//! bit-vectors as literals; an element of an uninterpreted sort as a ground term of the
//! encoding (a constant, a function application, a map selection) whose value in the
//! candidate model is that element ([`Grounding`], the terms of each sort collected once
//! per session). The body with the bound variables replaced by them is asserted for
//! good, and the same query is asked again; its new terms give E-matching the triggers
//! it lacked. This is sound and keeps every answer exact: the instance is implied by an
//! asserted formula (an axiom, or the precondition (A2), asserted unconditionally, see
//! [`crate::vc::encode`]), so an `unsat` answer afterwards is still a proof.
//!
//! The first refutation of a formula also asserts it once more, triggered by its
//! guard ([`guard_triggered`]): a point the candidate made up has no term to name it,
//! and the guard's atoms are where z3 puts such a point.
//!
//! **Not grounded** (the instance is then not made, and the caller goes on as without
//! refinement): a binding with a map value, or an element no ground term of its sort
//! evaluates to within [`MAX_EVALUATIONS`] evaluations, or a formula that is not a
//! `forall` in the encoding.
//!
//! The caller (the enumerator, [`crate::gen`]) bounds the rounds per query
//! ([`MAX_ROUNDS`]); the run's `--time-limit` bounds them too, as every check.

use super::translate::{scalar_literal, Z3Terms};
use crate::interp::{Refutation, RefutedCheck};
use crate::vc::term::{QuantKind, Term, Terms};
use crate::vc::{Encoding, InputKind, Sort, TermId, Value};
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use z3::ast::{Ast, Bool, Dynamic};

/// Rounds of refinement per query: each is a replay and an E-matching check (on
/// Boogie's driver models about 0.1–0.5 s each); a query whose candidates keep breaking
/// new instances past that is left to model-based instantiation, as before.
pub const MAX_ROUNDS: usize = 8;

/// The most ground terms evaluated in the candidate model to find one denoting an
/// element: model evaluation is cheap, but an encoding may have tens of thousands.
const MAX_EVALUATIONS: usize = 4096;

/// An instance to assert: the quantified term `forall` of the encoding (an axiom's, or
/// a `requires` clause's over incarnation 0) at `values`, one per bound variable in
/// order.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Instance {
    pub forall: TermId,
    pub values: Vec<Value>,
}

impl Instance {
    /// The instances a replay's refutation asks for, one per binding; none when the
    /// refuted formula is not a `forall` of the encoding with as many variables (a
    /// pruned axiom, a quantifier the translator simplified away).
    pub fn of(encoding: &Encoding, refutation: &Refutation) -> Vec<Instance> {
        let forall = match refutation.check {
            RefutedCheck::Axiom(index) => {
                encoding.axiom_terms.iter().find(|&&(axiom, _)| axiom == index).map(|&(_, term)| term)
            }
            RefutedCheck::Requires(clause) => encoding.precondition.get(clause).copied(),
        };
        let Some(formula) = forall else { return Vec::new() };
        let mut conjuncts = Vec::new();
        conjuncts_of(&encoding.terms, formula, &mut conjuncts);
        let Some(&forall) = conjuncts.get(refutation.conjunct) else { return Vec::new() };
        let Term::Quant { kind: QuantKind::Forall, vars, .. } = encoding.terms.get(forall) else { return Vec::new() };
        // The formula and its encoding split alike; were they not, an instance of
        // another conjunct of matching variables would still be sound, and one of
        // variables of other sorts is never made.
        let fits = |values: &Vec<Value>| {
            values.len() == vars.len()
                && vars.iter().zip(values).all(|(&var, value)| fits_sort(value, &encoding.terms.var(var).sort))
        };
        (refutation.bindings.iter())
            .filter(|values| fits(values))
            .map(|values| Instance { forall, values: values.clone() })
            .collect()
    }
}

/// `term` split at its (nested) conjunctions.
fn conjuncts_of(terms: &Terms, term: TermId, found: &mut Vec<TermId>) {
    match terms.get(term) {
        Term::And(operands) => operands.iter().for_each(|&operand| conjuncts_of(terms, operand, found)),
        _ => found.push(term),
    }
}

/// Whether `value` is of `sort` (an element of an uninterpreted sort, of its type).
pub(super) fn fits_sort(value: &Value, sort: &Sort) -> bool {
    match (value, sort) {
        (Value::Bool(_), Sort::Bool) | (Value::Int(_), Sort::Int) | (Value::Real(_), Sort::Real) => true,
        (Value::BitVec { width, .. }, Sort::BitVec(bits)) => width == bits,
        (Value::Elem { ty, .. }, Sort::Named(named)) => ty == named,
        _ => false,
    }
}

thread_local! {
    /// The model of the session's last check that had one (a `sat` answer's, or an
    /// `unknown` one's candidate): the elements a later refutation names are its. A
    /// session's worker is a thread of its own, so this is the session's.
    static LAST_MODEL: RefCell<Option<Rc<z3::Model>>> = const { RefCell::new(None) };
    /// Whether the session keeps its last model ([`keep_models`]).
    static KEEPS_MODELS: Cell<bool> = const { Cell::new(false) };
}

/// Makes the session of the calling worker thread keep its last model, for
/// refinement: only sessions that validate candidates refine, and a model kept alive
/// keeps its terms alive in the z3 context, which changes the ids of later terms and so
/// z3's later answers (see [`super::session`], "Determinism"): the other sessions'
/// answers stay exactly as they were.
pub(super) fn keep_models() {
    KEEPS_MODELS.with(|keeps| keeps.set(true));
}

/// Keeps `model` as the session's last ([`LAST_MODEL`]) if it keeps models.
pub(super) fn remember(model: &Rc<z3::Model>) {
    if KEEPS_MODELS.with(Cell::get) {
        LAST_MODEL.with(|last| *last.borrow_mut() = Some(Rc::clone(model)));
    }
}

/// The ground terms of an encoding by sort, for naming elements; collected on first
/// use, once per session.
#[derive(Default)]
pub(super) struct Grounding {
    by_sort: Option<BTreeMap<Sort, Vec<TermId>>>,
    /// Instances asserted already: asserting one again would change nothing.
    asserted: BTreeSet<Instance>,
    /// The quantified terms asserted again with their guards as triggers.
    guard_triggered: BTreeSet<TermId>,
}

impl Grounding {
    /// The instances of `instances` not asserted before that can be grounded in the last
    /// model, as formulas; each is remembered as asserted.
    pub(super) fn formulas(&mut self, encoding: &Encoding, image: &mut Z3Terms, instances: &[Instance]) -> Vec<Bool> {
        let Some(model) = LAST_MODEL.with(|last| last.borrow().clone()) else { return Vec::new() };
        let mut formulas = Vec::new();
        for instance in instances {
            if self.asserted.contains(instance) {
                continue;
            }
            if self.guard_triggered.insert(instance.forall) {
                formulas.extend(guard_triggered(encoding, image, instance.forall));
            }
            if let Some(formula) = self.formula(encoding, image, &model, instance) {
                self.asserted.insert(instance.clone());
                formulas.push(formula);
            }
        }
        formulas
    }

    fn formula(
        &mut self,
        encoding: &Encoding,
        image: &mut Z3Terms,
        model: &z3::Model,
        instance: &Instance,
    ) -> Option<Bool> {
        let Term::Quant { vars, body, .. } = encoding.terms.get(instance.forall) else { return None };
        let mut pairs: Vec<(Dynamic, Dynamic)> = Vec::new();
        for (&var, value) in vars.iter().zip(&instance.values) {
            let ground = self.ground(encoding, image, model, value)?;
            pairs.push((image.bound(encoding, var), ground));
        }
        let pairs: Vec<(&Dynamic, &Dynamic)> = pairs.iter().map(|(from, to)| (from, to)).collect();
        image.ast(*body).substitute(&pairs).as_bool()
    }

    /// A ground term whose value in `model` is `value`.
    fn ground(&mut self, encoding: &Encoding, image: &Z3Terms, model: &z3::Model, value: &Value) -> Option<Dynamic> {
        match value {
            Value::Int(_) => {
                let literal = scalar_literal(value)?;
                Some(named_point(encoding, image, model, &literal).unwrap_or(literal))
            }
            Value::Bool(_) | Value::Real(_) | Value::BitVec { .. } => scalar_literal(value),
            Value::Elem { ty, index } => {
                let sort = Sort::Named(*ty);
                let candidates = self.terms_of(encoding).get(&sort)?;
                let z3_sort = image.ast(*candidates.first()?).get_sort();
                let universe = model.get_sort_universe(&z3_sort)?;
                let index = usize::try_from(*index).ok().filter(|&index| index < universe.len())?;
                let element = universe.get(index);
                // The encoding's terms, then the fresh points of wished maps, whose
                // values are points the candidate made up (no term names them).
                let fresh = image.wished_indices().filter(|point| point.get_sort() == z3_sort);
                let terms = candidates.iter().take(MAX_EVALUATIONS).map(|&term| image.ast(term)).chain(fresh);
                terms.into_iter().find_map(|term| {
                    let evaluated = model.eval(term, true)?;
                    evaluated.ast_eq(&element).then(|| term.clone())
                })
            }
            Value::Map(_) | Value::Opaque(_) => None,
        }
    }

    /// The ground terms of each uninterpreted sort: constants first, then applications
    /// and selections, in arena order.
    fn terms_of(&mut self, encoding: &Encoding) -> &BTreeMap<Sort, Vec<TermId>> {
        self.by_sort.get_or_insert_with(|| ground_terms(encoding))
    }
}

/// A ground term naming the point `literal` in `model`: the first integer entry input
/// (parameter, global, constant) whose value it is, else the first index a wished map
/// may differ at ([`Z3Terms::wished_indices`]). An instance at a point the candidate
/// names so is asserted at the name, so that it binds wherever the next model puts the
/// point: at the literal, z3 only moves the point elsewhere (a resource map wished
/// constant but at one index, refuted round after round at a new index).
fn named_point(encoding: &Encoding, image: &Z3Terms, model: &z3::Model, literal: &Dynamic) -> Option<Dynamic> {
    let inputs = (encoding.inputs.iter())
        .filter(|input| matches!(input.kind, InputKind::Param(_) | InputKind::Global(_) | InputKind::Const(_)))
        .map(|input| image.ast(input.term));
    inputs
        .chain(image.wished_indices())
        .filter(|term| term.get_sort() == literal.get_sort())
        .find(|term| model.eval(*term, true).is_some_and(|value| value.ast_eq(literal)))
        .cloned()
}

/// `forall` (`forall x :: G(x) && … ==> P(x)`) again, triggered by the atoms of its
/// guard `G` that can be triggers (a map selection or a function application mentioning
/// every variable, with no interpreted operation around one), one pattern each; `None`
/// when it has none.
///
/// **Why.** Replay evaluates such a formula at every point of its guard's support in
/// the candidate's tables (each member of `Inverse(Res_DEV_EXTN, 1)`, say), but
/// E-matching instantiates it only where its own trigger occurs. A member z3 made up (a
/// list element a reachability axiom's witness asked for, at an address no term of the
/// encoding names) then breaks it in every candidate, each time at a new address, and
/// an instance at the address only moves it: on Boogie's driver models, a refutation
/// of the same precondition round after round, 174 of them in 10 s. Triggered by its
/// guard, the formula is instantiated wherever z3 takes a point to be in the guard,
/// which are the points replay reads (7 refutations then). It is the same formula
/// asserted again, so every answer stays exact.
fn guard_triggered(encoding: &Encoding, image: &mut Z3Terms, forall: TermId) -> Option<Bool> {
    let terms = &encoding.terms;
    let Term::Quant { kind: QuantKind::Forall, vars, body, .. } = terms.get(forall) else { return None };
    let Term::Implies(guard, _) = terms.get(*body) else { return None };
    let mut atoms = Vec::new();
    conjuncts_of(terms, *guard, &mut atoms);
    atoms.retain(|&atom| terms.mentions_all(&[atom], vars) && can_trigger(terms, atom, true));
    if atoms.is_empty() {
        return None;
    }
    let patterns: Vec<Vec<TermId>> = atoms.into_iter().map(|atom| vec![atom]).collect();
    Some(image.quantifier(encoding, QuantKind::Forall, vars, &patterns, *body))
}

/// Whether `term` can be a trigger (`top`) or a part of one: an application or a map
/// selection, over bound variables, constants and such terms.
fn can_trigger(terms: &Terms, term: TermId, top: bool) -> bool {
    match terms.get(term) {
        Term::App(_, args) => args.iter().all(|&arg| can_trigger(terms, arg, false)),
        Term::Select(map, indices) => {
            std::iter::once(map).chain(indices).all(|&operand| can_trigger(terms, operand, false))
        }
        Term::Var(_) => !top,
        other => !top && crate::vc::term::children(other).is_empty(),
    }
}

/// See [`Grounding::terms_of`].
fn ground_terms(encoding: &Encoding) -> BTreeMap<Sort, Vec<TermId>> {
    let terms = &encoding.terms;
    let mut ground = vec![false; terms.len()];
    let mut constants: BTreeMap<Sort, Vec<TermId>> = BTreeMap::new();
    let mut applied: BTreeMap<Sort, Vec<TermId>> = BTreeMap::new();
    for id in terms.ids() {
        let term = terms.get(id);
        let is_ground = match term {
            Term::Var(_) | Term::Quant { .. } | Term::Lambda(..) => false,
            other => crate::vc::term::children(other).iter().all(|child| ground[child.index()]),
        };
        ground[id.index()] = is_ground;
        let sort = terms.sort(id);
        if !is_ground || !matches!(sort, Sort::Named(_)) {
            continue;
        }
        match term {
            Term::App(_, args) if args.is_empty() => constants.entry(sort.clone()).or_default().push(id),
            Term::App(..) | Term::Select(..) | Term::Ite(..) => applied.entry(sort.clone()).or_default().push(id),
            _ => {}
        }
    }
    for (sort, mut more) in applied {
        constants.entry(sort).or_default().append(&mut more);
    }
    constants
}

#[cfg(test)]
pub(super) mod tests {
    use super::Instance;
    use crate::interp::{Refutation, RefutedCheck};
    use crate::smt::{Reach, Session, SessionOptions};
    use crate::vc::testing::{block, goal_encoding};
    use crate::vc::{InputKind, Value};
    use num_bigint::BigInt;
    use std::sync::Arc;

    /// `axiom` and a hundred weak axioms about `g` (so the session is axiom-heavy and
    /// its first looks use E-matching alone), then `procedure`.
    pub(in crate::smt) fn axiom_heavy(declarations: &str, axiom: &str, procedure: &str) -> String {
        let mut source = format!("{declarations}\nfunction g(x: int): int;\n{axiom}\n");
        for k in 0..100 {
            source.push_str(&format!("axiom (forall x: int :: {{ g(x + {k}) }} g(x + {k}) > -1000);\n"));
        }
        source.push_str(procedure);
        source
    }

    /// A session of `source`'s `P` and the candidate of its first look at block `Bad`.
    fn first_candidate(source: &str) -> (Session, crate::vc::Model) {
        let (cfg, encoding) = goal_encoding(source, "P");
        let mut session = Session::new(Arc::new(encoding), SessionOptions::default());
        match session.first_look(&[block(&cfg, "Bad")]) {
            Reach::Unknown { candidate: Some(candidate), .. } => (session, candidate),
            other => panic!("E-matching alone gives a candidate: {other:?}"),
        }
    }

    fn refutation_of_axiom_0(values: Vec<Value>) -> Refutation {
        Refutation { check: RefutedCheck::Axiom(0), conjunct: 0, bindings: vec![values] }
    }

    #[test]
    fn an_instance_e_matching_never_makes_decides_the_query_once_asserted() {
        // The trigger `h(x)` occurs at 7 only, so E-matching never instantiates the
        // axiom at 5, and z3's candidate may take `g(5) <= 0`: the instance at 5,
        // asserted, proves the goal unreachable (an exact answer: it is implied).
        let source = axiom_heavy(
            "function h(x: int): int;",
            "axiom (forall x: int :: { h(x) } g(x) > 0);",
            "procedure P() { start: goto Bad, Fine; Bad: assume g(5) <= 0 && h(7) == 0; return; Fine: return; }",
        );
        let (cfg, encoding) = goal_encoding(&source, "P");
        let instances = Instance::of(&encoding, &refutation_of_axiom_0(vec![Value::Int(BigInt::from(5))]));
        let [instance] = &instances[..] else { panic!("the axiom is a forall of one variable: {instances:?}") };
        let mut session = Session::new(Arc::new(encoding), SessionOptions::default());
        assert!(session.validates_candidates(), "a hundred and one quantifiers make the session axiom-heavy");
        let first = session.first_look(&[block(&cfg, "Bad")]);
        assert!(matches!(first, Reach::Unknown { candidate: Some(_), .. }), "{first:?}");
        assert_eq!(session.refine(vec![instance.clone()]), Reach::Unsat);
        // Asserted once: asking for it again changes nothing, and says so.
        let again = session.refine(vec![instance.clone()]);
        assert!(matches!(again, Reach::Unknown { candidate: None, .. }), "{again:?}");
    }

    #[test]
    fn an_element_is_named_by_a_ground_term_that_denotes_it_in_the_candidate() {
        let source = axiom_heavy(
            "type T; const c: T; const d: T; function f(t: T): int; function h(t: T): int;",
            "axiom (forall t: T :: { h(t) } f(t) > 0);",
            "procedure P() { start: goto Bad, Fine; Bad: assume f(c) <= 0 && h(d) == g(0) && c != d; return; Fine: return; }",
        );
        let (mut session, candidate) = first_candidate(&source);
        let constant = session.encoding().inputs.iter().position(|input| matches!(input.kind, InputKind::Const(_)));
        assert!(constant.is_some(), "`c` is an input");
        let element = candidate.entry[0].value.clone();
        assert!(matches!(element, Value::Elem { .. }), "{element:?}");
        let instances = Instance::of(session.encoding(), &refutation_of_axiom_0(vec![element]));
        assert_eq!(instances.len(), 1, "a forall of one variable");
        assert_eq!(session.refine(instances), Reach::Unsat);
    }

    #[test]
    fn a_conjunct_of_a_precondition_is_instantiated_and_one_of_other_sorts_is_not() {
        let source = axiom_heavy(
            "function h(x: int): int; function t(b: bool): bool;",
            "",
            "procedure P() requires (forall x: int :: { h(x) } g(x) > 0) && (forall b: bool :: { t(b) } t(b) || !t(b)); \
             { start: goto Bad, Fine; Bad: assume g(5) <= 0 && h(7) == 0; return; Fine: return; }",
        );
        let (mut session, _) = first_candidate(&source);
        let refuted = |conjunct: usize| Refutation {
            check: RefutedCheck::Requires(0),
            conjunct,
            bindings: vec![vec![Value::Int(BigInt::from(5))]],
        };
        let encoding = session.encoding();
        assert_eq!(Instance::of(encoding, &refuted(1)), Vec::new(), "the second conjunct binds a bool");
        assert_eq!(Instance::of(encoding, &refuted(2)), Vec::new(), "there is no third conjunct");
        let instances = Instance::of(encoding, &refuted(0));
        assert_eq!(instances.len(), 1);
        assert_eq!(session.refine(instances), Reach::Unsat);
    }

    #[test]
    fn an_instance_at_a_point_an_input_names_binds_the_input() {
        // The goal needs `Res[y] == 1` and `g(y) <= 5`, which the precondition forbids,
        // but its trigger `h(x)` occurs at 7 only. An instance at the literal value of
        // `y` would only move `y`; at `y` itself it proves the goal unreachable.
        let source = axiom_heavy(
            "var Res: [int]int; function h(x: int): int;",
            "",
            "procedure P(y: int) requires (forall x: int :: { h(x) } Res[x] == 1 ==> g(x) > 5); \
             { start: goto Bad, Fine; Bad: assume Res[y] == 1 && g(y) <= 5 && h(7) == 0; return; Fine: return; }",
        );
        let (mut session, candidate) = first_candidate(&source);
        let param = candidate.entry.iter().find(|assignment| matches!(assignment.kind, InputKind::Param(_)));
        let y = param.expect("`y` is an input").value.clone();
        let refutation = Refutation { check: RefutedCheck::Requires(0), conjunct: 0, bindings: vec![vec![y]] };
        let instances = Instance::of(session.encoding(), &refutation);
        assert_eq!(session.refine(instances), Reach::Unsat);
    }

    #[test]
    fn a_precondition_refuted_at_a_member_no_term_names_is_triggered_by_its_guard() {
        // The goal needs a member of `S` with `g` at most 5, which the precondition
        // forbids; z3 names the member by the skolem of the `exists`, no term of the
        // encoding, and the precondition's trigger `h(x)` occurs at 7 only. An instance
        // at the member's value would only move the member; the precondition asserted
        // again with `S[x]` as its trigger binds it wherever it goes.
        let source = axiom_heavy(
            "var S: [int]bool; function h(x: int): int;",
            "",
            "procedure P() requires (forall x: int :: { h(x) } S[x] ==> g(x) > 5); \
             { start: goto Bad, Fine; Bad: assume (exists y: int :: S[y] && g(y) <= 5) && h(7) == 0; return; \
             Fine: return; }",
        );
        let (mut session, _) = first_candidate(&source);
        let refutation = Refutation {
            check: RefutedCheck::Requires(0),
            conjunct: 0,
            bindings: vec![vec![Value::Int(BigInt::from(-29406))]],
        };
        let instances = Instance::of(session.encoding(), &refutation);
        assert_eq!(instances.len(), 1);
        assert_eq!(session.refine(instances), Reach::Unsat);
    }

    #[test]
    fn a_formula_that_is_no_forall_of_as_many_variables_makes_no_instance() {
        let source = axiom_heavy("", "axiom g(1) == 2;", "procedure P() { start: return; }");
        let (_, encoding) = goal_encoding(&source, "P");
        assert_eq!(Instance::of(&encoding, &refutation_of_axiom_0(vec![Value::Int(BigInt::from(1))])), Vec::new());
        let two = vec![Value::Int(BigInt::from(1)), Value::Int(BigInt::from(2))];
        let refutation = Refutation { check: RefutedCheck::Axiom(1), conjunct: 0, bindings: vec![two] };
        assert_eq!(Instance::of(&encoding, &refutation), Vec::new(), "axiom 1 binds one variable");
        let refutation = Refutation { check: RefutedCheck::Requires(0), conjunct: 0, bindings: vec![Vec::new()] };
        assert_eq!(Instance::of(&encoding, &refutation), Vec::new(), "`P` has no precondition");
    }
}
