//! What `verify` found, as data, and its one conversion into diagnostics.
//!
//! A [`VerifyError`] is a check that fails, with the failing test that makes it fail,
//! or a check the solver could not decide. Everything a diagnostic shows is in it
//! already (spans, names, the test rendered as text), so turning it into a
//! [`Diagnostic`] needs no program and no solver.

use crate::diag::{Diagnostic, Severity};
use crate::source::Span;

/// Where a check is and what it checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckSite {
    /// An `assert` written by the user.
    Assertion { span: Span },
    /// A loop invariant (`invariant` clause, or a leading `assert` of a `goto` loop's
    /// head) checked where the loop is entered. `loop_span` is the `while` or the
    /// head's label.
    InvariantOnEntry { invariant: Span, loop_span: Option<Span> },
    /// A loop invariant checked at the end of an iteration, on one back edge.
    InvariantMaintained { invariant: Span, loop_span: Option<Span> },
    /// A `requires` clause of `callee`, checked at a call.
    Precondition { callee: String, call: Span, clause: Span },
    /// An `ensures` clause, checked where the implementation returns.
    Postcondition { clause: Span, implementation: Span },
}

/// Inputs and choices that drive an execution into a failing check, as `name = value`
/// text (see `verify::test` for the formats).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FailingTest {
    /// In-parameters, initial values of locals read before written, globals at entry,
    /// constants: `("a", "-1")`.
    pub inputs: Vec<(String, String)>,
    /// The nondeterministic choices along the path, in execution order:
    /// `havoc x = 3`, `loop head: i = 5, j = 0`, `call ReadSensor: v = -1001`,
    /// `branch while#1/body`, `goto L`.
    pub choices: Vec<String>,
    /// The tables of the uninterpreted functions the implementation uses:
    /// `grow(0) = 1, otherwise 2`.
    pub functions: Vec<String>,
    /// Why the real program may not fail on this test: the abstractions (loop
    /// invariants, callees' contracts) the counterexample runs through.
    pub caveats: Vec<String>,
}

impl FailingTest {
    /// The test as `note:` lines, after `lead` (`failing test`).
    fn notes(&self, lead: &str) -> Vec<String> {
        let inputs: Vec<String> = self.inputs.iter().map(|(name, value)| format!("{name} = {value}")).collect();
        let inputs = if inputs.is_empty() { "no inputs".to_string() } else { inputs.join(", ") };
        let mut notes = vec![format!("{lead}: {inputs}")];
        if !self.choices.is_empty() {
            notes.push(format!("choices: {}", self.choices.join("; ")));
        }
        if !self.functions.is_empty() {
            notes.push(format!("functions: {}", self.functions.join("; ")));
        }
        notes.extend(self.caveats.iter().cloned());
        notes
    }
}

/// One problem `verify` reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyError {
    /// The check fails on `test`.
    Fails { site: CheckSite, test: FailingTest },
    /// The solver answered neither way (`reason`: `timeout`, `incomplete quantifiers`,
    /// …); `candidate` is the execution it was looking at, which may not be real.
    /// `possible_failure`: see [`super::Undecided::possible_failure`].
    Undecided { site: CheckSite, reason: String, candidate: Option<FailingTest>, possible_failure: bool },
    /// The axioms (and the precondition, when `precondition`) refute themselves
    /// ([`crate::smt::footing`]): by their triggers (`by_triggers`, so nothing is proved
    /// from them), or only by model-based instantiation (so proofs come from triggers
    /// alone). `axioms` are an unsat core's.
    /// `on_terms`: refuted only with the implementation's own terms, no core named.
    Contradictory { axioms: Vec<Span>, implementation: Span, precondition: bool, by_triggers: bool, on_terms: bool },
    /// The run's time limit was reached before the implementation's checks were asked.
    NotStarted { implementation: Span },
}

