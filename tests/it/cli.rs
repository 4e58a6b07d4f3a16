//! The `check` command's contract: exit statuses, message formats, hostile inputs.

use crate::support::{pseudo_random, seedgen};
use std::io::Write;

fn write_temp(bytes: &[u8]) -> tempfile::NamedTempFile {
    let mut file = tempfile::Builder::new().suffix(".bpl").tempfile().expect("temp file");
    file.write_all(bytes).expect("write temp file");
    file
}

fn check_bytes(bytes: &[u8], extra: &[&str]) -> (Option<i32>, String, String) {
    let file = write_temp(bytes);
    let path = file.path().to_str().expect("temp paths are UTF-8").to_string();
    let mut args = vec!["check", path.as_str()];
    args.extend(extra);
    let output = seedgen(&args);
    let stderr = String::from_utf8_lossy(&output.stderr).replace(&path, "FILE");
    (output.status.code(), String::from_utf8_lossy(&output.stdout).into_owned(), stderr)
}

#[test]
fn clean_file_exits_0() {
    let (code, _, stderr) = check_bytes(b"procedure P() { }", &[]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stderr.trim(), "checked 1 file: no problems");
}

#[test]
fn empty_file_is_a_valid_program() {
    let (code, _, _) = check_bytes(b"", &["--quiet"]);
    assert_eq!(code, Some(0));
}

#[test]
fn missing_file_exits_2() {
    let output = seedgen(&["check", "no/such/file.bpl"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.starts_with("seedgen: error: cannot read `no/such/file.bpl`"), "{stderr}");
}

#[test]
fn bad_flag_exits_2() {
    assert_eq!(seedgen(&["check", "--no-such-flag", "x.bpl"]).status.code(), Some(2));
    assert_eq!(seedgen(&["check", "--message-format", "xml", "x.bpl"]).status.code(), Some(2));
    assert_eq!(seedgen(&["frobnicate"]).status.code(), Some(2));
}

#[test]
fn invalid_utf8_exits_2_with_the_offset() {
    let (code, _, stderr) = check_bytes(b"procedure P() { }\n\xff\xfe", &[]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("not valid UTF-8") && stderr.contains("byte offset 18"), "{stderr}");
}

#[test]
fn short_format_is_one_line_per_diagnostic() {
    let (code, _, stderr) =
        check_bytes(b"procedure P() {\n  x := 1;\n  assert y;\n}\n", &["--message-format", "short"]);
    assert_eq!(code, Some(1));
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(lines[0].starts_with("FILE:2:3: error: "), "{stderr}");
    assert!(lines[1].starts_with("FILE:3:10: error: "), "{stderr}");
}

#[test]
fn json_format_is_one_object_per_line() {
    let (code, _, stderr) = check_bytes(b"procedure P() {\n  x := 1;\n}\n", &["--message-format", "json"]);
    assert_eq!(code, Some(1));
    let value: serde_json::Value = serde_json::from_str(stderr.lines().next().expect("one line")).expect("JSON");
    assert_eq!(value["severity"], "error");
    assert_eq!(value["line"], 2);
    assert_eq!(value["column"], 3);
    assert_eq!(value["end_column"], 4);
    assert!(value["labels"].as_array().is_some_and(|labels| !labels.is_empty()));
}

#[test]
fn deep_bracket_nesting_is_a_diagnostic() {
    let source = format!("axiom {}true{};", "(".repeat(100_000), ")".repeat(100_000));
    let (code, _, stderr) = check_bytes(source.as_bytes(), &["--message-format", "short"]);
    assert_eq!(code, Some(1));
    assert!(stderr.contains("nested more than"), "{stderr}");
}

#[test]
fn deep_block_nesting_is_a_diagnostic() {
    let source = format!("procedure P() {{ {} }}", "if (true) {".repeat(100_000) + &"}".repeat(100_000));
    let (code, _, stderr) = check_bytes(source.as_bytes(), &["--message-format", "short"]);
    assert_eq!(code, Some(1));
    assert!(stderr.contains("nested more than"), "{stderr}");
}

#[test]
fn long_operator_chains_are_a_diagnostic_not_a_crash() {
    let source = format!("axiom 0{} == 0;", " + 1".repeat(200_000));
    let (code, _, stderr) = check_bytes(source.as_bytes(), &["--message-format", "short"]);
    assert_eq!(code, Some(1));
    assert!(stderr.contains("expression nested more than"), "{stderr}");
    let source = format!("axiom {}true;", "!".repeat(200_000));
    let (code, _, _) = check_bytes(source.as_bytes(), &["--quiet"]);
    assert_eq!(code, Some(1));
}

#[test]
fn huge_literal_is_a_diagnostic() {
    let source = format!("axiom {} > 0;", "7".repeat(200_000));
    let (code, _, stderr) = check_bytes(source.as_bytes(), &["--message-format", "short"]);
    assert_eq!(code, Some(1));
    assert!(stderr.contains("integer literal too long"), "{stderr}");
}

#[test]
fn ten_thousand_digit_literal_is_fine() {
    let source = format!("const c: int; axiom c == {};", "7".repeat(10_000));
    let (code, _, stderr) = check_bytes(source.as_bytes(), &["--quiet"]);
    assert_eq!(code, Some(0), "{stderr}");
}

#[test]
fn garbage_gives_few_diagnostics() {
    // Printable ASCII: valid UTF-8 that is nonsense as Boogie.
    let garbage: Vec<u8> =
        pseudo_random(0x9e37_79b9_7f4a_7c15, 2_000_000).map(|number| b' ' + (number % 95) as u8).collect();
    let (code, _, stderr) = check_bytes(&garbage, &["--message-format", "short"]);
    assert_eq!(code, Some(1));
    assert!(stderr.lines().count() <= 60, "{} lines", stderr.lines().count());
}

#[test]
fn errors_are_reported_for_every_file() {
    let good = write_temp(b"procedure P() { }");
    let bad = write_temp(b"procedure Q() { assert 1; }");
    let output = seedgen(&[
        "check",
        "--message-format",
        "short",
        good.path().to_str().expect("UTF-8"),
        bad.path().to_str().expect("UTF-8"),
        "missing.bpl",
    ]);
    // An unreadable file outranks program errors: the run is incomplete.
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("error: ") && stderr.contains("missing.bpl"), "{stderr}");
}

