//! What current Boogie says about a file of its suite, read from the test's own
//! expectations: the `FILE.expect` files (`FILE.a.expect`, `FILE.p.expect` for runs with
//! other type encodings) that `lit` compares Boogie's output with, the `// CHECK`
//! lines of `OutputCheck` tests, and the `// RUN:` lines that say with which options.
//!
//! Two questions are answered: does current Boogie reject the file in its front end
//! (a file Boogie 2.4.1 rejects while current Boogie does not uses syntax newer than
//! 2.4.1, or an option), and how many implementations does Boogie verify and how many
//! errors does it report when run with options that do not change them (so that
//! `seedgen verify` can be compared with it).

use std::path::Path;

/// The options of a `// RUN: %boogie` line that do not change which implementations
/// verify and how many errors are reported: output formats, logs, type encodings.
const NEUTRAL_OPTIONS: [&str; 15] = [
    "proverWarnings",
    // Current Boogie's and seedgen's runs both have it (see [`infers_modifies`]).
    "inferModifies",
    "typeEncoding",
    "logPrefix",
    "errorTrace",
    "env",
    "proverLog",
    "normalizeNames",
    "printModel",
    "useArrayTheory",
    "vcsCores",
    "trace",
    "xml",
    "monomorphize",
    "timeLimit:0",
];

/// The texts of the file's expectation files and of its `// CHECK` lines.
fn expectations(repo: &Path, relative: &str, text: &str) -> Vec<String> {
    let mut found: Vec<String> = ["expect", "a.expect", "p.expect"]
        .iter()
        .filter_map(|suffix| std::fs::read_to_string(repo.join(format!("{relative}.{suffix}"))).ok())
        .collect();
    let checks: Vec<&str> = text.lines().filter(|line| line.trim_start().starts_with("// CHECK")).collect();
    if !checks.is_empty() {
        found.push(checks.join("\n"));
    }
    found
}

/// Whether current Boogie's expected output reports errors of its front end (parse,
/// name resolution, type checking) on the file; `None` where the test has no
/// expectation to read.
pub fn current_boogie_rejects(repo: &Path, relative: &str, text: &str) -> Option<bool> {
    let expectations = expectations(repo, relative, text);
    if expectations.is_empty() {
        return None;
    }
    Some(expectations.iter().any(|expected| {
        ["parse", "name resolution", "type checking", "resolution"].iter().any(|stage| {
            expected.contains(&format!("{stage} errors detected"))
                || expected.contains(&format!("{stage} error detected"))
        })
    }))
}

/// What Boogie's verifier reports on a file: implementations verified, errors (up to
/// five counterexamples per implementation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    pub verified: u32,
    pub errors: u32,
}

/// Whether the suite runs the file with `-inferModifies` (SMACK's files have no
/// `modifies` clauses): seedgen then reads it with `--infer-modifies`. Boogie 2.4.1 has
/// no such option.
pub fn infers_modifies(text: &str) -> bool {
    text.lines()
        .filter_map(|line| line.trim_start().strip_prefix("// RUN:"))
        .any(|run| run.split_whitespace().any(|word| word == "-inferModifies" || word == "/inferModifies"))
}

/// The expected verification result: where the file is run by exactly one `// RUN:
/// %boogie` or `%parallel-boogie` line with only [`NEUTRAL_OPTIONS`], and its
/// `FILE.expect` ends in exactly one `Boogie program verifier finished with V verified,
/// E errors` line with no time-outs or other outcomes.
pub fn expected_verification(repo: &Path, relative: &str, text: &str) -> Option<Counts> {
    let runs: Vec<&str> = text
        .lines()
        .filter_map(|line| line.trim_start().strip_prefix("// RUN:"))
        .filter(|run| run.contains("%boogie") || run.contains("%parallel-boogie"))
        .collect();
    let [run] = runs.as_slice() else { return None };
    let options_neutral =
        run.split_whitespace().filter(|word| word.starts_with('-') || word.starts_with('/')).all(|option| {
            let option = option.trim_start_matches(['-', '/']);
            NEUTRAL_OPTIONS.iter().any(|neutral| option.starts_with(neutral))
        });
    if !options_neutral {
        return None;
    }
    let expected = std::fs::read_to_string(repo.join(format!("{relative}.expect"))).ok()?;
    let summaries: Vec<&str> =
        expected.lines().filter(|line| line.starts_with("Boogie program verifier finished with")).collect();
    let [summary] = summaries.as_slice() else { return None };
    parse_summary(summary)
}

/// `Boogie program verifier finished with 3 verified, 1 error`; `None` for another
/// line, or one that also counts time-outs or other outcomes.
pub fn parse_summary(line: &str) -> Option<Counts> {
    let counts = line.trim().strip_prefix("Boogie program verifier finished with ")?;
    let (verified, errors) = counts.split_once(" verified, ")?;
    let errors = errors.strip_suffix(" errors").or_else(|| errors.strip_suffix(" error"))?;
    Some(Counts { verified: verified.parse().ok()?, errors: errors.parse().ok()? })
}
