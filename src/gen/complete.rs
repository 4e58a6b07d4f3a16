//! A candidate's open predicates decided by the solver: the points off its tables at
//! which its run reads a body-less Boolean function the candidate leaves unspecified,
//! decided by the axioms ([`crate::smt::Session::decide`]) and written into the test's
//! tables.
//!
//! **Why.** A candidate of E-matching alone tabulates a predicate only where z3's
//! search applied it: HAVOC's `ReachBetween(f, x, y, z)`, only axiomatized, has no
//! value at the run's own list, and a set defined by it (`ReachBetweenSet(f, x, z)`,
//! its members) falls back to the candidate's table, true almost everywhere, where
//! the axioms say `{x}` for an empty list. A loop invariant over that set is then found
//! false where the program keeps it.
//!
//! **How.** The run notes each point off a table at which it reads such a predicate
//! ([`crate::interp::Machine::run_noting_off_table`]). Each is asked (at most
//! [`MAX_QUESTIONS`] per candidate); the predicate's table then holds the points
//! forced true, and `false` off its entries: the least table, and the one a set by
//! membership can be tabulated from (the interpreter's points need a table with a
//! default, `interp/points.rs`). A point the axioms force false reads its default; one
//! they leave open reads it too, as replay's guess, which the run's checks of the
//! axioms on the points it reads may still refute. The run is made again on the
//! completed tables, at most [`MAX_ROUNDS`] times, while it misses its goals, has not
//! left its trace's path, notes points not asked yet and the answers change the
//! tables. The completed tables are the test's: the suite replays them without a
//! solver.
//!
//! Which predicates: those a run reads where the candidate's table has no default and
//! no definition gives a value, a definition that reads itself through others
//! included (`ReachBetween(f, x, y, z) == ReachBetweenSet(f, x, z)[y]`, the set's
//! members being `ReachBetween`): [`crate::interp::Machine::open_predicates`]. Their
//! tables are completed before the first run, even where no point was noted yet, since
//! a set by membership tabulates its predicate at representative points only once the
//! predicate's table has a default (the run notes those points); the definitions then
//! read the completed tables
//! ([`crate::interp::Machine::agree_with_definitions_noting`]).
//!
//! **Ranges.** A run that stops at a body-less callee's postcondition over a range of a
//! function's points (`forall x :: new <= x && x < new + size ==> Base(x) == new`), false
//! off the candidate's table, names the entries that make it hold
//! ([`crate::interp::Replay::table_writes`], `interp/writes.rs`): they are written into
//! the table the same way, and the run made again (a round as well).

use super::replay::{ReplayedTest, Replayer};
use crate::interp::{TableWrite, TestInput};
use crate::sema::hir;
use crate::smt::{Question, Session};
use crate::vc::{FunctionModel, Value};
use std::collections::BTreeSet;

/// Runs made again on tables completed further, per candidate.
pub const MAX_ROUNDS: usize = 4;

/// Points asked per candidate, over all its rounds: each is two checks of a few
/// milliseconds under E-matching.
pub const MAX_QUESTIONS: usize = 64;

/// The candidate `input`'s run, its tables made to agree with the definitions
/// ([`crate::interp::Machine::agree_with_definitions`]) and completed while the run does
/// not do what `enough` asks (see the module documentation).
pub fn completed(
    replayer: &Replayer,
    session: &mut Session,
    mut input: TestInput,
    enough: impl Fn(&ReplayedTest) -> bool,
) -> ReplayedTest {
    let mut completing = replayer.machine.open_predicates(&input);
    write_tables(&mut input, &completing, std::iter::empty());
    let mut asked: BTreeSet<Question> = BTreeSet::new();
    let mut rounds = 0;
    loop {
        let mut agreed = input.clone();
        let mut noted = replayer.machine.agree_with_definitions_noting(&mut agreed, &completing);
        let test = replayer.run_noting_off_table(agreed, &completing);
        if rounds == MAX_ROUNDS || enough(&test) || left_its_trace(&test) {
            return test;
        }
        rounds += 1;
        if write_entries(&mut input, &test.replay.table_writes) {
            continue;
        }
        noted.extend(test.replay.off_table_reads.iter().cloned());
        let questions: Vec<Question> = (noted.into_iter())
            .map(|(function, args)| Question { function, args })
            .filter(|question| !asked.contains(question))
            .take(MAX_QUESTIONS.saturating_sub(asked.len()))
            .collect();
        if questions.is_empty() {
            return test;
        }
        let answers = session.decide(questions.clone());
        let tables = input.functions.clone();
        completing.extend(questions.iter().map(|question| question.function));
        let forced_true = questions.iter().zip(answers).filter(|(_, answer)| *answer == Some(true));
        write_tables(&mut input, &completing, forced_true.map(|(question, _)| question));
        asked.extend(questions);
        if input.functions == tables {
            // The same tables make the same run.
            return test;
        }
    }
}

