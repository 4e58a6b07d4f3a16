//! Every input under `fuzz/regressions/` runs through the front end without a panic,
//! and a clean one prints back to a program that parses to the same text.

use crate::support::{check_source, root};
use seedgen::syntax::printer::print_program;

#[test]
fn fuzz_regressions_do_not_crash() {
    let dir = root().join("fuzz/regressions/frontend");
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .expect("fuzz/regressions/frontend exists")
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| path.extension().is_none_or(|ext| ext != "md"))
        .collect();
    inputs.sort();
    for path in inputs {
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
