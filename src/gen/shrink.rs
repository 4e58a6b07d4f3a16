//! Smaller inputs, by replay (DESIGN.md, small readable tests): what the solver cannot make small.
//!
//! Input: a replayed test. Output: the same test with its inputs simplified, each step
//! kept only when the replay still ends the same way (the same outcome and message) and
//! enters exactly the goals it entered, so the test's recorded `covers` and `expect`
//! stay what its run does.
//!
//! The solver's small-value search ([`crate::smt::Session::minimize`]) bounds the
//! integers a path reads, but a map's other entries and its default are whatever z3's
//! model completion wrote (`a = [0 ↦ 10, 1 ↦ 10, else 13]` for a run that reads no
//! element), and on some paths (through loops cut by quantified invariants) it runs out
//! of checks and leaves the model's raw values (`lower = 44556`). Two kinds of edits
//! follow:
//! - **maps**: each map's default set to its type's zero, then its entries the run does
//!   not depend on removed (runs of entries, halved down to single ones), then each
//!   remaining entry's value set to zero;
//! - **gaps**: the integers of the whole input (parameters, globals, constants, unset
//!   locals, function tables, map keys, values and defaults, the trace's values) moved
//!   toward 0 without changing their order: while some value on one side of 0 is past
//!   ±10, the gaps between consecutive values on that side are closed from 0 outward,
//!   every value beyond a gap moved by as much (by less, found by bisection, where the
//!   run needs some of the gap: `x > 100` gives `x = 101`). Order and differences within
//!   the moved group are kept, so a run that compares inputs with each other or indexes
//!   a map by them mostly goes the same way.
//!
//! Deterministic (inputs in order, entries in key order, values by magnitude), bounded
//! by [`MAX_REPLAYS`] per test.

use super::replay::{ReplayedTest, Replayer};
use crate::interp::{Outcome, TestInput};
use crate::vc::{MapValue, Value};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use std::collections::BTreeSet;

/// At most this many candidate edits are replayed per test.
const MAX_REPLAYS: usize = 64;

/// Gaps close on a side of 0 only while a value there is past ±`SMALL`: the issue's
/// small values.
const SMALL: u32 = 10;

/// At most this many bisection steps for one gap that cannot close all the way.
const MAX_BISECTIONS: usize = 16;

