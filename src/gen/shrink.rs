//! Fewer map entries, by replay (issue 6): what the solver cannot make small.
//!
//! Input: a replayed test. Output: the same test with map inputs simplified, each step
//! kept only when the replay still ends the same way and enters every goal it entered.
//!
//! The solver's small-value search ([`crate::smt::Session::minimize`]) bounds the
//! integers a path reads, but a map's other entries and its default are whatever z3's
//! model completion wrote (`a = [0 ↦ 10, 1 ↦ 10, else 13]` for a run that reads no
//! element). Those the run does not depend on are dropped here, greedily, one
//! candidate edit per replay: each map's default set to its type's zero, then each
//! entry removed, then each remaining entry's value set to zero. Deterministic (inputs
//! in order, entries in key order), bounded by [`MAX_REPLAYS`] per test.

use super::replay::{ReplayedTest, Replayer};
use crate::interp::{Outcome, TestInput, TraceMode};
use crate::vc::{MapValue, Value};
use num_bigint::BigInt;
use num_traits::Zero;

/// At most this many candidate edits are replayed per test.
const MAX_REPLAYS: usize = 64;

impl Replayer<'_> {
    /// `test` with its map inputs simplified (see the module header).
    pub fn shrink(&self, test: ReplayedTest) -> ReplayedTest {
        let mut shrinker = Shrinker { replayer: self, best: test, replays: 0 };
        for slot in map_slots(&shrinker.best.input) {
            shrinker.shrink_map(slot);
        }
        shrinker.best
    }
}

/// Where a map input sits in a [`TestInput`].
#[derive(Clone, Copy)]
enum Slot {
    Param(usize),
    Global(usize),
    Const(usize),
    Uninitialized(usize),
}

impl Slot {
    fn value_mut(self, input: &mut TestInput) -> &mut Value {
        match self {
            Slot::Param(index) => &mut input.params[index],
            Slot::Global(index) => &mut input.globals[index].1,
            Slot::Const(index) => &mut input.consts[index].1,
            Slot::Uninitialized(index) => &mut input.uninitialized[index].1,
        }
    }
}

/// A [`Slot`] constructor: the slot at an index of one group of inputs.
type SlotOf = fn(usize) -> Slot;

fn map_slots(input: &TestInput) -> Vec<Slot> {
    let is_map = |value: &Value| matches!(value, Value::Map(_));
    let groups: [(Vec<bool>, SlotOf); 4] = [
        (input.params.iter().map(is_map).collect(), Slot::Param),
        (input.globals.iter().map(|(_, value)| is_map(value)).collect(), Slot::Global),
        (input.consts.iter().map(|(_, value)| is_map(value)).collect(), Slot::Const),
        (input.uninitialized.iter().map(|(_, value)| is_map(value)).collect(), Slot::Uninitialized),
    ];
    groups.into_iter().flat_map(|(maps, slot)| (0..maps.len()).filter(move |&index| maps[index]).map(slot)).collect()
}

struct Shrinker<'r, 'a> {
    replayer: &'r Replayer<'a>,
    best: ReplayedTest,
    replays: usize,
}

impl Shrinker<'_, '_> {
    fn shrink_map(&mut self, slot: Slot) {
        self.try_edit(slot, |map| {
            let zero = zero_like(&map.default)?;
            Some(MapValue::new(map.entries.clone(), zero))
        });
        let mut position = 0;
        while position < self.entries(slot) {
            let removed = self.try_edit(slot, |map| {
                let mut entries = map.entries.clone();
                entries.remove(position);
                Some(MapValue::new(entries, (*map.default).clone()))
            });
            if !removed {
                position += 1;
            }
        }
        for position in 0..self.entries(slot) {
            self.try_edit(slot, |map| {
                let mut entries = map.entries.clone();
                let zero = zero_like(&entries.get(position)?.1)?;
                entries[position].1 = zero;
                Some(MapValue::new(entries, (*map.default).clone()))
            });
        }
    }

    fn entries(&mut self, slot: Slot) -> usize {
        match slot.value_mut(&mut self.best.input) {
            Value::Map(map) => map.entries.len(),
            _ => 0,
        }
    }

    /// Replays the test with the map at `slot` replaced by `edit`'s result; keeps it when
    /// the run ends the same way and enters every goal it entered. False when the edit
    /// was not kept (or not possible, or the budget is spent).
    fn try_edit(&mut self, slot: Slot, edit: impl FnOnce(&MapValue) -> Option<MapValue>) -> bool {
        if self.replays >= MAX_REPLAYS {
            return false;
        }
        let mut input = self.best.input.clone();
        let target = slot.value_mut(&mut input);
        let Value::Map(map) = &*target else { return false };
        let Some(edited) = edit(map) else { return false };
        if edited == *map {
            return false;
        }
        *target = Value::Map(edited);
        self.replays += 1;
        let replay = self.replayer.machine.run(&input, TraceMode::Complete);
        let covers = self.replayer.covers(&replay);
        let same_end = std::mem::discriminant(&replay.outcome) == std::mem::discriminant(&self.best.replay.outcome)
            && matches!(replay.outcome, Outcome::Passed | Outcome::Failed(_) | Outcome::Infeasible(_));
        if !same_end || !self.best.covers.iter().all(|goal| covers.contains(goal)) {
            return false;
        }
        let input = TestInput { trace: replay.trace.clone(), ..input };
        self.best = ReplayedTest { input, replay, covers };
        true
    }
}

/// The zero of `value`'s type when it is a scalar (`0`, `false`); `None` for a map or an
/// element of an uninterpreted type, which keep their value.
fn zero_like(value: &Value) -> Option<Value> {
    match value {
        Value::Int(int) if !int.is_zero() => Some(Value::Int(BigInt::zero())),
        Value::Bool(true) => Some(Value::Bool(false)),
        _ => None,
    }
}
