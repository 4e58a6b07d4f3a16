//! `verify`: the diagnostics of every failing program in `tests/verify/` (each failure
//! with its failing test) are reviewed snapshots; every corpus program verifies; and
//! Boogie 2.4.1 reports as many errors as we report failures, on both (ignored unless
//! Boogie is installed). A file whose count Boogie cannot match says so in a
//! `// boogie-errors: N` line, with the reason beside it.

use crate::support::{bpl_files, check_source, display_name};
use seedgen::cfg::lower::lower_all;
use seedgen::diag::render_human_plain;
use seedgen::smt::SessionOptions;
use seedgen::verify::{self, ImplementationVerdict, Outcome};
use std::path::Path;

/// The verdicts on a file that checks and lowers, and its rendered diagnostics.
fn verified(path: &Path) -> (Vec<ImplementationVerdict>, String) {
    let name = display_name(path);
    let text = std::fs::read_to_string(path).expect("test inputs are UTF-8");
    let (db, checked) = check_source(&name, &text);
    let program = checked.hir.unwrap_or_else(|| panic!("{name} checks"));
    let (cfgs, errors) = lower_all(&program);
    assert!(errors.is_empty(), "{name}: {errors:?}");
    let verdicts = verify::verify(&program, &cfgs, &SessionOptions::default());
    let rendered = render_human_plain(&db, &verify::diagnostics(&verdicts));
    (verdicts, rendered)
}

/// One line per implementation: verified, or how many failures and undecided checks.
fn summary(verdicts: &[ImplementationVerdict]) -> String {
    let line = |verdict: &ImplementationVerdict| match &verdict.outcome {
        Outcome::Verified => format!("{}: verified", verdict.name),
        Outcome::Failed { failures, undecided } => {
            format!("{}: {} failed, {} undecided", verdict.name, failures.len(), undecided.len())
        }
        Outcome::Inconclusive(undecided) => format!("{}: {} undecided", verdict.name, undecided.len()),
    };
    verdicts.iter().map(line).collect::<Vec<_>>().join("\n")
}

fn failure_count(verdicts: &[ImplementationVerdict]) -> usize {
    verdicts
        .iter()
        .map(|verdict| match &verdict.outcome {
            Outcome::Failed { failures, .. } => failures.len(),
            Outcome::Verified | Outcome::Inconclusive(_) => 0,
        })
        .sum()
}

#[test]
fn failing_programs() {
    insta::glob!("../verify", "*.bpl", |path| {
        let (verdicts, rendered) = verified(path);
        insta::assert_snapshot!(format!("{rendered}\n--- verdicts ---\n{}\n", summary(&verdicts)));
    });
}

#[test]
fn the_corpus_verifies() {
    for path in bpl_files("corpus") {
        let (verdicts, rendered) = verified(&path);
        assert!(
            verdicts.iter().all(|verdict| matches!(verdict.outcome, Outcome::Verified)),
            "{}:\n{rendered}",
            display_name(&path)
        );
    }
}

/// The count a `// boogie-errors: N` line announces, if the file has one.
fn announced_boogie_errors(path: &Path) -> Option<usize> {
    let text = std::fs::read_to_string(path).expect("test inputs are readable");
    text.lines().find_map(|line| {
        let rest = line.strip_prefix("// boogie-errors: ")?;
        rest.split_whitespace().next()?.parse().ok()
    })
}

#[test]
#[ignore = "needs Boogie 2.4.1 (`apt-get install boogie`)"]
fn boogie_reports_as_many_errors() {
    let mut files = crate::support::correct_corpus_programs();
    files.extend(bpl_files("tests/verify"));
    let mut mismatches = Vec::new();
    for path in files {
        let (verdicts, rendered) = verified(&path);
        let expected = announced_boogie_errors(&path).unwrap_or_else(|| failure_count(&verdicts));
        let boogie = crate::support::boogie_errors(&path);
        if boogie != expected {
            mismatches.push(format!("{}: Boogie {boogie}, seedgen {expected}:\n{rendered}", display_name(&path)));
        }
    }
    // The fault variants: both verifiers find a failure in each.
    for path in crate::support::fault_variants() {
        let (verdicts, rendered) = verified(&path);
        let (boogie, seedgen) = (crate::support::boogie_errors(&path), failure_count(&verdicts));
        if (boogie == 0) != (seedgen == 0) {
            mismatches.push(format!("{}: Boogie {boogie}, seedgen {seedgen}:\n{rendered}", display_name(&path)));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn verify_exit_status_follows_the_verdict() {
    let ok = crate::support::seedgen(&["verify", "corpus/max.bpl"]);
    assert_eq!(ok.status.code(), Some(0), "{}", String::from_utf8_lossy(&ok.stderr));
    let failing = crate::support::bpl_files("tests/verify");
    let name = crate::support::display_name(&failing[0]);
    let bad = crate::support::seedgen(&["verify", "--message-format", "short", &name]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains(": error: "));
}
