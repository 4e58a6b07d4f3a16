//! The reference verdicts: whether Boogie 2.4.1 accepts a file, that is parses,
//! resolves and type-checks it (`boogie /noVerify FILE`), cached by the file's digest.
//!
//! Boogie 2.4.1 exits with status 0 whatever it finds; its verdict is in its output:
//! `N parse errors detected in FILE`, `N name resolution errors detected in FILE` or
//! `N type checking errors detected in FILE` when it rejects the file, `Boogie program
//! verifier finished with 0 verified, 0 errors` when it accepts it. Anything else (a
//! crash of Mono, the time limit) is no verdict.
//!
//! For the files `seedgen verify` is compared on, Boogie 2.4.1 also verifies them
//! (`boogie FILE`, default options): its summary line `Boogie program verifier finished
//! with V verified, E errors` gives the counts.
//!
//! Running Boogie on the suite's 764 files takes minutes (Mono starts for each), so
//! both are kept in `target/conformance/boogie-verdicts.json`, keyed by the SHA-256 of
//! the file's text, under the version line Boogie prints: a changed file or another
//! Boogie is run again. A failed run (a time-out) is kept too; delete the file to try
//! again. Without `boogie` on the `PATH` the cached results are used as they are.

use crate::expectation::{self, Counts};
use crate::process::{self, Ending};
use rayon::prelude::*;
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Boogie's verdict on one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Accepts,
    /// `stage` is `parse`, `name resolution` or `type checking`; `first_error` is
    /// Boogie's first error line without the file's path (`(5,23): Error: ...`).
    Rejects {
        stage: String,
        first_error: String,
    },
    /// Boogie gave no verdict (it crashed or ran out of time). Cached too, since a
    /// time-out costs minutes; delete the cache to try again.
    Failed {
        what: String,
    },
}

impl Verdict {
    pub fn accepts(&self) -> Option<bool> {
        match self {
            Verdict::Accepts => Some(true),
            Verdict::Rejects { .. } => Some(false),
            Verdict::Failed { .. } => None,
        }
    }

    fn to_json(&self) -> Value {
        match self {
            Verdict::Accepts => json!({ "verdict": "accepts" }),
            Verdict::Rejects { stage, first_error } => {
                json!({ "verdict": "rejects", "stage": stage, "first_error": first_error })
            }
            Verdict::Failed { what } => json!({ "verdict": "failed", "what": what }),
        }
    }

    fn from_json(value: &Value) -> Option<Verdict> {
        let text = |key: &str| value.get(key).and_then(Value::as_str).map(str::to_string);
        match value.get("verdict")?.as_str()? {
            "accepts" => Some(Verdict::Accepts),
            "rejects" => Some(Verdict::Rejects { stage: text("stage")?, first_error: text("first_error")? }),
            "failed" => Some(Verdict::Failed { what: text("what")? }),
            _ => None,
        }
    }
}

/// Boogie's verification of one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verification {
    Counts(Counts),
    /// No summary line, or one with time-outs or other outcomes; or the time limit.
    Failed {
        what: String,
    },
}

/// A result of Boogie's kept in the cache.
trait Cached: Clone + Send + Sized {
    fn to_json(&self) -> Value;
    fn from_json(value: &Value) -> Option<Self>;
}

impl Cached for Verdict {
    fn to_json(&self) -> Value {
        Verdict::to_json(self)
    }

    fn from_json(value: &Value) -> Option<Verdict> {
        Verdict::from_json(value)
    }
}

impl Cached for Verification {
    fn to_json(&self) -> Value {
        match self {
            Verification::Counts(counts) => json!({ "verified": counts.verified, "errors": counts.errors }),
            Verification::Failed { what } => json!({ "failed": what }),
        }
    }

    fn from_json(value: &Value) -> Option<Verification> {
        if let Some(what) = value.get("failed").and_then(Value::as_str) {
            return Some(Verification::Failed { what: what.to_string() });
        }
        let count = |key: &str| value.get(key).and_then(Value::as_u64).and_then(|count| u32::try_from(count).ok());
        Some(Verification::Counts(Counts { verified: count("verified")?, errors: count("errors")? }))
    }
}

/// The SHA-256 of a file's text, in hex: the cache's key.
pub fn digest(text: &str) -> String {
    Sha256::digest(text.as_bytes()).iter().map(|byte| format!("{byte:02x}")).collect()
}

