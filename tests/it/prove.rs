//! `seedgen prove-tests`: per corpus program, the status of every goal is a reviewed
//! snapshot (solver values are not: they may differ between Z3 versions); the paper's
//! acceptance examples; determinism; and Boogie's error count on the seeded program
//! equals the goals seedgen reaches (ignored unless Boogie is installed).

use crate::support::{bpl_files, display_name, root, seedgen, statuses};
use serde_json::Value;
use std::path::Path;

pub fn prove(path: &Path, extra: &[&str]) -> (Value, Value) {
    prove_expecting(path, extra, &[0])
}

/// [`prove`] ending with one of the exit statuses `allowed` (3: some goals undecided).
pub fn prove_expecting(path: &Path, extra: &[&str], allowed: &[i32]) -> (Value, Value) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let suite_path = dir.path().join("suite.json");
    let suite_arg = suite_path.to_str().expect("UTF-8 temp path").to_string();
    let mut args = vec!["prove-tests", "--quiet", "--format", "json", "-o", &suite_arg];
    let name = display_name(path);
    args.push(&name);
    args.extend(extra);
    let output = seedgen(&args);
    let code = output.status.code().unwrap_or(-1);
    assert!(allowed.contains(&code), "{name}: exit {code}: {}", String::from_utf8_lossy(&output.stderr));
    let summary = serde_json::from_slice(&output.stdout).expect("the summary is JSON");
    let suite = serde_json::from_str(&std::fs::read_to_string(&suite_path).expect("the suite was written"))
        .expect("the suite is JSON");
    (summary, suite)
}

#[test]
fn goal_statuses_of_the_corpus() {
    insta::glob!("../../corpus", "*.bpl", |path| {
        let (_, suite) = prove(path, &[]);
        insta::assert_snapshot!(statuses(&suite));
    });
}

#[test]
fn simple_has_four_goals_covered_by_at_most_four_tests() {
    let (summary, _) = prove(&root().join("corpus/simple.bpl"), &[]);
    let totals = &summary["totals"];
    assert_eq!(totals["goals"], 4);
    assert_eq!(totals["covered"], 4);
    assert!(totals["tests"].as_u64().expect("a count") <= 4);
    for key in ["goals", "covered", "unreachable", "not_covered", "tests", "time_ms"] {
        assert!(summary["procedures"][0].get(key).is_some(), "procedure summaries have `{key}`");
        assert!(totals.get(key).is_some(), "totals have `{key}`");
    }
}

/// Corpus files list their dead goals (`// expect-unreachable: <goal>`) and the goals
/// seedgen is known not to cover yet (`// expect-not-covered: <goal> (why)`); exactly
/// those are reported so, and every other goal is covered by a replayed test.
#[test]
fn exactly_the_dead_goals_are_proved_unreachable() {
    for path in bpl_files("corpus") {
        let (_, suite) = prove(&path, &[]);
        assert_expected_statuses(&path, &suite);
    }
}

/// Asserts that `path`'s `// expect-unreachable:` and `// expect-not-covered:` lines
/// name exactly the goals its `suite` reports so.
pub fn assert_expected_statuses(path: &Path, suite: &Value) {
    let text = std::fs::read_to_string(path).expect("readable corpus file");
    let annotated = |prefix: &str| -> Vec<String> {
        let mut goals: Vec<String> = text
            .lines()
            .filter_map(|line| line.strip_prefix(prefix))
            .map(|rest| rest.split_whitespace().next().unwrap_or_default().to_string())
            .collect();
        goals.sort();
        goals
    };
    let (mut unreachable, mut not_covered) = (Vec::new(), Vec::new());
    for procedure in suite["procedures"].as_array().expect("procedures") {
        for goal in procedure["goals"].as_array().expect("goals") {
            let id = goal["id"].as_str().expect("id").to_string();
            match goal["status"].as_str().expect("status") {
                "unreachable" => unreachable.push(id),
                "not_covered" => not_covered.push(id),
                _ => {}
            }
        }
    }
    unreachable.sort();
    not_covered.sort();
    assert_eq!(unreachable, annotated("// expect-unreachable: "), "{}", display_name(path));
    assert_eq!(not_covered, annotated("// expect-not-covered: "), "{}", display_name(path));
}

/// Solved afresh each time (`--no-cache`: a cached second run would be identical
/// trivially), plain and unrolled with the search around tests.
#[test]
fn two_runs_write_byte_identical_suites() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let runs: [(&str, &[&str]); 3] = [
        ("corpus/control_flow.bpl", &[]),
        ("corpus/binary_search.bpl", &["--unroll", "15"]),
        ("corpus/nondet.bpl", &["--unroll", "4"]),
    ];
    for (program, flags) in runs {
        let texts: Vec<String> = (0..2)
            .map(|run| {
                let suite = dir.path().join(format!("run{run}.json"));
                let suite_arg = suite.to_str().expect("UTF-8").to_string();
                let mut args = vec!["prove-tests", "--quiet", "--no-cache", program, "-o", &suite_arg];
                args.extend(flags);
                let output = seedgen(&args);
                assert_eq!(output.status.code(), Some(0), "{program} {flags:?}");
                std::fs::read_to_string(&suite).expect("written")
            })
            .collect();
        assert!(texts[0] == texts[1], "{program} {flags:?}: two runs differ");
    }
}

