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
