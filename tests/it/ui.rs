//! `tests/ui/*.bpl`: malformed and ill-typed programs. Each one's diagnostics are an
//! insta snapshot (human and short renderings), and `seedgen check` exits 1 on it.

use crate::support::{bpl_files, check_report, display_name, seedgen};

#[test]
fn ui_diagnostics() {
    insta::glob!("../ui", "*.bpl", |path| {
        let text = std::fs::read_to_string(path).expect("ui inputs are UTF-8");
        let name = display_name(path);
        let report = check_report(&name, &text);
        assert!(report.contains("error"), "{name} should be rejected:\n{report}");
        insta::assert_snapshot!(report);
    });
}

#[test]
fn ui_inputs_exit_with_status_1() {
    let files = bpl_files("tests/ui");
    assert!(files.len() >= 40, "tests/ui holds {} inputs", files.len());
    for path in files {
        let name = display_name(&path);
        let output = seedgen(&["check", "--quiet", &name]);
        assert_eq!(output.status.code(), Some(1), "{name}: {}", String::from_utf8_lossy(&output.stderr));
        assert!(!output.stderr.is_empty(), "{name}: no diagnostic");
    }
}
