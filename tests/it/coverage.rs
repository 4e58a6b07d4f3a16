//! Coverage on programs seedgen was not tuned on, and the coverage gate
//! (`prove-tests --require-coverage`) CI runs it under.

use crate::support::seedgen;
use std::path::Path;

/// A loop whose goal after it needs 20 iterations (`0 + 1 + … + 19 = 190`): beyond every
/// exact retry under `--unroll 2 --max-unroll 2 --no-search`, so it stays not covered.
const DEEP: &str = "procedure Sum(n: int) returns (s: int)
{
  var i: int;
  i := 0;
  s := 0;
  while (i < n) invariant 0 <= i; { s := s + i; i := i + 1; }
  if (s == 190) { s := -1; }
}
";

const SHALLOW: &[&str] = &["--unroll", "2", "--max-unroll", "2", "--no-search", "--no-cache", "--quiet"];

/// `prove-tests` on `program` (written into `dir`) with `flags`: the exit code and stderr.
fn prove(dir: &Path, program: &str, flags: &[&str]) -> (Option<i32>, String) {
    let file = dir.join("program.bpl");
    std::fs::write(&file, program).expect("a writable temporary directory");
    let mut args = vec!["prove-tests", file.to_str().expect("a UTF-8 path")];
    args.extend_from_slice(flags);
    let output = seedgen(&args);
    (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn the_gate_fails_on_a_goal_not_covered_and_lists_it_with_its_place_and_reason() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (code, stderr) = prove(dir.path(), DEEP, SHALLOW);
    assert_eq!(code, Some(0), "without the gate a goal not covered is a warning: {stderr}");
    let gated: Vec<&str> = SHALLOW.iter().copied().chain(["--require-coverage"]).collect();
    let (code, stderr) = prove(dir.path(), DEEP, &gated);
    assert_eq!(code, Some(4), "{stderr}");
    assert!(stderr.contains("seedgen: coverage: 1 goal neither covered nor proved unreachable"), "{stderr}");
    let listed = stderr.lines().find(|line| line.contains(": Sum/if#1/then: ")).expect("the goal is listed");
    assert!(listed.contains("program.bpl:7:3: Sum/if#1/then: needs more than"), "{listed}");
    // The suite is written all the same; `--check` of it fails the gate too.
    let suite = dir.path().join("program.tests.json");
    assert!(suite.is_file());
    let checked: Vec<&str> = gated.iter().copied().chain(["--check", suite.to_str().expect("UTF-8")]).collect();
    let (code, stderr) = prove(dir.path(), DEEP, &checked);
    assert_eq!(code, Some(4), "an up-to-date suite that leaves a goal not covered: {stderr}");
}

#[test]
fn the_gate_passes_when_every_goal_is_covered_or_proved_unreachable() {
    let output = seedgen(&["prove-tests", "corpus/unreachable.bpl", "--no-cache", "--quiet", "--require-coverage"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("seedgen: coverage"), "{stderr}");
}

#[test]
fn a_stale_suite_takes_precedence_over_the_gate() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let suite = dir.path().join("stale.tests.json");
    let flags: Vec<&str> = SHALLOW.iter().copied().chain(["-o", suite.to_str().expect("UTF-8")]).collect();
    assert_eq!(prove(dir.path(), DEEP, &flags).0, Some(0));
    let edited = DEEP.replace("s := -1;", "s := -2;");
    let check = ["--check", suite.to_str().expect("UTF-8"), "--require-coverage"];
    let gated: Vec<&str> = SHALLOW.iter().copied().chain(check).collect();
    let (code, stderr) = prove(dir.path(), &edited, &gated);
    assert_eq!(code, Some(1), "{stderr}");
}

#[test]
fn goals_the_solver_left_undecided_fail_the_gate_too() {
    let output = seedgen(&[
        "prove-tests",
        "tests/solver/nonlinear.bpl",
        "-o",
        tempfile::tempdir().expect("a temporary directory").path().join("s.json").to_str().expect("UTF-8"),
        "--no-cache",
        "--quiet",
        "--time-limit",
        "1",
        "--require-coverage",
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(4), "the gate comes before exit status 3: {stderr}");
    assert!(stderr.contains("time limit"), "each undecided goal is listed with its reason: {stderr}");
}

/// Forty procedures of the coverage benchmark's first shape: a branch after a loop cut by
/// its invariant, which a model through the cut reaches with values the loop does not
/// produce. Every goal is covered at default options (by the exact retries on
/// unrollings of 1, 2, 4, … iterations) and unrolled three times.
#[test]
fn a_branch_after_a_loop_is_covered_at_default_options_and_unrolled() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let program = seedgen::testgen::shapes::branch_after_loop(40);
    for flags in [&["--require-coverage"][..], &["--require-coverage", "--unroll", "3"]] {
        let all: Vec<&str> = ["--no-cache", "--quiet"].into_iter().chain(flags.iter().copied()).collect();
        let (code, stderr) = prove(dir.path(), &program, &all);
        assert_eq!(code, Some(0), "{flags:?}: {stderr}");
    }
}

/// Nested quantified contracts whose inner bound reads the map being filled
/// (`j * j <= a[i]`): every goal is covered, and every test's contracts are checked when
/// `run-tests` replays it (a contract the interpreter could not evaluate fails the run).
#[test]
fn contracts_with_data_dependent_quantifier_bounds_are_checked_and_every_goal_covered() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let suite = dir.path().join("primes.tests.json");
    let suite = suite.to_str().expect("UTF-8");
    for unroll in ["0", "2"] {
        let output = seedgen(&[
            "prove-tests",
            "corpus/primes.bpl",
            "-o",
            suite,
            "--no-cache",
            "--quiet",
            "--require-coverage",
            "--unroll",
            unroll,
        ]);
        assert_eq!(output.status.code(), Some(0), "--unroll {unroll}: {}", String::from_utf8_lossy(&output.stderr));
        // Every test's contracts were decided by its replay.
        let text = std::fs::read_to_string(suite).expect("the suite was written");
        assert!(!text.contains("\"unchecked\""), "--unroll {unroll}: {text}");
        let run = seedgen(&["run-tests", "corpus/primes.bpl", suite]);
        assert_eq!(run.status.code(), Some(0), "--unroll {unroll}: {}", String::from_utf8_lossy(&run.stdout));
    }
}

