//! `--unroll N`: goals per loop iteration, coverage measured by following each
//! replayed run on the unrolled graph. The acceptance example (linear search unrolled
//! three times: every goal covered, and the suite's runs iterate 0 to 3 times, checked
//! against the interpreter's own loop counts); per corpus program with a loop, the
//! status of every goal unrolled twice is a reviewed snapshot; `run-tests` measures the
//! coverage `prove-tests` reported; goals grow linearly in `N`; `--unroll 0` changes
//! nothing; `goto` loops; a goal reached only past the bound is "not covered", never
//! "unreachable"; unrolled 15 times, single loops are covered by the search alone, and
//! `--no-search` changes how tests are found, not what is covered; and Boogie's error
//! count on the unrolled seeded program equals the goals seedgen reaches (ignored unless
//! Boogie is installed).

use crate::support::{
    bpl_files, check_source, covered_goals, display_name, goals, id, replayed_goals, root, seedgen, status, statuses,
};
use seedgen::cfg::lower::lower_all;
use seedgen::interp::{Limits, Machine, Outcome, TraceMode};
use seedgen::suite::load::{load, LoadedTest};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Runs `prove-tests` on `program` (a path relative to the crate root) with `extra`
/// flags, writing the suite to `suite`; the JSON summary and the suite's text.
fn prove(program: &str, extra: &[&str], suite: &Path) -> (Value, String) {
    prove_expecting(program, extra, suite, &[0])
}

/// [`prove`] ending with one of the exit statuses `allowed` (3: some goals undecided).
fn prove_expecting(program: &str, extra: &[&str], suite: &Path, allowed: &[i32]) -> (Value, String) {
    let suite_arg = suite.to_str().expect("UTF-8 temp path");
    let mut args = vec!["prove-tests", "--quiet", "--format", "json", "-o", suite_arg, program];
    args.extend(extra);
    let output = seedgen(&args);
    let code = output.status.code().unwrap_or(-1);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(allowed.contains(&code), "{program} {extra:?}: exit {code}: {stderr}");
    let summary = serde_json::from_slice(&output.stdout).expect("the summary is JSON");
    (summary, std::fs::read_to_string(suite).expect("the suite was written"))
}

/// `prove` unrolling twice, with no deeper retry (what is tested is the unrolling).
fn prove_unrolled_twice(program: &str, suite: &Path) -> (Value, Value) {
    let (summary, text) = prove(program, &["--unroll", "2", "--max-unroll", "2"], suite);
    (summary, serde_json::from_str(&text).expect("the suite is JSON"))
}

/// Whether unrolling gave the suite's goals iterations: the program has a loop.
fn has_unrolled_goals(suite: &Value) -> bool {
    goals(suite).iter().any(|goal| id(goal).contains('@'))
}

/// One test of a suite, replayed by the library's interpreter on the program as written.
struct ReplayedTest {
    id: String,
    /// The goals the suite says the test covers.
    covers: Vec<String>,
    /// Per entry into a loop of the test's implementation, in header order, the
    /// iterations the interpreter counted (back edges taken).
    iterations: Vec<u64>,
}

/// Loads the suite `text` of `program` with [`load`] and runs each test with the
/// interpreter; every test must pass.
fn replay_suite(program: &str, text: &str) -> Vec<ReplayedTest> {
    let source = std::fs::read_to_string(root().join(program)).expect("a readable program");
    let (_, checked) = check_source(program, &source);
    let hir = checked.hir.expect("the program checks");
    let (cfgs, errors) = lower_all(&hir);
    assert!(errors.is_empty(), "{program} lowers");
    let suite: Value = serde_json::from_str(text).expect("the suite is JSON");
    let covers: BTreeMap<&str, Vec<String>> = suite["procedures"]
        .as_array()
        .expect("procedures")
        .iter()
        .flat_map(|procedure| procedure["tests"].as_array().expect("tests"))
        .map(|test| {
            let covers = test["covers"].as_array().expect("covers");
            let covers = covers.iter().map(|goal| goal.as_str().expect("a goal id").to_string()).collect();
            (test["id"].as_str().expect("a test id"), covers)
        })
        .collect();
    let machine = Machine::new(&hir, &cfgs, Limits::default());
    load(&hir, &cfgs, text)
        .expect("the suite loads")
        .into_iter()
        .map(|test| {
            let LoadedTest::Ready { id, input, .. } = test else { panic!("{program}: {} is stale", test.id()) };
            let replay = machine.run(&input, TraceMode::Strict);
            assert_eq!(replay.outcome, Outcome::Passed, "{program}: {id}");
            let iterations = replay
                .coverage
                .loops
                .iter()
                .filter(|((implementation, _), _)| *implementation == input.implementation)
                .flat_map(|(_, counts)| counts.iter().copied())
                .collect();
            ReplayedTest { covers: covers[id.as_str()].clone(), id, iterations }
        })
        .collect()
}