impl VerifyError {
    pub fn to_diagnostic(&self) -> Diagnostic {
        match self {
            VerifyError::Fails { site, test } => failure_diagnostic(Severity::Error, site, test, "failing test"),
            VerifyError::Undecided { site, reason, candidate, possible_failure } => {
                let subject = undecided_subject(site);
                // z3's model under `unknown` satisfies the ground constraints but maybe
                // not every quantified axiom: a lead, not a verdict; one replay could not
                // run is what Boogie reports as an error, a possible failure.
                let message = if *possible_failure {
                    format!("possibly fails: z3 gave up on whether {subject} ({reason}) with a counterexample replay did not confirm")
                } else {
                    format!("could not decide whether {subject}: {reason}")
                };
                let diagnostic = labelled(Diagnostic::warning(message), site, true);
                match candidate {
                    Some(test) => test
                        .notes("possible failing test (unconfirmed)")
                        .into_iter()
                        .fold(diagnostic, Diagnostic::with_note),
                    None => diagnostic,
                }
            }
            VerifyError::Contradictory { implementation, on_terms: true, .. } => Diagnostic::error(
                "the axioms contradict each other on the terms of this implementation: no check of it is proved from them",
            )
            .with_primary(*implementation, "this implementation")
            .with_note("E-matching refutes the axioms together with the terms this implementation applies, with no query asked; seedgen reports none of its checks as verified and none of its goals as unreachable"),
            VerifyError::NotStarted { implementation } => {
                Diagnostic::warning("not verified: the run's time limit was reached before this implementation was started")
                    .with_primary(*implementation, "none of its checks was asked")
                    .with_note("a larger `--time-limit` (or none) verifies it")
            }
            VerifyError::Contradictory { axioms, implementation, precondition, by_triggers, .. } => {
                contradiction_diagnostic(axioms, *implementation, *precondition, *by_triggers)
            }
        }
    }
}

/// A check that `test` fails, at `site`, its notes led by `lead` (`failing test`): a
/// failure `verify` found, and a test of a suite whose run violates a contract (a
/// finding of `prove-tests`, [`crate::report::findings`]), which `lead` names. One
/// rendering for both, so that a bug reads the same whichever command found it.
pub fn failure_diagnostic(severity: Severity, site: &CheckSite, test: &FailingTest, lead: &str) -> Diagnostic {
    let diagnostic = labelled(Diagnostic::new(severity, failure_message(site)), site, false);
    test.notes(lead).into_iter().fold(diagnostic, Diagnostic::with_note)
}

/// See [`VerifyError::Contradictory`].
fn contradiction_diagnostic(
    axioms: &[Span],
    implementation: Span,
    precondition: bool,
    by_triggers: bool,
) -> Diagnostic {
    let with = if precondition { " and this implementation's precondition" } else { "" };
    let mut diagnostic = if by_triggers {
        Diagnostic::error(format!("the axioms{with} contradict each other: no check is proved from them"))
    } else {
        Diagnostic::warning(format!(
            "the axioms{with} contradict each other under full instantiation, though not by their triggers"
        ))
    };
    for (index, span) in axioms.iter().enumerate() {
        diagnostic = match index {
            0 => diagnostic.with_primary(*span, "this axiom"),
            _ => diagnostic.with_secondary(*span, "with this axiom"),
        };
    }
    if precondition {
        diagnostic = if axioms.is_empty() {
            diagnostic.with_primary(implementation, "this implementation's precondition")
        } else {
            diagnostic.with_secondary(implementation, "and this implementation's precondition")
        };
    }
    if by_triggers {
        diagnostic
            .with_note("Boogie would verify every check here vacuously; seedgen reports none as verified and no goal as unreachable")
    } else {
        diagnostic.with_note(
            "a prelude written for trigger-based instantiation: seedgen proves a check only when E-matching on the triggers does, as Boogie does",
        )
    }
}

fn failure_message(site: &CheckSite) -> String {
    match site {
        CheckSite::Assertion { .. } => "assertion might not hold".to_string(),
        CheckSite::InvariantOnEntry { .. } => "loop invariant might not hold on entry".to_string(),
        CheckSite::InvariantMaintained { .. } => "loop invariant might not be maintained by the loop".to_string(),
        CheckSite::Precondition { callee, .. } => format!("precondition of `{callee}` might not hold at this call"),
        CheckSite::Postcondition { .. } => "postcondition might not hold".to_string(),
    }
}

fn undecided_subject(site: &CheckSite) -> String {
    match site {
        CheckSite::Assertion { .. } => "this assertion holds".to_string(),
        CheckSite::InvariantOnEntry { .. } => "this loop invariant holds on entry".to_string(),
        CheckSite::InvariantMaintained { .. } => "this loop invariant is maintained by the loop".to_string(),
        CheckSite::Precondition { callee, .. } => format!("the precondition of `{callee}` holds at this call"),
        CheckSite::Postcondition { .. } => "this postcondition holds".to_string(),
    }
}

