//! Small and stable suites: suite reduction, stability under edits,
//! conditional regeneration (`prove-tests --existing`, seeds/002) and `--check`.

use crate::prove::prove_expecting;
use crate::support::{bpl_files, display_name, root, seedgen};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Output;

/// The goals a suite's tests say their runs entered, per test.
fn test_covers(procedure: &Value) -> Vec<BTreeSet<&str>> {
    fn covers(test: &Value) -> BTreeSet<&str> {
        test["covers"].as_array().expect("covers").iter().map(|goal| goal.as_str().expect("an id")).collect()
    }
    procedure["tests"].as_array().expect("tests").iter().map(covers).collect()
}

/// After reduction every covered goal is entered by some test, the goal names the first
/// test entering it, and no test is redundant: each enters a goal no other test enters,
/// or witnesses a failure (its expected outcome is `fail`). With the evaluation's
/// generous timeout (`tests/it/evaluation.rs`): one check of `sc/insertion_sort` takes
/// most of the default 10 s in a release build.
#[test]
fn reduced_suites_cover_every_goal_without_redundant_tests() {
    let mut files = bpl_files("corpus");
    files.extend(bpl_files("corpus/sc"));
    for path in files {
        // What is checked is the reduction of what was found: a check z3 gives up on
        // under the load of a parallel test run (exit 3) changes nothing of it.
        let (summary, suite) = prove_expecting(&path, &["--timeout-ms", "60000"], &[0, 3]);
        let name = display_name(&path);
        for procedure in suite["procedures"].as_array().expect("procedures") {
            let tests = procedure["tests"].as_array().expect("tests");
            let covers = test_covers(procedure);
            for goal in procedure["goals"].as_array().expect("goals").iter().filter(|goal| goal["status"] == "covered")
            {
                let id = goal["id"].as_str().expect("an id");
                let first = covers.iter().position(|covers| covers.contains(id));
                let first = first.unwrap_or_else(|| panic!("{name}: no test enters the covered goal {id}"));
                assert_eq!(goal["test"], tests[first]["id"], "{name}: {id} names the first test entering it");
            }
            for (index, test) in tests.iter().enumerate() {
                let others: BTreeSet<&str> = covers
                    .iter()
                    .enumerate()
                    .filter(|(other, _)| *other != index)
                    .flat_map(|(_, c)| c.clone())
                    .collect();
                let needed = !covers[index].is_subset(&others) || test["expect"]["outcome"] == "fail";
                assert!(needed, "{name}: {} is redundant", test["id"]);
            }
        }
        let totals = &summary["totals"];
        assert!(totals["tests"].as_u64() <= totals["tests_generated"].as_u64(), "{name}: {totals}");
    }
}

/// A scratch copy of a corpus program, and a suite path beside it.
struct Scratch {
    _dir: tempfile::TempDir,
    program: PathBuf,
    suite: PathBuf,
}

impl Scratch {
    fn of(corpus_file: &str) -> Scratch {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let program = dir.path().join(Path::new(corpus_file).file_name().expect("a file name"));
        std::fs::copy(root().join(corpus_file), &program).expect("the corpus file copies");
        let suite = dir.path().join("suite.json");
        Scratch { _dir: dir, program, suite }
    }

    /// Replaces `from` (which must occur once) by `to` in the program.
    fn edit(&self, from: &str, to: &str) {
        let text = std::fs::read_to_string(&self.program).expect("readable");
        assert_eq!(text.matches(from).count(), 1, "`{from}` occurs once");
        std::fs::write(&self.program, text.replace(from, to)).expect("writable");
    }

    fn path(path: &Path) -> &str {
        path.to_str().expect("a UTF-8 temporary path")
    }

    /// `seedgen prove-tests PROGRAM ARGS...`.
    fn prove_tests(&self, args: &[&str]) -> Output {
        let mut all = vec!["prove-tests", Scratch::path(&self.program)];
        all.extend(args);
        seedgen(&all)
    }

    /// Generates the suite at `self.suite`; its text.
    fn generate(&self) -> String {
        let output = self.prove_tests(&["--quiet", "-o", Scratch::path(&self.suite)]);
        assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
        self.suite_text()
    }