/// Whether the run left the path its trace was made for before it could enter its
/// goals (a trace entry for another branch point): a state the trace does not follow
/// (a loop's real exit where the model's cut loop went on), which no predicate's value
/// at a point changes back.
fn left_its_trace(test: &ReplayedTest) -> bool {
    test.replay.left_trace.is_some() || matches!(test.replay.outcome, crate::interp::Outcome::ReplayError { .. })
}

/// `writes` (a callee's postcondition over a range of a function's points, false off
/// its table: [`crate::interp::Replay::table_writes`]) written into `input`'s tables
/// that exist; whether any entry was added.
fn write_entries(input: &mut TestInput, writes: &[TableWrite]) -> bool {
    let mut written = false;
    for (function, args, value) in writes {
        let Some(table) = input.functions.iter_mut().find(|table| table.function == *function) else { continue };
        if let Err(position) = table.entries.binary_search_by(|(given, _)| given.cmp(args)) {
            table.entries.insert(position, (args.clone(), value.clone()));
            written = true;
        }
    }
    written
}

/// The tables of the predicates `completing` in `input` made `false` by default, and
/// true at the points of `forced_true`.
fn write_tables<'q>(
    input: &mut TestInput,
    completing: &BTreeSet<hir::FunctionId>,
    forced_true: impl Iterator<Item = &'q Question>,
) {
    for &function in completing {
        if !input.functions.iter().any(|table| table.function == function) {
            input.functions.push(FunctionModel { function, entries: Vec::new(), default: Value::Bool(false) });
        }
    }
    input.functions.sort_by_key(|table| table.function);
    for question in forced_true {
        if let Some(table) = input.functions.iter_mut().find(|table| table.function == question.function) {
            table.entries.push((question.args.clone(), Value::Bool(true)));
        }
    }
    for table in input.functions.iter_mut().filter(|table| completing.contains(&table.function)) {
        table.default = Value::Bool(false);
        table.entries.retain(|(_, result)| result != &Value::Bool(false));
        table.entries.sort();
        table.entries.dedup_by(|later, earlier| later.0 == earlier.0);
    }
}

#[cfg(test)]
mod tests {
    use super::{write_entries, write_tables};
    use crate::interp::TestInput;
    use crate::sema::hir::{FunctionId, ImplId};
    use crate::smt::Question;
    use crate::vc::{FunctionModel, Value};
    use num_bigint::BigInt;
    use std::collections::BTreeSet;

    /// A completed predicate is false by default and true where the solver forced it;
    /// its candidate's entries stay unless they say false, and a predicate the test had
    /// no table of gets one.
    #[test]
    fn a_completed_table_is_false_but_at_the_points_forced_true() {
        let (reach, free, other) = (FunctionId::from_index(0), FunctionId::from_index(1), FunctionId::from_index(2));
        let point = |value: i64| vec![Value::Int(BigInt::from(value))];
        let mut input = TestInput::new(ImplId::from_index(0));
        let entries = vec![(point(1), Value::Bool(true)), (point(2), Value::Bool(false))];
        input.functions.push(FunctionModel { function: reach, entries, default: Value::unspecified() });
        input.functions.push(FunctionModel { function: other, entries: Vec::new(), default: Value::unspecified() });
        let forced = [Question { function: reach, args: point(5) }, Question { function: free, args: point(7) }];
        write_tables(&mut input, &BTreeSet::from([reach, free]), forced.iter());
        let yes = Value::Bool(true);
        let table = |function, entries, default| FunctionModel { function, entries, default };
        assert_eq!(
            input.functions,
            [
                table(reach, vec![(point(1), yes.clone()), (point(5), yes.clone())], Value::Bool(false)),
                table(free, vec![(point(7), yes)], Value::Bool(false)),
                table(other, Vec::new(), Value::unspecified()),
            ]
        );
    }

    /// A range's entries go into the test's table of their function, sorted, where it
    /// has none; a function the test has no table of gets none.
    #[test]
    fn range_writes_fill_the_tables_the_test_has_where_they_have_no_entry() {
        let (base, absent) = (FunctionId::from_index(0), FunctionId::from_index(1));
        let point = |value: i64| vec![Value::Int(BigInt::from(value))];
        let int = |value: i64| Value::Int(BigInt::from(value));
        let mut input = TestInput::new(ImplId::from_index(0));
        let entries = vec![(point(100), int(100)), (point(103), int(100))];
        input.functions.push(FunctionModel { function: base, entries, default: int(0) });
        let writes = [(base, point(102), int(100)), (base, point(101), int(100)), (absent, point(1), int(1))];
        assert!(write_entries(&mut input, &writes));
        let cells: Vec<_> = input.functions[0].entries.iter().map(|(args, _)| args.clone()).collect();
        assert_eq!(cells, [point(100), point(101), point(102), point(103)]);
        assert_eq!(input.functions.len(), 1);
        assert!(!write_entries(&mut input, &writes[..2]), "nothing new");
    }
}
