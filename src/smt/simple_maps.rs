//! The simplest entry maps first: a first look at a query of an axiom-heavy session
//! (and `verify`'s check of a candidate replay does not run) asks for an execution
//! whose map-valued entry inputs (in-parameters, globals at entry, constants) are
//! constant maps, dropping that wish map by map as unsat cores say it cannot hold; the ladder of [`super::minimize`] for maps, before the model rather than
//! after it.
//!
//! **Why.** A candidate of E-matching alone satisfies every instance z3 made, but an
//! entry map z3 leaves free takes whatever values its search found convenient, and a
//! quantified precondition over the map's contents is then false at a point no trigger
//! matched (Boogie's driver models: `forall x :: Inverse(Res, 1)[x] ==> …`, with `Res`
//! mapping a stray point to 1; instances asserted at such points only bring new terms
//! and new stray points, [`super::refine`]). A constant map holds the same value
//! everywhere, so every point is like the points the encoding names: a resource map
//! constantly 0 (nothing allocated at entry) makes such preconditions vacuous, and the
//! program's own calls build the state from it. It is the simplest state, as a small
//! integer is the simplest value, and what a test's reader expects to see.
//!
//! **Calls.** A map a body-less call modifies is wished unchanged (`M' = M`), then
//! changed at one index at most (`M' = M[k := v]`, `k` and `v` fresh): a candidate whose map after the call differs
//! from the one before at stray points breaks a frame condition such as `forall x :: x
//! == new || old(alloc)[x] == alloc[x]` where no trigger matched, as an entry map breaks
//! a precondition.
//!
//! **Rungs.** Each entry map input `M` has two literals or three, `%simple@M@0 ⇒ M = const(v)` and
//! `%simple@M@1 ⇒ M = const(v)[k := w]` (`k`, `w` fresh: constant but at one point, so
//! that a query needing some point of the map still gets finitely many, which
//! refinement can instantiate at `k` itself, [`super::refine`]), where `v` is the default
//! of the map's range (`0`, `false`, `0.0`, the zero bit-vector) or, for a
//! range without one (a map, an uninterpreted sort), a fresh constant `%simple.value@M`:
//! a map of maps constant in its outer index only (nested defaults were seen to cost z3
//! seconds more per check on the driver models than one constant level). A range with a
//! default has a third, `%simple@M@2 ⇒ M = const(c)` with `c` fresh: constant at a value
//! an axiom fixes to another than the default (AutoProof's `forall o: ref ::
//! universe[o]`). Each rung also reads `M` at a fresh probe key (apart from `k`): the
//! ground term by which E-matching instantiates the axioms about `M`'s points at a point
//! of the constant, which they then constrain ([`probe`]). A check assumes
//! the query's guard and every literal still standing: `unsat` with a core naming
//! literals drops them and checks again; `unsat` with a core naming none is the query's
//! own answer (the literals are only assumptions, so it is exact); any other answer is
//! the look's. The last rung is the plain query, so the look costs at most three checks
//! per map input more than a plain one, and each such check is cheap (an unsat core of
//! E-matching, 0.1 s on the driver models).
//!
//! **Without the array theory** ([`super::translate::MapEncoding::Uninterpreted`]) there
//! is no constant array: the constant map is a fresh map `%simple.map@M` with `forall k
//! :: {M[k]} M[k] == v` asserted (every model of the arrays has one, so answers stay
//! exact), the one change a `Store_` application; a model in which a literal holds is
//! decoded by its shape ([`super::translate::ShapeForm`]), since `Select`'s table there
//! holds only the keys E-matching touched.

use super::translate::{levels, MapEncoding, Shape, ShapeForm, Z3Terms};
use crate::vc::term::Sort;
use crate::vc::{Encoding, InputKind, TermId};
use z3::ast::{forall_const, Array, Bool, Dynamic, Int, Real, BV};
use z3::{Pattern, SatResult};

/// One map input's wish: its rungs, simplest first, each a literal asserted to imply
/// its shape.
struct Wish {
    rungs: Vec<Bool>,
}

/// The literals of a session's map inputs, made (and their meanings asserted) once.
pub(super) struct SimpleMaps {
    wishes: Vec<Wish>,
}