/// A postcondition no bound of the run's state makes finite (`k` ranges over every
/// integer, inside arithmetic): the runs still cover the goals they entered, each test
/// records the check as `unchecked` with the reason, and `run-tests` replays them so.
#[test]
fn a_check_replay_cannot_decide_is_recorded_unchecked_and_its_run_still_covers() {
    let program = "procedure P(x: int) returns (r: int)
  ensures (forall k: int :: k * k != r - 2);
{
  if (x > 0) { r := x + 1; } else { r := 0; }
}
";
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (status, stderr) = prove(dir.path(), program, &["--no-cache", "--quiet", "--require-coverage"]);
    assert_eq!(status, Some(0), "{stderr}");
    let suite = dir.path().join("program.tests.json");
    let suite: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&suite).expect("the suite was written")).expect("JSON");
    let tests = suite["procedures"][0]["tests"].as_array().expect("tests");
    assert_eq!(tests.len(), 2);
    for test in tests {
        assert_eq!(test["expect"]["outcome"], "unchecked", "{test}");
        let message = test["expect"]["message"].as_str().expect("a reason");
        assert!(message.contains("`k` unbounded"), "{message}");
    }
    assert_run_tests_pass(dir.path());
}

/// `run-tests` on `program.bpl` and its suite `program.tests.json` in `dir` passes.
fn assert_run_tests_pass(dir: &std::path::Path) {
    let file = dir.join("program.bpl");
    let suite = dir.join("program.tests.json");
    let run = seedgen(&["run-tests", file.to_str().expect("UTF-8"), suite.to_str().expect("UTF-8")]);
    assert_eq!(run.status.code(), Some(0), "{}", String::from_utf8_lossy(&run.stdout));
}

/// Two goals after a loop, one comparison away from the first test: the search steers by
/// branch distance (`r == 12` from `r = 4`, then `r > 30`), so the solver is asked once
/// (for the first test) at default options, and never with the loop unrolled (from the
/// all-defaults input). Without the guidance: 14 checks, and 4.
#[test]
fn goals_a_comparison_away_are_found_by_branch_distance_without_the_solver() {
    const FAR: &str = "procedure Far(n: int) returns (r: int)
{
  var i: int;
  i := 0; r := 0;
  while (i < n) invariant i >= 0; { r := r + 2; i := i + 1; }
  if (r == 12) { r := 0; }
  if (r > 30) { r := 1; }
}
";
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (flags, most_checks) in [(&["--format", "json"][..], 1), (&["--format", "json", "--unroll", "2"], 0)] {
        let file = dir.path().join("far.bpl");
        std::fs::write(&file, FAR).expect("writable");
        let mut args =
            vec!["prove-tests", file.to_str().expect("UTF-8"), "--no-cache", "--quiet", "--require-coverage"];
        args.extend_from_slice(flags);
        let output = seedgen(&args);
        assert_eq!(output.status.code(), Some(0), "{flags:?}: {}", String::from_utf8_lossy(&output.stderr));
        let summary: serde_json::Value = serde_json::from_slice(&output.stdout).expect("a JSON summary");
        let checks = summary["totals"]["checks"].as_u64().expect("a count");
        assert!(checks <= most_checks, "{flags:?}: {checks} checks: {summary}");
    }
}

