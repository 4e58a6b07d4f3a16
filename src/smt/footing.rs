//! What a session's `unsat` answers stand on: the axioms and the precondition must not
//! refute themselves, and a refutation z3 finds only by model-based instantiation is not
//! taken from axioms written for triggers.
//!
//! Input: an [`Encoding`]'s axioms and precondition, in the session's z3 context.
//! Output: a [`Footing`], found once per session at its first `unsat` answer (or when
//! `verify` asks), which decides whether that answer and every later one is a proof.
//!
//! **Why.** Front ends write their preludes for trigger-based instantiation, which is all
//! Boogie 2.4.1 does (`smt.mbqi=false`). Such a prelude may be contradictory as a set of
//! first-order formulas while no trigger ever builds the terms that show it: Dafny's
//! multiset axioms say `Card(s) == 0 <==> s == Empty()` and `Card(s) != 0 ==> (exists x
//! :: 0 < s[x])` of every map `s` from elements to integers, which a map holding only
//! `-1` refutes. z3's model-based instantiation builds such terms, so with it a check of
//! `assert false` comes back `unsat`: "verified", where Boogie reports the error. A proof
//! from a contradiction is no proof (a "verified" or "unreachable" a user would act on,
//! and false).
//!
//! **The footing** (Boogie's `/smoke`, Dafny's vacuity warnings, for the axioms):
//! 1. The axioms and the precondition are checked alone (a solver of their own, each
//!    behind an assumed literal), by E-matching (Boogie's
//!    instantiation), under a resource limit. `unsat`: they refute themselves as Boogie
//!    would see it; no answer of the session is a proof ([`Footing::Contradictory`]),
//!    and the contradiction is reported with an unsat core over the axioms.
//!    Then the session's own solver is checked without a query, by E-matching: the
//!    axioms and precondition with the program's constraints and the terms they apply
//!    (which every execution satisfies). `unsat`: the prelude contradicts itself on the
//!    implementation's terms, every query would be refuted, and no answer is a proof
//!    ([`Footing::Contradictory`], without a core).
//! 2. Otherwise, when the encoding has quantifiers, they are checked alone again with
//!    model-based instantiation. `sat`: z3 built a model of them, so every refutation of
//!    a query under them is sound ([`Footing::Modelled`]). `unsat`: the axioms are
//!    contradictory under full instantiation but not under triggers (the prelude above):
//!    an `unsat` answer is a proof only when E-matching alone gives it, as it is for
//!    Boogie ([`Footing::Triggers`], with the contradiction reported as a warning).
//!    `unknown`: the same, without the warning.
//! 3. Without quantifiers the first check is complete: [`Footing::Modelled`].

use super::interrupt;
use super::translate::Z3Terms;
use crate::vc::term::TermId;
use crate::vc::Encoding;
use std::collections::BTreeSet;
use std::time::Duration;
use z3::ast::Bool;
use z3::{Params, SatResult, Solver};

/// z3's deterministic resource limit on each check of the footing (about a quarter of a
/// second of z3 work on the benchmark machine: E-matching over a front end's prelude
/// saturates well within it, and a model-based search that has not found a model by
/// then rarely does).
pub(super) const FOOTING_RLIMIT: u32 = 10_000_000;

/// The wall-clock bound on each check of the footing, beside [`FOOTING_RLIMIT`] (which
/// z3 4.8.12 does not count model-based instantiation closely against): the footing
/// costs a session seconds at most, not the check timeout three times. z3 honours it
/// where it polls for cancellation; one place it does not is the model-based check of
/// nested quantifiers (seen: AutoProof's frame conditions, minutes), which is why a
/// session that checks by E-matching alone is not given that check.
const FOOTING_BUDGET: Duration = Duration::from_secs(2);

/// `check` interrupted at [`FOOTING_BUDGET`]: `unknown` then.
fn within_budget(check: impl FnOnce() -> SatResult) -> SatResult {
    match interrupt::with_evaluation_budget(FOOTING_BUDGET, check) {
        (_, true) => SatResult::Unknown,
        (result, false) => result,
    }
}