/// For a procedure with one loop, entered once per run: every test covering the exit
/// goal `{exit}k` iterated exactly `k` times, and every exit goal is covered by some
/// test. The iteration counts seen over the suite.
fn check_exit_iterations(tests: &[ReplayedTest], exit: &str) -> BTreeSet<u64> {
    let mut seen = BTreeSet::new();
    for test in tests {
        let [iterations] = test.iterations[..] else {
            panic!("{}: one entry into the loop, not {:?}", test.id, test.iterations)
        };
        seen.insert(iterations);
        for goal in &test.covers {
            if let Some(count) = goal.strip_prefix(exit) {
                let count: u64 = count.parse().expect("an iteration count");
                assert_eq!(iterations, count, "{} covers {goal}", test.id);
            }
        }
    }
    seen
}

#[test]
fn linear_search_unrolled_three_times_covers_every_goal_and_iteration_count() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let program = "corpus/linear_search.bpl";
    let (summary, text) = prove(program, &["--unroll", "3", "--max-unroll", "3"], &dir.path().join("suite.json"));
    let suite: Value = serde_json::from_str(&text).expect("the suite is JSON");
    assert_eq!(suite["options"]["unroll"], 3, "the suite records the bound");
    let mut expected: Vec<String> = (1..=3)
        .flat_map(|k| ["", "/if#1/then", "/if#1/else"].map(|branch| format!("LinearSearch/while#1/body@{k}{branch}")))
        .chain((0..=3).map(|k| format!("LinearSearch/while#1/exit@{k}")))
        .collect();
    expected.sort();
    let mut ids: Vec<String> = goals(&suite).iter().map(|goal| id(goal).to_string()).collect();
    ids.sort();
    assert_eq!(ids, expected);
    assert_eq!(summary["totals"]["goals"], 13);
    assert_eq!(summary["totals"]["covered"], 13, "{}", statuses(&suite));

    let tests = replay_suite(program, &text);
    let seen = check_exit_iterations(&tests, "LinearSearch/while#1/exit@");
    assert!(seen.is_superset(&BTreeSet::from([0, 1, 2, 3])), "iteration counts {seen:?}");
    for test in &tests {
        // Iteration k's body runs after k - 1 back edges (a `break` in it takes none).
        for goal in &test.covers {
            if let Some(rest) = goal.strip_prefix("LinearSearch/while#1/body@") {
                let k: u64 = rest.split('/').next().and_then(|k| k.parse().ok()).expect("an iteration");
                assert!(test.iterations[0] + 1 >= k, "{} covers {goal} after {:?}", test.id, test.iterations);
            }
        }
    }
    for k in 0..=3 {
        let exit = format!("LinearSearch/while#1/exit@{k}");
        assert!(tests.iter().any(|test| test.covers.contains(&exit)), "some test covers {exit}");
    }
}

/// Reviewed: every goal is covered except the loop exits no run can take — the inner
/// loops' zero-iteration exits, per loop `BubbleSort/while#1/body@*/while#1/exit@0` (the
/// inner loop runs `i > 0` times) and `FindInSquare/while#1/body@*/while#1/exit@0` (it
/// runs to `j == n`, and an outer iteration needs `n >= 1`), and
/// `IntegerSquareRoot/while#1/exit@1` (one halving of `[0, n + 1)` leaves an interval
/// wider than 1 unless the midpoint is the root, which leaves by the `break`).
#[test]
fn goal_statuses_of_the_corpus_unrolled_twice() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    insta::glob!("../../corpus", "*.bpl", |path| {
        let (_, suite) = prove_unrolled_twice(&display_name(path), &dir.path().join("suite.json"));
        if has_unrolled_goals(&suite) {
            insta::assert_snapshot!(statuses(&suite));
        }
    });
}

