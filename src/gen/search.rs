//! Neighbourhood search around replayed tests (issue 5): the cheap analysis that
//! cooperates with the solver (seeds/004, CoVeriTest).
//!
//! Input: a test that runs (a replayed model, or the all-defaults input). Output: its
//! *neighbours*, the inputs one step away from it, in a fixed order; the enumerator
//! replays them and keeps each that enters a goal still open, which is then searched
//! around in turn.
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
//! - a nondeterministic choice (`if (*)`, `while (*)`, `goto A, B`): another branch,
//!   the choices after it left to the interpreter (it takes the first feasible branch);
//! - a map: its default one step away; one entry's value one step away; an entry with
//!   an integer key moved to the next free key up or down (`a[2] == key` becomes
//!   `a[3] == key`: found one iteration later); or, for a map indexed by integers, a new
//!   entry next to the smallest or largest key (at 0 in an empty map) whose value is one
//!   step from the default.
//!
//! Honesty is the replay's: a neighbour counts only for the goals its run enters, and a
//! neighbour whose run is no execution (a precondition fails) enters none. The order is
//! fixed and nothing is random, so the same seed gives the same tests.

use crate::interp::{row_type, TestInput, TraceItem};
use crate::sema::hir;
use crate::vc::{MapValue, Value};
use num_bigint::BigInt;
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

/// The inputs one step from `input` (see the module header), in a fixed order: values
/// in [`TestInput::values_mut`] order, each value's steps in the order above, then the
/// trace's choices. Two inputs of the same shape (as many values, map entries and
/// choices) number their steps alike, so the enumerator can take the step that found a
/// test again from that test.
pub fn neighbours(input: &TestInput, shape: &Shape) -> Vec<TestInput> {
    let mut found = value_neighbours(input, &shape.types);
    found.extend(choice_neighbours(input, shape.branches));
    found
}

/// The inputs with one value one step away.
fn value_neighbours(input: &TestInput, types: &[Option<hir::Type>]) -> Vec<TestInput> {
    let values: Vec<Value> = input.clone().values_mut().map(|value| value.clone()).collect();
    let mut found = Vec::new();
    for (index, value) in values.iter().enumerate() {
        for step in steps(value, types.get(index).and_then(Option::as_ref)) {
            let mut neighbour = input.clone();
            if let Some(slot) = neighbour.values_mut().nth(index) {
                *slot = step;
            }
            found.push(neighbour);
        }
    }
    found
}

/// The inputs with one nondeterministic choice of the trace made otherwise, and the
/// choices after it left to the interpreter (they were made for another path).
fn choice_neighbours(input: &TestInput, branches: &BTreeMap<String, BTreeSet<String>>) -> Vec<TestInput> {
    let mut found = Vec::new();
    for (position, item) in input.trace.iter().enumerate() {
        let TraceItem::Goto { target } = item else { continue };
        for other in branches.get(target).into_iter().flatten() {
            let mut trace = input.trace[..position].to_vec();
            trace.push(TraceItem::Goto { target: other.clone() });
            found.push(TestInput { trace, ..input.clone() });
        }
    }
    found
}

/// The values one step from `value`, of type `ty` when known.
fn steps(value: &Value, ty: Option<&hir::Type>) -> Vec<Value> {
    match value {
        Value::Int(int) => int_steps(int).into_iter().map(Value::Int).collect(),
        Value::Bool(bool) => vec![Value::Bool(!bool)],
        Value::Map(map) => map_steps(map, ty),
        Value::Elem { .. } | Value::Opaque(_) => Vec::new(),
    }
}

/// `v + 1`, `v - 1`, `2v` and `v / 2`, without repeats or `v` itself.
fn int_steps(int: &BigInt) -> Vec<BigInt> {
    let mut found: Vec<BigInt> = Vec::new();
    for step in [int + 1, int - 1, int * 2, int / 2] {
        if step != *int && !found.contains(&step) {
            found.push(step);
        }
    }
    found
}

/// A map with its default, one entry's value, or one entry's key one step away, or with
/// a new entry (see the module header), in that order.
fn map_steps(map: &MapValue, ty: Option<&hir::Type>) -> Vec<Value> {
    let (key_ty, row_ty) = match ty {
        Some(hir::Type::Map(map_ty)) => (map_ty.domain.first(), Some(row_type(map_ty))),
        _ => (None, None),
    };
    let row_ty = row_ty.as_ref();
    let default = (*map.default).clone();
    let mut found: Vec<Value> =
        steps(&map.default, row_ty).into_iter().map(|default| with(map.entries.clone(), default)).collect();
    for entries in value_steps(map, row_ty).into_iter().chain(key_moves(map)).chain(new_entries(map, key_ty, row_ty)) {
        found.push(with(entries, default.clone()));
    }
    found
}

fn with(entries: Vec<(Value, Value)>, default: Value) -> Value {
    Value::Map(MapValue::new(entries, default))
}

