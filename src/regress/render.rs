//! Renderings of a [`SuiteRun`]: human (one line per test, then totals and coverage),
//! JSON (one document), JUnit XML (what CI systems display) and LCOV (what editors'
//! coverage gutters and coverage services read). Positions are `file:line:column`.

use super::{Reproduced, SuiteRun, TestResult, Verdict};
use crate::cfg::Cfg;
use crate::diag::Diagnostic;
use crate::source::{SourceDb, Span};
use serde_json::json;
use std::collections::BTreeMap;
use std::fmt::Write;

fn at(db: &SourceDb, span: Option<Span>) -> String {
    match span {
        Some(span) => {
            let position = db.line_col(span);
            format!(" at {}:{}:{}", db.name(span.file), position.line, position.column)
        }
        None => String::new(),
    }
}

pub fn label(verdict: &Verdict) -> &'static str {
    match verdict {
        Verdict::Pass => "pass",
        Verdict::Fail { .. } => "fail",
        Verdict::Invalid { .. } => "invalid",
        Verdict::Error { .. } => "error",
    }
}

pub fn details(verdict: &Verdict) -> Option<(&str, Option<Span>)> {
    match verdict {
        Verdict::Pass => None,
        Verdict::Fail { message, span } | Verdict::Invalid { message, span } | Verdict::Error { message, span } => {
            Some((message, *span))
        }
    }
}

/// `PASS    Simple/t1` or `FAIL    Simple/t2: output `r`: expected 1, got 2 at f.bpl:3:1`;
/// a pass that reproduces its recorded failure says so: `PASS    Abs/t3 (reproduces the
/// recorded failure: postcondition `y >= 0` of `Abs` violated at abs.bpl:2:3)`.
pub fn result_line(db: &SourceDb, result: &TestResult) -> String {
    let tag = label(&result.verdict).to_uppercase();
    match (details(&result.verdict), &result.reproduced) {
        (None, None) => format!("{tag:<7} {}", result.id),
        (None, Some(reproduced)) => format!("{tag:<7} {} ({})", result.id, reproduction(db, reproduced)),
        (Some((message, span)), _) => format!("{tag:<7} {}: {message}{}", result.id, at(db, span)),
    }
}

/// `reproduces the recorded failure: postcondition `y >= 0` of `Abs` violated at
/// abs.bpl:2:3`.
fn reproduction(db: &SourceDb, reproduced: &Reproduced) -> String {
    format!("reproduces the recorded failure: {}{}", reproduced.message, at(db, Some(reproduced.span)))
}

/// `3 passed`, or `3 passed (1 reproducing a recorded failure)`.
fn passed(run: &SuiteRun) -> String {
    let passed = run.count(|verdict| matches!(verdict, Verdict::Pass));
    match run.reproduced() {
        0 => format!("{passed} passed"),
        1 => format!("{passed} passed (1 reproducing a recorded failure)"),
        many => format!("{passed} passed ({many} reproducing recorded failures)"),
    }
}

/// `PASS Simple/t1`, `FAIL Simple/t2: output `r`: expected 1, got 2 at f.bpl:3:1`, then
/// the totals and the goal coverage.
pub fn human(db: &SourceDb, run: &SuiteRun) -> String {
    let mut out = String::new();
    for result in &run.results {
        writeln!(out, "{}", result_line(db, result)).expect("writing to a string");
    }
    let (covered, total) = goal_totals(run);
    writeln!(
        out,
        "{} tests: {}, {} failed, {} invalid, {} errors; {covered} of {total} goals covered",
        run.results.len(),
        passed(run),
        run.count(|verdict| matches!(verdict, Verdict::Fail { .. })),
        run.count(|verdict| matches!(verdict, Verdict::Invalid { .. })),
        run.count(|verdict| matches!(verdict, Verdict::Error { .. })),
    )
    .expect("writing to a string");
    out
}

fn goal_totals(run: &SuiteRun) -> (usize, usize) {
    let goals = run.goals.iter().flat_map(|(_, goals)| goals);
    let total = goals.clone().count();
    (goals.filter(|goal| goal.covered).count(), total)
}

/// Warnings at the spans of the goals no test entered.
pub fn uncovered_goals(run: &SuiteRun) -> Vec<Diagnostic> {
    run.goals
        .iter()
        .flat_map(|(_, goals)| goals)
        .filter(|goal| !goal.covered)
        .map(|goal| {
            Diagnostic::warning(format!("goal `{}` is not covered by the suite", goal.goal.id))
                .with_primary(goal.goal.span, "no test enters this branch")
        })
        .collect()
}

/// One JSON document: tests, totals, goals.
pub fn json(db: &SourceDb, run: &SuiteRun) -> String {
    let tests: Vec<serde_json::Value> = run
        .results
        .iter()
        .map(|result| {
            let mut test = json!({
                "id": result.id,
                "procedure": result.procedure,
                "result": label(&result.verdict),
            });
            if let Some((message, span)) = details(&result.verdict) {
                test["message"] = json!(message);
                if let Some(span) = span {
                    test["span"] = serde_json::to_value(crate::suite::position(db, span)).expect("positions serialize");
                }
            }
            if let Some(reproduced) = &result.reproduced {
                let span = crate::suite::position(db, reproduced.span);
                test["reproduces"] = json!({ "message": reproduced.message, "span": span });
            }
            test
        })
        .collect();
    let goals: Vec<serde_json::Value> = run
        .goals
        .iter()
        .flat_map(|(_, goals)| goals)
        .map(|goal| json!({ "id": goal.goal.id.0, "covered": goal.covered }))
        .collect();
    let (covered, total) = goal_totals(run);
    let document = json!({
        "tests": tests,
        "totals": {
            "tests": run.results.len(),
            "passed": run.count(|verdict| matches!(verdict, Verdict::Pass)),
            "reproduced": run.reproduced(),
            "failed": run.count(|verdict| matches!(verdict, Verdict::Fail { .. })),
            "invalid": run.count(|verdict| matches!(verdict, Verdict::Invalid { .. })),
            "errors": run.count(|verdict| matches!(verdict, Verdict::Error { .. })),
            "goals": total,
            "covered": covered,
        },
        "goals": goals,
    });
    let mut text = serde_json::to_string_pretty(&document).expect("JSON");
    text.push('\n');
    text
}

fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// JUnit XML: one `testsuite` per procedure, one `testcase` per test; a failed or
/// invalid test has a `<failure>`, a test that could not run an `<error>`.
pub fn junit(db: &SourceDb, run: &SuiteRun, suite_name: &str) -> String {
    let mut by_procedure: BTreeMap<&str, Vec<&super::TestResult>> = BTreeMap::new();
    for result in &run.results {
        by_procedure.entry(&result.procedure).or_default().push(result);
    }
    let failures = |results: &[&super::TestResult]| {
        results.iter().filter(|result| matches!(result.verdict, Verdict::Fail { .. } | Verdict::Invalid { .. })).count()
    };
    let errors = |results: &[&super::TestResult]| {
        results.iter().filter(|result| matches!(result.verdict, Verdict::Error { .. })).count()
    };
    let all: Vec<&super::TestResult> = run.results.iter().collect();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    writeln!(
        out,
        "<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\">",
        xml_escape(suite_name),
        all.len(),
        failures(&all),
        errors(&all)
    )
    .expect("writing to a string");
    for (procedure, results) in &by_procedure {
        let time: f64 = results.iter().map(|result| result.time.as_secs_f64()).sum();
        writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" time=\"{time:.3}\">",
            xml_escape(procedure),
            results.len(),
            failures(results),
            errors(results)
        )
        .expect("writing to a string");
        for result in results {
            write!(
                out,
                "    <testcase name=\"{}\" classname=\"{}\" time=\"{:.3}\"",
                xml_escape(&result.id),
                xml_escape(procedure),
                result.time.as_secs_f64()
            )
            .expect("writing to a string");
            match details(&result.verdict) {
                // A pass reproducing its recorded failure is still a pass; CI systems
                // show a test case's output beside it.
                None => match &result.reproduced {
                    None => out.push_str("/>\n"),
                    Some(reproduced) => writeln!(
                        out,
                        ">\n      <system-out>{}</system-out>\n    </testcase>",
                        xml_escape(&reproduction(db, reproduced))
                    )
                    .expect("writing to a string"),
                },
                Some((message, span)) => {
                    let element = if matches!(result.verdict, Verdict::Error { .. }) { "error" } else { "failure" };
                    let text = format!("{message}{}", at(db, span));
                    writeln!(
                        out,
                        ">\n      <{element} type=\"{}\" message=\"{}\">{}</{element}>\n    </testcase>",
                        label(&result.verdict),
                        xml_escape(&text),
                        xml_escape(&text)
                    )
                    .expect("writing to a string");
                }
            }
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

/// LCOV: per source file, `DA:<line>,<hits>` for the first line of every command and
/// branch start of every implementation (hits: whether some run executed its block),
/// and `BRDA` for every goal.
pub fn lcov(db: &SourceDb, run: &SuiteRun, cfgs: &[Cfg]) -> String {
    let mut lines: BTreeMap<(String, usize), u64> = BTreeMap::new();
    for cfg in cfgs {
        let entered = run.coverage.blocks.get(&cfg.implementation);
        for (id, block) in cfg.block_ids().zip(&cfg.blocks) {
            let hit = u64::from(entered.is_some_and(|blocks| blocks.contains(&id)));
            for span in block.cmds.iter().map(|cmd| cmd.span) {
                let key = (db.name(span.file).to_string(), db.line_col(span).line);
                let entry = lines.entry(key).or_default();
                *entry = (*entry).max(hit);
            }
        }
    }
    let mut files: BTreeMap<String, String> = BTreeMap::new();
    for ((file, line), hits) in &lines {
        writeln!(files.entry(file.clone()).or_default(), "DA:{line},{hits}").expect("writing to a string");
    }
    for (block, goals) in run.goals.iter().enumerate() {
        for (branch, goal) in goals.1.iter().enumerate() {
            let span = goal.goal.span;
            let line = db.line_col(span).line;
            let taken = if goal.covered { "1" } else { "0" };
            writeln!(files.entry(db.name(span.file).to_string()).or_default(), "BRDA:{line},{block},{branch},{taken}")
                .expect("writing to a string");
        }
    }
    let mut out = String::new();
    for (file, records) in files {
        let found = records.lines().filter(|line| line.starts_with("DA:")).count();
        let hit = records.lines().filter(|line| line.starts_with("DA:") && !line.ends_with(",0")).count();
        let branches = records.lines().filter(|line| line.starts_with("BRDA:")).count();
        let taken = records.lines().filter(|line| line.starts_with("BRDA:") && line.ends_with(",1")).count();
        write!(out, "TN:\nSF:{file}\n{records}LF:{found}\nLH:{hit}\nBRF:{branches}\nBRH:{taken}\nend_of_record\n")
            .expect("writing to a string");
    }
    out
}