/// What a session's `unsat` answers stand on (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Footing {
    /// z3 has a model of the axioms and the precondition (or needs no instantiation to
    /// know they are consistent): every `unsat` answer is a proof.
    Modelled,
    /// An `unsat` answer is a proof when E-matching alone gives it, as for Boogie;
    /// `contradiction` says when model-based instantiation refutes the axioms.
    Triggers { contradiction: Option<Contradiction> },
    /// The axioms and the precondition refute themselves by E-matching alone: no answer
    /// is a proof.
    Contradictory(Contradiction),
}

impl Footing {
    /// Whether an `unsat` answer found with model-based instantiation is a proof.
    pub fn trusts_model_based(&self) -> bool {
        matches!(self, Footing::Modelled)
    }

    /// The contradiction to report, if any.
    pub fn contradiction(&self) -> Option<&Contradiction> {
        match self {
            Footing::Modelled => None,
            Footing::Triggers { contradiction } => contradiction.as_ref(),
            Footing::Contradictory(contradiction) => Some(contradiction),
        }
    }
}

/// Axioms and a precondition that refute themselves: an unsat core.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contradiction {
    /// The program's axioms in the core (indices into `hir::Program::axioms`), in
    /// order; every relevant axiom when z3 gave no core within its limit.
    pub axioms: Vec<usize>,
    /// Whether the implementation's precondition is in the core.
    pub precondition: bool,
    /// Refuted by E-matching alone (as Boogie would), or only by model-based
    /// instantiation.
    pub by_triggers: bool,
    /// Refuted only together with the implementation's terms (its constraints, the
    /// applications its assignments make): no core is named.
    pub on_terms: bool,
}

/// The reason of an `unknown` answer that z3 gave as `unsat` while the axioms and the
/// precondition refute themselves.
pub const CONTRADICTORY: &str =
    "the axioms contradict each other (with the precondition, or on this implementation's terms), so nothing is proved from them";

/// The reason of an `unknown` answer that z3 gave as `unsat` by model-based
/// instantiation only, of axioms it has no model of.
pub const MODEL_BASED_ONLY: &str =
    "refuted only by model-based instantiation of axioms written for triggers (Boogie's instantiation does not refute it)";

/// The footing of a session of `encoding` (see the module documentation). `params`
/// gives each check's parameters: E-matching alone (`false`) or with model-based
/// instantiation (`true`), both under [`FOOTING_RLIMIT`]; `None` past the run's time
/// limit, and for model-based instantiation in a session that checks by E-matching
/// alone (which needs no model of its axioms).
pub(super) fn footing(
    session: (&Solver, &Params),
    (encoding, image): (&Encoding, &mut Z3Terms),
    params: impl Fn(bool) -> Option<Params>,
) -> Footing {
    let Some(triggers) = params(false) else { return Footing::Triggers { contradiction: None } };
    let alone = Alone::new(encoding, image);
    if let Some(contradiction) = alone.refute(&triggers, true) {
        return Footing::Contradictory(contradiction);
    }
    if refutes_its_terms(session, &triggers) {
        let contradiction =
            Contradiction { axioms: Vec::new(), precondition: false, by_triggers: true, on_terms: true };
        return Footing::Contradictory(contradiction);
    }
    if encoding.terms.count_quantifiers() == 0 {
        return Footing::Modelled;
    }
    let Some(model_based) = params(true) else { return Footing::Triggers { contradiction: None } };
    match alone.check(&model_based) {
        SatResult::Sat => Footing::Modelled,
        SatResult::Unsat => Footing::Triggers { contradiction: Some(alone.core(false)) },
        SatResult::Unknown => Footing::Triggers { contradiction: None },
    }
}

