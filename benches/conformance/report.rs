//! The harness's report: Markdown on stdout (so its tables can go into
//! `docs/benchmarks.md` as they are) and, on request, every file's result as JSON.
//!
//! Sections, in order: seedgen's crashes (exit status 101 or a signal) anywhere in the
//! suite; one row per bucket; the feature table of the core files; the core files
//! Boogie 2.4.1 accepts and seedgen rejects, grouped by seedgen's first error (with
//! its quoted names blanked, so one construct makes one group); the core files Boogie
//! rejects and seedgen accepts, with Boogie's first error; the files only Boogie 2.4.1
//! rejects, with seedgen's verdict; seedgen's time-outs; and
//! `verify` beside Boogie 2.4.1's verification and the suite's expected results.

use crate::expectation::Counts;
use crate::features::Feature;
use crate::reference::{Verdict, Verification};
use crate::seedgen::Failure;
use crate::{Bucket, FileResult};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

pub struct Report<'a> {
    results: &'a [FileResult],
    seedgen: &'a Path,
    boogie: Option<&'a str>,
}

/// Files counted by Boogie's verdict and seedgen's.
#[derive(Clone, Copy, Default)]
struct Tally {
    files: usize,
    boogie_accepts: usize,
    /// Of the files Boogie accepts, those seedgen accepts.
    both_accept: usize,
    boogie_rejects: usize,
    /// Of the files Boogie rejects, those seedgen rejects.
    both_reject: usize,
    /// seedgen panicked, crashed or ran out of time.
    failures: usize,
}

impl Tally {
    fn of<'r>(results: impl IntoIterator<Item = &'r FileResult>) -> Tally {
        let mut tally = Tally::default();
        for result in results {
            tally.files += 1;
            match (result.boogie_accepts(), &result.check.accepts) {
                (Some(true), accepts) => {
                    tally.boogie_accepts += 1;
                    tally.both_accept += usize::from(accepts == &Ok(true));
                }
                (Some(false), accepts) => {
                    tally.boogie_rejects += 1;
                    tally.both_reject += usize::from(accepts == &Ok(false));
                }
                (None, _) => {}
            }
            tally.failures += usize::from(result.check.accepts.is_err());
        }
        tally
    }

    fn agreement(&self) -> String {
        percent(self.both_accept + self.both_reject, self.boogie_accepts + self.boogie_rejects)
    }

    /// `| files | accepts | seedgen | % | rejects | seedgen | agreement % |` cells.
    fn row(&self) -> String {
        format!(
            "{} | {} | {} | {} | {} | {} | {} | {}",
            self.files,
            self.boogie_accepts,
            self.both_accept,
            percent(self.both_accept, self.boogie_accepts),
            self.boogie_rejects,
            self.both_reject,
            self.agreement(),
            self.failures
        )
    }

    fn json(&self) -> Value {
        json!({
            "files": self.files,
            "boogie_accepts": self.boogie_accepts,
            "seedgen_accepts_of_those": self.both_accept,
            "boogie_rejects": self.boogie_rejects,
            "seedgen_rejects_of_those": self.both_reject,
            "seedgen_failures": self.failures,
        })
    }
}

const TABLE_HEADER: &str = "files | Boogie 2.4.1 accepts | seedgen accepts those | % | Boogie 2.4.1 rejects | \
                            seedgen rejects those | agreement % | seedgen crashes / time-outs |";

fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        "–".to_string()
    } else {
        format!("{:.0}", 100.0 * part as f64 / whole as f64)
    }
}

impl<'a> Report<'a> {
    pub fn new(results: &'a [FileResult], seedgen: &'a Path, boogie: Option<&'a str>) -> Report<'a> {
        Report { results, seedgen, boogie }
    }

    fn core(&self) -> impl Iterator<Item = &'a FileResult> + Clone {
        self.results.iter().filter(|result| result.bucket == Bucket::Core)
    }

    pub fn text(&self) -> String {
        let mut out = String::new();
        self.write_header(&mut out);
        self.write_crashes(&mut out);
        self.write_buckets(&mut out);
        self.write_features(&mut out);
        self.write_rejected(&mut out);
        self.write_accepted(&mut out);
        self.write_current_boogie_only(&mut out);
        self.write_time_outs(&mut out);
        self.write_verify(&mut out);
        out
    }

