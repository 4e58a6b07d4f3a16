//! `prove-tests --emit bpl`: the Boogie form of every corpus program's suite (the
//! correct programs of `corpus/`, `corpus/sc/` and `corpus/faults/`, and the polymorphic
//! AutoProof-style programs of `corpus/autoproof/`) states every value as a Boogie
//! expression in a statement of its own, reads back as exactly its JSON suite and replays
//! with the same verdicts and coverage; the forms of `simple.bpl`, `nondet.bpl`,
//! `types_axioms.bpl`, the queue, a sorting program and an AutoProof-style account are
//! reviewed snapshots (solver values included: Z3's seed is fixed); a broken suite of
//! either form is an input error (exit 2) with a diagnostic at its place in the suite
//! file; appended to its program, the Boogie form type-checks with Boogie (ignored unless
//! Boogie is installed).

use crate::support::{bpl_files, check_source, correct_corpus_programs, display_name, seedgen};
use seedgen::diag::render_short;
use seedgen::source::FileId;
use seedgen::suite::{json, load};
use seedgen::syntax::{self, ast};
use std::path::{Path, PathBuf};

/// The programs whose suites the Boogie form is checked on: the correct corpus programs,
/// the polymorphic ones (heaps, `Seq T`, `Set T`), and the heaps of `tests/mono/` (a
/// global heap, a heap parameter and result).
fn suite_programs() -> Vec<PathBuf> {
    let mut programs = correct_corpus_programs();
    programs.extend(bpl_files("corpus/autoproof"));
    let heaps = bpl_files("tests/mono")
        .into_iter()
        .filter(|path| path.ends_with("heap.bpl") || path.ends_with("heap_param.bpl"));
    programs.extend(heaps);
    programs
}

/// The suite of `program` in the form `emit`, as written to `suite`.
fn prove(program: &str, emit: &str, suite: &Path) -> String {
    let suite_arg = suite.to_str().expect("UTF-8 temp path");
    let output = seedgen(&["prove-tests", "--quiet", "--emit", emit, program, "-o", suite_arg]);
    assert_eq!(output.status.code(), Some(0), "{program}: {}", String::from_utf8_lossy(&output.stderr));
    std::fs::read_to_string(suite).expect("the suite was written")
}

fn run_tests(program: &str, suite: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["run-tests", "--quiet", program, suite.to_str().expect("UTF-8 temp path")];
    args.extend(extra);
    seedgen(&args)
}

#[test]
fn every_corpus_suite_in_the_boogie_form_is_its_json_suite_and_replays_alike() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for path in suite_programs() {
        let name = display_name(&path);
        let (json_path, bpl_path) = (dir.path().join("suite.json"), dir.path().join("suite.tests.bpl"));
        let json_text = prove(&name, "json", &json_path);
        let bpl_text = prove(&name, "bpl", &bpl_path);
        assert!(!bpl_text.trim_start().starts_with('{'), "{name}: the Boogie form is told from JSON by its start");
        let expected: json::Suite = serde_json::from_str(&json_text).expect("the JSON suite reads");
        assert_eq!(load::read(&bpl_text), Ok(expected), "{name}: the Boogie form reads back as the JSON suite");
        // Appended to the program, it is a program for seedgen's front end too (Boogie's
        // own check is the ignored test below).
        let program = std::fs::read_to_string(&path).expect("the corpus program");
        let (db, checked) = check_source(&name, &format!("{program}\n{bpl_text}"));
        let errors: Vec<String> = checked.diagnostics.iter().map(|diagnostic| render_short(&db, diagnostic)).collect();
        assert!(!checked.has_errors(), "{name}: the program with its tests appended:\n{}", errors.join("\n"));
        let in_attributes = values_in_attributes(&bpl_text);
        assert_eq!(in_attributes, Vec::<(String, String)>::new(), "{name}: every value is a Boogie expression");

        let from_json = run_tests(&name, &json_path, &["--format", "json"]);
        let from_bpl = run_tests(&name, &bpl_path, &["--format", "json"]);
        assert_eq!(from_bpl.status.code(), Some(0), "{name}: {}", String::from_utf8_lossy(&from_bpl.stderr));
        assert_eq!(from_json.status.code(), Some(0), "{name}: {}", String::from_utf8_lossy(&from_json.stderr));
        assert_eq!(
            String::from_utf8_lossy(&from_bpl.stdout),
            String::from_utf8_lossy(&from_json.stdout),
            "{name}: the same verdicts and coverage from either form"
        );
    }
}

/// Every value of a test that the Boogie form `text` does not state as Boogie, with the
/// test's id: a value inside an attribute string (a solver's text the decoder could not
/// show as a table, a whole function table as JSON), and a value carried by the tag of an
/// `assume` or `assert` (`assume {:global "g", v} true;`), which asserts nothing for
/// Boogie. Only the call's attributes (the trace, `{:uninitialized}`) hold values, as
/// Boogie expressions: no statement of the caller can make a choice of the callee.
fn values_in_attributes(text: &str) -> Vec<(String, String)> {
    let (program, errors) = syntax::parse(FileId(0), text);
    assert!(errors.is_empty(), "the Boogie form parses");
    let mut found = Vec::new();
    for decl in &program.decls {
        let ast::Decl::Procedure(test) = decl else { continue };
        let id = match test.attrs.first().and_then(|attr| attr.args.first()) {
            Some(ast::AttrArg::Str { value, .. }) => value.clone(),
            _ => panic!("a test procedure starts with its `{{:seedgen_test}}`"),
        };
        for stmt in &test.body.as_ref().expect("a test has a body").stmts {
            let (attrs, on_a_statement) = match &stmt.kind {
                ast::StmtKind::Assume { attrs, .. } | ast::StmtKind::Assert { attrs, .. } => (attrs, true),
                ast::StmtKind::Call(call) => (&call.attrs, false),
                _ => continue,
            };
            for attr in attrs {
                // The arguments that are values: the last of a fact's tag, a trace entry,
                // `{:uninitialized}` and `{:function_default}`; every one of a table.
                let values = match attr.name.name.as_str() {
                    "function_table" => attr.args.get(1..).unwrap_or_default(),
                    "expect" | "trace_goto" | "instance" => continue,
                    _ if on_a_statement && attr.args.len() < 2 => continue,
                    _ => attr.args.get(attr.args.len().saturating_sub(1)..).unwrap_or_default(),
                };
                for arg in values {
                    match arg {
                        ast::AttrArg::Str { value, .. } => {
                            let value = serde_json::from_str::<String>(&format!("\"{value}\"")).expect("a JSON string");
                            found.push((id.clone(), value));
                        }
                        ast::AttrArg::Expr(expr) if on_a_statement => {
                            found.push((id.clone(), seedgen::syntax::printer::print_expr(expr)));
                        }
                        ast::AttrArg::Expr(_) => {}
                    }
                }
            }
        }
    }
    found
}