    fn suite_text(&self) -> String {
        std::fs::read_to_string(&self.suite).expect("the suite was written")
    }
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).expect("a JSON suite")
}

fn procedure<'a>(suite: &'a Value, name: &str) -> &'a Value {
    let procedures = suite["procedures"].as_array().expect("procedures");
    procedures.iter().find(|procedure| procedure["name"] == name).expect("the procedure is in the suite")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Each procedure's section of a JSON suite, by name, exactly as the file has it: the
/// lines from its opening `{` to its closing `}` in the `procedures` list (a suite is
/// pretty-printed, sections four spaces in).
fn sections(text: &str) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line != "    {" {
            continue;
        }
        let mut section = vec![line];
        for line in lines.by_ref() {
            section.push(line);
            if line.trim_end_matches(',') == "    }" {
                break;
            }
        }
        let name = section[1].strip_prefix("      \"name\": ").expect("a section starts with its name");
        found.insert(name.trim_end_matches(',').trim_matches('"').to_string(), section.join("\n"));
    }
    found
}

/// Stability: editing one procedure changes only its section. Regenerates the suite of
/// `scratch` after each edit (`from` → `to`, made in `changed`, or in no procedure for a
/// new one) and checks that every other procedure's section is byte-identical to its
/// text before the edit.
fn assert_only_its_section_changes(scratch: &Scratch, edits: &[(&str, &str, Option<&str>)]) {
    let mut before = sections(&scratch.generate());
    for &(from, to, changed) in edits {
        scratch.edit(from, to);
        let after = sections(&scratch.generate());
        for (name, section) in &before {
            match changed {
                Some(edited) if edited == name => assert_ne!(&after[name], section, "`{to}` changes {name}"),
                _ => assert_eq!(&after[name], section, "{name}: its section is byte-identical after `{to}`"),
            }
        }
        before = after;
    }
}

/// Regenerating after an edit to one procedure's body changes that procedure's
/// section only, byte for byte: an edit that keeps the line count, one that adds lines
/// above other procedures, and a new procedure above all of them (goal spans are
/// positions in the implementation's text, suite format 3).
#[test]
fn an_edit_to_one_procedure_changes_only_its_section() {
    let scratch = Scratch::of("corpus/control_flow.bpl");
    assert_only_its_section_changes(
        &scratch,
        &[
            ("  else if (score >= 50) { g := 2; }", "  else if (score >= 60) { g := 2; }", Some("Grade")),
            (
                "  i := 0;\n  while (i < n)\n    invariant 0 <= i && i <= n;",
                "  i := 0;\n  if (n > 9) {\n    i := 0;\n  }\n  while (i < n)\n    invariant 0 <= i && i <= n;",
                Some("FindNegative"),
            ),
            (
                "procedure FindNegative(",
                "procedure Sign(x: int) returns (s: int)\n{\n  if (x < 0) {\n    s := -1;\n  } else {\n    s := 1;\n  }\n}\n\n\
                 procedure FindNegative(",
                None,
            ),
        ],
    );
    let suite = json(&scratch.suite_text());
    let first = |name: &str| procedure(&suite, name)["goals"][0]["span"]["line"].clone();
    assert_eq!(first("Sign"), 3, "lines count from the procedure's first line");
}

