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
/// them without a diagnostic, and the engine runs every one (monomorphized, reals exact).
#[test]
fn front_end_style_programs_check_and_the_engine_runs_them() {
    let files = bpl_files("corpus/autoproof");
    assert!(files.len() >= 5, "corpus/autoproof holds {} programs", files.len());
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
        assert_eq!(output.status.code(), Some(0), "{name}: {stderr}");
    }
}

/// `verify` reports failing exactly the implementations whose invariant check Boogie
/// 2.4.1 reports failing (`stack.bpl`'s `wipe`, `registry.bpl`'s `unregister`, where z3
/// gives up and a run found near its candidate fails), and verifies the correct programs.
#[test]
fn verify_finds_the_bug_of_the_front_end_style_stack() {
    let failing_programs = [
        ("bag", None),
        ("stack", Some("stack.bpl:119:5: error: assertion might not hold")),
        ("registry", Some("registry.bpl:71:5: error: assertion might not hold")),
    ];
    for (program, failing) in failing_programs {
        let path = format!("corpus/autoproof/{program}.bpl");
        let output = seedgen(&["verify", "--message-format", "short", &path]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        let errors: Vec<&str> = stderr.lines().filter(|line| line.contains(": error: ")).collect();
        match failing {
            None => assert_eq!((output.status.code(), errors.len()), (Some(0), 0), "{path}: {stderr}"),
            Some(error) => {
                assert_eq!(output.status.code(), Some(1), "{path}: {stderr}");
                assert!(errors.len() == 1 && errors[0].ends_with(error), "{path}: {stderr}");
            }
        }
    }
}

/// Boogie 2.4.1 verifies every front-end-style program but the two with a real bug,
/// where it reports one failing assertion (the invariant check of `stack.bpl`'s `wipe`
/// and of `registry.bpl`'s `unregister`).
#[test]
#[ignore = "needs Boogie 2.4.1 (apt-get install boogie)"]
fn boogie_verifies_the_front_end_style_programs() {
    for path in bpl_files("corpus/autoproof") {
        let buggy = ["stack.bpl", "registry.bpl"].iter().any(|name| path.ends_with(name));
        assert_eq!(crate::support::boogie_errors(&path), usize::from(buggy), "{}", path.display());
    }
}
