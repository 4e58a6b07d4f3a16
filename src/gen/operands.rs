//! Input-to-state correspondence (as the Redqueen fuzzer finds magic bytes): inputs made
//! from a test by setting one of its integers to a value its run compared that integer
//! with.
//!
//! Input: a test and the operands of the integer comparisons its run evaluated, in order
//! ([`crate::interp::Machine::run_observing`]). Output: candidate inputs, each the test
//! with one integer it sets (a parameter, global, constant, unset local, trace value, or
//! a map's entry or default) replaced: where one operand of a comparison equals that
//! integer, by the other operand.
//!
//! Why: a branch such as `mid * mid == n`, `a[i] == x` or `k == 1000` needs an input equal
//! to a value the run computes. The neighbourhood search ([`super::search`]) steps by
//! one, doubles and halves, so it lands on a perfect square or on a given cell's value
//! only by chance, and the solver pays for nonlinear arithmetic with timeouts. A run that
//! compares `n` with `mid * mid` names the value: `n := mid * mid` is a perfect square the
//! bisection meets (at some iteration). As with every candidate, only the replay of the
//! input decides what it covers.

use crate::interp::TestInput;
use crate::vc::{MapValue, Value};
use num_bigint::BigInt;
use std::collections::BTreeSet;

/// The most candidates made from one test: a run that compares many values (a sort's
/// every pair of cells) would otherwise give thousands.
pub const MAX_CANDIDATES: usize = 256;

/// The inputs one replacement away from `input` (see the module header), in order: by
/// the integer replaced (in [`TestInput::values_mut`] order, a map's default before its
/// entries' values), then by the first comparison that suggests the value; each
/// replacement once, at most [`MAX_CANDIDATES`].
pub fn candidates(input: &TestInput, operands: &[(BigInt, BigInt)]) -> Vec<TestInput> {
    let mut probe = input.clone();
    let ints: Vec<BigInt> =
        probe.values_mut().flat_map(|value| integers(value).into_iter().map(|int| int.clone())).collect();
    let mut seen: BTreeSet<(usize, &BigInt)> = BTreeSet::new();
    let mut replacements: Vec<(usize, &BigInt)> = Vec::new();
    'slots: for (slot, int) in ints.iter().enumerate() {
        for (left, right) in operands {
            let other = match (left == int, right == int) {
                (true, false) => right,
                (false, true) => left,
                _ => continue,
            };
            if seen.insert((slot, other)) {
                replacements.push((slot, other));
                if replacements.len() == MAX_CANDIDATES {
                    break 'slots;
                }
            }
        }
    }
    replacements.into_iter().map(|(slot, value)| replaced(input, slot, value)).collect()
}

/// `input` with its `slot`-th integer set to `value` (maps kept canonical: an entry
/// that now equals its map's default goes).
fn replaced(input: &TestInput, slot: usize, value: &BigInt) -> TestInput {
    let mut candidate = input.clone();
    let mut passed = 0;
    for held in candidate.values_mut() {
        let mut ints = integers(held);
        if slot < passed + ints.len() {
            *ints.swap_remove(slot - passed) = value.clone();
            *held = canonical(held);
            break;
        }
        passed += ints.len();
    }
    candidate
}

fn canonical(value: &Value) -> Value {
    match value {
        Value::Map(map) => {
            let entries = map.entries.iter().map(|(key, value)| (key.clone(), canonical(value))).collect();
            Value::Map(MapValue::new(entries, canonical(&map.default)))
        }
        other => other.clone(),
    }
}

/// The integers `value` holds: itself, or a map's default's and its entries' values
/// (keys stay: moving an entry is the search's step), depth first.
fn integers(value: &mut Value) -> Vec<&mut BigInt> {
    match value {
        Value::Int(int) => vec![int],
        Value::Map(map) => map_integers(map),
        Value::Bool(_) | Value::Real(_) | Value::BitVec { .. } | Value::Elem { .. } | Value::Opaque(_) => Vec::new(),
    }
}

fn map_integers(map: &mut MapValue) -> Vec<&mut BigInt> {
    let MapValue { entries, default } = map;
    let mut found = integers(default);
    for (_, value) in entries.iter_mut() {
        found.extend(integers(value));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sema::hir;

    fn int(value: i64) -> BigInt {
        BigInt::from(value)
    }

    fn input(params: Vec<Value>) -> TestInput {
        TestInput { params, ..TestInput::new(hir::ImplId(0)) }
    }

    fn params(input: &TestInput) -> Vec<Value> {
        input.params.clone()
    }

    #[test]
    fn an_integer_compared_with_a_computed_value_is_set_to_it() {
        // `mid * mid == n` with n = 20, mid = 10, 5, 7: n := 100, 25, 49.
        let seed = input(vec![Value::Int(int(20)), Value::Int(int(3))]);
        let operands = [(int(100), int(20)), (int(25), int(20)), (int(49), int(20)), (int(100), int(20))];
        let found: Vec<Vec<Value>> = candidates(&seed, &operands).iter().map(params).collect();
        let expected: Vec<Vec<Value>> =
            [100, 25, 49].iter().map(|&n| vec![Value::Int(int(n)), Value::Int(int(3))]).collect();
        assert_eq!(found, expected);
    }

    #[test]
    fn a_map_entry_compared_with_a_parameter_takes_its_value_and_the_other_way_round() {
        // `a[i] == x` with a[0] = 7, x = 3: x := 7, and a[0] := 3.
        let array = Value::Map(MapValue::new(vec![(Value::Int(int(0)), Value::Int(int(7)))], Value::Int(int(0))));
        let seed = input(vec![array, Value::Int(int(3))]);
        let found = candidates(&seed, &[(int(7), int(3))]);
        assert_eq!(found.len(), 2);
        let Value::Map(map) = &found[0].params[0] else { panic!("a map") };
        assert_eq!(map.entries[0].1, Value::Int(int(3)));
        assert_eq!(found[1].params[1], Value::Int(int(7)));
    }
}
