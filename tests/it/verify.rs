//! `verify`: the diagnostics of every failing program in `tests/verify/` (each failure
//! with its failing test) are reviewed snapshots; every corpus program verifies; and
//! Boogie 2.4.1 reports as many errors as we report failures, on both (ignored unless
//! Boogie is installed). A file whose count Boogie cannot match says so in a
//! `// boogie-errors: N` line, with the reason beside it.

use crate::support::{bpl_files, check_source, display_name};
use seedgen::cfg::lower::lower_all;
use seedgen::diag::render_human_plain;
use seedgen::interp::{self, Limits, Machine, TraceMode};
use seedgen::smt::SessionOptions;
use seedgen::verify::{self, ImplementationVerdict, Outcome};
use std::path::Path;

/// The verdicts on a file that checks and lowers, and its rendered diagnostics.
fn verified(path: &Path) -> (Vec<ImplementationVerdict>, String) {
    let name = display_name(path);
    let text = std::fs::read_to_string(path).expect("test inputs are UTF-8");
    let (db, checked) = check_source(&name, &text);
    let program = checked.hir.unwrap_or_else(|| panic!("{name} checks"));
    let program = seedgen::mono::monomorphize(program).unwrap_or_else(|error| panic!("{name}: {error:?}"));
    let (cfgs, errors) = lower_all(&program);
    assert!(errors.is_empty(), "{name}: {errors:?}");
    let verdicts = verify::verify(&program, &cfgs, &SessionOptions::default(), verify::Confirmation::Search);
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
        Outcome::NotStarted { .. } => format!("{}: not started", verdict.name),
    };
    verdicts.iter().map(line).collect::<Vec<_>>().join("\n")
}

fn failure_count(verdicts: &[ImplementationVerdict]) -> usize {
    verdicts
        .iter()
        .map(|verdict| match &verdict.outcome {
            Outcome::Failed { failures, .. } => failures.len(),
            Outcome::Verified | Outcome::Inconclusive(_) | Outcome::NotStarted { .. } => 0,
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

/// `registry.bpl`'s `unregister` fails at its invariant check (line 71) as Boogie 2.4.1
/// reports; z3 gives up there, and the failing test `verify` reports is a run of the
/// interpreter that replays, strictly as `run-tests` does, to that assertion.
#[test]
fn the_registry_fails_at_its_invariant_check_with_a_test_that_replays_there() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/autoproof/registry.bpl");
    let text = std::fs::read_to_string(&path).expect("the corpus is readable");
    let (db, checked) = check_source("registry.bpl", &text);
    let program = checked.hir.expect("registry.bpl checks");
    let program = seedgen::mono::monomorphize(program).expect("registry.bpl's polymorphism is instantiable");
    let (cfgs, _) = lower_all(&program);
    let verdicts = verify::verify(&program, &cfgs, &SessionOptions::default(), verify::Confirmation::Search);
    let failing: Vec<&ImplementationVerdict> =
        verdicts.iter().filter(|verdict| verdict.undecided() > 0 || !verdict.is_verified()).collect();
    let [verdict] = failing.as_slice() else { panic!("{}", summary(&verdicts)) };
    let Outcome::Failed { failures, undecided } = &verdict.outcome else { panic!("{}", summary(&verdicts)) };
    assert!(verdict.name == "REGISTRY.unregister" && failures.len() == 1 && undecided.is_empty());
    let run = failures[0].run.as_ref().expect("a run confirms the failure");
    let machine = Machine::new(&program, &cfgs, Limits::default());
    let replay = machine.run(run, TraceMode::Strict);
    let line = |span: seedgen::source::Span| db.line_col(span).line;
    let stopped = replay.outcome.span().map(line);
    assert_eq!((stopped, line(failures[0].obligation.span)), (Some(71), 71), "{:?}", replay.outcome);
    assert!(
        matches!(&replay.outcome, interp::Outcome::Failed(_))
            || replay.unconfirmed.as_ref().is_some_and(|violation| line(violation.span) == 71),
        "{:?}",
        replay.outcome
    );
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

/// `--format json` is one document on stdout: each implementation's verdict, its
/// failures where the diagnostics put them (a callee's precondition at the call, with
/// the clause), the failing tests, and the totals the summary line gives.
#[test]
fn verify_json_report_gives_each_implementations_verdict_and_failures() {
    let output = crate::support::seedgen(&["verify", "--format", "json", "tests/verify/calls.bpl"]);
    assert_eq!(output.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("one JSON document on stdout");
    insta::assert_snapshot!(serde_json::to_string_pretty(&report).expect("JSON values serialize"));
    let again = crate::support::seedgen(&["verify", "--format", "json", "tests/verify/calls.bpl"]);
    assert_eq!(output.stdout, again.stdout, "the report is deterministic");
}