impl SimpleMaps {
    /// The wishes of `encoding`'s map-valued entry inputs and the maps its body-less
    /// calls modify, asserted in `solver`.
    pub fn new(solver: &z3::Solver, encoding: &Encoding, image: &mut Z3Terms) -> SimpleMaps {
        let mut wishes = Vec::new();
        for (term, before) in map_inputs(encoding) {
            let map = image.ast(term).clone();
            let shapes: Vec<(Dynamic, Option<ShapeForm>, Bool)> = match before {
                None => match entry_shapes(solver, encoding, image, term) {
                    Some(shapes) => shapes,
                    None => continue,
                },
                Some(before) => {
                    let map = image.ast(before).clone();
                    let Some((changed, index, value)) = one_change(encoding, image, &map, term, "call") else {
                        continue;
                    };
                    let unchanged = ShapeForm::Changed { before, change: None };
                    let one = ShapeForm::Changed { before, change: Some((index, value)) };
                    let no_probe = Bool::from_bool(true);
                    vec![(map, Some(unchanged), no_probe.clone()), (changed, Some(one), no_probe)]
                }
            };
            let mut rungs = Vec::new();
            for (rung, (shape, form, probe)) in shapes.into_iter().enumerate() {
                let literal = literal(term, rung);
                solver.assert(literal.implies(Bool::and(&[map.eq(&shape), probe])));
                if let Some(form) = form {
                    image.add_shape(term, Shape { literal: literal.clone(), form });
                }
                rungs.push(literal);
            }
            wishes.push(Wish { rungs });
        }
        SimpleMaps { wishes }
    }

    /// Whether there is any map input to wish for.
    pub fn is_empty(&self) -> bool {
        self.wishes.is_empty()
    }

    /// Checks `guard` (the query's literal, asserted to imply its goal) with each wish at
    /// its lowest rung the unsat cores so far allow (see the module documentation); the
    /// last result.
    pub fn check(&self, solver: &z3::Solver, guard: &Bool) -> SatResult {
        let mut rungs = vec![0usize; self.wishes.len()];
        loop {
            let standing: Vec<(usize, &Bool)> = (self.wishes.iter().enumerate())
                .filter_map(|(wish, Wish { rungs: literals })| Some((wish, literals.get(rungs[wish])?)))
                .collect();
            let mut assumptions = vec![guard.clone()];
            assumptions.extend(standing.iter().map(|&(_, literal)| literal.clone()));
            let result = solver.check_assumptions(&assumptions);
            if result != SatResult::Unsat || standing.is_empty() {
                return result;
            }
            let core = solver.get_unsat_core();
            let blamed: Vec<usize> =
                standing.iter().filter(|(_, literal)| core.contains(literal)).map(|&(wish, _)| wish).collect();
            if blamed.is_empty() {
                // The wishes are not to blame: the query itself is unsatisfiable.
                return result;
            }
            // Cores are not minimal: the wishes at the lowest rung blamed go up first, so
            // a wish that only sat in a core beside a guilty one keeps its shape.
            let lowest = blamed.iter().map(|&wish| rungs[wish]).min().expect("some wish is blamed");
            for wish in blamed {
                if rungs[wish] == lowest {
                    rungs[wish] += 1;
                }
            }
        }
    }
}

/// The terms of the map-valued entry inputs, and of the maps body-less calls modify
/// with their incarnations before the call, in input order.
fn map_inputs(encoding: &Encoding) -> Vec<(TermId, Option<TermId>)> {
    let is_map = |term: TermId| matches!(encoding.terms.sort(term), Sort::Array(_));
    (encoding.inputs.iter())
        .filter(|input| is_map(input.term))
        .filter_map(|input| match input.kind {
            InputKind::Param(_) | InputKind::Global(_) | InputKind::Const(_) => Some((input.term, None)),
            InputKind::CallModifies { .. } => input.before.map(|before| (input.term, Some(before))),
            _ => None,
        })
        .collect()
}

/// The literal of map input `term`'s wish at `rung`.
fn literal(term: TermId, rung: usize) -> Bool {
    Bool::new_const(format!("%simple@{}@{rung}", term.index()))
}

/// `map` (of `term`'s sort) changed at one fresh index to a fresh value at most (the
/// constants named after `what`): the simplest map a call that modifies it leaves but
/// one unchanged (none of its other entries moved), and the simplest entry map but a
/// constant one; with the index and the value.
fn one_change(
    encoding: &Encoding,
    image: &mut Z3Terms,
    map: &Dynamic,
    term: TermId,
    what: &str,
) -> Option<(Dynamic, Dynamic, Dynamic)> {
    let (key, range) = levels(encoding.terms.sort(term), 1).pop()?;
    let (domain, range_sort) = (image.sort(encoding, &key), image.sort(encoding, &range));
    let index = Dynamic::new_const(format!("%simple.{what}.index@{}", term.index()), &domain);
    let value = Dynamic::new_const(format!("%simple.{what}.value@{}", term.index()), &range_sort);
    let changed = image.store_one(encoding, map, (&key, &range), (&index, &value));
    Some((changed, index, value))
}

