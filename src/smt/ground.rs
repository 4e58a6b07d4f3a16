//! Deciding a predicate at a run's concrete arguments: the value the axioms force on a
//! body-less Boolean function at a point a candidate's table leaves open.
//!
//! **Why.** A candidate of E-matching alone ([`super::session`]) tabulates a function
//! only where z3's search applied it; an axiomatized predicate read anywhere else
//! (Lahiri and Qadeer's `ReachBetween(f, x, y, z)` of HAVOC's driver models, at the
//! run's own list `f` and points) has no value in it, and replay cannot evaluate the
//! axioms that would give one: they quantify over every map and every point. The
//! solver can, at one point: `axioms ∧ p(a)` unsatisfiable says every model of the
//! axioms has `p(a)` false there, `axioms ∧ ¬p(a)` unsatisfiable says true
//! (`ReachBetween(f, x, y, x) ==> x == y` refutes `ReachBetween(f, L, 3, L)` at once).
//!
//! **How.** A solver of its own, in the session's context, holds the relevant axioms of
//! the encoding (and the select-of-store axioms of maps without the array theory), not
//! the program: each question is asked in a scope of its own, the concrete arguments as
//! terms ([`Terms::value`]): numbers as literals, an element of an uninterpreted sort
//! as a constant of its own (different elements distinct), a map as the constant array
//! stored at its entries, or, without the array theory, a fresh map whose selections
//! are asserted (`Select(m, k) == v` at each entry, `forall j :: {Select(m, j)} j == k1
//! || … || Select(m, j) == d` elsewhere). Two checks under E-matching alone, each under
//! a deterministic resource limit; an `unsat` answer is a proof (instantiation is
//! sound), anything else leaves the point undecided.
//!
//! **What the caller does** (the enumerator, [`crate::gen`]): the forced values join the
//! test's table, so the suite replays them without a solver.

use super::refine::fits_sort;
use super::translate::{levels, scalar_literal, MapEncoding, Z3Terms};
use crate::sema::hir::{FunctionId, TypeId};
use crate::vc::term::Sort;
use crate::vc::{Encoding, MapValue, Value};
use std::collections::BTreeMap;
use z3::ast::{forall_const, Array, Ast, Bool, Dynamic};
use z3::{Params, Pattern, SatResult, Solver};

/// A question: the predicate `function` at `args`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Question {
    pub function: FunctionId,
    pub args: Vec<Value>,
}

/// z3's deterministic resource limit on each of a question's two checks (a few
/// milliseconds of z3 work on the benchmark machine): a point the axioms force is
/// usually refuted by a handful of instances.
pub(super) const GROUND_RLIMIT: u32 = 400_000;

/// The axioms' solver ([`Oracle::decide`]).
pub(super) struct Oracle {
    solver: Solver,
    /// The answers given, by question: the same point is read by many candidates.
    answers: BTreeMap<Question, Option<bool>>,
}

impl Oracle {
    /// A solver holding `encoding`'s axioms (and the map axioms `image` has made).
    pub fn new(encoding: &Encoding, image: &mut Z3Terms, params: &Params) -> Oracle {
        let solver = Solver::new();
        solver.set_params(params);
        image.store_axioms().iter().for_each(|axiom| solver.assert(axiom));
        for &(_, axiom) in &encoding.axiom_terms {
            solver.assert(image.bool(axiom));
        }
        Oracle { solver, answers: BTreeMap::new() }
    }

    /// The parameters of the next questions (the run's time limit moves).
    pub fn set_params(&self, params: &Params) {
        self.solver.set_params(params);
    }

    /// What the axioms force `question` to: `None` when they do not (within the
    /// limits), the function is not in the encoding, or an argument cannot be a term.
    pub fn decide(&mut self, encoding: &Encoding, image: &mut Z3Terms, question: &Question) -> Option<bool> {
        if let Some(&known) = self.answers.get(question) {
            return known;
        }
        let answer = self.ask(encoding, image, question);
        self.answers.insert(question.clone(), answer);
        answer
    }

    fn ask(&self, encoding: &Encoding, image: &mut Z3Terms, question: &Question) -> Option<bool> {
        let &(_, symbol) = encoding.functions.iter().find(|(function, _)| *function == question.function)?;
        let declared = encoding.terms.symbol(symbol);
        if declared.range != Sort::Bool || declared.domain.len() != question.args.len() {
            return None;
        }
        self.solver.push();
        let answer = (|| {
            let points = question.args.iter().filter(|value| !matches!(value, Value::Map(_))).cloned().collect();
            let mut terms = Terms { encoding, image, solver: &self.solver, elements: BTreeMap::new(), maps: 0, points };
            let args: Vec<Dynamic> = (question.args.iter().zip(&declared.domain))
                .map(|(value, sort)| terms.value(value, sort))
                .collect::<Option<_>>()?;
            terms.distinct_elements();
            let args: Vec<&dyn Ast> = args.iter().map(|arg| arg as &dyn Ast).collect();
            let at = terms.image.decl(symbol).apply(&args).as_bool()?;
            if self.solver.check_assumptions(&[at.not()]) == SatResult::Unsat {
                Some(true)
            } else if self.solver.check_assumptions(std::slice::from_ref(&at)) == SatResult::Unsat {
                Some(false)
            } else {
                None
            }
        })();
        self.solver.pop(1);
        answer
    }
}

