//! `seedgen run-tests`: every corpus suite replays with all tests passing and exactly
//! the coverage `prove-tests` reported; a changed operator makes the old suite fail,
//! naming the test, the output and the place; broken suites are input errors (exit 2).

use crate::support::{bpl_files, covered_goals, display_name, replayed_goals, seedgen};
use serde_json::Value;
use std::path::Path;

fn prove_to(path: &str, suite: &Path) {
    let suite_arg = suite.to_str().expect("UTF-8 temp path");
    let output = seedgen(&["prove-tests", "--quiet", path, "-o", suite_arg]);
    assert_eq!(output.status.code(), Some(0), "{path}: {}", String::from_utf8_lossy(&output.stderr));
}

fn run_tests(program: &str, suite: &Path, format: &str) -> std::process::Output {
    seedgen(&["run-tests", "--quiet", program, suite.to_str().expect("UTF-8"), "--format", format])
}

#[test]
fn every_corpus_suite_passes_with_the_coverage_prove_tests_reported() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for path in bpl_files("corpus") {
        let name = display_name(&path);
        let suite = dir.path().join("suite.json");
        prove_to(&name, &suite);
        let output = run_tests(&name, &suite, "json");
        assert_eq!(output.status.code(), Some(0), "{name}: {}", String::from_utf8_lossy(&output.stdout));
        let report: Value = serde_json::from_slice(&output.stdout).expect("JSON report");
        let written: Value = serde_json::from_str(&std::fs::read_to_string(&suite).expect("suite")).expect("JSON");
        assert_eq!(
            replayed_goals(&report),
            covered_goals(&written),
            "{name}: coverage by replay equals the reported coverage"
        );
    }
}

#[test]
fn a_changed_operator_fails_the_old_suite_naming_test_output_and_place() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let suite = dir.path().join("suite.json");
    prove_to("corpus/linear_search.bpl", &suite);
    let original = std::fs::read_to_string("corpus/linear_search.bpl").expect("corpus");
    assert!(original.contains("while (i < n)"));
    let mutated = dir.path().join("linear_search.bpl");
    std::fs::write(&mutated, original.replace("while (i < n)", "while (i <= n)")).expect("writable");
    let output = run_tests(mutated.to_str().expect("UTF-8"), &suite, "human");
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let failure = stdout.lines().find(|line| line.starts_with("FAIL")).expect("a failing test");
    assert!(failure.contains("LinearSearch/t"), "{failure}");
    assert!(failure.contains("linear_search.bpl:"), "the place: {failure}");
}

fn broken_suite(dir: &Path, edit: impl Fn(&mut Value)) -> std::path::PathBuf {
    let suite = dir.join("suite.json");
    prove_to("corpus/nondet.bpl", &suite);
    let mut json: Value = serde_json::from_str(&std::fs::read_to_string(&suite).expect("suite")).expect("JSON");
    edit(&mut json);
    let broken = dir.join("broken.json");
    std::fs::write(&broken, serde_json::to_string_pretty(&json).expect("JSON")).expect("writable");
    broken
}

#[test]
fn a_bad_trace_or_a_bad_input_is_an_input_error() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let walk = |json: &mut Value| -> usize {
        json["procedures"].as_array().expect("procedures").iter().position(|p| p["name"] == "RandomWalk").expect("walk")
    };
    let bad_trace = broken_suite(dir.path(), |json| {
        let index = walk(json);
        json["procedures"][index]["tests"][0]["trace"] = serde_json::json!([{"goto": {"target": "nowhere"}}]);
    });
    let output = run_tests("corpus/nondet.bpl", &bad_trace, "human");
    assert_eq!(output.status.code(), Some(2));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("ERROR") && stdout.contains("nowhere"), "{stdout}");

    let bad_value = broken_suite(dir.path(), |json| {
        let index = walk(json);
        json["procedures"][index]["tests"][0]["inputs"]["params"][0]["value"] =
            serde_json::json!({"type": "Nope", "elem": 0});
    });
    let output = run_tests("corpus/nondet.bpl", &bad_value, "human");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("no type `Nope`"));

    let not_json = dir.path().join("garbage.json");
    std::fs::write(&not_json, "{ nope").expect("writable");
    let output = run_tests("corpus/nondet.bpl", &not_json, "human");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("not a suite file"));
}

#[test]
fn junit_and_lcov_parse_back() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let suite = dir.path().join("suite.json");
    prove_to("corpus/simple.bpl", &suite);
    let output = run_tests("corpus/simple.bpl", &suite, "junit");
    assert_eq!(output.status.code(), Some(0));
    let xml = String::from_utf8_lossy(&output.stdout);
    assert!(xml.starts_with("<?xml"));
    assert_eq!(xml.matches("<testcase ").count(), 2, "{xml}");
    assert_eq!(xml.matches("<testsuite ").count(), xml.matches("</testsuite>").count());
    let lcov = dir.path().join("lcov.info");
    let output = seedgen(&[
        "run-tests",
        "--quiet",
        "corpus/simple.bpl",
        suite.to_str().expect("UTF-8"),
        "--lcov",
        lcov.to_str().expect("UTF-8"),
    ]);
    assert_eq!(output.status.code(), Some(0));
    let info = std::fs::read_to_string(&lcov).expect("written");
    assert!(info.starts_with("TN:\nSF:corpus/simple.bpl\n"), "{info}");
    let records: Vec<&str> = info.lines().filter(|line| line.starts_with("BRDA:")).collect();
    assert_eq!(records.len(), 4);
    assert!(records.iter().all(|record| record.ends_with(",1")), "every goal taken: {info}");
    assert!(info.trim_end().ends_with("end_of_record"));
}