/// The rungs of entry map `term`: constant ([`constant_map`]), then constant but at one
/// fresh index ([`one_change`]), so that a query needing a few points of a map (a
/// resource map at 1 where the goal's object is) still gets a map whose points are
/// finitely many: a quantified precondition over them (`forall x :: Inverse(Res, 1)[x]
/// ==> …`) then has one point to hold at, which refinement can instantiate, where a
/// free map gives E-matching stray points without end. Each with the shape by which a
/// model of it is decoded (the arrays' decode by themselves), which also names the index
/// for refinement ([`super::refine`]).
fn entry_shapes(
    solver: &z3::Solver,
    encoding: &Encoding,
    image: &mut Z3Terms,
    term: TermId,
) -> Option<Vec<(Dynamic, Option<ShapeForm>, Bool)>> {
    let (constant, value) = constant_map(solver, encoding, image, term, Wished::Default)?;
    let (changed, index, new) = one_change(encoding, image, &constant, term, "entry")?;
    let (at_probe, probe) = probe(encoding, image, term);
    let form = |value: &Dynamic, change| Some(ShapeForm::Constant { value: value.clone(), change });
    let apart = probe.eq(&index).not();
    let mut shapes = vec![
        (constant, form(&value, None), at_probe.clone()),
        (changed, form(&value, Some((index, new))), Bool::and(&[at_probe.clone(), apart])),
    ];
    if range_default(encoding, term).is_some() {
        let (constant, value) = constant_map(solver, encoding, image, term, Wished::Fresh)?;
        shapes.push((constant, form(&value, None), at_probe));
    }
    Some(shapes)
}

/// A read of entry map `term` at a fresh key, `M[%simple.probe@M] == %simple.probed@M`
/// (with the key): asserted beside a constant shape, it is the ground term by which
/// E-matching instantiates the axioms about the map's points at a point of the
/// constant, which then must satisfy them. Without it an axiom triggered by the map's
/// reads only (`forall o :: {universe[o]} universe[o]`) matches nothing where the
/// program reads no point, and the candidate's constant is one replay finds it false on.
fn probe(encoding: &Encoding, image: &mut Z3Terms, term: TermId) -> (Bool, Dynamic) {
    let (key, range) = levels(encoding.terms.sort(term), 1).pop().expect("an entry map has a key");
    let domain = image.sort(encoding, &key);
    let probe = Dynamic::new_const(format!("%simple.probe@{}", term.index()), &domain);
    image.add_probe(probe.clone());
    let map = image.ast(term).clone();
    let read = image.select_one(encoding, &map, (&key, &range), &probe);
    // A read equal to a fresh constant: z3 simplifies `t == t` away, term and all.
    let named = Dynamic::new_const(format!("%simple.probed@{}", term.index()), &z3::ast::Ast::get_sort(&read));
    (read.eq(&named), probe)
}

/// The value a constant map is wished to hold.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Wished {
    /// The range's default (`0`, `false`), a fresh constant for a range without one.
    Default,
    /// A fresh constant: a constant map of any value, for an axiom that fixes the
    /// value to another than the default (AutoProof's `forall o: ref :: universe[o]`).
    Fresh,
}

/// The default of the range of map `term` of one index (`0`, `false`, `0.0`, the zero
/// bit-vector); `None` for a range without one (a map, an uninterpreted sort).
fn range_default(encoding: &Encoding, term: TermId) -> Option<Dynamic> {
    let Sort::Array(array) = encoding.terms.sort(term) else { return None };
    if array.domain.len() != 1 {
        return None;
    }
    match &array.range {
        Sort::Int => Some(Int::from_i64(0).into()),
        Sort::Bool => Some(Bool::from_bool(false).into()),
        Sort::Real => Some(Real::from_rational_str("0", "1").expect("0 is a real numeral").into()),
        Sort::BitVec(width) => Some(BV::from_i64(0, *width).into()),
        _ => None,
    }
}

