//! Small values for a model's path: the same execution path, with inputs as
//! close to 0 as the solver can make them within a few checks.
//!
//! Input: a session's solver holding the encoding, and a path (the blocks a model
//! executed). Output: a model of the same path whose *quantities* are small, or `None`
//! when the budget ran out before any check under small bounds succeeded.
//!
//! **Quantities** are what a reader of the test sees: every integer, real, bit-vector
//! and Boolean input (parameters, globals and constants at entry, `havoc`s and body-less
//! calls' results along the path), and every integer read of an input map at a point
//! outside any quantifier (`a[mid]`, which is how a map's entries reach the model). Each
//! has a *level*: a rung of [`BOUNDS`] (`q == 0`, `|q| <= 1`, `|q| <= 10`, …; a
//! Boolean's only rung is `¬q`), or free past the last one. A real's rung bounds its
//! magnitude (not its denominator); a bit-vector's bounds it read as a signed number, so
//! that `-1` (all ones) is as small as `1`, each bound capped at the width's largest
//! signed value.
//!
//! **Bound tightening under assumptions.** Every quantity starts at rung 0. A check
//! assumes the path (`%exec@B` for each of its blocks) and one literal per bounded
//! quantity, `%small@q@k ⇒ |q| <= BOUNDS[k]` (asserted once per pair, so nothing is ever
//! retracted). `sat` ends the search: every quantity is within its rung. `unsat` comes
//! with a core of literals that cannot hold together on this path: those quantities
//! move one rung up, and the check is repeated. Each round frees at least one rung, so
//! the search ends; [`MAX_CHECKS`] and a deterministic resource limit per check bound
//! its cost, and an `unknown` answer ends it with nothing. Cores are not minimal, so a
//! quantity may end a rung higher than it could be: cheap, and never wrong, since the
//! caller replays the result and keeps the original model if the replay disagrees.

use super::model::decode;
use super::session::{decoded, with_params};
use super::translate::Z3Terms;
use crate::cfg::BlockId;
use crate::vc::term::{children, Sort, Term};
use crate::vc::{Encoding, Model, TermId};
use z3::ast::{Bool, Int, Real, BV};
use z3::{Params, SatResult, Solver};

/// The rungs of the ladder an integer climbs: its absolute value at most this.
const BOUNDS: [u32; 3] = [0, 10, 1_000];

/// The rung of the small-scope retry: `|q| <= 10`.
const SMALL_SCOPE_RUNG: usize = 1;

/// The bound of the small-scope retry on every integer input.
pub const SMALL_SCOPE_BOUND: u32 = BOUNDS[SMALL_SCOPE_RUNG];

/// At most this many checks per minimization. Each round loosens only the quantities of
/// one core, often a single one: a constant an axiom fixes at 100 alone takes two rounds
/// (`0`, `±10`) before the path's own inputs get theirs, and with 6 rounds the paper's
/// queue and stack kept their raw values.
const MAX_CHECKS: usize = 10;

/// z3's deterministic resource limit per minimization check (about 50 ms of z3 work on
/// the benchmark machine): a hard path keeps its original values rather than stalling
/// the run, and the answer does not depend on the machine's speed.
const RLIMIT: u32 = 2_000_000;

/// One value a reader of the test sees.
struct Quantity {
    term: TermId,
    is_bool: bool,
}

/// The sorts a quantity may have: the scalars.
fn is_quantity(sort: &Sort) -> bool {
    matches!(sort, Sort::Bool | Sort::Int | Sort::Real | Sort::BitVec(_))
}

/// The per-session state: the quantities, and the rung literals asserted so far.
pub(super) struct Minimizer {
    quantities: Vec<Quantity>,
    /// `literals[q][k]`: `%small@q@k`, once asserted.
    literals: Vec<Vec<Option<Bool>>>,
}

impl Minimizer {
    pub fn new(encoding: &Encoding) -> Minimizer {
        let quantities = quantities(encoding);
        let literals = quantities.iter().map(|_| vec![None; BOUNDS.len()]).collect();
        Minimizer { quantities, literals }
    }

    /// A model of `path` with small values; `restore` are the session's own parameters,
    /// set again afterwards.
    pub fn minimize(
        &mut self,
        solver: &Solver,
        (encoding, image): (&Encoding, &Z3Terms),
        path: &[BlockId],
        restore: &Params,
    ) -> Option<Model> {
        if self.quantities.is_empty() {
            return None;
        }
        let mut limited = Params::new();
        limited.set_u32("rlimit", RLIMIT);
        with_params(solver, &limited, restore, || self.search(solver, (encoding, image), path))
    }