/// A goal reached only through a callee's contract (`r >= 0`, where the goal needs
/// `r == 6`): without the search, the exact retries inline the recursion deeper and
/// deeper until a real run reaches it.
#[test]
fn a_goal_behind_a_recursive_callee_s_contract_is_covered_by_deeper_inlining() {
    const RECURSIVE: &str = "procedure Count(n: int) returns (r: int)
  ensures r >= 0;
{
  if (n <= 0) { r := 0; } else { call r := Count(n - 1); r := r + 1; }
}

procedure Use(x: int) returns (r: int)
{
  call r := Count(x);
  if (r == 6) { r := 0; }
}
";
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (code, stderr) = prove(dir.path(), RECURSIVE, &["--no-search", "--no-cache", "--quiet", "--require-coverage"]);
    assert_eq!(code, Some(0), "{stderr}");
}

/// Sets no finite table holds (`AtLeast(x)` is every `y >= x` of the same `Rep`, which
/// no axiom defines), among a hundred more axioms, so the encoding is axiom-heavy and z3
/// answers with candidates alone: a candidate whose tables break an axiom only where its
/// run does not read makes a test, recorded `unchecked` with that reason, which
/// `run-tests` replays so; every goal is covered.
#[test]
fn a_test_whose_tables_break_an_axiom_only_where_its_run_does_not_read_is_kept_unchecked() {
    let mut program = String::from(
        "function AtLeast(x: int): [int]bool;
function Rep(x: int): int;
axiom (forall x: int, y: int :: { AtLeast(x)[y] } AtLeast(x)[y] ==> x <= y && Rep(x) == Rep(y));
axiom (forall x: int, y: int :: { AtLeast(x), Rep(y) } x <= y && Rep(x) == Rep(y) ==> AtLeast(x)[y]);
function Offset(p: int): int;
axiom (forall p: int :: { Offset(p) } Offset(p) == p + 40);
",
    );
    for k in 0..100 {
        program.push_str(&format!("axiom (forall x: int :: {{ Rep(x + {k}) }} Rep(x + {k}) == (x + {k}) mod 4);\n"));
    }
    program.push_str("procedure Member(x: int, y: int) returns (r: int)\n{\n  if (AtLeast(x)[y]) { r := Offset(y); } else { r := 0; }\n}\n");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let tests = fully_covered_tests(dir.path(), &program);
    let beyond = tests.iter().filter(|test| {
        test["expect"]["outcome"] == "unchecked"
            && test["expect"]["message"]
                .as_str()
                .is_some_and(|message| message.contains("points its run does not read"))
    });
    assert!(beyond.count() >= 1, "{tests:?}");
    assert_run_tests_pass(dir.path());
}

/// The tests of the one procedure of `program`'s suite, which `prove-tests
/// --require-coverage` wrote in `dir` with every goal covered or proved unreachable.
fn fully_covered_tests(dir: &std::path::Path, program: &str) -> Vec<serde_json::Value> {
    let (status, stderr) = prove(dir, program, &["--no-cache", "--quiet", "--require-coverage"]);
    assert_eq!(status, Some(0), "{stderr}");
    let suite = std::fs::read_to_string(dir.join("program.tests.json")).expect("the suite was written");
    let suite: serde_json::Value = serde_json::from_str(&suite).expect("JSON");
    suite["procedures"][0]["tests"].as_array().expect("tests").clone()
}

/// A set its axioms define by membership (`Inverse(f, y)`, the points where `f` is `y`, in
/// the pattern form of havoc0's driver models), read by the entry's `requires`, among a
/// hundred more axioms: the interpreter computes the set exactly, so the `requires` and
/// the axioms are decided and every test passes, none `unchecked`; every goal is covered
/// or proved unreachable.
#[test]
fn a_contract_over_a_set_its_axioms_define_by_membership_is_checked_by_replay() {
    let mut program = String::from(
        "function Inverse(f: [int]int, y: int): [int]bool;
axiom (forall f: [int]int, x: int :: { Inverse(f, f[x]) } Inverse(f, f[x])[x]);
axiom (forall f: [int]int, x: int, y: int :: { Inverse(f, y), f[x] } Inverse(f, y)[x] ==> f[x] == y);
function Rep(x: int): int;
var Owner: [int]int;
",
    );
    for k in 0..100 {
        program.push_str(&format!("axiom (forall x: int :: {{ Rep(x + {k}) }} Rep(x + {k}) == (x + {k}) mod 4);\n"));
    }
    program.push_str(
        "procedure Owned(k: int) returns (r: int)
  requires (forall x: int :: { Owner[x] } Inverse(Owner, 1)[x] ==> x > 0);
{
  if (Owner[k] == 1) { r := k; } else { r := 0; }
  if (r < 0) { r := 0 - r; }
}
",
    );
    let dir = tempfile::tempdir().expect("a temporary directory");
    let tests = fully_covered_tests(dir.path(), &program);
    assert!(!tests.is_empty());
    assert!(tests.iter().all(|test| test["expect"]["outcome"] == "pass"), "{tests:?}");
    assert_run_tests_pass(dir.path());
}
