//! Solver trouble: per-check timeouts, the whole run's `--time-limit`, and
//! `unknown` answers end a run on time with an honest, partial result and exit status 3.

use crate::support::{goals, seedgen, status};
use serde_json::Value;
use std::time::{Duration, Instant};

const NONLINEAR: &str = "tests/solver/nonlinear.bpl";

/// Runs `prove-tests` on the non-linear program into a fresh directory: the exit code,
/// the JSON summary, the suite written and how long the run took. Never from the cache:
/// within a short timeout z3 sometimes does solve a hard goal (`9³ + 10³ = 12³ + 1`), and
/// a complete run, once cached, would answer every later one.
fn prove_nonlinear(flags: &[&str]) -> (Option<i32>, Value, Value, Duration) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let suite_path = dir.path().join("nonlinear.tests.json");
    let suite_arg = suite_path.to_str().expect("a UTF-8 path");
    let mut args = vec!["prove-tests", NONLINEAR, "-o", suite_arg, "--format", "json", "--no-cache"];
    args.extend_from_slice(flags);
    let start = Instant::now();
    let output = seedgen(&args);
    let elapsed = start.elapsed();
    let summary = serde_json::from_slice(&output.stdout).expect("a JSON summary");
    let suite = serde_json::from_str(&std::fs::read_to_string(&suite_path).expect("the suite is written"))
        .expect("the suite is JSON");
    (output.status.code(), summary, suite, elapsed)
}

#[test]
fn a_hard_program_under_a_time_limit_ends_on_time_with_a_partial_honest_suite() {
    // The per-check timeout alone would allow 10 s per check.
    let (code, summary, suite, elapsed) = prove_nonlinear(&["--time-limit", "1"]);
    assert_eq!(code, Some(3), "an incomplete run says so: {summary}");
    // One second of solving; the rest is start-up, a debug build and a loaded machine.
    assert!(elapsed < Duration::from_secs(15), "the run ended after {elapsed:?}");
    let totals = &summary["totals"];
    assert!(totals["undecided"].as_u64().unwrap() > 0, "{summary}");
    assert_eq!(totals["unreachable"], 0, "nothing is proved dead by a solver that gave up");
    let not_covered: Vec<&Value> = goals(&suite).into_iter().filter(|goal| status(goal) == "not_covered").collect();
    assert_eq!(not_covered.len() as u64, totals["not_covered"].as_u64().unwrap());
}

#[test]
fn a_short_per_check_timeout_leaves_the_hard_goals_undecided_and_covers_the_rest() {
    let (code, summary, _, _) = prove_nonlinear(&["--timeout-ms", "300"]);
    assert_eq!(code, Some(3), "{summary}");
    let totals = &summary["totals"];
    assert!(totals["covered"].as_u64().unwrap() >= 2, "the easy branches are still covered: {summary}");
    assert_eq!(totals["undecided"], totals["not_covered"], "{summary}");
}

#[test]
fn verify_does_not_claim_success_when_a_check_is_undecided() {
    let output = seedgen(&["verify", "tests/solver/fermat.bpl", "--timeout-ms", "500"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("could not decide whether this postcondition holds"), "{stderr}");
    assert!(stderr.contains("1 check undecided"), "{stderr}");
}

#[test]
fn bad_time_limits_are_usage_errors() {
    for limit in ["0", "-1", "soon", "1e30", "NaN"] {
        let output = seedgen(&["prove-tests", NONLINEAR, &format!("--time-limit={limit}")]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "--time-limit {limit}: {stderr}");
        assert!(stderr.contains("--time-limit"), "{stderr}");
    }
}