/// The primary label at the check, secondary ones at the related places.
fn labelled(diagnostic: Diagnostic, site: &CheckSite, undecided: bool) -> Diagnostic {
    let verdict = |fails: &'static str, unknown: &'static str| if undecided { unknown } else { fails };
    match site {
        CheckSite::Assertion { span } => {
            diagnostic.with_primary(*span, verdict("this assertion can fail", "this assertion"))
        }
        CheckSite::InvariantOnEntry { invariant, loop_span } => {
            let primary = verdict("this invariant can be false when the loop is entered", "this invariant");
            with_loop(diagnostic.with_primary(*invariant, primary), *loop_span)
        }
        CheckSite::InvariantMaintained { invariant, loop_span } => {
            let primary = verdict("this invariant can be false after an iteration", "this invariant");
            with_loop(diagnostic.with_primary(*invariant, primary), *loop_span)
        }
        CheckSite::Precondition { call, clause, .. } => diagnostic
            .with_primary(*call, verdict("this call can violate the precondition", "this call"))
            .with_secondary(*clause, "the precondition"),
        CheckSite::Postcondition { clause, implementation } => diagnostic
            .with_primary(*clause, verdict("this postcondition can be false on return", "this postcondition"))
            .with_secondary(*implementation, "in this implementation"),
    }
}

fn with_loop(diagnostic: Diagnostic, loop_span: Option<Span>) -> Diagnostic {
    match loop_span {
        Some(span) => diagnostic.with_secondary(span, "the loop"),
        None => diagnostic,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FileId;

    fn span(start: usize, end: usize) -> Span {
        Span::new(FileId(0), start, end)
    }

    #[test]
    fn a_failure_is_an_error_at_the_check_with_its_test() {
        let test = FailingTest {
            inputs: vec![("a".to_string(), "-1".to_string()), ("x".to_string(), "0".to_string())],
            choices: vec!["havoc i = 3".to_string(), "goto L".to_string()],
            functions: Vec::new(),
            caveats: Vec::new(),
        };
        let site = CheckSite::Precondition { callee: "P".to_string(), call: span(10, 20), clause: span(1, 5) };
        let diagnostic = VerifyError::Fails { site, test }.to_diagnostic();
        assert_eq!(diagnostic.severity, Severity::Error);
        assert_eq!(diagnostic.message, "precondition of `P` might not hold at this call");
        assert_eq!(diagnostic.primary_span(), Some(span(10, 20)));
        assert_eq!(diagnostic.labels[1].span, span(1, 5));
        assert_eq!(diagnostic.notes, ["note: failing test: a = -1, x = 0", "note: choices: havoc i = 3; goto L"]);
    }

    #[test]
    fn an_undecided_check_is_a_warning() {
        let site = CheckSite::Assertion { span: span(3, 4) };
        let error =
            VerifyError::Undecided { site, reason: "timeout".to_string(), candidate: None, possible_failure: false };
        let diagnostic = error.to_diagnostic();
        assert_eq!(diagnostic.severity, Severity::Warning);
        assert_eq!(diagnostic.message, "could not decide whether this assertion holds: timeout");
        assert!(diagnostic.notes.is_empty());
    }

    #[test]
    fn a_candidate_replay_cannot_run_is_a_possible_failure() {
        let site = CheckSite::Postcondition { clause: span(0, 1), implementation: span(0, 9) };
        let test = FailingTest { inputs: vec![("x".to_string(), "5".to_string())], ..FailingTest::default() };
        let reason = "incomplete quantifiers".to_string();
        let error = VerifyError::Undecided { site, reason, candidate: Some(test), possible_failure: true };
        let diagnostic = error.to_diagnostic();
        assert_eq!(diagnostic.severity, Severity::Warning);
        assert_eq!(
            diagnostic.message,
            "possibly fails: z3 gave up on whether this postcondition holds (incomplete quantifiers) with a counterexample replay did not confirm"
        );
        assert_eq!(diagnostic.notes, ["note: possible failing test (unconfirmed): x = 5"]);
    }

    #[test]
    fn a_finding_is_a_failure_led_by_its_test_at_the_severity_asked() {
        let site = CheckSite::Assertion { span: span(3, 4) };
        let test = FailingTest { inputs: vec![("x".to_string(), "101".to_string())], ..FailingTest::default() };
        let diagnostic = failure_diagnostic(Severity::Warning, &site, &test, "failing test `Clamp/t1`");
        assert_eq!(diagnostic.severity, Severity::Warning);
        assert_eq!(diagnostic.message, "assertion might not hold");
        assert_eq!(diagnostic.notes, ["note: failing test `Clamp/t1`: x = 101"]);
    }

    #[test]
    fn a_test_without_inputs_says_so() {
        let site = CheckSite::Postcondition { clause: span(0, 1), implementation: span(0, 9) };
        let diagnostic = VerifyError::Fails { site, test: FailingTest::default() }.to_diagnostic();
        assert_eq!(diagnostic.notes, ["note: failing test: no inputs"]);
    }
}