/// Concrete values as terms, in one question's scope.
struct Terms<'a, 'e> {
    encoding: &'e Encoding,
    image: &'a mut Z3Terms,
    solver: &'a Solver,
    /// The constant standing for each element named so far.
    elements: BTreeMap<(TypeId, u32), Dynamic>,
    /// Fresh maps made so far (their names' numbers).
    maps: usize,
    /// The question's arguments that are no maps: where a map argument is read
    /// explicitly ([`Terms::map`]).
    points: Vec<Value>,
}

/// A key of a map and its value there, as terms.
type Read = (Dynamic, Dynamic);

/// The most keys at which a map of a question is read explicitly.
const MAX_EXPLICIT_READS: usize = 64;

/// The keys off `map`'s entries at which a question reads it explicitly, with its
/// values there: the question's `points` of the key sort, and what the map gives
/// there when that is of the key sort too, and so on (the list `f` from `x` in
/// `ReachBetween(f, x, y, z)`, followed until it repeats), at most
/// [`MAX_EXPLICIT_READS`]. A selection the axioms' triggers need (`f[x]`) is then a
/// term, whatever the map's default is.
fn explicit_reads(map: &MapValue, key: &Sort, range: &Sort, points: &[Value]) -> Vec<(Value, Value)> {
    let follows = key == range;
    let mut pending: Vec<Value> = points.iter().filter(|point| fits_sort(point, key)).cloned().collect();
    if follows {
        pending.extend(map.entries.iter().map(|(_, value)| value.clone()));
        pending.push((*map.default).clone());
    }
    let mut reads: BTreeMap<Value, Value> = BTreeMap::new();
    while let Some(point) = pending.pop() {
        if reads.len() >= MAX_EXPLICIT_READS || reads.contains_key(&point) {
            continue;
        }
        let value = map.get(&point).clone();
        if follows {
            pending.push(value.clone());
        }
        reads.insert(point, value);
    }
    reads.retain(|point, _| map.entries.binary_search_by(|(index, _)| index.cmp(point)).is_err());
    reads.into_iter().collect()
}

impl Terms<'_, '_> {
    /// `value` of `sort` as a term; `None` for an opaque value.
    fn value(&mut self, value: &Value, sort: &Sort) -> Option<Dynamic> {
        match value {
            Value::Bool(_) | Value::Int(_) | Value::Real(_) | Value::BitVec { .. } => scalar_literal(value),
            Value::Elem { ty, index } => Some(self.element(*ty, *index)),
            Value::Map(map) => {
                let (key, range) = levels(sort, 1).pop()?;
                let default = self.value(&map.default, &range)?;
                let entries = (map.entries.iter())
                    .map(|(index, value)| Some((self.value(index, &key)?, self.value(value, &range)?)))
                    .collect::<Option<Vec<_>>>()?;
                let explicit = (explicit_reads(map, &key, &range, &self.points).iter())
                    .map(|(index, value)| Some((self.value(index, &key)?, self.value(value, &range)?)))
                    .collect::<Option<Vec<_>>>()?;
                self.map(sort, (&key, &range), (&entries, &explicit), &default)
            }
            Value::Opaque(_) => None,
        }
    }

    fn element(&mut self, ty: TypeId, index: u32) -> Dynamic {
        if let Some(known) = self.elements.get(&(ty, index)) {
            return known.clone();
        }
        let sort = self.image.sort(self.encoding, &Sort::Named(ty));
        let element = Dynamic::new_const(format!("%ground.element@{}@{index}", ty.index()), &sort);
        self.elements.insert((ty, index), element.clone());
        element
    }

