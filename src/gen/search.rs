//! Neighbourhood search around replayed tests: the cheap analysis that
//! cooperates with the solver (seeds/004, CoVeriTest).
//!
//! Input: a test that runs (a replayed model, or the all-defaults input). Output: its
//! *neighbours*, the inputs one step away from it, in a fixed order; the enumerator
//! replays them and keeps each that enters a goal still open, which is then searched
//! around in turn. `verify` searches the same neighbourhoods for a run failing at a
//! check z3 gave up on (`verify::search`).
//!
//! Why: unrolled `N` times, a loop has a goal per iteration count, and nested loops one
//! per combination, while each solver check costs more as the unrolled encoding grows.
//! A run that leaves a loop after `k` iterations is usually one step from a run that
//! leaves it after `k + 1` (`n` one larger), and a replay costs microseconds where a check
//! of a large encoding costs tens or hundreds of milliseconds. The solver is then asked
//! only for what the search does not reach, and to prove the rest dead.
//!
//! A step changes one thing the test sets (a parameter, global, constant or unset
//! local, or a value or choice of the trace):
//! - an integer: `+1`, `-1`, doubled, halved (toward 0);
//! - a Boolean: negated;
//! - an element of an uninterpreted type: the next or the previous element;
//! - a nondeterministic choice (`if (*)`, `while (*)`, `goto A, B`): another branch,
//!   the choices after it left to the interpreter (it takes the first feasible branch);
//! - a map: its default one step away; one entry's value one step away; an entry with
//!   an integer key moved to the next free key up or down (`a[2] == key` becomes
//!   `a[3] == key`: found one iteration later); or, for a map indexed by integers, a new
//!   entry next to the smallest or largest key (at 0 in an empty map) whose value is one
//!   step from the default, or one more or less than the entry next to it (taken again
//!   and again, that grows an ascending or descending array entry by entry).
//!
//! Each neighbour comes with its [`Step`], which names the change independently of the
//! input's size, so the enumerator can take a step that found a test again from it
//! ([`take`] computes that one neighbour alone: a step is a [`Change`] applied to one
//! value).
//!
//! Honesty is the replay's: a neighbour counts only for the goals its run enters, and a
//! neighbour whose run is no execution (a precondition fails) enters none. The order is
//! fixed and nothing is random, so the same seed gives the same tests.

use crate::interp::{row_type, TestInput, TraceItem};
use crate::sema::hir;
use crate::vc::{MapValue, Value};
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::collections::{BTreeMap, BTreeSet};

/// What a search needs to know of the program beside a test's values.
pub struct Shape<'a> {
    /// `types[i]` is the type of the `i`-th of [`TestInput::values_mut`], where known (the
    /// trace's values have none: their maps get no new entries).
    pub types: Vec<Option<hir::Type>>,
    /// For the name of a branch of a nondeterministic `goto` (`if#1/then`), the names of
    /// the other branches it chooses between.
    pub branches: &'a BTreeMap<String, BTreeSet<String>>,
}

/// Which change leads from a test to one of its neighbours. Two inputs of the same
/// kind get equal steps for the same change, even when a step changes the input's
/// shape (a map with one more entry), so the enumerator can take a step that found a
/// test again from that test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The `value`-th of [`TestInput::values_mut`] changed.
    Value { value: usize, change: Change },
    /// The `goto`-th nondeterministic choice of the trace made for `target` instead.
    Choice { goto: usize, target: String },
}

/// How one value changes (see the module header).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// The `n`-th step of an integer (`+1`, `-1`, doubled, halved, repeats left out) or
    /// a Boolean (negated).
    Scalar(usize),
    /// A map's default changed.
    Default(Box<Change>),
    /// The value of a map's `position`-th entry (by key) changed.
    Entry { position: usize, change: Box<Change> },
    /// A map's `position`-th entry moved to the next free key up or down.
    Move { position: usize, up: bool },
    /// A new entry above the largest key (at 0 in an empty map) or below the smallest.
    Grow { above: bool, value: NewValue },
}