    fn write_header(&self, out: &mut String) {
        let core = Tally::of(self.core());
        let _ = writeln!(out, "# Conformance: seedgen check beside Boogie 2.4.1 on Boogie's test suite\n");
        let _ = writeln!(out, "seedgen: {}", self.seedgen.display());
        let _ = writeln!(out, "reference: {}", self.boogie.unwrap_or("(no Boogie and no cached verdicts)"));
        let _ = writeln!(
            out,
            "\n**Core files: Boogie 2.4.1 accepts {}, seedgen accepts {} of them ({} %); Boogie rejects {}, seedgen rejects {} of them.**\n",
            core.boogie_accepts,
            core.both_accept,
            percent(core.both_accept, core.boogie_accepts),
            core.boogie_rejects,
            core.both_reject
        );
    }

    /// The files on which seedgen panicked or was killed by a signal.
    fn crashed(&self) -> Vec<&'a FileResult> {
        let crashed = |result: &&FileResult| {
            let check_crashed = matches!(&result.check.accepts, Err(failure) if failure.is_crash());
            let verify_crashed = result
                .verify
                .as_ref()
                .is_some_and(|verify| matches!(&verify.outcome, Err(failure) if failure.is_crash()));
            check_crashed || verify_crashed
        };
        self.results.iter().filter(crashed).collect()
    }

    pub fn crashes(&self) -> usize {
        self.crashed().len()
    }

    fn write_crashes(&self, out: &mut String) {
        let crashes = self.crashed();
        let _ = writeln!(out, "## seedgen crashes (exit status 101 or a signal): {}\n", crashes.len());
        for result in crashes {
            let mut what = Vec::new();
            if let Err(failure) = &result.check.accepts {
                what.push(format!(
                    "check: {} — {}",
                    failure.describe(),
                    result.check.first_error.as_deref().unwrap_or("")
                ));
            }
            if let Some(verify) = &result.verify {
                if let Err(failure) = &verify.outcome {
                    what.push(format!(
                        "verify: {} — {}",
                        failure.describe(),
                        verify.first_error.as_deref().unwrap_or("")
                    ));
                }
            }
            let _ = writeln!(out, "- **{}**: {}", result.relative, what.join("; "));
        }
        out.push('\n');
    }

    fn write_buckets(&self, out: &mut String) {
        let _ = writeln!(out, "## Buckets\n");
        let _ = writeln!(out, "| bucket | {TABLE_HEADER}");
        let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        for bucket in Bucket::ALL {
            let tally = Tally::of(self.results.iter().filter(|result| result.bucket == bucket));
            let _ = writeln!(out, "| {} | {} |", bucket.name(), tally.row());
        }
        let _ = writeln!(out, "| all | {} |\n", Tally::of(self.results).row());
    }

    fn write_features(&self, out: &mut String) {
        let _ = writeln!(out, "## Core files by feature (a file counts under each feature it uses)\n");
        let _ = writeln!(out, "| feature | {TABLE_HEADER}");
        let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        let _ = writeln!(out, "| all core files | {} |", Tally::of(self.core()).row());
        for feature in Feature::ALL {
            let tally = Tally::of(self.core().filter(|result| result.scan.features.contains(&feature)));
            let _ = writeln!(out, "| {} | {} |", feature.name().replace('|', "\\|"), tally.row());
        }
        let plain = Tally::of(self.core().filter(|result| result.scan.features.is_empty()));
        let _ = writeln!(out, "| none of these | {} |\n", plain.row());
    }

    /// Core files Boogie 2.4.1 accepts and seedgen rejects, by seedgen's first error.
    fn write_rejected(&self, out: &mut String) {
        let rejected: Vec<(&str, &str)> = self
            .core()
            .filter(|result| result.boogie_accepts() == Some(true) && result.check.accepts == Ok(false))
            .map(|result| (result.relative.as_str(), result.check.first_error.as_deref().unwrap_or("(no error line)")))
            .collect();
        let _ = writeln!(
            out,
            "## Boogie 2.4.1 accepts, seedgen rejects: {} core files, by seedgen's first error\n",
            rejected.len()
        );
        write_groups(out, rejected, "###", ":");
    }

    /// Core files Boogie 2.4.1 rejects and seedgen accepts, with Boogie's first error.
    fn write_accepted(&self, out: &mut String) {
        let accepted: Vec<&FileResult> = self
            .core()
            .filter(|result| result.boogie_accepts() == Some(false) && result.check.accepts == Ok(true))
            .collect();
        let _ = writeln!(out, "## Boogie 2.4.1 rejects, seedgen accepts: {} core files\n", accepted.len());
        for result in accepted {
            if let Some(Verdict::Rejects { stage, first_error }) = &result.boogie {
                let _ = writeln!(out, "- {} — Boogie ({stage}): {first_error}", result.relative);
            }
        }
        out.push('\n');
    }

    /// The files only Boogie 2.4.1 rejects: newer syntax (`uses { }`) that current
    /// front ends write, or files the suite runs with an option; seedgen's verdict on
    /// each, for the work of accepting them.
    fn write_current_boogie_only(&self, out: &mut String) {
        let files: Vec<&FileResult> =
            self.results.iter().filter(|result| result.bucket == Bucket::CurrentBoogieOnly).collect();
        let accepted: Vec<&str> = files
            .iter()
            .filter(|result| result.check.accepts == Ok(true))
            .map(|result| result.relative.as_str())
            .collect();
        let rejected: Vec<(&str, &str)> = files
            .iter()
            .filter(|result| result.check.accepts == Ok(false))
            .map(|result| (result.relative.as_str(), result.check.first_error.as_deref().unwrap_or("(no error line)")))
            .collect();
        let _ = writeln!(
            out,
            "## Only Boogie 2.4.1 rejects ({} files): seedgen accepts {}, rejects {}\n",
            files.len(),
            accepted.len(),
            rejected.len()
        );
        for relative in accepted {
            let _ = writeln!(out, "- {relative}: accepted");
        }
        out.push('\n');
        write_groups(out, rejected, "###", ":");
    }

    fn write_time_outs(&self, out: &mut String) {
        let timed_out: Vec<&FileResult> =
            self.results.iter().filter(|result| result.check.accepts == Err(Failure::TimedOut)).collect();
        let _ = writeln!(out, "## seedgen check ran out of time: {} files\n", timed_out.len());
        for result in timed_out {
            let _ = writeln!(out, "- {} ({})", result.relative, result.bucket.name());
        }
        out.push('\n');
    }

    fn write_verify(&self, out: &mut String) {
        let compared: Vec<&FileResult> = self.results.iter().filter(|result| result.verify.is_some()).collect();
        let _ = writeln!(out, "## verify beside Boogie 2.4.1 and the suite's expected results\n");
        if compared.is_empty() {
            let _ = writeln!(out, "Not run (`--no-verify`, or no core file both accept).\n");
            return;
        }
        let _ = writeln!(
            out,
            "{} core files both accept. Boogie 2.4.1: `boogie FILE`, default options; `.expect`: current Boogie's \
             result in the suite, where its `RUN` line has no option that changes the counts. Boogie's errors are \
             counterexamples (up to 5 per implementation), seedgen's failures one per failing clause.\n",
            compared.len()
        );
        let mut counts: BTreeMap<VerifyAgreement, [usize; 2]> = BTreeMap::new();
        for result in &compared {
            for (column, reference) in [boogie_counts(result), result.expected].into_iter().enumerate() {
                counts.entry(verify_agreement(result, reference)).or_default()[column] += 1;
            }
        }
        let _ = writeln!(out, "| outcome | beside Boogie 2.4.1 | beside `.expect` |\n|---|---:|---:|");
        for (agreement, [boogie, expected]) in &counts {
            let _ = writeln!(out, "| {} | {boogie} | {expected} |", agreement.name());
        }
        let refused: Vec<(&str, &str)> = compared
            .iter()
            .filter(|result| verify_agreement(result, None) == VerifyAgreement::Failed)
            .map(|result| {
                let verify = result.verify.as_ref().expect("a compared file was verified");
                (result.relative.as_str(), verify.first_error.as_deref().unwrap_or("(no error line)"))
            })
            .collect();
        let _ = writeln!(out, "\n### seedgen verify gave no counts on {} files, by its first error\n", refused.len());
        write_groups(out, refused, "####", ": ");
        let _ = writeln!(out, "### Files whose counts differ from Boogie 2.4.1's, or time-outs and crashes\n");
        for result in compared {
            let agreement = verify_agreement(result, boogie_counts(result));
            if matches!(agreement, VerifyAgreement::Same | VerifyAgreement::NoReference | VerifyAgreement::Failed) {
                continue;
            }
            let verify = result.verify.as_ref().expect("a compared file was verified");
            let seedgen = match &verify.outcome {
                Ok(counts) => format!(
                    "verified {} of {}, {} failures, {} undecided",
                    counts.verified, counts.implementations, counts.failures, counts.undecided
                ),
                Err(failure) => format!("{}: {}", failure.describe(), verify.first_error.as_deref().unwrap_or("")),
            };
            let boogie = match &result.boogie_verification {
                Some(Verification::Counts(counts)) => describe_counts(*counts),
                Some(Verification::Failed { what }) => {
                    what.trim_start_matches("Boogie program verifier finished with ").to_string()
                }
                None => "–".to_string(),
            };
            let expected = result.expected.map_or("–".to_string(), describe_counts);
            let _ = writeln!(
                out,
                "- {} ({}): Boogie 2.4.1 {boogie}; `.expect` {expected}; seedgen {seedgen} ({:.1} s)",
                result.relative,
                agreement.name(),
                verify.elapsed.as_secs_f64()
            );
        }
        out.push('\n');
    }

    pub fn json(&self) -> Value {
        let features: Vec<Value> = Feature::ALL
            .iter()
            .map(|&feature| {
                let tally = Tally::of(self.core().filter(|result| result.scan.features.contains(&feature)));
                json!({ "feature": feature.name().trim(), "core": tally.json() })
            })
            .collect();
        let buckets: Vec<Value> = Bucket::ALL
            .iter()
            .map(|&bucket| {
                let tally = Tally::of(self.results.iter().filter(|result| result.bucket == bucket));
                json!({ "bucket": bucket.name(), "tally": tally.json() })
            })
            .collect();
        let files: Vec<Value> = self.results.iter().map(file_json).collect();
        json!({
            "seedgen": self.seedgen.display().to_string(),
            "boogie": self.boogie,
            "buckets": buckets,
            "features": features,
            "files": files,
        })
    }
}

