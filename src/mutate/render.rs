//! Renderings of a mutation [`Report`]: human (one line per mutant the suite did not
//! kill, at its span, then the totals and the score) and JSON (one document with every
//! mutant). Positions are `file:line:column`, 1-based, columns in characters.
//!
//! The JSON document: `file`, `tests` (the suite's size), `max_steps` (each run's
//! budget), `mutants` (in source order: `id` (`P/m3`), `operator` key, `name`, `span` {`line`,
//! `column`, `end_line`, `end_column`}, `original`, `replacement`, `status` — `killed`,
//! `equivalent`, `survived`, `timeout`, `error` or `ill-typed` — and, where there is one, the `test`
//! that decided it and a `message`), and `totals` (`mutants` that type-check, `killed`,
//! `equivalent`, `survived`, `timeout`, `error`, `ill_typed`, and `score`, killed /
//! (mutants − equivalent − timeouts), `null` when nothing counts).

use super::{MutantRun, Report, Status};
use crate::regress::Verdict;
use crate::source::SourceDb;
use serde_json::json;
use std::fmt::Write;

/// One line per mutant that survived, timed out or could not run (ill-typed ones are
/// only counted), then the totals and the score.
pub fn human(db: &SourceDb, report: &Report) -> String {
    let mut out = String::new();
    for run in
        report.mutants.iter().filter(|run| !matches!(run.status, Status::Killed { .. } | Status::IllTyped { .. }))
    {
        let position = db.line_col(run.mutant.span);
        let mutant = &run.mutant;
        write!(
            out,
            "{}:{}:{}: {}: {}: `{}` → `{}`",
            db.name(mutant.span.file),
            position.line,
            position.column,
            run.status.label(),
            mutant.operator.name(),
            mutant.original,
            mutant.replacement
        )
        .expect("writing to a string");
        match &run.status {
            Status::Timeout { test, message } => write!(out, " (test {test}: {message})"),
            Status::Error { test: Some(test), message } => write!(out, " (test {test} cannot run: {message})"),
            Status::Error { test: None, message } => write!(out, " ({message})"),
            Status::Survived { tried } if !tried.is_empty() => write!(out, " (tried: {tried})"),
            _ => Ok(()),
        }
        .expect("writing to a string");
        out.push('\n');
    }
    let totals = report.totals();
    writeln!(
        out,
        "{}, {}: {} killed, {} equivalent, {} survived, {} timed out, {} could not run; {} skipped",
        plural(totals.mutants, "mutant"),
        plural(report.tests, "test"),
        totals.killed,
        totals.equivalent,
        totals.survived,
        totals.timeout,
        totals.error,
        plural(totals.ill_typed, "ill-typed mutant")
    )
    .expect("writing to a string");
    let score = match totals.score() {
        Some(score) => format!("{:.1}%", score * 100.0),
        None => "n/a".to_string(),
    };
    writeln!(
        out,
        "mutation score {score}: {} killed of {} mutants (equivalent ones and timeouts left out; each run within {} steps)",
        totals.killed,
        totals.mutants - totals.equivalent - totals.timeout,
        report.max_steps
    )
    .expect("writing to a string");
    out
}

fn plural(count: usize, noun: &str) -> String {
    match count {
        1 => format!("1 {noun}"),
        _ => format!("{count} {noun}s"),
    }
}

/// The test that decided a status and what it says, if any.
fn decided_by(status: &Status) -> (Option<&str>, Option<String>) {
    match status {
        Status::Killed { test, verdict } => {
            let message = match verdict {
                Verdict::Pass => None,
                Verdict::Fail { message, .. } => Some(format!("fail: {message}")),
                Verdict::Invalid { message, .. } => Some(format!("invalid: {message}")),
                Verdict::Error { message, .. } => Some(format!("error: {message}")),
            };
            (Some(test), message)
        }
        Status::Timeout { test, message } => (Some(test), Some(message.clone())),
        Status::Error { test, message } => (test.as_deref(), Some(message.clone())),
        Status::IllTyped { message } => (None, Some(message.clone())),
        Status::Survived { tried } => (None, (!tried.is_empty()).then(|| format!("tried: {tried}"))),
        Status::Equivalent { proof } => (None, Some(proof.message().to_string())),
    }
}

fn mutant_json(db: &SourceDb, run: &MutantRun) -> serde_json::Value {
    let mutant = &run.mutant;
    let mut value = json!({
        "id": run.id,
        "operator": mutant.operator.key(),
        "name": mutant.operator.name(),
        "span": crate::suite::position(db, mutant.span),
        "original": mutant.original,
        "replacement": mutant.replacement,
        "status": run.status.label(),
    });
    let (test, message) = decided_by(&run.status);
    if let Some(test) = test {
        value["test"] = json!(test);
    }
    if let Some(message) = message {
        value["message"] = json!(message);
    }
    value
}

/// One JSON document (see the module documentation), with a final newline.
pub fn json(db: &SourceDb, file: &str, report: &Report) -> String {
    let totals = report.totals();
    let document = json!({
        "file": file,
        "tests": report.tests,
        "max_steps": report.max_steps,
        "mutants": report.mutants.iter().map(|run| mutant_json(db, run)).collect::<Vec<_>>(),
        "totals": {
            "mutants": totals.mutants,
            "killed": totals.killed,
            "equivalent": totals.equivalent,
            "survived": totals.survived,
            "timeout": totals.timeout,
            "error": totals.error,
            "ill_typed": totals.ill_typed,
            "score": totals.score(),
        },
    });
    format!("{}\n", serde_json::to_string_pretty(&document).expect("JSON values serialize"))
}
