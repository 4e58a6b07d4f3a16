//! Findings: a test whose run violates a contract (recorded `fail`) is said by
//! `prove-tests` as `verify` says a failure, at the clause, with the test's id and values
//! (a reviewed snapshot of `tests/findings/contracts.bpl`, one kind of check per
//! procedure), counted in the summary and in `--format json`, and fails the run under
//! `--fail-on-findings` (exit status 1, with `--check` too); `run-tests` says that a pass
//! reproduces the recorded failure, and fails a test whose failure is gone.

use crate::support::seedgen;
use serde_json::Value;
use std::path::Path;
use std::process::Output;

const PROGRAM: &str = "tests/findings/contracts.bpl";

/// How many tests of `PROGRAM`'s suite violate a contract: one per procedure but `Half`.
const FINDINGS: usize = 5;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn path(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 temporary path")
}

/// `prove-tests` on `program`, its suite written to `suite`, without the cache.
fn prove(program: &str, suite: &Path, flags: &[&str]) -> Output {
    let mut args = vec!["prove-tests", program, "--no-cache", "-o", path(suite)];
    args.extend_from_slice(flags);
    seedgen(&args)
}

/// `run-tests` of `suite` on `program`.
fn run_tests(program: &str, suite: &Path, format: &str) -> Output {
    seedgen(&["run-tests", "--quiet", program, path(suite), "--format", format])
}

/// The summary with its times (which vary) replaced by `N ms`.
fn without_times(summary: &str) -> String {
    regex::Regex::new(r"\d+ ms").expect("a valid pattern").replace_all(summary, "N ms").into_owned()
}

#[test]
fn each_test_violating_a_contract_is_a_finding_at_its_clause() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let output = prove(PROGRAM, &dir.path().join("suite.json"), &["--quiet"]);
    assert_eq!(output.status.code(), Some(0), "findings alone leave the exit status 0: {}", text(&output.stderr));
    let stderr = text(&output.stderr);
    assert_eq!(stderr.matches("warning: ").count(), FINDINGS, "{stderr}");
    insta::assert_snapshot!(format!("{stderr}--- summary ---\n{}", without_times(&text(&output.stdout))));
}

#[test]
fn fail_on_findings_makes_them_errors_and_fails_the_run_checked_or_not() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let suite = dir.path().join("suite.json");
    let output = prove(PROGRAM, &suite, &["--fail-on-findings", "--message-format", "short"]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    let errors: Vec<&str> = stderr.lines().filter(|line| line.contains(": error: ")).collect();
    assert_eq!(errors.len(), FINDINGS, "{stderr}");
    assert!(errors.contains(&"tests/findings/contracts.bpl:7:3: error: postcondition might not hold"), "{stderr}");
    assert!(
        stderr.contains(
            "seedgen: findings: 5 tests of the suite violate a contract (`--fail-on-findings`); exit status 1"
        ),
        "{stderr}"
    );
    assert!(suite.is_file(), "the suite is written all the same");
    let written = std::fs::read_to_string(&suite).expect("the suite");

    let check = ["--check", path(&suite)];
    let output = seedgen(&["prove-tests", PROGRAM, "--no-cache", "--fail-on-findings", check[0], check[1]]);
    assert_eq!(output.status.code(), Some(1), "an up-to-date suite with findings: {}", text(&output.stderr));
    assert!(text(&output.stdout).contains("is up to date"));
    let output = seedgen(&["prove-tests", PROGRAM, "--no-cache", check[0], check[1]]);
    assert_eq!(output.status.code(), Some(0), "without the gate: {}", text(&output.stderr));
    assert_eq!(text(&output.stderr).matches("warning: postcondition might not hold").count(), 2);
    assert_eq!(std::fs::read_to_string(&suite).expect("the suite"), written, "`--check` writes nothing");
}