fn file_json(result: &FileResult) -> Value {
    let boogie = match &result.boogie {
        Some(Verdict::Accepts) => json!({ "accepts": true }),
        Some(Verdict::Rejects { stage, first_error }) => {
            json!({ "accepts": false, "stage": stage, "first_error": first_error })
        }
        Some(Verdict::Failed { what }) => json!({ "failed": what }),
        None => Value::Null,
    };
    let check = match &result.check.accepts {
        Ok(accepts) => json!({ "accepts": accepts, "first_error": result.check.first_error }),
        Err(failure) => json!({ "failed": failure.describe(), "last_line": result.check.first_error }),
    };
    let verify = result.verify.as_ref().map(|verify| match &verify.outcome {
        Ok(counts) => json!({
            "verified": counts.verified,
            "implementations": counts.implementations,
            "failures": counts.failures,
            "undecided": counts.undecided,
            "beside_boogie": verify_agreement(result, boogie_counts(result)).name(),
            "beside_expect": verify_agreement(result, result.expected).name(),
        }),
        Err(failure) => json!({ "failed": failure.describe(), "first_error": verify.first_error }),
    });
    json!({
        "file": result.relative,
        "bucket": result.bucket.name(),
        "features": result.scan.features.iter().map(|feature| feature.name().trim()).collect::<Vec<_>>(),
        "boogie": boogie,
        "check": check,
        "check_ms": result.check.elapsed.as_millis() as u64,
        "expected": result.expected.map(|expected| json!({ "verified": expected.verified, "errors": expected.errors })),
        "verify_ms": result.verify.as_ref().map(|verify| verify.elapsed.as_millis() as u64),
        "boogie_verification": result.boogie_verification.as_ref().map(|verification| match verification {
            Verification::Counts(counts) => json!({ "verified": counts.verified, "errors": counts.errors }),
            Verification::Failed { what } => json!({ "failed": what }),
        }),
        "verify": verify,
    })
}