/// Whether E-matching refutes the session's solver without a query (every earlier one
/// retired): the axioms and the precondition together with the program's constraints,
/// which any execution satisfies (the entry executed, nothing else required), and the
/// terms they apply. A prelude that contradicts itself on those terms makes every answer
/// of the session `unsat`; the session's parameters `restore`d after.
fn refutes_its_terms((solver, restore): (&Solver, &Params), triggers: &Params) -> bool {
    solver.set_params(triggers);
    let refuted = within_budget(|| solver.check()) == SatResult::Unsat;
    solver.set_params(restore);
    refuted
}

/// The axioms and the precondition of an encoding, alone in a solver of the session's
/// context, each behind a literal the checks assume, so that a refutation names an
/// unsat core. The program's constraints and the session's queries are not there: the
/// terms they add (the unguarded applications of (A7) above all) make instances no
/// trigger-based proof of Boogie's would see, and the question is whether the axioms
/// refute themselves.
struct Alone {
    solver: Solver,
    /// Each axiom's literal, with the axiom's index into the program's axioms; the
    /// precondition's with `None`.
    literals: Vec<(Option<usize>, Bool)>,
    /// Every relevant axiom, for a core z3 does not give.
    axioms: Vec<usize>,
}

impl Alone {
    fn new(encoding: &Encoding, image: &mut Z3Terms) -> Alone {
        let solver = Solver::new();
        image.store_axioms().iter().for_each(|axiom| solver.assert(axiom));
        let tracked: BTreeSet<TermId> = encoding.axiom_terms.iter().map(|&(_, term)| term).collect();
        let precondition: BTreeSet<TermId> = encoding.precondition.iter().copied().collect();
        // The prelude's other facts (distinct unique constants): untracked.
        for &assertion in encoding.assertions.iter().take_while(|term| !precondition.contains(term)) {
            if !tracked.contains(&assertion) {
                solver.assert(image.bool(assertion));
            }
        }
        let mut literals: Vec<(Option<usize>, Bool)> = Vec::new();
        for &(index, term) in &encoding.axiom_terms {
            let literal = Bool::new_const(format!("%axiom@{index}"));
            solver.assert(literal.implies(image.bool(term)));
            literals.push((Some(index), literal));
        }
        if !encoding.precondition.is_empty() {
            let literal = Bool::new_const("%precondition");
            let conjuncts: Vec<Bool> = encoding.precondition.iter().map(|&term| image.bool(term)).collect();
            solver.assert(literal.implies(Bool::and(&conjuncts)));
            literals.push((None, literal));
        }
        let axioms = encoding.axiom_terms.iter().map(|&(index, _)| index).collect();
        Alone { solver, literals, axioms }
    }

    fn check(&self, params: &Params) -> SatResult {
        self.solver.set_params(params);
        let assumptions: Vec<Bool> = self.literals.iter().map(|(_, literal)| literal.clone()).collect();
        within_budget(|| self.solver.check_assumptions(&assumptions))
    }

    /// The contradiction, when the check with `params` refutes them.
    fn refute(&self, params: &Params, by_triggers: bool) -> Option<Contradiction> {
        (self.check(params) == SatResult::Unsat).then(|| self.core(by_triggers))
    }

    /// The unsat core of the last check, which refuted them.
    fn core(&self, by_triggers: bool) -> Contradiction {
        let core: BTreeSet<String> = self.solver.get_unsat_core().iter().map(|literal| literal.to_string()).collect();
        let mut contradiction = Contradiction { axioms: Vec::new(), precondition: false, by_triggers, on_terms: false };
        for (index, literal) in &self.literals {
            match index {
                _ if !core.contains(&literal.to_string()) => {}
                Some(index) => contradiction.axioms.push(*index),
                None => contradiction.precondition = true,
            }
        }
        if contradiction.axioms.is_empty() && !contradiction.precondition {
            contradiction.axioms = self.axioms.clone();
        }
        contradiction.axioms.sort_unstable();
        contradiction.axioms.dedup();
        contradiction
    }
}
