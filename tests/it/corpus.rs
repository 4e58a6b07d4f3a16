//! Every corpus program parses and type-checks without a single diagnostic.

use crate::support::{bpl_files, check_source, display_name, seedgen};

#[test]
fn corpus_checks_clean() {
    let files = bpl_files("corpus");
    assert!(files.len() >= 10, "corpus holds {} programs", files.len());
    for path in files {
        let name = display_name(&path);
        let text = std::fs::read_to_string(&path).expect("corpus files are UTF-8");
        let (db, checked) = check_source(&name, &text);
        assert!(
            checked.diagnostics.is_empty() && checked.hir.is_some(),
            "{name}:\n{}",
            seedgen::diag::render_human_plain(&db, &checked.diagnostics)
        );
    }
}

#[test]
fn check_command_accepts_the_corpus() {
    let mut args = vec!["check".to_string()];
    args.extend(bpl_files("corpus").iter().map(|path| display_name(path)));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = seedgen(&args);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
}

/// The programs in the style of verifier front ends' output (AutoProof: a polymorphic
/// heap, `Set T` and `Seq T` preludes, coercions, reals, `<:`): the front end accepts
/// them without a diagnostic, and the engine refuses them at the first construct it does
/// not run yet, with exit status 1 and a diagnostic at its span, never a panic.
#[test]
fn front_end_style_programs_check_and_the_engine_says_what_it_does_not_run() {
    let files = bpl_files("corpus/autoproof");
    assert!(files.len() >= 3, "corpus/autoproof holds {} programs", files.len());
    for path in &files {
        let name = display_name(path);
        let text = std::fs::read_to_string(path).expect("corpus files are UTF-8");
        let (db, checked) = check_source(&name, &text);
        assert!(
            checked.diagnostics.is_empty() && checked.hir.is_some(),
            "{name}:\n{}",
            seedgen::diag::render_human_plain(&db, &checked.diagnostics)
        );
        let output = seedgen(&["seed", "--message-format", "short", &name]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{name}: {stderr}");
        assert!(stderr.contains("cannot generate tests for them yet"), "{name}: {stderr}");
    }
}

/// Boogie 2.4.1 verifies every front-end-style program (they are correct programs, so
/// `verify` must agree once the engine runs them).
#[test]
#[ignore = "needs Boogie 2.4.1 (apt-get install boogie)"]
fn boogie_verifies_the_front_end_style_programs() {
    for path in bpl_files("corpus/autoproof") {
        assert_eq!(crate::support::boogie_errors(&path), 0, "{}", path.display());
    }
}