/// The same for sections with failing tests, unreachable goals, separate
/// `implementation` declarations and global maps, under edits that add and remove
/// lines above them.
#[test]
fn sections_of_every_kind_stay_byte_identical_above_an_edit() {
    let scratch = Scratch::of("corpus/implementation.bpl");
    let program = std::fs::read_to_string(&scratch.program).expect("readable");
    let extra = "\nprocedure Check(x: int)\n{\n  var y: int;\n  if (x > 3) {\n    assert x < 3;\n  }\n  if (x > x) {\n    y := 0;\n  }\n}\n";
    std::fs::write(&scratch.program, format!("{program}{extra}")).expect("writable");
    assert!(scratch.generate().contains("\"outcome\": \"fail\""), "Check has a failing test");
    assert_only_its_section_changes(
        &scratch,
        &[
            ("var counters: [int]int;\n", "var counters: [int]int;\n\n// A note\n// on two lines.\n", None),
            ("implementation Reset(count: int)\n{\n", "implementation Reset(count: int)\n{\n\n\n", Some("Reset")),
            ("// A note\n// on two lines.\n", "", None),
        ],
    );
}
/// Conditional regeneration (seeds/002): on an unchanged program, `--existing` keeps every test, adds
/// none and writes the same bytes.
#[test]
fn existing_on_an_unchanged_program_changes_nothing() {
    for corpus_file in ["corpus/control_flow.bpl", "corpus/nondet.bpl", "corpus/linear_search.bpl"] {
        let scratch = Scratch::of(corpus_file);
        let original = scratch.generate();
        let suite = Scratch::path(&scratch.suite);
        let output = scratch.prove_tests(&["--quiet", "--format", "json", "--existing", suite, "-o", suite]);
        assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
        assert_eq!(scratch.suite_text(), original, "{corpus_file}");
        let totals = json(&stdout(&output))["totals"].clone();
        assert_eq!(totals["tests_generated"], 0, "{corpus_file}: {totals}");
        assert_eq!(totals["tests_kept"], totals["tests"], "{corpus_file}: {totals}");
        assert_eq!(totals["regressions"], 0);
    }
}

/// The same with `--unroll` (goal ids with iterations) and in the Boogie form.
#[test]
fn existing_keeps_unrolled_and_boogie_suites_as_they_are() {
    let scratch = Scratch::of("corpus/linear_search.bpl");
    let suite = Scratch::path(&scratch.suite);
    let args = ["--quiet", "--unroll", "2", "--emit", "bpl", "-o", suite];
    assert_eq!(scratch.prove_tests(&args).status.code(), Some(0));
    let original = scratch.suite_text();
    let output = scratch.prove_tests(&[&args[..], &["--existing", suite]].concat());
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(scratch.suite_text(), original);
}

/// A changed procedure: its tests that fail now are regressions (listed, exit 1, kept
/// in the suite unchanged), the goals only they entered get new tests numbered after
/// the existing ones, and every other test is written exactly as it was.
#[test]
fn existing_reports_regressions_and_tests_only_the_goals_left() {
    let scratch = Scratch::of("corpus/control_flow.bpl");
    let before = json(&scratch.generate());
    scratch.edit("if (score >= 90) { g := 4; }", "if (score >= 90) { g := 3; }");
    let out = scratch.suite.with_file_name("regenerated.json");
    let args = ["--existing", Scratch::path(&scratch.suite), "-o", Scratch::path(&out)];
    let output = scratch.prove_tests(&args);
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    let printed = stdout(&output);
    assert!(printed.contains("1 regression: tests of the existing suite that no longer pass"), "{printed}");
    assert!(printed.contains("FAIL    Grade/t"), "{printed}");
    let after = json(&std::fs::read_to_string(&out).expect("written"));
    for name in ["FindNegative", "FindInSquare"] {
        assert_eq!(procedure(&before, name)["tests"], procedure(&after, name)["tests"], "{name}");
    }
    let (old, new) = (procedure(&before, "Grade"), procedure(&after, "Grade"));
    let old_tests = old["tests"].as_array().expect("tests");
    let new_tests = new["tests"].as_array().expect("tests");
    assert_eq!(&new_tests[..old_tests.len()], &old_tests[..], "every old test is written unchanged");
    assert_eq!(new_tests.len(), old_tests.len() + 1, "one new test for the goal the regression entered");
    let new_id = new_tests.last().expect("a new test")["id"].as_str().expect("an id").to_string();
    assert_eq!(new_id, format!("Grade/t{}", old_tests.len() + 1));
    let then = new["goals"].as_array().expect("goals").iter().find(|goal| goal["id"] == "Grade/if#1/then");
    assert_eq!(then.expect("the goal")["test"], new_id.as_str());

    // Regenerating from the regenerated suite: the regression stays a regression, the
    // new test is kept, nothing more is generated.
    let args = ["--existing", Scratch::path(&out), "--check", Scratch::path(&out)];
    let output = scratch.prove_tests(&args);
    assert_eq!(output.status.code(), Some(1), "the regression remains");
    assert!(stdout(&output).contains("is up to date"), "{}", stdout(&output));
}

