//! `prove-tests --emit testcomp`: the Test-Comp directories of `simple.bpl` and
//! `nondet.bpl` are reviewed snapshots; an implementation with a map input is left out
//! with a warning at the parameter; on every corpus program the export has one test case
//! per test of the JSON suite, whose first inputs are the test's parameters; an
//! interrupted write leaves the previous export as it was; the files validate against
//! the Test-Comp DTDs (ignored unless xmllint is installed).

use crate::support::{bpl_files, display_name, root, seedgen};
use regex::Regex;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `seedgen prove-tests PROGRAM --emit testcomp -o OUT ARGS`, without the cache.
fn export(program: &str, out: &Path, args: &[&str]) -> Output {
    let out = out.to_str().expect("UTF-8 temp path");
    let mut all = vec!["prove-tests", program, "--emit", "testcomp", "-o", out, "--no-cache", "--quiet"];
    all.extend(args);
    seedgen(&all)
}

/// Every file below `dir` (by its path relative to `dir`, `/`-separated) with its text,
/// in path order.
fn files(dir: &Path) -> Vec<(String, String)> {
    let found = seedgen::suite::files_below(dir).expect("a directory of files");
    let named = |relative: PathBuf| {
        let name: Vec<_> = relative.components().map(|part| part.as_os_str().to_string_lossy().into_owned()).collect();
        (name.join("/"), std::fs::read_to_string(dir.join(&relative)).expect("UTF-8 text"))
    };
    found.into_iter().map(named).collect()
}

/// The inputs of a test case: each `(variable, value)`.
fn inputs(testcase: &str) -> Vec<(Option<String>, String)> {
    let input = Regex::new(r#"<input(?: variable="([^"]*)")?>([^<]*)</input>"#).expect("a valid regex");
    let found = input.captures_iter(testcase);
    found.map(|input| (input.get(1).map(|name| name.as_str().to_string()), input[2].to_string())).collect()
}

#[test]
fn the_testcomp_form_of_simple_and_nondet() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (program, snapshot) in [("corpus/simple.bpl", "simple"), ("corpus/nondet.bpl", "nondet")] {
        let out = dir.path().join(snapshot);
        let output = export(program, &out, &[]);
        assert_eq!(output.status.code(), Some(0), "{program}: {}", String::from_utf8_lossy(&output.stderr));
        let listing: String = files(&out).iter().map(|(name, text)| format!("=== {name}\n{text}")).collect();
        insta::assert_snapshot!(snapshot, listing);
    }
}

#[test]
fn an_implementation_with_a_map_input_is_left_out_with_a_warning() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = dir.path().join("out");
    let output = export("corpus/control_flow.bpl", &out, &["--message-format", "short"]);
    assert_eq!(output.status.code(), Some(0), "a left-out implementation does not change the exit status");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let expected = [
        "corpus/control_flow.bpl:4:24: warning: procedure `FindNegative` is left out of the Test-Comp suite: its \
         parameter `a` is a map",
        "corpus/control_flow.bpl:25:24: warning: procedure `FindInSquare` is left out of the Test-Comp suite: its \
         parameter `m` is a map",
    ];
    assert_eq!(stderr.lines().collect::<Vec<_>>(), expected);
    let names: Vec<String> = files(&out).into_iter().map(|(name, _)| name).collect();
    assert_eq!(names, ["Grade/metadata.xml", "Grade/t1.xml", "Grade/t2.xml", "Grade/t3.xml", "Grade/t4.xml"]);
}