#[test]
fn a_program_without_findings_passes_the_gate_and_says_none() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let output = prove("corpus/simple.bpl", &dir.path().join("suite.json"), &["--fail-on-findings"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(!text(&output.stdout).contains("finding"), "{}", text(&output.stdout));
    assert!(!text(&output.stderr).contains("finding"), "{}", text(&output.stderr));
}

#[test]
fn json_summary_and_json_diagnostics_carry_the_findings() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let output = prove(PROGRAM, &dir.path().join("suite.json"), &["--format", "json", "--message-format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let summary: Value = serde_json::from_slice(&output.stdout).expect("a JSON summary");
    assert_eq!(summary["totals"]["findings"], FINDINGS);
    let per_procedure: Vec<(&str, u64)> = summary["procedures"]
        .as_array()
        .expect("procedures")
        .iter()
        .map(|procedure| (procedure["name"].as_str().expect("a name"), procedure["findings"].as_u64().unwrap_or(0)))
        .collect();
    assert_eq!(
        per_procedure,
        [("Abs", 1), ("Half", 0), ("HalfOfLess", 1), ("Clamp", 1), ("Count", 1), ("AbsOfFive", 1)]
    );
    let findings = summary["findings"].as_array().expect("the findings listed");
    assert_eq!(findings.len(), FINDINGS);
    let abs = &findings[0];
    assert_eq!(abs["procedure"], "Abs");
    assert_eq!(abs["message"], "postcondition `y >= 0` of `Abs` violated");
    assert_eq!((abs["span"]["line"].as_u64(), abs["span"]["column"].as_u64()), (Some(7), Some(3)));
    let ids: Vec<&str> = findings.iter().map(|finding| finding["id"].as_str().expect("an id")).collect();

    let diagnostics: Vec<Value> = text(&output.stderr)
        .lines()
        .filter(|line| line.starts_with('{'))
        .map(|line| serde_json::from_str(line).expect("a JSON diagnostic"))
        .collect();
    assert_eq!(diagnostics.len(), FINDINGS);
    for (diagnostic, id) in diagnostics.iter().zip(&ids) {
        assert_eq!(diagnostic["severity"], "warning");
        let note = diagnostic["notes"][0].as_str().expect("a note");
        assert!(note.starts_with(&format!("note: failing test `{id}`: ")), "{note}");
    }
    assert_eq!(diagnostics[0]["notes"][0], format!("note: failing test `{}`: x = 5", ids[0]));
}

#[test]
fn a_cached_run_reports_the_findings_a_cold_one_does() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let cache = dir.path().join("cache");
    let suite = dir.path().join("suite.json");
    let args = ["prove-tests", PROGRAM, "-o", path(&suite), "--cache-dir", path(&cache), "--quiet"];
    let cold = seedgen(&args);
    let warm = seedgen(&args);
    assert_eq!(cold.status.code(), Some(0), "{}", text(&cold.stderr));
    assert_eq!(text(&warm.stderr), text(&cold.stderr));
    assert!(text(&warm.stdout).contains("(cached); 1 finding: a test violates a contract"), "{}", text(&warm.stdout));
}

#[test]
fn run_tests_says_which_passes_reproduce_their_recorded_failure() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let suite = dir.path().join("suite.json");
    assert_eq!(prove(PROGRAM, &suite, &["--quiet"]).status.code(), Some(0));

    let output = run_tests(PROGRAM, &suite, "human");
    assert_eq!(output.status.code(), Some(0), "reproducing a recorded failure is passing: {}", text(&output.stdout));
    let stdout = text(&output.stdout);
    let reproduced: Vec<&str> = stdout.lines().filter(|line| line.contains("reproduces")).collect();
    assert_eq!(reproduced.len(), FINDINGS, "{stdout}");
    assert!(reproduced.iter().all(|line| line.starts_with("PASS    ")), "{stdout}");
    assert!(
        reproduced[0].ends_with(
            " (reproduces the recorded failure: postcondition `y >= 0` of `Abs` violated at tests/findings/contracts.bpl:7:3)"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("tests: 11 passed (5 reproducing recorded failures), 0 failed, 0 invalid, 0 errors;"),
        "{stdout}"
    );

    let output = run_tests(PROGRAM, &suite, "json");
    let report: Value = serde_json::from_slice(&output.stdout).expect("a JSON report");
    assert_eq!(report["totals"]["reproduced"], FINDINGS);
    assert_eq!(report["totals"]["passed"], report["totals"]["tests"]);
    let reproducing = report["tests"].as_array().expect("tests").iter().filter(|test| test.get("reproduces").is_some());
    for test in reproducing {
        assert_eq!(test["result"], "pass");
        assert!(test["reproduces"]["message"].as_str().is_some_and(|message| message.contains(" violated")));
        assert!(test["reproduces"]["span"]["line"].is_u64(), "{test}");
    }

    let output = run_tests(PROGRAM, &suite, "junit");
    let xml = text(&output.stdout);
    assert_eq!(xml.matches("<system-out>reproduces the recorded failure: ").count(), FINDINGS, "{xml}");
    assert!(xml.contains("failures=\"0\" errors=\"0\""), "{xml}");
}

#[test]
fn a_recorded_failure_that_no_longer_happens_is_a_failing_test_and_no_finding() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let suite = dir.path().join("suite.json");
    assert_eq!(prove(PROGRAM, &suite, &["--quiet"]).status.code(), Some(0));
    let original = std::fs::read_to_string(PROGRAM).expect("the program");
    assert!(original.contains("y := -1;"));
    let fixed = dir.path().join("fixed.bpl");
    std::fs::write(&fixed, original.replace("y := -1;", "y := 1;")).expect("writable");

    // `Abs`'s test and `AbsOfFive`'s, whose run calls `Abs(5)`.
    let output = run_tests(path(&fixed), &suite, "human");
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    let failed: Vec<&str> = stdout.lines().filter(|line| line.starts_with("FAIL")).collect();
    assert_eq!(failed.len(), 2, "{stdout}");
    assert!(
        failed.iter().all(|line| line.ends_with(
            ": expected fail (postcondition `y >= 0` of `Abs` violated), but the procedure returned normally"
        )),
        "{stdout}"
    );
    assert!(stdout.contains("tests: 9 passed (3 reproducing recorded failures), 2 failed,"), "{stdout}");

    // Regenerated from that suite, those two are regressions, not findings.
    let again = dir.path().join("again.json");
    let output = seedgen(&["prove-tests", path(&fixed), "--existing", path(&suite), "-o", path(&again)]);
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert_eq!(output.status.code(), Some(1), "regressions: {stderr}");
    assert!(stdout.contains("2 regressions: tests of the existing suite that no longer pass"), "{stdout}");
    assert!(stdout.contains("; 3 findings: tests violate contracts\n"), "{stdout}");
    assert_eq!(stderr.matches("warning: ").count(), 3, "{stderr}");
}