/// `--check`: exit 0 when regeneration writes the same bytes, 1 when it would change the
/// suite (saying which procedures and goals, how many tests), 2 when the suite cannot be
/// read; it never writes.
#[test]
fn check_says_whether_the_suite_is_stale() {
    let scratch = Scratch::of("corpus/control_flow.bpl");
    let original = scratch.generate();
    let suite = Scratch::path(&scratch.suite);
    let output = scratch.prove_tests(&["--check", suite]);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout(&output).contains("is up to date"));

    scratch.edit(
        "  else if (score >= 50) { g := 2; }",
        "  else if (score >= 50) { if (score == 55) { g := 2; } else { g := 2; } }",
    );
    let output = scratch.prove_tests(&["--check", suite]);
    assert_eq!(output.status.code(), Some(1));
    let printed = stdout(&output).replace(suite, "SUITE");
    insta::assert_snapshot!(printed);
    assert_eq!(scratch.suite_text(), original, "--check writes nothing");

    let missing = scratch.suite.with_file_name("missing.json");
    let output = scratch.prove_tests(&["--check", Scratch::path(&missing)]);
    assert_eq!(output.status.code(), Some(2));
    assert!(!missing.exists(), "--check creates nothing");
    std::fs::write(&scratch.suite, "{ not a suite").expect("writable");
    assert_eq!(scratch.prove_tests(&["--check", suite]).status.code(), Some(2));
}

/// A suite generated with other options has other goal ids: `--existing` refuses it.
#[test]
fn existing_needs_the_suites_options() {
    let scratch = Scratch::of("corpus/linear_search.bpl");
    scratch.generate();
    let suite = Scratch::path(&scratch.suite);
    let output = scratch.prove_tests(&["--unroll", "2", "--existing", suite, "-o", "/dev/null"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("other options"));
}

/// Suite format 3 changed only goal spans, which no command reads: a committed suite of
/// version 2 still runs, is regenerated by `--existing` (as version 4, its tests kept
/// unchanged), and `--check` calls it stale for its format alone, not for its spans.
#[test]
fn a_version_2_suite_still_runs_and_checks_stale() {
    let scratch = Scratch::of("tests/hostile/max.bpl");
    for old in ["max.tests.json", "max.tests.bpl"] {
        let text = std::fs::read_to_string(root().join("tests/hostile").join(old)).expect("readable");
        assert!(text.contains("\"version\": 2") || text.contains("\"seedgen-suite\", 2}"), "{old} is of version 2");
        let suite = scratch.suite.with_file_name(old);
        std::fs::write(&suite, &text).expect("writable");
        let program = Scratch::path(&scratch.program);
        let output = seedgen(&["run-tests", program, Scratch::path(&suite)]);
        assert_eq!(output.status.code(), Some(0), "{old}: {}", stdout(&output));
        if old.ends_with(".bpl") {
            continue;
        }
        let output = scratch.prove_tests(&["--no-cache", "--check", Scratch::path(&suite)]);
        assert_eq!(output.status.code(), Some(1), "{old}");
        let printed = stdout(&output);
        assert!(printed.contains("suite format seedgen-suite 2 → seedgen-suite 4"), "{printed}");
        assert!(!printed.contains("span"), "spans are not compared across versions: {printed}");
        let out = scratch.suite.with_file_name("regenerated.json");
        let output = scratch.prove_tests(&["--existing", Scratch::path(&suite), "-o", Scratch::path(&out)]);
        assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
        let (old, new) = (json(&text), json(&std::fs::read_to_string(&out).expect("written")));
        assert_eq!(new["version"], 4);
        for name in ["Max", "Max3"] {
            assert_eq!(procedure(&old, name)["tests"], procedure(&new, name)["tests"], "{name}: tests kept");
        }
    }
}