#[test]
fn run_tests_measures_the_coverage_prove_tests_reported_unrolled_twice() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let suite_path = dir.path().join("suite.json");
    for path in bpl_files("corpus") {
        let name = display_name(&path);
        let (summary, suite) = prove_unrolled_twice(&name, &suite_path);
        let output = seedgen(&["run-tests", "--quiet", &name, suite_path.to_str().expect("UTF-8"), "--format", "json"]);
        assert_eq!(output.status.code(), Some(0), "{name}: {}", String::from_utf8_lossy(&output.stdout));
        let report: Value = serde_json::from_slice(&output.stdout).expect("JSON report");
        assert_eq!(report["totals"]["covered"], summary["totals"]["covered"], "{name}");
        assert_eq!(report["totals"]["goals"], summary["totals"]["goals"], "{name}");
        assert_eq!(replayed_goals(&report), covered_goals(&suite), "{name}: the same goals, unrolled alike");
    }
}

#[test]
fn goals_and_the_seeded_program_grow_linearly_in_the_bound() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let program = "corpus/linear_search.bpl";
    for bound in 1..=6u64 {
        let bound_arg = bound.to_string();
        let flags = ["--unroll", &bound_arg, "--max-unroll", &bound_arg];
        let (summary, _) = prove(program, &flags, &dir.path().join("suite.json"));
        assert_eq!(summary["totals"]["goals"], 4 * bound + 1, "--unroll {bound}");
    }
    // Block and seed numbers get longer as they grow; with them blanked out, every
    // iteration adds exactly the same text.
    let seeded: Vec<String> = (1..=6)
        .map(|bound: u32| {
            let output = seedgen(&["seed", program, "--unroll", &bound.to_string()]);
            assert_eq!(output.status.code(), Some(0));
            String::from_utf8(output.stdout).expect("UTF-8")
        })
        .collect();
    let steps = |sizes: Vec<usize>| -> Vec<usize> { sizes.windows(2).map(|pair| pair[1] - pair[0]).collect() };
    let raw = steps(seeded.iter().map(String::len).collect());
    assert!(raw.iter().all(|step| step.abs_diff(raw[0]) <= 8), "bytes added per iteration: {raw:?}");
    let blank_numbers = |text: &String| -> usize {
        let mut previous_digit = false;
        text.chars()
            .filter(|c| {
                let digit = c.is_ascii_digit();
                let keep = !(digit && previous_digit);
                previous_digit = digit;
                keep
            })
            .count()
    };
    let blanked = steps(seeded.iter().map(blank_numbers).collect());
    assert!(blanked.iter().all(|&step| step == blanked[0]), "per iteration, numbers blanked: {blanked:?}");
}

#[test]
fn unroll_zero_writes_the_suite_of_no_flag() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for path in bpl_files("corpus") {
        let name = display_name(&path);
        let (_, plain) = prove(&name, &[], &dir.path().join("plain.json"));
        let (_, zero) = prove(&name, &["--unroll", "0"], &dir.path().join("zero.json"));
        assert!(plain == zero, "{name}: `--unroll 0` changes the suite");
    }
}

/// A `goto` loop gets its marks at the end of its blocks' paths.
#[test]
fn a_goto_loop_unrolls_and_its_exits_count_iterations() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let program = "corpus/partition_goto.bpl";
    let (summary, text) = prove(program, &["--unroll", "2", "--max-unroll", "2"], &dir.path().join("suite.json"));
    let suite: Value = serde_json::from_str(&text).expect("the suite is JSON");
    let ids: BTreeSet<&str> = goals(&suite).into_iter().map(id).collect();
    for expected in ["goto:body@1", "goto:small@1", "goto:large@2", "goto:done@0", "goto:done@1", "goto:done@2"] {
        assert!(ids.contains(format!("Partition/{expected}").as_str()), "{expected} in {ids:?}");
    }
    assert!(ids.iter().all(|id| id.contains('@')), "every goal of Partition is in or after its loop: {ids:?}");
    assert_eq!(summary["totals"]["covered"], summary["totals"]["goals"], "{}", statuses(&suite));
    let tests = replay_suite(program, &text);
    let seen = check_exit_iterations(&tests, "Partition/goto:done@");
    assert!(seen.is_superset(&BTreeSet::from([0, 1, 2])), "iteration counts {seen:?}");
}