#[test]
fn the_boogie_form_of_the_reviewed_suites() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let programs = [
        ("corpus/simple.bpl", "simple"),
        ("corpus/nondet.bpl", "nondet"),
        ("corpus/types_axioms.bpl", "types_axioms"),
        ("corpus/sc/queue.bpl", "queue"),
        ("corpus/sc/insertion_sort.bpl", "insertion_sort"),
        ("corpus/autoproof/account.bpl", "account"),
    ];
    for (program, snapshot) in programs {
        let text = prove(program, "bpl", &dir.path().join("suite.bpl"));
        insta::assert_snapshot!(snapshot, text);
    }
}

#[test]
#[ignore = "needs Boogie 2.4.1 (`apt-get install boogie`)"]
fn boogie_type_checks_every_corpus_program_with_its_tests_appended() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for path in suite_programs() {
        let name = display_name(&path);
        let tests = prove(&name, "bpl", &dir.path().join("suite.bpl"));
        let program = std::fs::read_to_string(&path).expect("the corpus program");
        let combined = dir.path().join("combined.bpl");
        std::fs::write(&combined, format!("{program}\n{tests}")).expect("writable");
        let boogie = std::process::Command::new("boogie").arg(&combined).arg("/noVerify").output().expect("boogie");
        let stdout = String::from_utf8_lossy(&boogie.stdout);
        assert!(stdout.contains("finished with 0 verified, 0 errors"), "{name}:\n{stdout}");
    }
}

#[test]
fn the_default_path_of_the_boogie_form_is_beside_the_program() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let program = dir.path().join("simple.bpl");
    std::fs::copy("corpus/simple.bpl", &program).expect("a copy of the corpus program");
    let program_arg = program.to_str().expect("UTF-8 temp path");
    let output = seedgen(&["prove-tests", "--quiet", "--emit", "bpl", program_arg]);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let suite = dir.path().join("simple.tests.bpl");
    assert_eq!(run_tests(program_arg, &suite, &[]).status.code(), Some(0));
}

/// Writes `text` as the suite `file` in `dir`, runs `run-tests` on `program` with it,
/// and returns its stderr with `dir` shown as `$DIR`, after checking the exit status 2.
fn broken(dir: &Path, program: &str, file: &str, text: &str, format: &str) -> String {
    let suite = dir.join(file);
    std::fs::write(&suite, text).expect("writable");
    let output = run_tests(program, &suite, &["--message-format", format]);
    let stderr = String::from_utf8_lossy(&output.stderr).replace(dir.to_str().expect("UTF-8 temp path"), "$DIR");
    assert_eq!(output.status.code(), Some(2), "{file}: {stderr}");
    stderr
}

#[test]
fn broken_suites_of_either_form_are_diagnostics_at_their_place() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let bpl = prove("corpus/simple.bpl", "bpl", &dir.path().join("simple.tests.bpl"));
    let json_text = prove("corpus/simple.bpl", "json", &dir.path().join("simple.json"));
    let broken_value = r#"{\"type\":\"Nope\",\"elem\":0}"#;
    let cases = [
        ("syntax.bpl", bpl.replacen("assert x == 4;", "assert x == ;", 1)),
        ("unknown_attribute.bpl", bpl.replacen("{:covers", "{:coverz", 1)),
        ("bad_value.bpl", bpl.replacen("a := 2;", &format!("assume {{:param \"a\", \"{broken_value}\"}} true;"), 1)),
        ("truncated.json", json_text[..json_text.len() / 2].to_string()),
        ("bad_value.json", json_text.replacen("\"value\": 2", "\"value\": {\"type\": \"Nope\", \"elem\": 0}", 1)),
    ];
    let mut report = String::new();
    for (file, text) in &cases {
        assert_ne!(text, if file.ends_with("json") { &json_text } else { &bpl }, "{file}: the edit applies");
        report.push_str(&broken(dir.path(), "corpus/simple.bpl", file, text, "short"));
    }
    insta::assert_snapshot!("broken_suites_short", report);

    let (file, text) = &cases[0];
    let human = broken(dir.path(), "corpus/simple.bpl", file, text, "human");
    assert!(human.contains("error: not a suite file: unexpected `;`") && human.contains("assert x == ;"), "{human}");
    let json_line = broken(dir.path(), "corpus/simple.bpl", file, text, "json");
    let diagnostic: serde_json::Value = serde_json::from_str(json_line.trim()).expect("one JSON diagnostic");
    assert_eq!(diagnostic["file"], "$DIR/syntax.bpl");
    assert!(diagnostic["line"].as_u64().is_some_and(|line| line > 1), "{diagnostic}");
}