#[test]
fn every_corpus_export_has_a_test_case_per_test_starting_with_its_parameters() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for path in bpl_files("corpus") {
        let name = display_name(&path);
        let (suite_path, out) = (dir.path().join("suite.json"), dir.path().join("out"));
        let suite_arg = suite_path.to_str().expect("UTF-8 temp path");
        let proved = seedgen(&["prove-tests", &name, "-o", suite_arg, "--no-cache", "--quiet"]);
        assert_eq!(proved.status.code(), Some(0), "{name}: {}", String::from_utf8_lossy(&proved.stderr));
        let exported = export(&name, &out, &["--message-format", "short"]);
        assert_eq!(exported.status.code(), Some(0), "{name}: {}", String::from_utf8_lossy(&exported.stderr));
        let suite: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&suite_path).expect("written")).expect("JSON");
        let written = files(&out);
        for procedure in suite["procedures"].as_array().expect("procedures") {
            let implementation = procedure["name"].as_str().expect("a name");
            let tests = procedure["tests"].as_array().expect("tests");
            let own: Vec<&(String, String)> =
                written.iter().filter(|(file, _)| file.starts_with(&format!("{implementation}/"))).collect();
            if own.is_empty() {
                let warning = format!("procedure `{implementation}` is left out of the Test-Comp suite");
                assert!(String::from_utf8_lossy(&exported.stderr).contains(&warning), "{name}: {implementation}");
                continue;
            }
            assert_eq!(own.len(), tests.len() + 1, "{name}: metadata and a test case per test of {implementation}");
            for test in tests {
                let id = test["id"].as_str().expect("an id");
                let file = format!("{implementation}/{}.xml", id.trim_start_matches(&format!("{implementation}/")));
                let (_, text) = own.iter().find(|(found, _)| *found == file).unwrap_or_else(|| panic!("{file}"));
                let params = test["inputs"]["params"].as_array().expect("params");
                let expected: Vec<(Option<String>, String)> = params
                    .iter()
                    .map(|param| {
                        let value = match &param["value"] {
                            serde_json::Value::Bool(value) => u8::from(*value).to_string(),
                            serde_json::Value::String(digits) => digits.clone(),
                            serde_json::Value::Object(bits) if bits.contains_key("bv") => {
                                bits["bv"].as_str().expect("digits").to_string()
                            }
                            serde_json::Value::Object(real) if real.contains_key("real") => {
                                let rational = real["real"].as_str().expect("a rational").parse().expect("n/d");
                                seedgen::cfg::print::decimal_text(&rational)
                            }
                            other => other.to_string(),
                        };
                        (Some(param["name"].as_str().expect("a name").to_string()), value)
                    })
                    .collect();
                assert_eq!(inputs(text)[..params.len()], expected[..], "{name}: {file}");
            }
        }
    }
}

#[test]
#[cfg(unix)] // An aborted process has no exit code, only a signal.
fn a_run_killed_before_the_rename_leaves_the_previous_export_as_it_was() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::copy(root().join("corpus/max.bpl"), dir.path().join("max.bpl")).expect("copyable");
    let run = |fault: Option<&str>| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_seedgen"));
        command.args(["prove-tests", "-q", "max.bpl", "--emit", "testcomp"]).current_dir(dir.path());
        command.env_remove("SEEDGEN_FAULT");
        if let Some(fault) = fault {
            command.env("SEEDGEN_FAULT", fault);
        }
        command.output().expect("runs")
    };
    assert_eq!(run(None).status.code(), Some(0));
    let out = dir.path().join("max.tests.testcomp");
    let before = files(&out);
    // The program's digest is in every `metadata.xml`: an edit changes the export.
    let program = std::fs::read_to_string(dir.path().join("max.bpl")).expect("readable");
    std::fs::write(dir.path().join("max.bpl"), format!("{program}\n// edited\n")).expect("writable");
    assert_eq!(run(Some("abort-before-rename")).status.code(), None, "the hook aborts the process");
    assert_eq!(files(&out), before, "the previous export is untouched");
    let names = std::fs::read_dir(dir.path()).expect("readable").map(|entry| entry.expect("readable").file_name());
    let staged = names.filter(|name| name.to_string_lossy().starts_with(".max.tests.testcomp.")).count();
    assert_eq!(staged, 1, "the aborted write left its staging directory");
    assert_eq!(run(None).status.code(), Some(0));
    assert!(files(&out) != before, "without the fault the export is replaced");
}

#[test]
#[ignore = "needs xmllint (`apt-get install libxml2-utils`)"]
fn exported_files_validate_against_the_testcomp_dtds() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for program in ["corpus/simple.bpl", "corpus/nondet.bpl", "corpus/control_flow.bpl", "corpus/max.bpl"] {
        let out = dir.path().join(program.replace('/', "_"));
        assert_eq!(export(program, &out, &[]).status.code(), Some(0), "{program}");
        for (name, _) in files(&out) {
            let dtd = if name.ends_with("/metadata.xml") { "test-metadata.dtd" } else { "testcase.dtd" };
            let dtd: PathBuf = root().join("tests/testcomp").join(dtd);
            let mut xmllint = Command::new("xmllint");
            let checked = xmllint.args(["--noout", "--nonet", "--dtdvalid"]).arg(&dtd).arg(out.join(&name)).output();
            let checked = checked.expect("xmllint runs");
            assert!(checked.status.success(), "{program}: {name}: {}", String::from_utf8_lossy(&checked.stderr));
        }
    }
}