impl Replayer<'_> {
    /// `test` with its inputs simplified (see the module header).
    pub fn shrink(&self, test: ReplayedTest) -> ReplayedTest {
        let mut shrinker = Shrinker { replayer: self, best: test, replays: 0 };
        for slot in map_slots(&shrinker.best.input) {
            shrinker.shrink_map(slot);
        }
        for side in [BigInt::one(), -BigInt::one()] {
            shrinker.close_gaps(&side);
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
        self.remove_entries(slot);
        for position in 0..self.entries(slot) {
            self.try_edit(slot, |map| {
                let mut entries = map.entries.clone();
                let zero = zero_like(&entries.get(position)?.1)?;
                entries[position].1 = zero;
                Some(MapValue::new(entries, (*map.default).clone()))
            });
        }
    }

    /// Removes the entries the run does not depend on, in runs of entries halved until
    /// single ones (as delta debugging does): a model's table of a hundred entries the
    /// run never reads goes in one replay, and the budget is spent on the ones it does.
    fn remove_entries(&mut self, slot: Slot) {
        let mut run = self.entries(slot);
        while run > 0 && !self.spent() {
            let mut position = 0;
            while position < self.entries(slot) && !self.spent() {
                let removed = self.try_edit(slot, |map| {
                    let mut entries = map.entries.clone();
                    let end = (position + run).min(entries.len());
                    entries.drain(position..end);
                    Some(MapValue::new(entries, (*map.default).clone()))
                });
                if !removed {
                    position += run;
                }
            }
            run /= 2;
        }
    }

    fn entries(&mut self, slot: Slot) -> usize {
        match slot.value_mut(&mut self.best.input) {
            Value::Map(map) => map.entries.len(),
            _ => 0,
        }
    }

    /// Closes the gaps between the input's integers on one `side` of 0 (`1` or `-1`),
    /// from 0 outward, while a value on that side is past ±[`SMALL`]: each value is
    /// moved next to the value before it (0 for the nearest), with every value beyond
    /// it, as far as the replay agrees. A side whose values are all within ±[`SMALL`]
    /// is left as it is.
    fn close_gaps(&mut self, side: &BigInt) {
        // The distinct magnitudes of the values on this side, ascending; kept up to date
        // as shifts move them, so a big input is not collected again per gap.
        let mut magnitudes: Vec<BigInt> =
            integers(&self.best.input).into_iter().map(|value| value * side).filter(BigInt::is_positive).collect();
        let mut reached = BigInt::zero();
        for index in 0..magnitudes.len() {
            let farthest = magnitudes.last().expect("at least the one at `index`");
            if *farthest <= BigInt::from(SMALL) || self.spent() {
                return;
            }
            let gap: BigInt = &magnitudes[index] - &reached - 1;
            let moved = self.shift_beyond(side, &magnitudes[index], gap);
            for magnitude in &mut magnitudes[index..] {
                *magnitude -= &moved;
            }
            reached = magnitudes[index].clone();
        }
    }

    /// Moves every value of `side` from `next` outward toward 0 by as much of `gap` as
    /// the replay allows: all of it, or else the most a bisection finds in
    /// [`MAX_BISECTIONS`] steps (`x > 100` keeps `x = 101`, not the model's 150). The
    /// distance moved.
    fn shift_beyond(&mut self, side: &BigInt, next: &BigInt, gap: BigInt) -> BigInt {
        if !gap.is_positive() || self.try_shift(side, next, &gap) {
            return gap.max(BigInt::zero());
        }
        // Shifting by `moved` keeps the test (it is shifted so far), by `refused` does not.
        let (mut moved, mut refused) = (BigInt::zero(), gap);
        for _ in 0..MAX_BISECTIONS {
            let middle: BigInt = (&moved + &refused) / 2;
            if middle == moved {
                break;
            }
            match self.try_shift(side, &(next - &moved), &(&middle - &moved)) {
                true => moved = middle,
                false => refused = middle,
            }
        }
        moved
    }

    /// Replays the test with every value of `side` from magnitude `from` outward moved
    /// `by` toward 0; see [`Shrinker::try_input`].
    fn try_shift(&mut self, side: &BigInt, from: &BigInt, by: &BigInt) -> bool {
        let mut input = self.best.input.clone();
        rewrite_integers(&mut input, &mut |value| match value * side >= *from {
            true => value - by * side,
            false => value.clone(),
        });
        self.try_input(input)
    }

    /// Replays the test with the map at `slot` replaced by `edit`'s result; see
    /// [`Shrinker::try_input`].
    fn try_edit(&mut self, slot: Slot, edit: impl FnOnce(&MapValue) -> Option<MapValue>) -> bool {
        if self.spent() {
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
        self.try_input(input)
    }

    /// Whether the test's replays are used up: no edit is tried, nor built, after that
    /// (a big map's entries would be copied once per edit).
    fn spent(&self) -> bool {
        self.replays >= MAX_REPLAYS
    }

    /// Replays `input` and keeps it when the run ends as the test's did (outcome and
    /// message) and enters exactly its goals. False when it was not kept, or the budget
    /// is spent.
    fn try_input(&mut self, input: TestInput) -> bool {
        if self.spent() {
            return false;
        }
        self.replays += 1;
        let edited = self.replayer.run(input);
        if !same_end(&edited.replay.outcome, &self.best.replay.outcome) || edited.covers != self.best.covers {
            return false;
        }
        self.best = edited;
        true
    }
}

/// Whether two runs end alike: both return, or both stop at a check or an assumption
/// with the same message (a test that witnesses one failure must not come to witness
/// another). Runs that are no execution never do.
fn same_end(edited: &Outcome, original: &Outcome) -> bool {
    match (edited, original) {
        (Outcome::Passed, Outcome::Passed) => true,
        (Outcome::Failed(edited), Outcome::Failed(original)) => edited.message == original.message,
        (Outcome::Infeasible(edited), Outcome::Infeasible(original)) => edited.message == original.message,
        _ => false,
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

/// The distinct integers of `input`, by magnitude (ties: the negative first).
fn integers(input: &TestInput) -> Vec<BigInt> {
    let mut found = BTreeSet::new();
    rewrite_integers(&mut input.clone(), &mut |value| {
        found.insert((value.abs(), value.clone()));
        value.clone()
    });
    found.into_iter().map(|(_, value)| value).collect()
}

/// Replaces every integer of `input` by `f` of it: in the values of parameters, globals,
/// constants, unset locals, function tables and the trace, and in map keys, values and
/// defaults at any depth. `f` must keep distinct keys distinct (it is monotone where it
/// is used), so each map keeps its entries.
fn rewrite_integers(input: &mut TestInput, f: &mut impl FnMut(&BigInt) -> BigInt) {
    for value in input.values_mut() {
        rewrite_value(value, f);
    }
    let tables = input.functions.iter_mut().flat_map(|table| {
        let entries = table.entries.iter_mut().flat_map(|(args, result)| args.iter_mut().chain([result]));
        entries.chain([&mut table.default])
    });
    for value in tables {
        rewrite_value(value, f);
    }
}

fn rewrite_value(value: &mut Value, f: &mut impl FnMut(&BigInt) -> BigInt) {
    match value {
        Value::Int(int) => *int = f(int),
        Value::Map(map) => {
            let mut entries = std::mem::take(&mut map.entries);
            for (key, entry) in &mut entries {
                rewrite_value(key, f);
                rewrite_value(entry, f);
            }
            let mut default = (*map.default).clone();
            rewrite_value(&mut default, f);
            *map = MapValue::new(entries, default);
        }
        Value::Bool(_) | Value::Real(_) | Value::BitVec { .. } | Value::Elem { .. } | Value::Opaque(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg::{lower::lower_all, Cfg};
    use crate::gen::{prepare, GenOptions};
    use crate::interp::{Limits, Machine, TraceMode};
    use crate::sema::hir;

    /// `input` for `P` of `source` (its only implementation), replayed and shrunk: the
    /// inputs before and after.
    fn shrink(source: &str, input: impl FnOnce(&hir::Program) -> TestInput) -> (ReplayedTest, ReplayedTest) {
        replaying(source, input, |replayer, original| (original.clone(), replayer.shrink(original)))
    }

    /// `then` given the replayer of `P` of `source` and `input`'s replay.
    fn replaying<T>(
        source: &str,
        input: impl FnOnce(&hir::Program) -> TestInput,
        then: impl FnOnce(&Replayer, ReplayedTest) -> T,
    ) -> T {
        let program = crate::sema::tests::expect_accepted(source);
        let (cfgs, errors): (Vec<Cfg>, _) = lower_all(&program);
        assert!(errors.is_empty(), "{errors:?}");
        let machine = Machine::new(&program, &cfgs, Limits::default());
        let prepared = prepare(&program, &machine, &cfgs[0], &GenOptions::default(), 0);
        let replayer = prepared.replayer(&machine, &program, &cfgs[0]);
        let input = input(&program);
        let replay = machine.run(&input, TraceMode::Complete);
        then(&replayer, ReplayedTest { covers: replayer.covers(&replay), input, replay })
    }

    /// Tests whose shrinking was deferred (an axiom-heavy session's) are shrunk once
    /// their implementation's goals were all asked, unless the run's time is up by then.
    #[test]
    fn deferred_shrinking_waits_for_the_end_and_the_time_left() {
        use crate::gen::enumerate::{Candidate, Enumeration};
        let source = "procedure P(x: int) returns (r: int) { if (x > 3) { r := 1; } else { r := 0; } }";
        let deferred = |deadline: Option<std::time::Instant>| {
            replaying(
                source,
                |_| input(vec![int(44556)], Vec::new()),
                |replayer, test| {
                    let candidate = Candidate { targets: Vec::new(), covers: Vec::new(), unconfirmed: None, test };
                    let status = Vec::new();
                    let mut enumeration =
                        Enumeration { status, candidates: vec![candidate], checks: 0, shrinking_deferred: true };
                    enumeration.shrink_deferred(replayer, deadline);
                    assert!(!enumeration.shrinking_deferred, "shrinking is done once");
                    enumeration.candidates.remove(0).test.input.params
                },
            )
        };
        assert_eq!(deferred(None), [int(4)]);
        assert_eq!(deferred(Some(std::time::Instant::now())), [int(44556)], "past the deadline");
    }

    fn int(value: i64) -> Value {
        Value::Int(BigInt::from(value))
    }

    fn map(entries: impl IntoIterator<Item = (i64, i64)>) -> Value {
        Value::Map(MapValue::new(entries.into_iter().map(|(key, value)| (int(key), int(value))).collect(), int(0)))
    }

    fn input(params: Vec<Value>, globals: Vec<Value>) -> TestInput {
        let globals = globals.into_iter().enumerate().map(|(index, value)| (hir::GlobalId::from_index(index), value));
        TestInput { params, globals: globals.collect(), ..TestInput::new(hir::ImplId::from_index(0)) }
    }

    const READS_ONE_ENTRY: &str = "
        var a: [int]int;
        procedure P(n: int) returns (r: int)
        {
          if (a[n] > 3) { r := 1; } else { r := 0; }
        }";

    #[test]
    fn entries_the_run_does_not_read_go_however_many_there_are() {
        let many = map((2..=101).map(|key| (key, 9)).chain([(1, 5)]));
        let (original, shrunk) = shrink(READS_ONE_ENTRY, |_| input(vec![int(1)], vec![many]));
        assert_eq!(shrunk.input.globals[0].1, map([(1, 5)]), "only a[1] is read, and it must stay above 3");
        assert_eq!((&shrunk.covers, &shrunk.replay.outputs), (&original.covers, &original.replay.outputs));
    }

    #[test]
    fn gaps_close_keeping_order_and_differences() {
        let source = "
            procedure P(lower: int, upper: int) returns (r: int)
              requires 1 <= lower && lower < upper;
            {
              if (upper - lower == 1) { r := 0; } else { r := 1; }
            }";
        let (original, shrunk) = shrink(source, |_| input(vec![int(44556), int(44557)], Vec::new()));
        assert_eq!(shrunk.input.params, [int(1), int(2)]);
        assert_eq!(shrunk.covers, original.covers);
        let (_, negative) = shrink(source, |_| input(vec![int(3), int(-15)], Vec::new()));
        assert_eq!(negative.input.params, [int(3), int(-15)], "an invalid test stays as it is");
    }

    #[test]
    fn an_edit_that_changes_the_path_or_the_failure_is_not_kept() {
        let source = "
            procedure P(x: int, y: int)
            {
              if (x > 100) { assert y < -20; }
            }";
        let (original, shrunk) = shrink(source, |_| input(vec![int(150), int(-50)], Vec::new()));
        assert!(matches!(original.replay.outcome, Outcome::Passed));
        assert_eq!(shrunk.input.params, [int(101), int(-21)], "each closed to the last value that keeps the path");
        let (failing, kept) = shrink(source, |_| input(vec![int(150), int(7)], Vec::new()));
        assert!(matches!(failing.replay.outcome, Outcome::Failed(_)));
        assert_eq!(kept.input.params, [int(101), int(1)], "the same assertion fails");
    }
}