/// Unrolled 15 times, programs whose per-iteration goals are a step apart are covered by
/// the search around replayed tests alone: no solver check, every goal
/// covered, every test passes when replayed strictly, and each exit goal's test runs
/// the loop that many times (binary search: 15 halvings of an array of 16,384).
#[test]
fn unrolled_fifteen_times_the_search_covers_single_loops_without_the_solver() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let exits = [
        ("corpus/binary_search.bpl", Some("BinarySearch/while#1/exit@")),
        ("corpus/partition_goto.bpl", Some("Partition/goto:done@")),
        ("corpus/div_mod.bpl", None),
        ("corpus/matrix.bpl", None),
    ];
    for (program, exit) in exits {
        let (summary, text) = prove(program, &["--unroll", "15"], &dir.path().join("suite.json"));
        let suite: Value = serde_json::from_str(&text).expect("the suite is JSON");
        assert_eq!(summary["totals"]["covered"], summary["totals"]["goals"], "{program}: {}", statuses(&suite));
        assert_eq!(summary["totals"]["checks"], 0, "{program}");
        let tests = replay_suite(program, &text);
        if let Some(exit) = exit {
            let seen = check_exit_iterations(&tests, exit);
            assert!(seen.is_superset(&(0..=15).collect()), "{program}: iteration counts {seen:?}");
        }
    }
}

/// Nested loops over a global array: the search grows the array entry by entry (runs of
/// values one apart) until every pass reaches each of its swaps, so the solver is asked
/// once, to prove the inner loop's zero-iteration exit dead (`i > 0` guards it; per loop,
/// one goal for its copies in the four outer iterations); every test passes when
/// replayed strictly.
#[test]
fn unrolled_four_times_bubble_sort_needs_one_check_to_prove_the_rest_dead() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let program = "corpus/bubble_sort.bpl";
    let (summary, text) = prove(program, &["--unroll", "4"], &dir.path().join("suite.json"));
    let suite: Value = serde_json::from_str(&text).expect("the suite is JSON");
    let totals = &summary["totals"];
    assert_eq!((totals["checks"].as_u64(), totals["unreachable"].as_u64()), (Some(1), Some(1)), "{}", statuses(&suite));
    assert_eq!(totals["covered"].as_u64().map(|covered| covered + 1), totals["goals"].as_u64());
    replay_suite(program, &text);
}

/// The search changes how tests are found, not what is covered: with `--no-search`
/// every test comes from a solver check, and the goals' statuses are the same.
#[test]
fn without_the_search_every_test_is_a_check_and_coverage_is_the_same() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let unrolled = ["--unroll", "3", "--max-unroll", "3"];
    // Without unrolling the search runs around models only; `optimized_gnome_sort`'s
    // last goal is two steps from a model whose replay missed it.
    let cases: [(&str, &[&str]); 4] = [
        ("corpus/linear_search.bpl", &unrolled),
        ("corpus/nondet.bpl", &unrolled),
        ("corpus/bubble_sort.bpl", &[]),
        ("corpus/sc/optimized_gnome_sort.bpl", &[]),
    ];
    for (program, flags) in cases {
        let (searched, searched_text) = prove(program, flags, &dir.path().join("searched.json"));
        let no_search = [flags, &["--no-search"]].concat();
        let (solved, solved_text) = prove(program, &no_search, &dir.path().join("solved.json"));
        // The goals' statuses, without the number of tests each procedure keeps.
        let statuses_of = |text: &str| -> Vec<String> {
            let listing = statuses(&serde_json::from_str(text).expect("the suite is JSON"));
            listing.lines().filter(|line| line.starts_with("  ")).map(str::to_string).collect()
        };
        assert_eq!(statuses_of(&searched_text), statuses_of(&solved_text), "{program}");
        let (searched_checks, solved_checks) = (&searched["totals"]["checks"], &solved["totals"]["checks"]);
        assert!(searched_checks.as_u64() < solved_checks.as_u64(), "{program}: {searched_checks} vs {solved_checks}");
        assert!(solved["totals"]["tests_generated"].as_u64() <= solved_checks.as_u64(), "{program}: {solved}");
    }
}