#[test]
fn unknown_proc_is_a_usage_error() {
    let output = seedgen(&["prove-tests", "corpus/simple.bpl", "--proc", "nope", "-o", "/dev/null"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("no implementation named `nope`"));
}

/// Boogie 2.4.1 on `seedgen seed --goals all` reports one error per goal that seedgen
/// reaches with a test or a candidate (the same modular encoding: loops by invariants,
/// calls by contracts).
#[test]
#[ignore = "needs Boogie 2.4.1 (`apt-get install boogie`)"]
fn boogie_error_count_matches_reached_goals() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for path in crate::support::correct_corpus_programs() {
        let (summary, _) = prove_expecting(&path, &["--goals", "all", "--inline-depth", "0"], &[0, 3]);
        let reached = crate::support::reached_goals(&summary);
        let seeded = seedgen(&["seed", "--goals", "all", &display_name(&path)]);
        let file = dir.path().join("seeded.bpl");
        std::fs::write(&file, &seeded.stdout).expect("writable");
        let boogie = std::process::Command::new("boogie").arg(&file).arg("/errorLimit:10000").output().expect("boogie");
        let stdout = String::from_utf8_lossy(&boogie.stdout);
        let errors = stdout.lines().filter(|line| line.contains("Error BP5001")).count() as u64;
        assert!(reached.contains(&errors), "{}: Boogie {errors}, seedgen {reached:?}:\n{stdout}", display_name(&path));
    }
}

/// Every integer in a suite's test inputs (map keys, values and defaults included).
fn input_integers(suite: &Value) -> Vec<i64> {
    fn walk(value: &Value, found: &mut Vec<i64>) {
        match value {
            Value::Number(number) => found.extend(number.as_i64()),
            Value::Array(items) => items.iter().for_each(|item| walk(item, found)),
            // A bit-vector's width is no input.
            Value::Object(fields) => {
                fields.iter().filter(|(key, _)| *key != "name" && *key != "width").for_each(|(_, v)| walk(v, found))
            }
            _ => {}
        }
    }
    let mut found = Vec::new();
    for procedure in suite["procedures"].as_array().expect("procedures") {
        for test in procedure["tests"].as_array().expect("tests") {
            walk(&test["inputs"], &mut found);
        }
    }
    found
}

/// Minimization: the paper's `simple` example gets inputs like `a = 1` and `a = 0`, not
/// 2147481201.
#[test]
fn simple_gets_small_inputs() {
    let (_, suite) = prove(&root().join("corpus/simple.bpl"), &[]);
    let values = input_integers(&suite);
    assert!(!values.is_empty());
    assert!(values.iter().all(|value| value.abs() <= 2), "{values:?}");
}

/// Across the corpus (`corpus/` and the paper's programs, `corpus/sc/`), at least 89% of
/// the integers in test inputs are at most 10 in absolute value (90.3% before the search
/// climbed by branch distance: a test it finds keeps the values of the test it stepped
/// from, such as `queue`'s second `Contains` test with the model's `head = 100`); without
/// minimization they are not (compared on `corpus/`: raw models of `corpus/sc/` take
/// seconds to replay, and one leaves a goal undecided). The paper's programs get the
/// evaluation's generous timeout (`tests/it/evaluation.rs`), as a debug build among
/// parallel tests is slow.
#[test]
fn minimized_inputs_are_small_across_the_corpus() {
    let share = |dirs: &[&str], extra: &[&str]| {
        let files = dirs.iter().flat_map(|dir| bpl_files(dir));
        let values: Vec<i64> = files.flat_map(|path| input_integers(&prove(&path, extra).1)).collect();
        values.iter().filter(|value| value.abs() <= 10).count() as f64 / values.len() as f64
    };
    let minimized = share(&["corpus", "corpus/sc"], &["--timeout-ms", "60000"]);
    assert!(minimized >= 0.89, "{minimized}");
    assert!(share(&["corpus"], &["--no-minimize"]) < share(&["corpus"], &[]));
}

/// Minimization: a map input keeps only the entries its run depends on, however many the
/// solver's model had (the paper's stack: a search that reads one element had 36).
#[test]
fn map_inputs_keep_only_the_entries_their_run_reads() {
    let (_, suite) = prove(&root().join("corpus/sc/stack.bpl"), &["--timeout-ms", "60000"]);
    for procedure in suite["procedures"].as_array().expect("procedures") {
        for test in procedure["tests"].as_array().expect("tests") {
            let arr = &test["inputs"]["globals"][0];
            assert_eq!(arr["name"], "arr");
            let entries = arr["value"]["entries"].as_array().expect("a map").len();
            assert!(entries <= 1, "{}: {entries} entries", test["id"]);
        }
    }
}

/// A `free call` neither checks nor assumes the callee's preconditions, as in Boogie
/// (which reports both seeds of this program reachable): a branch only the
/// precondition would rule out is covered, and `verify` reports nothing.
#[test]
fn a_free_call_neither_checks_nor_assumes_the_preconditions() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let program = |call: &str| {
        format!(
            "procedure Q(x: int) returns (y: int); requires x > 0; ensures y == x;
             procedure P(x: int) returns (y: int) {{ {call} y := Q(x); if (y < 0) {{ y := 0; }} }}"
        )
    };
    let path = dir.path().join("free_call.bpl");
    std::fs::write(&path, program("free call")).expect("a writable temporary directory");
    let (_, suite) = prove(&path, &[]);
    let statuses = statuses(&suite);
    assert!(statuses.contains("P/if#1/then: covered"), "{statuses}");
    assert!(statuses.contains("P/if#1/else: covered"), "{statuses}");
    let verified = seedgen(&["verify", path.to_str().expect("UTF-8")]);
    assert_eq!(verified.status.code(), Some(0), "{}", String::from_utf8_lossy(&verified.stderr));
    std::fs::write(&path, program("call")).expect("a writable temporary directory");
    let verified = seedgen(&["verify", path.to_str().expect("UTF-8")]);
    assert_eq!(verified.status.code(), Some(1), "the plain call's precondition can fail");
}
