//! Findings: the tests of a suite whose runs violate a contract (an `assert`, a loop
//! invariant, a callee's precondition, a postcondition), recorded with the outcome
//! `fail`. Such a test is a bug the suite demonstrates, so `prove-tests` says it as
//! `verify` says a failure: a diagnostic at the violated clause, with the test's id and
//! values (`verify::failure_diagnostic`, one rendering for both).
//!
//! Input: the suite as it is written (sections fresh or from the cache, tests kept by
//! `--existing` and added by `--kill-mutants` alike) and the lowered program. Output:
//! one [`Finding`] per test recorded `fail` whose run fails, in the suite's order. The
//! suite records only a violation's message, so each such test is run again, strictly,
//! as `run-tests` runs it, for the place and the kind of the check; a cached section
//! thus gives the findings a fresh one does.

use crate::cfg::Cfg;
use crate::diag::{Diagnostic, Severity};
use crate::interp::{Limits, Machine, Outcome, TraceMode};
use crate::sema::hir;
use crate::source::Span;
use crate::suite::json;
use crate::suite::load::{load_suite, LoadedTest};
use crate::verify::{self, CheckSite, FailingTest};

/// A test of the suite whose run violates a contract.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The test's id: `Abs/t3`.
    pub id: String,
    /// The implementation it runs.
    pub procedure: String,
    /// The violation, as the suite records it: "postcondition `y >= 0` of `Abs` violated".
    pub message: String,
    /// The violated clause.
    pub span: Span,
    site: CheckSite,
    /// The call in whose run a callee's postcondition broke: the test is of the
    /// caller, the clause the callee's. (A precondition's call is its site's.)
    call: Option<Span>,
    test: FailingTest,
}

impl Finding {
    /// The finding at its clause: an error when findings fail the run
    /// (`--fail-on-findings`), a warning otherwise.
    pub fn to_diagnostic(&self, severity: Severity) -> Diagnostic {
        let lead = format!("failing test `{}`", self.id);
        let diagnostic = verify::failure_diagnostic(severity, &self.site, &self.test, &lead);
        match self.call {
            Some(call) => diagnostic.with_secondary(call, "broken in this call's run"),
            None => diagnostic,
        }
    }
}

/// The findings of `suite`, a suite made for `program` (whose lowered graphs are
/// `cfgs`) in this run.
pub fn findings(program: &hir::Program, cfgs: &[Cfg], suite: &json::Suite) -> Vec<Finding> {
    let recorded_fail = |test: &json::Test| test.expect.outcome == "fail";
    // Most suites record no failure: nothing to load or run then.
    if !suite.procedures.iter().flat_map(|procedure| &procedure.tests).any(recorded_fail) {
        return Vec::new();
    }
    let mut failing = suite.clone();
    failing.procedures.iter_mut().for_each(|procedure| procedure.tests.retain(recorded_fail));
    failing.procedures.retain(|procedure| !procedure.tests.is_empty());
    let tests = load_suite(program, cfgs, &failing, &|_| None).expect("a suite made for this program loads");
    let machine = Machine::new(program, cfgs, Limits::default());
    tests
        .iter()
        .filter_map(|test| {
            // A carried test the program no longer fits is a regression, said as such.
            let LoadedTest::Ready { id, input, .. } = test else { return None };
            let cfg = cfgs.iter().find(|cfg| cfg.implementation == input.implementation).expect("loaded for a graph");
            // A carried test whose run no longer fails is a regression too.
            let Outcome::Failed(violation) = machine.run(input, TraceMode::Strict).outcome else { return None };
            let site = verify::violated_site(program, cfg, cfgs, &violation);
            let call = violation.call.filter(|_| !matches!(site, CheckSite::Precondition { .. }));
            Some(Finding {
                id: id.clone(),
                procedure: cfg.name.clone(),
                message: violation.message.clone(),
                span: violation.span,
                site,
                call,
                test: verify::run_as_test(program, cfg, input),
            })
        })
        .collect()
}