/// The value of a new map entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NewValue {
    /// The `n`-th step from the map's default.
    FromDefault(usize),
    /// One more (`up`) or one less than the entry it is next to: a run of distinct values
    /// grown entry by entry (`a[0] = 1, a[1] = 2, …`: an ascending or descending array).
    Continuing { up: bool },
}

/// The steps from `input` to its neighbours (see the module header), in a fixed order:
/// values in [`TestInput::values_mut`] order, each value's changes in the order above,
/// then the trace's choices. No neighbour is computed: a search takes each step in turn
/// ([`take`]), so one that stops early builds only the inputs it runs.
pub fn steps_from(input: &TestInput, shape: &Shape) -> Vec<Step> {
    let mut values = input.clone();
    let mut found = Vec::new();
    for (index, value) in values.values_mut().enumerate() {
        let ty = shape.types.get(index).and_then(Option::as_ref);
        found.extend(changes(value, ty).into_iter().map(|change| Step::Value { value: index, change }));
    }
    for (goto, (_, target)) in gotos(input).enumerate() {
        let others = shape.branches.get(target).into_iter().flatten();
        found.extend(others.map(|other| Step::Choice { goto, target: other.clone() }));
    }
    found
}

/// The trace's `goto` choices: each one's position in the trace and branch.
fn gotos(input: &TestInput) -> impl Iterator<Item = (usize, &String)> {
    input.trace.iter().enumerate().filter_map(|(position, item)| match item {
        TraceItem::Goto { target } => Some((position, target)),
        _ => None,
    })
}

/// The values one step from `value`, of type `ty` when known, each with its change.
fn steps(value: &Value, ty: Option<&hir::Type>) -> Vec<(Change, Value)> {
    let step = |change: Change| {
        let stepped = apply(value, &change, ty)?;
        Some((change, stepped))
    };
    changes(value, ty).into_iter().filter_map(step).collect()
}

/// `input` with `step` taken, when `input` has that step (one of [`steps_from`]); only
/// the value it names is computed.
pub fn take(input: &TestInput, step: &Step, shape: &Shape) -> Option<TestInput> {
    match step {
        Step::Value { value, change } => {
            let ty = shape.types.get(*value).and_then(Option::as_ref);
            let mut neighbour = input.clone();
            let slot = neighbour.values_mut().nth(*value)?;
            *slot = apply(slot, change, ty)?;
            Some(neighbour)
        }
        // The choice made otherwise, and those after it left to the interpreter (they
        // were made for another path).
        Step::Choice { goto, target } => {
            let (position, chosen) = gotos(input).nth(*goto)?;
            if !shape.branches.get(chosen).is_some_and(|others| others.contains(target)) {
                return None;
            }
            let mut trace = input.trace[..position].to_vec();
            trace.push(TraceItem::Goto { target: target.clone() });
            Some(TestInput { trace, ..input.clone() })
        }
    }
}

/// The changes `value` has (see the module header), in order: an integer's `+1`, `-1`,
/// doubled, halved (repeats left out); a Boolean negated; a map's default's changes,
/// then each entry's, each entry's key moves, then its new entries.
fn changes(value: &Value, ty: Option<&hir::Type>) -> Vec<Change> {
    match value {
        Value::Int(int) => (0..int_steps(int).len()).map(Change::Scalar).collect(),
        Value::Real(real) => (0..real_steps(real).len()).map(Change::Scalar).collect(),
        Value::BitVec { value, width } => (0..bit_vec_steps(value, *width).len()).map(Change::Scalar).collect(),
        Value::Bool(_) => vec![Change::Scalar(0)],
        Value::Elem { index, .. } => (0..elem_steps(*index).len()).map(Change::Scalar).collect(),
        Value::Map(map) => map_changes(map, ty),
        Value::Opaque(_) => Vec::new(),
    }
}