fn describe_counts(counts: Counts) -> String {
    format!("{} verified, {} errors", counts.verified, counts.errors)
}

/// Boogie 2.4.1's counts, where it gave them.
fn boogie_counts(result: &FileResult) -> Option<Counts> {
    match &result.boogie_verification {
        Some(Verification::Counts(counts)) => Some(*counts),
        _ => None,
    }
}

/// How `seedgen verify`'s counts compare with Boogie's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum VerifyAgreement {
    /// The same number of verified implementations and of errors.
    Same,
    /// The same number of verified implementations, another number of errors (Boogie
    /// reports up to 5 counterexamples per implementation, seedgen one per clause).
    SameVerified,
    /// Checks left undecided (exit status 3).
    Undecided,
    Different,
    TimedOut,
    Crashed,
    /// seedgen gave no counts (no summary line).
    Failed,
    /// No counts of Boogie's to compare with.
    NoReference,
}

impl VerifyAgreement {
    fn name(self) -> &'static str {
        match self {
            VerifyAgreement::Same => "same verified and error counts",
            VerifyAgreement::SameVerified => "same verified count, other error count",
            VerifyAgreement::Undecided => "undecided checks",
            VerifyAgreement::Different => "different",
            VerifyAgreement::TimedOut => "time limit",
            VerifyAgreement::Crashed => "crash (panic or signal)",
            VerifyAgreement::Failed => "no result from seedgen",
            VerifyAgreement::NoReference => "no result from Boogie",
        }
    }
}