    /// The ladder's checks (see the module documentation).
    fn search(&mut self, solver: &Solver, (encoding, image): (&Encoding, &Z3Terms), path: &[BlockId]) -> Option<Model> {
        let on_path: Vec<Bool> = path.iter().map(|&block| image.bool(encoding.exec(block))).collect();
        let mut rungs = vec![0usize; self.quantities.len()];
        let mut found = None;
        for round in 0..MAX_CHECKS {
            if round + 1 == MAX_CHECKS {
                // The last check: whatever a core has named goes free, so the budget
                // does not run out before any small model is found.
                for (q, rung) in rungs.iter_mut().enumerate() {
                    if *rung > 0 {
                        *rung = self.rungs_of(q);
                    }
                }
            }
            let open: Vec<usize> = (0..self.quantities.len()).filter(|&q| rungs[q] < self.rungs_of(q)).collect();
            let bounded: Vec<(usize, Bool)> =
                open.into_iter().map(|q| (q, self.literal(solver, image, q, rungs[q]))).collect();
            let mut assumptions = on_path.clone();
            assumptions.extend(bounded.iter().map(|(_, literal)| literal.clone()));
            match solver.check_assumptions(&assumptions) {
                SatResult::Sat => {
                    found = solver.get_model().and_then(|model| decoded(|| decode(encoding, image, &model, None)).ok());
                    break;
                }
                SatResult::Unsat => {
                    let core = solver.get_unsat_core();
                    let loosened: Vec<usize> =
                        bounded.iter().filter(|(_, literal)| core.contains(literal)).map(|&(q, _)| q).collect();
                    if loosened.is_empty() {
                        // The path alone is infeasible under the resource limit's view:
                        // nothing to tighten.
                        break;
                    }
                    for q in loosened {
                        rungs[q] += 1;
                    }
                }
                SatResult::Unknown => break,
            }
        }
        found
    }

    /// `|q| <= 10` for every non-Boolean quantity: the assumptions of the small-scope retry
    /// of a query z3 gave up on ([`super::session`]).
    pub fn small_scope(&self, image: &Z3Terms) -> Vec<Bool> {
        let integers = (0..self.quantities.len()).filter(|&q| !self.quantities[q].is_bool);
        integers.map(|q| self.bound(image, q, SMALL_SCOPE_RUNG)).collect()
    }

    fn rungs_of(&self, q: usize) -> usize {
        if self.quantities[q].is_bool {
            1
        } else {
            BOUNDS.len()
        }
    }

    /// Quantity `q` within rung `rung`: `|q| <= BOUNDS[rung]`, or `¬q` for a Boolean.
    fn bound(&self, image: &Z3Terms, q: usize, rung: usize) -> Bool {
        let quantity = &self.quantities[q];
        if quantity.is_bool {
            return image.bool(quantity.term).not();
        }
        let value = image.ast(quantity.term);
        let bound = BOUNDS[rung];
        if let Some(int) = value.as_int() {
            let bound = Int::from_u64(u64::from(bound));
            return Bool::and(&[&int.le(&bound), &int.ge(bound.unary_minus())]);
        }
        if let Some(real) = value.as_real() {
            let bound = Real::from_int(&Int::from_u64(u64::from(bound)));
            return Bool::and(&[&real.le(&bound), &real.ge(bound.unary_minus())]);
        }
        let bits = value.as_bv().expect("a quantity is a Boolean, an integer, a real or a bit-vector");
        let width = bits.get_size();
        let largest = if width >= 33 { i64::from(bound) } else { i64::from(bound).min((1i64 << (width - 1)) - 1) };
        let (high, low) = (BV::from_i64(largest, width), BV::from_i64(-largest, width));
        Bool::and(&[&bits.bvsle(&high), &bits.bvsge(&low)])
    }

    /// `%small@q@rung`, asserting its meaning the first time.
    fn literal(&mut self, solver: &Solver, image: &Z3Terms, q: usize, rung: usize) -> Bool {
        if let Some(literal) = &self.literals[q][rung] {
            return literal.clone();
        }
        let literal = Bool::new_const(format!("%small@{}@{rung}", self.quantities[q].term.index()));
        solver.assert(literal.implies(self.bound(image, q, rung)));
        self.literals[q][rung] = Some(literal.clone());
        literal
    }
}

/// The integer and Boolean inputs, then the integer reads of input maps outside any
/// quantifier, each once, in arena order.
fn quantities(encoding: &Encoding) -> Vec<Quantity> {
    let terms = &encoding.terms;
    let scalar = |term: TermId| match terms.sort(term) {
        Sort::Bool => Some(true),
        sort if is_quantity(sort) => Some(false),
        _ => None,
    };
    let mut found: Vec<Quantity> = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    let mut add = |term: TermId, is_bool: bool, found: &mut Vec<Quantity>| {
        if seen.insert(term) {
            found.push(Quantity { term, is_bool });
        }
    };
    for input in &encoding.inputs {
        if let Some(is_bool) = scalar(input.term) {
            add(input.term, is_bool, &mut found);
        }
    }
    let maps: std::collections::BTreeSet<TermId> = encoding
        .inputs
        .iter()
        .map(|input| input.term)
        .filter(|&term| matches!(terms.sort(term), Sort::Array(_)))
        .collect();
    // The arena lists children before parents, so one pass knows which terms read a
    // bound variable.
    let mut open = vec![false; terms.len()];
    for id in terms.ids() {
        let term = terms.get(id);
        open[id.index()] = matches!(term, Term::Var(_)) || children(term).iter().any(|child| open[child.index()]);
        if let Term::Select(map, _) = term {
            if !open[id.index()] && maps.contains(map) && terms.sort(id) == &Sort::Int {
                add(id, false, &mut found);
            }
        }
    }
    found
}