/// Nested loops: by default an inner loop's goals count its own iterations, its copies in
/// the outer iterations merged (`@*`), so goals grow linearly in the bound; with
/// `--unroll-goals combinations`, one goal per combination of iteration counts. The
/// suite records the mode, `run-tests` measures the coverage `prove-tests` reported, and
/// `seedgen seed` makes each merged goal one assertion that all its copies jump to.
#[test]
fn nested_loops_count_goals_per_loop_by_default_and_per_combination_on_request() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let program = "corpus/bubble_sort.bpl";
    let suite_path = dir.path().join("suite.json");
    let mut per_loop_goals = Vec::new();
    for bound in [2u64, 3, 4] {
        let bound_arg = bound.to_string();
        let (summary, text) = prove(program, &["--unroll", &bound_arg], &suite_path);
        let suite: Value = serde_json::from_str(&text).expect("the suite is JSON");
        assert_eq!(suite["options"]["unroll_goals"], "per-loop");
        let ids: Vec<&str> = goals(&suite).into_iter().map(id).collect();
        assert!(ids.contains(&"BubbleSort/while#1/body@*/while#1/exit@2"), "{ids:?}");
        assert!(!ids.iter().any(|id| id.contains("body@1/while#1/")), "{ids:?}");
        assert_eq!(
            summary["totals"]["covered"].as_u64().map(|covered| covered + 1),
            summary["totals"]["goals"].as_u64()
        );
        per_loop_goals.push(summary["totals"]["goals"].as_u64().expect("a count"));
        let output =
            seedgen(&["run-tests", "--quiet", program, suite_path.to_str().expect("UTF-8"), "--format", "json"]);
        let report: Value = serde_json::from_slice(&output.stdout).expect("JSON report");
        assert_eq!(replayed_goals(&report), covered_goals(&suite), "--unroll {bound}");
    }
    assert_eq!(per_loop_goals[2] - per_loop_goals[1], per_loop_goals[1] - per_loop_goals[0], "{per_loop_goals:?}");
    let (summary, text) = prove(program, &["--unroll", "3", "--unroll-goals", "combinations"], &suite_path);
    let suite: Value = serde_json::from_str(&text).expect("the suite is JSON");
    assert_eq!(suite["options"]["unroll_goals"], "combinations");
    let ids: Vec<&str> = goals(&suite).into_iter().map(id).collect();
    assert!(ids.contains(&"BubbleSort/while#1/body@3/while#1/exit@2") && !ids.iter().any(|id| id.contains('*')));
    assert!(summary["totals"]["goals"].as_u64() > Some(per_loop_goals[1]));

    let seeded = seedgen(&["seed", "--goals", "all", "--unroll", "3", program]);
    let text = String::from_utf8(seeded.stdout).expect("UTF-8");
    let seeds = text.matches("assert false;").count();
    assert!(text.contains("goto seed"), "{text}");
    assert!(text.contains(&format!("bn <= {seeds};")), "one assertion per seed:\n{text}");
}

/// `s == 10` needs five iterations (`s` is 0 + 1 + … + (n - 1)), and no invariant keeps
/// `s`: a model past the bound claims it with a value of `s` no run has.
const SUM: &str = "procedure Sum(n: int) returns (s: int)
{
  var i: int;
  i := 0;
  s := 0;
  while (i < n) invariant 0 <= i; { s := s + i; i := i + 1; }
  if (s == 10) { s := -1; }
}
";

