//! Control-flow graphs: every corpus program, and the lowering cases in `tests/cfg/`,
//! lowered and printed back as Boogie, before and after the invariant abstraction
//! (`cut_loops`). Each printout is a reviewed insta snapshot, and reads back through our
//! own front end. Boogie 2.4.1 verifies each printout with the verdict of the original
//! (`boogie_agrees_with_the_printed_graphs`, run with `--ignored` where it is installed).

use crate::support::{bpl_files, check_source, display_name};
use seedgen::cfg::cut::cut_loops;
use seedgen::cfg::loops::find_loops;
use seedgen::cfg::lower::lower_all;
use seedgen::cfg::print::print_program;
use seedgen::cfg::Cfg;
use seedgen::sema::hir;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The checked program of a file and its graphs, which must lower without error.
fn lowered(path: &Path) -> (hir::Program, Vec<Cfg>) {
    let name = display_name(path);
    let text = std::fs::read_to_string(path).expect("test inputs are UTF-8");
    let (_, checked) = check_source(&name, &text);
    let program = checked.hir.unwrap_or_else(|| panic!("{name} checks"));
    let (cfgs, errors) = lower_all(&program);
    assert!(errors.is_empty(), "{name}: {errors:?}");
    (program, cfgs)
}

/// The graphs with every loop cut, which leaves none.
fn cut(program: &hir::Program, cfgs: &[Cfg]) -> Vec<Cfg> {
    let cut: Vec<Cfg> = cfgs.iter().map(|cfg| cut_loops(program, cfg)).collect();
    for graph in &cut {
        assert!(find_loops(program, graph).is_ok_and(|loops| loops.is_empty()), "{}: a loop is left", graph.name);
    }
    cut
}

fn inputs() -> Vec<PathBuf> {
    let mut files = bpl_files("corpus");
    files.extend(bpl_files("tests/cfg"));
    files
}

#[test]
fn lowered_corpus() {
    insta::glob!("../../corpus", "*.bpl", |path| {
        let (program, cfgs) = lowered(path);
        insta::assert_snapshot!(print_program(&program, &cfgs));
    });
}

#[test]
fn cut_corpus() {
    insta::glob!("../../corpus", "*.bpl", |path| {
        let (program, cfgs) = lowered(path);
        insta::assert_snapshot!(print_program(&program, &cut(&program, &cfgs)));
    });
}

#[test]
fn lowered_cases() {
    insta::glob!("../cfg", "*.bpl", |path| {
        let (program, cfgs) = lowered(path);
        insta::assert_snapshot!(print_program(&program, &cfgs));
    });
}

#[test]
fn cut_cases() {
    insta::glob!("../cfg", "*.bpl", |path| {
        let (program, cfgs) = lowered(path);
        insta::assert_snapshot!(print_program(&program, &cut(&program, &cfgs)));
    });
}

/// Every printout parses and checks with our own front end.
#[test]
fn printed_graphs_check_clean() {
    for path in inputs() {
        let (program, cfgs) = lowered(&path);
        let printed =
            [("lowered", print_program(&program, &cfgs)), ("cut", print_program(&program, &cut(&program, &cfgs)))];
        for (kind, text) in printed {
            let name = format!("{} ({kind})", display_name(&path));
            let (db, checked) = check_source(&name, &text);
            assert!(
                checked.diagnostics.is_empty(),
                "{name}:\n{}\n{text}",
                seedgen::diag::render_human_plain(&db, &checked.diagnostics)
            );
        }
    }
}

/// Boogie's summary line: `Boogie program verifier finished with N verified, M errors`.
fn boogie_verdict(file: &Path, options: &[&str]) -> String {
    let output = Command::new("boogie").args(options).arg(file).output().expect("boogie runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let summary = stdout.lines().find(|line| line.starts_with("Boogie program verifier finished"));
    summary.unwrap_or_else(|| panic!("{}: no verdict:\n{stdout}", file.display())).to_string()
}

/// Cross-check with Boogie 2.4.1: the lowered graphs verify exactly as the original
/// does; the cut graphs too, without Boogie's interval inference (`/noinfer`), which
/// strengthens loop invariants that the cut fixes (see `tests/cfg/inferred.bpl`).
#[test]
#[ignore = "needs Boogie 2.4.1 (`apt-get install boogie`)"]
fn boogie_agrees_with_the_printed_graphs() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for path in inputs() {
        let (program, cfgs) = lowered(&path);
        let stem = path.file_stem().expect("a file name").to_string_lossy().to_string();
        let printed = [
            ("lowered", print_program(&program, &cfgs), &[][..]),
            ("cut", print_program(&program, &cut(&program, &cfgs)), &["/noinfer"][..]),
        ];
        for (kind, text, options) in printed {
            let file = dir.path().join(format!("{stem}.{kind}.bpl"));
            std::fs::write(&file, &text).expect("the temporary file is writable");
            let expected = boogie_verdict(&path, options);
            assert_eq!(boogie_verdict(&file, options), expected, "{} ({kind}):\n{text}", display_name(&path));
        }
    }
}