    /// The map of `sort` (keys `key`, values `range` at its first level) holding
    /// `entries` and `default` elsewhere, read at the keys of `explicit` so that
    /// E-matching has those selections to match.
    fn map(
        &mut self,
        sort: &Sort,
        (key, range): (&Sort, &Sort),
        (entries, explicit): (&[Read], &[Read]),
        default: &Dynamic,
    ) -> Option<Dynamic> {
        if self.image.maps() == MapEncoding::Arrays {
            let domain = self.image.sort(self.encoding, key);
            let constant = Array::const_array(&domain, default);
            let stored: Dynamic = entries.iter().fold(constant, |map, (index, value)| map.store(index, value)).into();
            // A constant equal to it, which z3 does not rewrite reads of away.
            let map = self.fresh_map(sort);
            self.solver.assert(map.eq(&stored));
            self.read_at(&map, (key, range), explicit);
            return Some(map);
        }
        let map = self.fresh_map(sort);
        self.read_at(&map, (key, range), entries);
        self.read_at(&map, (key, range), explicit);
        let domain = self.image.sort(self.encoding, key);
        let point = Dynamic::new_const(format!("%ground.key@{}", self.maps), &domain);
        let read = self.image.select_one(self.encoding, &map, (key, range), &point);
        let mut cases: Vec<Bool> = entries.iter().map(|(index, _)| point.eq(index)).collect();
        cases.push(read.eq(default));
        let elsewhere = Bool::or(&cases);
        self.solver.assert(forall_const(&[&point], &[&Pattern::new(&[&read])], &elsewhere));
        Some(map)
    }

    fn fresh_map(&mut self, sort: &Sort) -> Dynamic {
        let map_sort = self.image.sort(self.encoding, sort);
        self.maps += 1;
        Dynamic::new_const(format!("%ground.map@{}", self.maps), &map_sort)
    }

    /// Asserts `map[index] == value` for each of `reads`.
    fn read_at(&mut self, map: &Dynamic, (key, range): (&Sort, &Sort), reads: &[Read]) {
        for (index, value) in reads {
            let read = self.image.select_one(self.encoding, map, (key, range), index);
            self.solver.assert(read.eq(value));
        }
    }

    /// Different elements are different values.
    fn distinct_elements(&self) {
        let mut by_type: BTreeMap<TypeId, Vec<&Dynamic>> = BTreeMap::new();
        for ((ty, _), element) in &self.elements {
            by_type.entry(*ty).or_default().push(element);
        }
        for elements in by_type.values().filter(|elements| elements.len() > 1) {
            self.solver.assert(Dynamic::distinct(elements));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Question;
    use crate::sema::hir::FunctionId;
    use crate::smt::refine::tests::axiom_heavy;
    use crate::smt::{Session, SessionOptions};
    use crate::vc::testing::{goal_encoding, program};
    use crate::vc::{MapValue, Value};
    use num_bigint::BigInt;
    use std::sync::Arc;

    fn int(value: i64) -> Value {
        Value::Int(BigInt::from(value))
    }

    /// `Next(f, x, y)` axiomatized as `f[x] == y`, `Free` not at all; `P` reads both, so
    /// both are in its encoding. The answers at `{1 ↦ 2}` (0 elsewhere).
    fn answers(source: &str, axiom_heavy: bool) -> Vec<Option<bool>> {
        let (_, encoding) = goal_encoding(source, "P");
        let functions = program(source).functions;
        let function = |name: &str| {
            let position = functions.iter().position(|function| function.name == name);
            FunctionId::from_index(position.expect("declared"))
        };
        let (next, free) = (function("Next"), function("Free"));
        let list = Value::Map(MapValue::new(vec![(int(1), int(2))], int(0)));
        let at = |function, args: Vec<Value>| Question { function, args };
        let mut session = Session::new(Arc::new(encoding), SessionOptions::default());
        assert_eq!(session.validates_candidates(), axiom_heavy, "without the array theory exactly when axiom-heavy");
        session.decide(vec![
            at(next, vec![list.clone(), int(1), int(2)]),
            at(next, vec![list.clone(), int(1), int(3)]),
            at(next, vec![list, int(5), int(0)]),
            at(free, vec![int(3)]),
        ])
    }

    const DECLARATIONS: &str =
        "var m: [int]int; function Next(f: [int]int, x: int, y: int): bool; function Free(x: int): bool;";
    const AXIOM: &str = "axiom (forall f: [int]int, x: int, y: int :: { Next(f, x, y) } Next(f, x, y) ==> f[x] == y);
        axiom (forall f: [int]int, x: int :: { f[x] } Next(f, x, f[x]));";
    const PROCEDURE: &str = "procedure P() { start: assume (Next(m, 1, 2) || Free(3)) && g(0) > 0; return; }";

    #[test]
    fn the_axioms_decide_a_predicate_at_concrete_maps_with_and_without_the_array_theory() {
        let forced = [Some(true), Some(false), Some(true), None];
        let heavy = axiom_heavy(DECLARATIONS, AXIOM, PROCEDURE);
        assert_eq!(answers(&heavy, true), forced, "maps as uninterpreted sorts (an axiom-heavy session)");
        let light = format!("{DECLARATIONS}\nfunction g(x: int): int;\n{AXIOM}\n{PROCEDURE}");
        assert_eq!(answers(&light, false), forced, "maps as arrays");
    }
}