fn map_changes(map: &MapValue, ty: Option<&hir::Type>) -> Vec<Change> {
    let (key_ty, row_ty) = map_types(ty);
    let row_ty = row_ty.as_ref();
    let mut found: Vec<Change> =
        changes(&map.default, row_ty).into_iter().map(|change| Change::Default(Box::new(change))).collect();
    for (position, (_, value)) in map.entries.iter().enumerate() {
        let entry = changes(value, row_ty).into_iter();
        found.extend(entry.map(|change| Change::Entry { position, change: Box::new(change) }));
    }
    for position in 0..map.entries.len() {
        for up in [true, false] {
            if moved_key(map, position, up).is_some() {
                found.push(Change::Move { position, up });
            }
        }
    }
    for (_, above, next_to) in new_keys(map, key_ty) {
        let values = new_values(map, next_to, row_ty).into_iter();
        found.extend(values.map(|(value, _)| Change::Grow { above, value }));
    }
    found
}

/// `value` with `change` made, when it has that change.
fn apply(value: &Value, change: &Change, ty: Option<&hir::Type>) -> Option<Value> {
    match (value, change) {
        (Value::Int(int), Change::Scalar(n)) => int_steps(int).into_iter().nth(*n).map(Value::Int),
        (Value::Real(real), Change::Scalar(n)) => real_steps(real).into_iter().nth(*n).map(Value::Real),
        (Value::BitVec { value, width }, Change::Scalar(n)) => {
            bit_vec_steps(value, *width).into_iter().nth(*n).map(|value| Value::BitVec { value, width: *width })
        }
        (Value::Bool(bool), Change::Scalar(0)) => Some(Value::Bool(!bool)),
        (Value::Elem { ty, index }, Change::Scalar(n)) => {
            elem_steps(*index).into_iter().nth(*n).map(|index| Value::Elem { ty: *ty, index })
        }
        (Value::Map(map), _) => apply_to_map(map, change, ty),
        _ => None,
    }
}

fn apply_to_map(map: &MapValue, change: &Change, ty: Option<&hir::Type>) -> Option<Value> {
    let (key_ty, row_ty) = map_types(ty);
    let row_ty = row_ty.as_ref();
    let mut entries = map.entries.clone();
    let mut default = (*map.default).clone();
    match change {
        Change::Scalar(_) => return None,
        Change::Default(change) => default = apply(&map.default, change, row_ty)?,
        Change::Entry { position, change } => {
            let (_, value) = entries.get_mut(*position)?;
            *value = apply(value, change, row_ty)?;
        }
        Change::Move { position, up } => entries[*position].0 = moved_key(map, *position, *up)?,
        Change::Grow { above, value } => {
            let (key, _, next_to) = new_keys(map, key_ty).into_iter().find(|(_, other, _)| other == above)?;
            let values = new_values(map, next_to, row_ty);
            let (_, value) = values.into_iter().find(|(other, _)| other == value)?;
            entries.push((Value::Int(key), value));
        }
    }
    Some(with(entries, default))
}

/// A map type's key type and the type of its rows (see [`row_type`]), where known.
fn map_types(ty: Option<&hir::Type>) -> (Option<&hir::Type>, Option<hir::Type>) {
    match ty {
        Some(hir::Type::Map(map_ty)) => (map_ty.domain.first(), Some(row_type(map_ty))),
        _ => (None, None),
    }
}

/// The next and the previous element of an uninterpreted type (elements are numbered
/// per test, so either may be a constant's element or a new one; replay decides).
fn elem_steps(index: u32) -> Vec<u32> {
    [index.checked_add(1), index.checked_sub(1)].into_iter().flatten().collect()
}

