//! Conditional regeneration (seeds/002; `prove-tests --existing SUITE`): the existing
//! suite is run on the current program ([`super::run`]); a test that passes is kept
//! exactly as it is written, a test that does not is a regression — written unchanged
//! too, so that `run-tests` keeps failing on it until someone decides, and reported —
//! and the goals the kept tests enter are excluded from generation up front.
//!
//! Input: the parsed existing suite and its [`LoadedTest`]s for the current program.
//! Output: a [`CarriedSuite`]: per implementation, the tests to carry over and what
//! their runs entered; the regressions.

use super::{TestResult, Verdict};
use crate::cfg::Cfg;
use crate::interp::Limits;
use crate::seed::goals::GoalId;
use crate::sema::hir;
use crate::suite::json;
use crate::suite::load::LoadedTest;
use crate::suite::Carried;
use std::collections::{BTreeMap, BTreeSet};

/// An existing suite, run on the current program.
#[derive(Clone, Debug, Default)]
pub struct CarriedSuite {
    /// Per implementation name, its tests of the existing suite, kept and regressions.
    pub carried: BTreeMap<String, Carried>,
    /// The tests that no longer pass (fail, invalid, or cannot run), in suite order;
    /// also those of implementations the program no longer has.
    pub regressions: Vec<TestResult>,
}

impl CarriedSuite {
    /// The goals of `implementation` that its kept tests enter.
    pub fn kept_goals(&self, implementation: &str) -> BTreeSet<GoalId> {
        let carried = self.carried.get(implementation).into_iter();
        carried.flat_map(|carried| carried.entered.iter().flatten()).map(|id| GoalId(id.clone())).collect()
    }

    /// How many of `implementation`'s carried tests pass (kept) and fail (regressions).
    pub fn counts(&self, implementation: &str) -> (usize, usize) {
        let regressions = self.regressions.iter().filter(|result| result.procedure == implementation).count();
        let carried = self.carried.get(implementation).map_or(0, |carried| carried.tests.len());
        (carried - regressions, regressions)
    }
}

/// Runs `tests`, the loaded form of `suite`, on the program whose lowered graphs are
/// `cfgs`, unrolled as the suite's options say (its goal ids carry iterations).
pub fn carry(program: &hir::Program, cfgs: &[Cfg], suite: &json::Suite, tests: &[LoadedTest]) -> CarriedSuite {
    let run = super::run(program, cfgs, tests, Limits::default(), &suite.options);
    let written =
        suite.procedures.iter().flat_map(|procedure| procedure.tests.iter().map(move |test| (procedure, test)));
    let mut carried = CarriedSuite::default();
    // `load_suite` loads the tests in the order of the file, one result each.
    for ((procedure, test), result) in written.zip(run.results) {
        debug_assert_eq!(test.id, result.id, "results follow the suite's order");
        let entry = carried.carried.entry(procedure.name.clone()).or_default();
        entry.tests.push(test.clone());
        if result.verdict == Verdict::Pass {
            entry.entered.push(result.entered.iter().map(|goal| goal.0.clone()).collect());
        } else {
            entry.entered.push(Vec::new());
            carried.regressions.push(result);
        }
    }
    carried
}