#[test]
fn dump_ast_prints_the_program_back() {
    let (code, stdout, _) = check_bytes(b"procedure P(x: int) returns (y: int) { y := x + 1; }", &["--dump", "ast"]);
    assert_eq!(code, Some(0));
    assert!(stdout.contains("y := x + 1;"), "{stdout}");
}

#[test]
fn dump_prints_every_later_stage() {
    let dump = |stage: &str| {
        let output = seedgen(&["check", "--quiet", "--dump", stage, "corpus/linear_search.bpl"]);
        assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).expect("UTF-8")
    };
    assert!(dump("cfg").contains("// while#1/body"));
    assert!(dump("cut").contains("havoc"));
    let smt2 = dump("smt2");
    assert!(smt2.starts_with("; implementation LinearSearch") && smt2.contains("(assert"));
}

#[test]
fn dump_unroll_shows_the_unrolled_graphs_and_their_larger_encoding() {
    let dump = |stage: &str, unroll: &str| {
        let output = seedgen(&["check", "--quiet", "--dump", stage, "--unroll", unroll, "corpus/linear_search.bpl"]);
        assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).expect("UTF-8")
    };
    let cut = dump("cut", "2");
    assert!(cut.contains("while#1/body@2") && !cut.contains("while#1/body@3"));
    assert!(dump("smt2", "2").len() > dump("smt2", "0").len());
    let output = seedgen(&["check", "--unroll", "2", "corpus/linear_search.bpl"]);
    assert_eq!(output.status.code(), Some(2), "--unroll needs --dump");
}

/// A program written as SMACK writes them, without `modifies` clauses: rejected as it
/// stands, and with `--infer-modifies` checked, covered and replayed by every command.
#[test]
fn infer_modifies_reads_programs_without_modifies_clauses() {
    let source = b"var count: int; var log: [int]int;
        procedure Record(x: int) { log[count] := x; count := count + 1; }
        procedure Main(x: int) { if (x > 0) { call Record(x); } assert count >= old(count); }
        ";
    let (code, _, stderr) = check_bytes(source, &[]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("add `modifies log;` to procedure `Record`"), "{stderr}");
    let (code, _, stderr) = check_bytes(source, &["--infer-modifies"]);
    assert_eq!(code, Some(0), "{stderr}");
    let program = write_temp(source);
    let dir = tempfile::tempdir().expect("temp dir");
    let suite = dir.path().join("suite.json");
    let (program, suite) = (program.path().to_str().expect("UTF-8"), suite.to_str().expect("UTF-8"));
    let generated =
        seedgen(&["prove-tests", program, "--infer-modifies", "--no-cache", "-o", suite, "--require-coverage"]);
    assert_eq!(generated.status.code(), Some(0), "{}", String::from_utf8_lossy(&generated.stderr));
    let replayed = seedgen(&["run-tests", program, suite, "--infer-modifies"]);
    assert_eq!(replayed.status.code(), Some(0), "{}", String::from_utf8_lossy(&replayed.stderr));
    // `verify` models the call by `Record`'s contract, which says nothing of `count`
    // beyond the inferred `modifies`: the assertion fails there, as Boogie says too.
    let verified = seedgen(&["verify", program, "--infer-modifies"]);
    let stderr = String::from_utf8_lossy(&verified.stderr);
    assert_eq!(verified.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("`Record` is known by its contract only"), "{stderr}");
}