/// The map's entries with one entry's value one step away.
fn value_steps(map: &MapValue, row_ty: Option<&hir::Type>) -> Vec<Vec<(Value, Value)>> {
    let mut found = Vec::new();
    for (position, (_, value)) in map.entries.iter().enumerate() {
        for step in steps(value, row_ty) {
            let mut entries = map.entries.clone();
            entries[position].1 = step;
            found.push(entries);
        }
    }
    found
}

/// The map's entries with one integer key moved to the next free key up or down.
fn key_moves(map: &MapValue) -> Vec<Vec<(Value, Value)>> {
    let mut found = Vec::new();
    for (position, (key, _)) in map.entries.iter().enumerate() {
        let Value::Int(key) = key else { continue };
        for moved in [Value::Int(key + 1), Value::Int(key - 1)] {
            if map.entries.iter().all(|(other, _)| *other != moved) {
                let mut entries = map.entries.clone();
                entries[position].0 = moved;
                found.push(entries);
            }
        }
    }
    found
}

/// The map's entries with one more, at a key of [`new_keys`], its value one step from
/// the default.
fn new_entries(map: &MapValue, key_ty: Option<&hir::Type>, row_ty: Option<&hir::Type>) -> Vec<Vec<(Value, Value)>> {
    let mut found = Vec::new();
    for key in new_keys(map, key_ty) {
        for value in steps(&map.default, row_ty) {
            let mut entries = map.entries.clone();
            entries.push((Value::Int(key.clone()), value));
            found.push(entries);
        }
    }
    found
}

/// Where a map indexed by integers gets a new entry: next to its smallest and largest
/// keys, or at 0 when it has none.
fn new_keys(map: &MapValue, key_ty: Option<&hir::Type>) -> Vec<BigInt> {
    let keys: Vec<&BigInt> = map
        .entries
        .iter()
        .filter_map(|(key, _)| match key {
            Value::Int(key) => Some(key),
            _ => None,
        })
        .collect();
    match (keys.first(), keys.last()) {
        // Entries are sorted by key.
        (Some(&smallest), Some(&largest)) => {
            let mut found = vec![largest + BigInt::one()];
            if smallest - 1 != largest + 1 {
                found.push(smallest - BigInt::one());
            }
            found
        }
        _ if map.entries.is_empty() && key_ty == Some(&hir::Type::Int) => vec![BigInt::zero()],
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        hir::Type::Map(std::sync::Arc::new(hir::MapType { domain: vec![hir::Type::Int], range: hir::Type::Int }))
    }

    #[test]
    fn an_integer_steps_by_one_and_by_halves() {
        assert_eq!(steps(&int(6), None), ints(&[7, 5, 12, 3]));
        assert_eq!(steps(&int(1), None), ints(&[2, 0]), "2·1 and 1 + 1 are one step; 1 / 2 is 0 = 1 - 1");
        assert_eq!(steps(&int(0), None), ints(&[1, -1]));
        assert_eq!(steps(&int(-3), None), ints(&[-2, -4, -6, -1]));
    }

    #[test]
    fn a_map_steps_its_default_and_each_entry_moves_entries_and_grows_at_its_ends() {
        let found = steps(&map(&[(2, 5)], 0), Some(&int_map()));
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
            map(&[(1, 1), (2, 5)], 0),
            map(&[(1, -1), (2, 5)], 0),
        ];
        assert_eq!(found, expected);
        let empty = steps(&map(&[], 0), Some(&int_map()));
        assert_eq!(empty, [map(&[], 1), map(&[], -1), map(&[(0, 1)], 0), map(&[(0, -1)], 0)]);
        assert_eq!(steps(&map(&[], 0), None).len(), 2, "no key type, no new entry");
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
        let traces: Vec<Vec<TraceItem>> =
            choice_neighbours(&input, &branches).into_iter().map(|input| input.trace).collect();
        let expected = [
            vec![goto("while#1/exit")],
            vec![goto("while#1/body"), havoc.clone(), goto("while#1/exit")],
            vec![goto("while#1/body"), havoc, goto("while#1/body"), goto("while#1/body")],
        ];
        assert_eq!(traces, expected);
    }

    #[test]
    fn neighbours_change_one_value_each_in_order() {
        let input = TestInput { params: ints(&[4, 0]), ..TestInput::new(hir::ImplId::from_index(0)) };
        let shape = Shape { types: Vec::new(), branches: &BTreeMap::new() };
        let params: Vec<Vec<Value>> = neighbours(&input, &shape).into_iter().map(|input| input.params).collect();
        let expected: Vec<Vec<Value>> =
            [[5, 0], [3, 0], [8, 0], [2, 0], [4, 1], [4, -1]].iter().map(|pair| ints(pair)).collect();
        assert_eq!(params, expected);
    }
}