/// `v + 1`, `v - 1`, `2v` and `v / 2`, without repeats or `v` itself.
fn int_steps(int: &BigInt) -> Vec<BigInt> {
    distinct_steps(int, [int + 1, int - 1, int * 2, int / 2])
}

/// A real's `v + 1`, `v - 1`, `2v` and `v / 2`, without repeats or `v` itself.
fn real_steps(real: &BigRational) -> Vec<BigRational> {
    let (one, two) = (BigRational::from_integer(1.into()), BigRational::from_integer(2.into()));
    distinct_steps(real, [real + &one, real - &one, real * &two, real / &two])
}

/// A bit-vector's `v + 1`, `v - 1` (wrapping at its width, as `bvadd` does), `2v`
/// (shifted left) and `v / 2` (shifted right), without repeats or `v` itself.
fn bit_vec_steps(value: &BigUint, width: u32) -> Vec<BigUint> {
    let modulus = BigUint::from(1u8) << width;
    let wrap = |candidate: BigUint| candidate % &modulus;
    let down = wrap(value + &modulus - 1u8);
    distinct_steps(value, [wrap(value + 1u8), down, wrap(value << 1u8), value >> 1u8])
}

fn distinct_steps<T: PartialEq>(value: &T, candidates: [T; 4]) -> Vec<T> {
    let mut found: Vec<T> = Vec::new();
    for step in candidates {
        if step != *value && !found.contains(&step) {
            found.push(step);
        }
    }
    found
}

fn with(entries: Vec<(Value, Value)>, default: Value) -> Value {
    Value::Map(MapValue::new(entries, default))
}

/// The next free key up or down from the integer key of the map's `position`-th entry.
fn moved_key(map: &MapValue, position: usize, up: bool) -> Option<Value> {
    let Value::Int(key) = &map.entries.get(position)?.0 else { return None };
    let moved = Value::Int(if up { key + 1 } else { key - 1 });
    map.entries.iter().all(|(other, _)| *other != moved).then_some(moved)
}

/// The values of a new entry next to `next_to` (the entry it grows from, if any): each
/// one step from the default, then one more and one less than `next_to`'s value when
/// that is neither the default nor one of those.
fn new_values(map: &MapValue, next_to: Option<&Value>, row_ty: Option<&hir::Type>) -> Vec<(NewValue, Value)> {
    let mut values: Vec<(NewValue, Value)> = steps(&map.default, row_ty)
        .into_iter()
        .enumerate()
        .map(|(n, (_, value))| (NewValue::FromDefault(n), value))
        .collect();
    if let Some(Value::Int(next_to)) = next_to {
        for (value, up) in [(next_to + 1, true), (next_to - 1, false)] {
            let value = Value::Int(value);
            if value != *map.default && values.iter().all(|(_, other)| *other != value) {
                values.push((NewValue::Continuing { up }, value));
            }
        }
    }
    values
}