/// The verdict cache of one Boogie version.
pub struct Cache {
    path: PathBuf,
    /// Boogie's version line, or `None` where `boogie` is not installed.
    boogie: Option<String>,
    verdicts: BTreeMap<String, Verdict>,
    verifications: BTreeMap<String, Verification>,
}

/// How many of Boogie's verdicts are computed between two saves of the cache.
const SAVE_EVERY: usize = 50;

/// Boogie's time limit per file; `/noVerify` takes about a second.
const BOOGIE_LIMIT: Duration = Duration::from_secs(120);

/// Boogie's time limit per file when it verifies.
const BOOGIE_VERIFY_LIMIT: Duration = Duration::from_secs(300);

impl Cache {
    /// Reads the cache in `directory`, for the installed Boogie if there is one.
    pub fn open(directory: &Path) -> Cache {
        let path = directory.join("boogie-verdicts.json");
        let boogie = installed_boogie();
        let stored: Value = std::fs::read_to_string(&path)
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or(Value::Null);
        let same_boogie = match (&boogie, stored.get("boogie").and_then(Value::as_str)) {
            (Some(installed), Some(cached)) => installed == cached,
            // Without Boogie, whatever was cached is the best reference there is.
            (None, _) => true,
            (Some(_), None) => false,
        };
        let stored = if same_boogie { stored } else { Value::Null };
        let boogie = boogie.or_else(|| stored.get("boogie").and_then(Value::as_str).map(str::to_string));
        Cache { path, boogie, verdicts: entries(&stored, "verdicts"), verifications: entries(&stored, "verifications") }
    }

    /// Boogie's version line (from the installed Boogie, or else from the cache).
    pub fn boogie(&self) -> Option<&str> {
        self.boogie.as_deref()
    }

    /// The verdicts on `files` (paths relative to `repo`, with their digests): cached
    /// ones, the others from Boogie when it is installed (and then cached), `None`
    /// where there is none.
    pub fn verdicts(&mut self, repo: &Path, files: &[(String, String)], installed: bool) -> Vec<Option<Verdict>> {
        let run = |relative: &str| run_front_end(repo, relative);
        self.fill(files, installed, "checks", |cache| &mut cache.verdicts, run)
    }

    /// Boogie's verification of `files`, as [`Cache::verdicts`].
    pub fn verifications(
        &mut self,
        repo: &Path,
        files: &[(String, String)],
        installed: bool,
    ) -> Vec<Option<Verification>> {
        let run = |relative: &str| run_verifier(repo, relative);
        self.fill(files, installed, "verifies", |cache| &mut cache.verifications, run)
    }

    /// The results of `files` in the part of the cache `part` selects, those missing
    /// computed by `run` (in parallel) when Boogie is `installed`.
    fn fill<V: Cached>(
        &mut self,
        files: &[(String, String)],
        installed: bool,
        what: &str,
        part: impl Fn(&mut Cache) -> &mut BTreeMap<String, V>,
        run: impl Fn(&str) -> V + Sync,
    ) -> Vec<Option<V>> {
        let missing: Vec<&(String, String)> =
            files.iter().filter(|(_, digest)| !part(self).contains_key(digest)).collect();
        if installed && !missing.is_empty() {
            eprintln!("conformance: Boogie 2.4.1 {what} {} files not in the cache", missing.len());
            let start = std::time::Instant::now();
            let mut done = 0;
            // Saved chunk by chunk, so that an interrupted run keeps what it learnt.
            for chunk in missing.chunks(SAVE_EVERY) {
                let fresh: Vec<(String, V)> =
                    chunk.par_iter().map(|(relative, digest)| (digest.clone(), run(relative))).collect();
                part(self).extend(fresh);
                self.save();
                done += chunk.len();
                eprintln!(
                    "conformance: Boogie {what}: {done}/{} ({:.0} s)",
                    missing.len(),
                    start.elapsed().as_secs_f64()
                );
            }
        }
        let stored = part(self);
        files.iter().map(|(_, digest)| stored.get(digest).cloned()).collect()
    }

    /// Writes the cache, through a temporary file renamed over the old one so that an
    /// interrupted run leaves the old cache whole.
    fn save(&self) {
        let Some(boogie) = &self.boogie else { return };
        let cache = json!({
            "boogie": boogie,
            "verdicts": to_entries(&self.verdicts),
            "verifications": to_entries(&self.verifications),
        });
        let text = serde_json::to_string_pretty(&cache).expect("a JSON value serializes");
        let directory = self.path.parent().expect("the cache file is in a directory");
        let written = std::fs::create_dir_all(directory).and_then(|()| {
            let mut file = tempfile::NamedTempFile::new_in(directory)?;
            std::io::Write::write_all(&mut file, text.as_bytes())?;
            file.persist(&self.path).map_err(|error| error.error)?;
            Ok(())
        });
        if let Err(error) = written {
            eprintln!("conformance: could not write the cache {}: {error}", self.path.display());
        }
    }
}