fn verify_agreement(result: &FileResult, reference: Option<Counts>) -> VerifyAgreement {
    let Some(verify) = &result.verify else { return VerifyAgreement::Failed };
    let counts = match &verify.outcome {
        Ok(counts) => counts,
        Err(Failure::TimedOut) => return VerifyAgreement::TimedOut,
        Err(failure) if failure.is_crash() => return VerifyAgreement::Crashed,
        Err(_) => return VerifyAgreement::Failed,
    };
    let Some(expected) = reference else { return VerifyAgreement::NoReference };
    if counts.undecided > 0 {
        VerifyAgreement::Undecided
    } else if counts.verified == expected.verified && counts.failures == expected.errors {
        VerifyAgreement::Same
    } else if counts.verified == expected.verified {
        VerifyAgreement::SameVerified
    } else {
        VerifyAgreement::Different
    }
}

/// `(file, message line)` pairs grouped by [`message_kind`], the largest group first,
/// under headings `heading`, each file shown as `file{separator}line`.
fn write_groups(out: &mut String, lines: Vec<(&str, &str)>, heading: &str, separator: &str) {
    let mut groups: BTreeMap<String, Vec<(&str, &str)>> = BTreeMap::new();
    for (relative, line) in lines {
        groups.entry(message_kind(line)).or_default().push((relative, line));
    }
    let mut groups: Vec<(String, Vec<(&str, &str)>)> = groups.into_iter().collect();
    groups.sort_by(|(a_kind, a_files), (b_kind, b_files)| b_files.len().cmp(&a_files.len()).then(a_kind.cmp(b_kind)));
    for (kind, files) in groups {
        let _ = writeln!(out, "{heading} {} × {kind}\n", files.len());
        for (relative, line) in files {
            let _ = writeln!(out, "- {relative}{separator}{line}");
        }
        out.push('\n');
    }
}

/// A first error line's message with its quoted names blanked: `12:3: error: unknown
/// name `x`` → `error: unknown name `…``, so that the files failing on one construct
/// make one group. Quoted keywords and punctuation, and whatever a parser did not expect
/// (`unexpected `|``, `unexpected identifier `measure``), are kept: they say which
/// construct it is.
fn message_kind(line: &str) -> String {
    let message = line.find("error").map_or(line, |start| &line[start..]);
    let unexpected = message.starts_with("error: unexpected");
    let mut kind = String::with_capacity(message.len());
    let mut pieces = message.split('`');
    kind.push_str(pieces.next().unwrap_or_default());
    // Pieces alternate: quoted, then not.
    while let Some(quoted) = pieces.next() {
        // What a parser did not expect is a token, whatever it looks like.
        let is_name = !unexpected && quoted.chars().any(char::is_alphanumeric) && !KEYWORDS.contains(&quoted);
        kind.push('`');
        kind.push_str(if is_name { "…" } else { quoted });
        kind.push('`');
        kind.push_str(pieces.next().unwrap_or_default());
    }
    kind
}

/// Boogie's keywords, kept in grouped messages.
const KEYWORDS: [&str; 44] = [
    "axiom",
    "assert",
    "assume",
    "bool",
    "break",
    "call",
    "complete",
    "const",
    "div",
    "else",
    "ensures",
    "exists",
    "extends",
    "false",
    "finite",
    "forall",
    "free",
    "function",
    "goto",
    "havoc",
    "if",
    "implementation",
    "int",
    "invariant",
    "lambda",
    "mod",
    "modifies",
    "old",
    "procedure",
    "real",
    "requires",
    "return",
    "returns",
    "then",
    "true",
    "type",
    "unique",
    "var",
    "where",
    "uses",
    "yield",
    "par",
    "async",
    "datatype",
];
