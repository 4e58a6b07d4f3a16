//! Every input kept under `fuzz/regressions/<target>/` replays its fuzz target's oracle
//! on each `cargo test`: the front end does not crash and a clean program prints back
//! to the same text (`frontend`); solver and interpreter agree on the suite of the
//! generated program (`pipeline`: a `.bpl` file is a described `testgen::Case`, any
//! other file the generator's bytes); the suite reader does not crash (`suite_reader`);
//! Boogie and seedgen agree on reachability (`boogie_judge`, described cases; ignored:
//! it needs Boogie 2.4.1).

use crate::support::{check_source, root};
use seedgen::syntax::printer::print_program;
use seedgen::testgen::{self, suites, Case};
use std::path::PathBuf;

/// The kept inputs of one target, sorted, without its README.
fn inputs(target: &str) -> Vec<PathBuf> {
    let dir = root().join("fuzz/regressions").join(target);
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| path.extension().is_none_or(|ext| ext != "md"))
        .collect();
    inputs.sort();
    inputs
}

#[test]
fn fuzz_regressions_do_not_crash() {
    for path in inputs("frontend") {
        let bytes = std::fs::read(&path).expect("readable regression input");
        let Ok(text) = String::from_utf8(bytes) else { continue };
        let (_, checked) = check_source("regression.bpl", &text);
        if checked.diagnostics.is_empty() {
            let printed = print_program(&checked.ast);
            let (_, again) = check_source("printed.bpl", &printed);
            assert_eq!(print_program(&again.ast), printed, "{}", path.display());
        }
    }
}

#[test]
fn pipeline_regressions_agree() {
    for path in inputs("pipeline") {
        let bytes = std::fs::read(&path).expect("readable regression input");
        let case = match path.extension().is_some_and(|ext| ext == "bpl") {
            true => Case::from_description(&String::from_utf8(bytes).expect("UTF-8")).expect("a described case"),
            false => testgen::generate(&bytes),
        };
        if let Err(disagreement) = testgen::oracle::check(&case) {
            panic!("{}: {disagreement}\n{}", path.display(), case.describe());
        }
    }
}

#[test]
#[ignore = "needs Boogie 2.4.1 (`apt-get install boogie`)"]
fn boogie_judge_regressions_agree() {
    let boogie = PathBuf::from(std::env::var_os("BOOGIE").unwrap_or_else(|| "boogie".into()));
    for path in inputs("boogie_judge") {
        let text = std::fs::read_to_string(&path).expect("readable regression input");
        let case = Case::from_description(&text).expect("a described case");
        if let Err(disagreement) = testgen::judge::judge(&case, &boogie) {
            panic!("{}: {disagreement}\n{}", path.display(), case.describe());
        }
        // The suite agrees with its replays too.
        if let Err(disagreement) = testgen::oracle::check(&case) {
            panic!("{}: {disagreement}\n{}", path.display(), case.describe());
        }
    }
}

#[test]
fn suite_reader_regressions_do_not_crash() {
    let readers: Vec<suites::Reader> = suites::PROGRAMS
        .iter()
        .map(|name| suites::Reader::new(name, &std::fs::read_to_string(root().join(name)).expect("readable")))
        .collect();
    for path in inputs("suite_reader") {
        let bytes = std::fs::read(&path).expect("readable regression input");
        if let Some((program, text)) = suites::split(&bytes) {
            readers[program].read(text);
        }
    }
}