fn entries<V: Cached>(stored: &Value, key: &str) -> BTreeMap<String, V> {
    let Some(entries) = stored.get(key).and_then(Value::as_object) else { return BTreeMap::new() };
    entries.iter().filter_map(|(digest, value)| Some((digest.clone(), V::from_json(value)?))).collect()
}

fn to_entries<V: Cached>(results: &BTreeMap<String, V>) -> Map<String, Value> {
    results.iter().map(|(digest, result)| (digest.clone(), result.to_json())).collect()
}

/// Boogie's version line when `boogie` is on the `PATH`: it prints it first when it
/// checks a file (here an empty one; `/help` does not print it).
fn installed_boogie() -> Option<String> {
    let empty = tempfile::Builder::new().suffix(".bpl").tempfile().ok()?;
    let output = std::process::Command::new("boogie").arg("/noVerify").arg(empty.path()).output().ok()?;
    let text = String::from_utf8_lossy(&output.stdout);
    let line = text.lines().find(|line| line.starts_with("Boogie program verifier version"))?;
    // `Boogie program verifier version 2.4.1.10503, Copyright (c) ...`.
    Some(line.split(',').next().unwrap_or(line).trim().to_string())
}

/// Boogie's front end run from `repo` on `relative`, so that its messages name
/// `Test/...`.
fn run_front_end(repo: &Path, relative: &str) -> Verdict {
    let arguments = ["/noVerify", "/nologo", relative];
    let run = process::run(Path::new("boogie"), &arguments, Some(repo), BOOGIE_LIMIT);
    if let Some(what) = no_output(&run.ending, BOOGIE_LIMIT) {
        return Verdict::Failed { what };
    }
    verdict_of(&run.stdout, relative)
        .unwrap_or_else(|| Verdict::Failed { what: first_line(&format!("{}{}", run.stdout, run.stderr)) })
}

/// The verdict in Boogie's output on the file `relative`.
fn verdict_of(output: &str, relative: &str) -> Option<Verdict> {
    for stage in ["parse", "name resolution", "type checking"] {
        if output.lines().any(|line| {
            line.contains(&format!(" {stage} errors detected in"))
                || line.contains(&format!(" {stage} error detected in"))
        }) {
            let first_error = output
                .lines()
                .find(|line| line.contains(": error:") || line.contains(": Error:"))
                .map(|line| line.strip_prefix(relative).unwrap_or(line).trim().to_string())
                .unwrap_or_default();
            return Some(Verdict::Rejects { stage: stage.to_string(), first_error });
        }
    }
    output.contains("Boogie program verifier finished with").then_some(Verdict::Accepts)
}

/// Boogie's verifier run on `relative` with its default options.
fn run_verifier(repo: &Path, relative: &str) -> Verification {
    let run = process::run(Path::new("boogie"), &["/nologo", relative], Some(repo), BOOGIE_VERIFY_LIMIT);
    if let Some(what) = no_output(&run.ending, BOOGIE_VERIFY_LIMIT) {
        return Verification::Failed { what };
    }
    let summary = run.stdout.lines().find(|line| line.starts_with("Boogie program verifier finished with"));
    match summary.map(|line| (line, expectation::parse_summary(line))) {
        Some((_, Some(counts))) => Verification::Counts(counts),
        Some((line, None)) => Verification::Failed { what: line.trim().to_string() },
        None => Verification::Failed { what: first_line(&format!("{}{}", run.stdout, run.stderr)) },
    }
}

/// Why a run of Boogie has no output to read: killed at `limit`, or not started.
fn no_output(ending: &Ending, limit: Duration) -> Option<String> {
    match ending {
        Ending::TimedOut => Some(format!("boogie ran over {} s", limit.as_secs())),
        Ending::NotStarted(error) => Some(format!("boogie did not start: {error}")),
        Ending::Exited(_) | Ending::Signal(_) => None,
    }
}

fn first_line(text: &str) -> String {
    text.lines().find(|line| !line.trim().is_empty()).unwrap_or("(no output)").trim().to_string()
}