#[test]
fn a_goal_past_the_bound_is_covered_by_a_deeper_retry_or_the_search_never_unreachable() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let program = dir.path().join("sum.bpl");
    std::fs::write(&program, SUM).expect("writable");
    let program = program.to_str().expect("UTF-8 temp path");
    let goal_after_loop = |flags: &[&str]| -> Value {
        let (_, text) = prove(program, flags, &dir.path().join("suite.json"));
        let suite: Value = serde_json::from_str(&text).expect("the suite is JSON");
        goals(&suite).into_iter().find(|goal| id(goal) == "Sum/if#1/then").expect("the goal").clone()
    };
    // Past `--max-unroll`, the ladder of exact unrollings (gen::deepen) reaches it at 8:
    // `tests/it/coverage.rs` has a goal past its deepest rung.
    let deepened = goal_after_loop(&["--unroll", "2", "--max-unroll", "2", "--no-search"]);
    assert_eq!(status(&deepened), "covered", "{deepened}");
    let retried = goal_after_loop(&["--unroll", "2", "--max-unroll", "6", "--no-search"]);
    assert_eq!(status(&retried), "covered", "{retried}");
    // The model that missed it is searched around: `n` up to 5 is a few steps from it.
    let searched = goal_after_loop(&["--unroll", "2", "--max-unroll", "2"]);
    assert_eq!(status(&searched), "covered", "{searched}");
}

/// How many `assert false` seeds Boogie reports an error at on `file`.
fn boogie_errors(file: &std::path::Path, flags: &[&str]) -> u64 {
    let boogie =
        std::process::Command::new("boogie").arg(file).arg("/errorLimit:10000").args(flags).output().expect("boogie");
    let stdout = String::from_utf8_lossy(&boogie.stdout);
    stdout.lines().filter(|line| line.contains("Error BP5001")).count() as u64
}

/// Boogie 2.4.1 on `seedgen seed --goals all --unroll 3` reports one error per goal that
/// seedgen reaches with a test or a candidate on the same unrolled, modular encoding
/// (loops past the bound by invariants, calls by contracts), in both ways of counting
/// the goals of nested loops (`--unroll-goals`: a goal of `per-loop` with copies in
/// several iterations of an outer loop is one assertion, which each copy jumps to):
/// every corpus program with a loop, and `SUM`, whose goal after the loop only a model
/// past the bound reaches.
#[test]
#[ignore = "needs Boogie 2.4.1 (`apt-get install boogie`)"]
fn boogie_error_count_matches_reached_goals_unrolled_three_times() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let sum = dir.path().join("sum.bpl");
    std::fs::write(&sum, SUM).expect("writable");
    let corpus = crate::support::correct_corpus_programs();
    let mut programs: Vec<String> = corpus.iter().map(|path| display_name(path)).collect();
    programs.push(sum.display().to_string());
    let mut mismatches = Vec::new();
    for mode in ["per-loop", "combinations"] {
        for name in &programs {
            let flags = ["--goals", "all", "--inline-depth", "0", "--unroll", "3", "--max-unroll", "3"];
            let flags = [&flags[..], &["--unroll-goals", mode]].concat();
            let (summary, text) = prove_expecting(name, &flags, &dir.path().join("suite.json"), &[0, 3]);
            if !has_unrolled_goals(&serde_json::from_str(&text).expect("the suite is JSON")) {
                continue;
            }
            // Goals a model reached count, whether or not its replay did (past the bound too).
            let reached = crate::support::reached_goals(&summary);
            let seeded = seedgen(&["seed", "--goals", "all", "--unroll", "3", "--unroll-goals", mode, name]);
            assert_eq!(seeded.status.code(), Some(0), "{name}");
            let file = dir.path().join("seeded.bpl");
            std::fs::write(&file, &seeded.stdout).expect("writable");
            let mut errors = boogie_errors(&file, &[]);
            if !reached.contains(&errors) {
                // Boogie 2.4.1's abstract interpretation loses a reachable seed of an
                // unrolled graph (`sum_and_max`: `exit@0`, which a replayed test enters:
                // 12 errors of 13 with it, 13 with `/noinfer`), while without it z3 does
                // not finish on `square_root`: a count without it stands too (every error
                // is a model).
                errors = errors.max(boogie_errors(&file, &["/noinfer", "/timeLimit:120"]));
            }
            if !reached.contains(&errors) {
                mismatches.push(format!("{name} ({mode}): Boogie {errors}, seedgen {reached:?}"));
            }
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
