//! `seedgen verify FILE`: every check of each implementation in one session, failures as
//! diagnostics with their failing tests, undecided checks said (exit 3).

use super::{emit_all, incomplete_if, load_and_lower, plural, Lowered, Outcome, Streams};
use crate::config::{OutputConfig, SummaryFormat, VerifyConfig};
use crate::sema::hir;
use crate::source::{SourceDb, Span};
use crate::verify::{self, CheckSite, FailingTest, ImplementationVerdict, VerifyError};
use serde_json::{json, Value};
use std::io;
use std::time::Instant;

/// `seedgen verify FILE`: every contract and assertion proved, or a failure with its
/// failing test at the failing clause.
pub fn run_verify(config: &VerifyConfig, output: &OutputConfig, streams: &mut Streams) -> io::Result<Outcome> {
    // `--time-limit` counts from the run's start: reading, monomorphizing and lowering
    // a large front-end file take part of it.
    let started = Instant::now();
    let Lowered { db, program, cfgs, .. } =
        match load_and_lower(&config.file, config.language, config.solver.deadline(started), output, streams)? {
            Ok(lowered) => lowered,
            Err(outcome) => return Ok(outcome),
        };
    let options = config.solver.session_options(started);
    let verdicts = verify::verify(&program, &cfgs, &options, verify::Confirmation::Search);
    let diagnostics = verify::diagnostics(&verdicts);
    emit_all(&db, output, streams, &diagnostics)?;
    let failures: usize = verdicts.iter().map(verify::ImplementationVerdict::failures).sum();
    let vacuous = verdicts.iter().any(verify::ImplementationVerdict::is_vacuous);
    let undecided: usize = verdicts.iter().map(verify::ImplementationVerdict::undecided).sum();
    let possible: usize = verdicts.iter().map(verify::ImplementationVerdict::possible_failures).sum();
    let not_started = verdicts.iter().filter(|verdict| verdict.not_started()).count();
    if config.format == SummaryFormat::Json {
        let report = report_json(&db, &program, &verdicts);
        writeln!(streams.out, "{}", serde_json::to_string_pretty(&report).expect("JSON values serialize"))?;
    } else if output.message_format == crate::diag::MessageFormat::Human && !output.quiet {
        let verified = verdicts.iter().filter(|verdict| verdict.is_verified()).count();
        let mut found = if failures == 0 { "no failures".to_string() } else { plural(failures, "failure") };
        if undecided > 0 {
            found.push_str(&format!(", {} undecided", plural(undecided, "check")));
        }
        if possible > 0 {
            found
                .push_str(&format!(" ({possible} of them possible failures: a counterexample replay did not confirm)"));
        }
        if vacuous {
            found.push_str(", axioms that contradict each other");
        }
        if not_started > 0 {
            let what = plural(not_started, "implementation");
            found.push_str(&format!(", {what} not started before the time limit"));
        }
        writeln!(streams.err, "verified {verified} of {}: {found}", plural(verdicts.len(), "implementation"))?;
    }
    if failures > 0 || vacuous {
        return Ok(Outcome::ProgramErrors);
    }
    // "No failures" is not "verified" while a check is undecided or an implementation
    // was not verified at all.
    if undecided == 0 && not_started > 0 {
        return incomplete_if(not_started, "implementation", output, streams);
    }
    incomplete_if(undecided, "check", output, streams)
}

/// `--format json`: each implementation's verdict with the checks that did not verify,
/// where they are (one-based lines and columns, as diagnostics give them) and the test
/// that makes each fail; then the totals the summary line gives.
fn report_json(db: &SourceDb, program: &hir::Program, verdicts: &[ImplementationVerdict]) -> Value {
    let implementations: Vec<Value> =
        verdicts.iter().map(|verdict| implementation_json(db, program, verdict)).collect();
    let count = |measure: fn(&ImplementationVerdict) -> usize| verdicts.iter().map(measure).sum::<usize>();
    json!({
        "implementations": implementations,
        "totals": {
            "implementations": verdicts.len(),
            "verified": verdicts.iter().filter(|verdict| verdict.is_verified()).count(),
            "failures": count(ImplementationVerdict::failures),
            "undecided": count(ImplementationVerdict::undecided),
            "possible_failures": count(ImplementationVerdict::possible_failures),
            "vacuous": verdicts.iter().filter(|verdict| verdict.is_vacuous()).count(),
            "not_started": verdicts.iter().filter(|verdict| verdict.not_started()).count(),
        },
    })
}

fn implementation_json(db: &SourceDb, program: &hir::Program, verdict: &ImplementationVerdict) -> Value {
    let verdict_name = if verdict.is_vacuous() {
        "vacuous"
    } else if verdict.not_started() {
        "not started"
    } else if verdict.is_verified() {
        "verified"
    } else if verdict.failures() > 0 {
        "failed"
    } else {
        "undecided"
    };
    let mut failures = Vec::new();
    let mut undecided = Vec::new();
    let mut contradiction = Value::Null;
    for error in verdict.errors() {
        match &error {
            VerifyError::Fails { site, test } => failures.push(check_json(db, site, Some(test))),
            VerifyError::Undecided { site, reason, candidate, possible_failure } => {
                let mut check = check_json(db, site, candidate.as_ref());
                check["reason"] = json!(reason);
                check["possible_failure"] = json!(possible_failure);
                undecided.push(check);
            }
            VerifyError::NotStarted { .. } => {}
            VerifyError::Contradictory { axioms, by_triggers, .. } => {
                let axioms: Vec<Value> = axioms.iter().map(|axiom| position(db, *axiom)).collect();
                contradiction = json!({ "by_triggers": by_triggers, "axioms": axioms });
            }
        }
    }
    let span = program.implementations[verdict.implementation.index()].span;
    json!({
        "name": verdict.name,
        "line": db.line_col(span).line,
        "verdict": verdict_name,
        "failures": failures,
        "undecided": undecided,
        "contradiction": contradiction,
    })
}

/// One check: its kind, where it is reported (the clause; for a callee's precondition,
/// the call, with the clause beside it) and the test: inputs as `name = value`, the
/// choices along its path, the function tables, and why it may not be a real run.
fn check_json(db: &SourceDb, site: &CheckSite, test: Option<&FailingTest>) -> Value {
    let (kind, at, clause) = match site {
        CheckSite::Assertion { span } => ("assertion", *span, None),
        CheckSite::InvariantOnEntry { invariant, .. } => ("invariant on entry", *invariant, None),
        CheckSite::InvariantMaintained { invariant, .. } => ("invariant maintained", *invariant, None),
        CheckSite::Precondition { call, clause, .. } => ("precondition", *call, Some(*clause)),
        CheckSite::Postcondition { clause, .. } => ("postcondition", *clause, None),
    };
    let mut check = position(db, at);
    check["kind"] = json!(kind);
    if let Some(clause) = clause {
        check["clause"] = position(db, clause);
    }
    if let Some(test) = test {
        check["test"] = json!({
            "inputs": test.inputs.iter().map(|(name, value)| format!("{name} = {value}")).collect::<Vec<_>>(),
            "choices": test.choices,
            "functions": test.functions,
            "caveats": test.caveats,
        });
    }
    check
}

fn position(db: &SourceDb, span: Span) -> Value {
    let at = db.line_col(span);
    json!({ "line": at.line, "column": at.column })
}