/// The constant map of `term`'s (curried) sort with its range's default, or a fresh
/// constant of a range without one (a map of several indices is curried, its range a
/// map); `None` for a term that is no map of keys. Under the arrays a constant array;
/// under [`MapEncoding::Uninterpreted`] a fresh map `%simple.map@M` with `forall k ::
/// {M[k]} M[k] == v` asserted (a definition of a fresh constant: every model of the
/// arrays has it, the constant function, so every answer stays exact). With the value.
fn constant_map(
    solver: &z3::Solver,
    encoding: &Encoding,
    image: &mut Z3Terms,
    term: TermId,
    wished: Wished,
) -> Option<(Dynamic, Dynamic)> {
    let (key, range) = levels(encoding.terms.sort(term), 1).pop()?;
    let (domain, range_sort) = (image.sort(encoding, &key), image.sort(encoding, &range));
    let suffix = if wished == Wished::Fresh { "fresh" } else { "" };
    let default = range_default(encoding, term).filter(|_| wished == Wished::Default);
    let value =
        default.unwrap_or_else(|| Dynamic::new_const(format!("%simple.value{suffix}@{}", term.index()), &range_sort));
    if image.maps() == MapEncoding::Arrays {
        return Some((Array::const_array(&domain, &value).into(), value));
    }
    let map_sort = image.sort(encoding, encoding.terms.sort(term));
    let map = Dynamic::new_const(format!("%simple.map{suffix}@{}", term.index()), &map_sort);
    let point = Dynamic::new_const(format!("%simple.key{suffix}@{}", term.index()), &domain);
    let read = image.select_one(encoding, &map, (&key, &range), &point);
    let definition = forall_const(&[&point], &[&Pattern::new(&[&read])], &read.eq(&value));
    solver.assert(&definition);
    Some((map, value))
}

#[cfg(test)]
mod tests {
    use crate::smt::{Reach, Session, SessionOptions};
    use crate::vc::testing::{block, goal_encoding};
    use crate::vc::{InputKind, MapValue, Value};
    use num_bigint::BigInt;
    use std::sync::Arc;

    /// `declarations`, a hundred weak axioms (so the session is axiom-heavy), then
    /// `procedure`.
    fn axiom_heavy(declarations: &str, procedure: &str) -> String {
        let mut source = format!("{declarations}\nfunction g(x: int): int;\n");
        for k in 0..100 {
            source.push_str(&format!("axiom (forall x: int :: {{ g(x + {k}) }} g(x + {k}) > -1000);\n"));
        }
        source.push_str(procedure);
        source
    }

    fn first_candidate(source: &str, goal: &str) -> crate::vc::Model {
        let (cfg, encoding) = goal_encoding(source, "P");
        let mut session = Session::new(Arc::new(encoding), SessionOptions::default());
        assert!(session.validates_candidates(), "a hundred quantifiers make the session axiom-heavy");
        match session.first_look(&[block(&cfg, goal)]) {
            Reach::Unknown { candidate: Some(model), .. } | Reach::Sat(model) => model,
            other => panic!("a candidate: {other:?}"),
        }
    }

    #[test]
    fn an_entry_map_is_constant_at_its_default_when_the_query_allows() {
        // `Res[x] == 1` for some `x` is nowhere required: the candidate's `Res` is
        // constantly 0, and the precondition over its ones is vacuous.
        let source = axiom_heavy(
            "var Res: [int]int; function h(x: int): int;",
            "procedure P(y: int) requires (forall x: int :: { h(x) } Res[x] == 1 ==> h(x) > 5); \
             { start: assume g(y) > -2000; goto Bad, Fine; Bad: assume y > 3; return; Fine: return; }",
        );
        let model = first_candidate(&source, "Bad");
        let global = model.entry.iter().find(|assignment| matches!(assignment.kind, InputKind::Global(_)));
        let value = &global.expect("`Res` is an entry input").value;
        assert_eq!(value, &Value::Map(MapValue::new(Vec::new(), Value::Int(BigInt::from(0)))));
    }

    #[test]
    fn a_wish_an_unsat_core_blames_is_dropped_and_the_query_still_answered() {
        // The goal needs `Res[y] == 1`: constant 0 is refuted by the core, and the
        // candidate has the entry the goal needs.
        let source = axiom_heavy(
            "var Res: [int]int;",
            "procedure P(y: int) { start: assume g(y) > -2000; goto Bad, Fine; Bad: assume Res[y] == 1; return; Fine: return; }",
        );
        let model = first_candidate(&source, "Bad");
        let global = model.entry.iter().find(|assignment| matches!(assignment.kind, InputKind::Global(_)));
        let Value::Map(res) = &global.expect("`Res` is an entry input").value else { panic!("a map") };
        let param = model.entry.iter().find(|assignment| matches!(assignment.kind, InputKind::Param(_)));
        assert_eq!(res.get(&param.expect("`y` is an entry input").value), &Value::Int(BigInt::from(1)));
        // The next rung: constant but at that one point.
        assert_eq!((res.entries.len(), &*res.default), (1, &Value::Int(BigInt::from(0))), "{res:?}");
    }
}