/// Where a map indexed by integers gets a new entry: next to its largest key (`above`)
/// and its smallest, with the value there; or at 0 when it has none.
fn new_keys<'m>(map: &'m MapValue, key_ty: Option<&hir::Type>) -> Vec<(BigInt, bool, Option<&'m Value>)> {
    let keys: Vec<(&BigInt, &Value)> = map
        .entries
        .iter()
        .filter_map(|(key, value)| match key {
            Value::Int(key) => Some((key, value)),
            _ => None,
        })
        .collect();
    match (keys.first(), keys.last()) {
        // Entries are sorted by key.
        (Some(&(smallest, low)), Some(&(largest, high))) => {
            let mut found = vec![(largest + BigInt::one(), true, Some(high))];
            if smallest - 1 != largest + 1 {
                found.push((smallest - BigInt::one(), false, Some(low)));
            }
            found
        }
        _ if map.entries.is_empty() && key_ty == Some(&hir::Type::Int) => vec![(BigInt::zero(), true, None)],
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every neighbour of `input`, with its step.
    fn neighbours(input: &TestInput, shape: &Shape) -> Vec<(Step, TestInput)> {
        let neighbour = |step: Step| {
            let neighbour = take(input, &step, shape)?;
            Some((step, neighbour))
        };
        steps_from(input, shape).into_iter().filter_map(neighbour).collect()
    }

    fn int(value: i64) -> Value {
        Value::Int(BigInt::from(value))
    }

    fn ints(values: &[i64]) -> Vec<Value> {
        values.iter().map(|&value| int(value)).collect()
    }

    fn map(entries: &[(i64, i64)], default: i64) -> Value {
        Value::Map(MapValue::new(entries.iter().map(|&(key, value)| (int(key), int(value))).collect(), int(default)))
    }

    fn int_map() -> hir::Type {
        hir::Type::Map(std::sync::Arc::new(hir::MapType {
            type_params: Vec::new(),
            domain: vec![hir::Type::Int],
            range: hir::Type::Int,
        }))
    }

    fn values(found: Vec<(Change, Value)>) -> Vec<Value> {
        found.into_iter().map(|(_, value)| value).collect()
    }

    #[test]
    fn an_integer_steps_by_one_and_by_halves() {
        assert_eq!(values(steps(&int(6), None)), ints(&[7, 5, 12, 3]));
        assert_eq!(values(steps(&int(1), None)), ints(&[2, 0]), "2·1 and 1 + 1 are one step; 1 / 2 is 0 = 1 - 1");
        assert_eq!(values(steps(&int(0), None)), ints(&[1, -1]));
        assert_eq!(values(steps(&int(-3), None)), ints(&[-2, -4, -6, -1]));
    }

    #[test]
    fn an_element_steps_to_the_next_and_the_previous() {
        let elem = |index| Value::Elem { ty: hir::TypeId(0), index };
        assert_eq!(values(steps(&elem(0), None)), [elem(1)], "element 0 has no previous one");
        assert_eq!(values(steps(&elem(2), None)), [elem(3), elem(1)]);
    }

    #[test]
    fn a_map_steps_its_default_and_each_entry_moves_entries_and_grows_at_its_ends() {
        let found = values(steps(&map(&[(2, 5)], 0), Some(&int_map())));
        let expected = [
            map(&[(2, 5)], 1),
            map(&[(2, 5)], -1),
            map(&[(2, 6)], 0),
            map(&[(2, 4)], 0),
            map(&[(2, 10)], 0),
            map(&[(2, 2)], 0),
            map(&[(3, 5)], 0),
            map(&[(1, 5)], 0),
            map(&[(2, 5), (3, 1)], 0),
            map(&[(2, 5), (3, -1)], 0),
            map(&[(2, 5), (3, 6)], 0),
            map(&[(2, 5), (3, 4)], 0),
            map(&[(1, 1), (2, 5)], 0),
            map(&[(1, -1), (2, 5)], 0),
            map(&[(1, 6), (2, 5)], 0),
            map(&[(1, 4), (2, 5)], 0),
        ];
        assert_eq!(found, expected);
        let empty = values(steps(&map(&[], 0), Some(&int_map())));
        assert_eq!(empty, [map(&[], 1), map(&[], -1), map(&[(0, 1)], 0), map(&[(0, -1)], 0)]);
        assert_eq!(steps(&map(&[], 0), None).len(), 2, "no key type, no new entry");
    }

    #[test]
    fn the_same_step_grows_a_run_of_values_entry_by_entry() {
        let descending = Change::Grow { above: true, value: NewValue::Continuing { up: false } };
        let grow = |array: &Value| {
            let found = steps(array, Some(&int_map()));
            found.into_iter().find(|(change, _)| *change == descending).map(|(_, array)| array)
        };
        let mut array = map(&[(0, -1)], 0);
        for _ in 0..3 {
            array = grow(&array).expect("a descending run grows below its last value");
        }
        assert_eq!(array, map(&[(0, -1), (1, -2), (2, -3), (3, -4)], 0));
        let ascending = Change::Grow { above: true, value: NewValue::Continuing { up: true } };
        let found = steps(&map(&[(0, -1)], 0), Some(&int_map()));
        assert!(found.iter().all(|(change, _)| *change != ascending), "-1 + 1 is the default: no new entry");
    }

    #[test]
    fn a_choice_is_made_otherwise_and_the_rest_left_to_the_interpreter() {
        let goto = |target: &str| TraceItem::Goto { target: target.to_string() };
        let havoc = TraceItem::Havoc { var: "x".to_string(), value: int(0) };
        let trace = vec![goto("while#1/body"), havoc.clone(), goto("while#1/body"), goto("while#1/exit")];
        let input = TestInput { trace, ..TestInput::new(hir::ImplId::from_index(0)) };
        let loop_branches = ["while#1/body", "while#1/exit"].map(str::to_string);
        let branches = BTreeMap::from([
            (loop_branches[0].clone(), BTreeSet::from([loop_branches[1].clone()])),
            (loop_branches[1].clone(), BTreeSet::from([loop_branches[0].clone()])),
        ]);
        let shape = Shape { types: Vec::new(), branches: &branches };
        let choices = neighbours(&input, &shape).into_iter().filter(|(step, _)| matches!(step, Step::Choice { .. }));
        let traces: Vec<Vec<TraceItem>> = choices.map(|(_, input)| input.trace).collect();
        let expected = [
            vec![goto("while#1/exit")],
            vec![goto("while#1/body"), havoc.clone(), goto("while#1/exit")],
            vec![goto("while#1/body"), havoc, goto("while#1/body"), goto("while#1/body")],
        ];
        assert_eq!(traces, expected);
    }

    #[test]
    fn every_step_listed_can_be_taken_and_a_step_another_input_has_cannot() {
        let rows = hir::Type::Map(std::sync::Arc::new(hir::MapType {
            type_params: Vec::new(),
            domain: vec![hir::Type::Int, hir::Type::Int],
            range: hir::Type::Int,
        }));
        let matrix = Value::Map(MapValue::new(vec![(int(1), map(&[(0, 3)], 0))], map(&[], 0)));
        let input = TestInput {
            params: vec![int(4), Value::Bool(false), map(&[(2, 5), (3, 7)], 0), matrix],
            ..TestInput::new(hir::ImplId::from_index(0))
        };
        let shape = Shape { types: vec![None, None, Some(int_map()), Some(rows)], branches: &BTreeMap::new() };
        let listed = steps_from(&input, &shape);
        assert!(listed.len() > 40, "{} steps", listed.len());
        for step in &listed {
            let neighbour = take(&input, step, &shape).unwrap_or_else(|| panic!("{step:?} is listed"));
            assert_ne!(neighbour, input, "{step:?} changes something");
        }
        let moved = Step::Value { value: 2, change: Change::Move { position: 0, up: true } };
        assert_eq!(take(&input, &moved, &shape), None, "key 3 is taken");
        let past = Step::Value { value: 2, change: Change::Entry { position: 2, change: Box::new(Change::Scalar(0)) } };
        assert_eq!(take(&input, &past, &shape), None, "two entries");
    }

    #[test]
    fn neighbours_change_one_value_each_in_order() {
        let input = TestInput { params: ints(&[4, 0]), ..TestInput::new(hir::ImplId::from_index(0)) };
        let shape = Shape { types: Vec::new(), branches: &BTreeMap::new() };
        let params: Vec<Vec<Value>> = neighbours(&input, &shape).into_iter().map(|(_, input)| input.params).collect();
        let expected: Vec<Vec<Value>> =
            [[5, 0], [3, 0], [8, 0], [2, 0], [4, 1], [4, -1]].iter().map(|pair| ints(pair)).collect();
        assert_eq!(params, expected);
    }
}
