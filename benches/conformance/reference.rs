//! The reference verdicts: whether Boogie 2.4.1 accepts a file, that is parses,
//! resolves and type-checks it (`boogie /noVerify FILE`), cached by the file's digest.
//!
//! Boogie 2.4.1 exits with status 0 whatever it finds; its verdict is in its output:
//! `N parse errors detected in FILE`, `N name resolution errors detected in FILE` or
//! `N type checking errors detected in FILE` when it rejects the file, `Boogie program
//! verifier finished with 0 verified, 0 errors` when it accepts it. Anything else (a
//! crash of Mono, the time limit) is no verdict.
//!
//! Running Boogie on the suite's 764 files takes minutes (Mono starts for each), so
//! verdicts are kept in `target/conformance/boogie-verdicts.json`, keyed by the
//! SHA-256 of the file's text, under the version line Boogie prints: a changed file or
//! another Boogie is run again. Without `boogie` on the `PATH` the cached verdicts are
//! used as they are.

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
}

/// How many of Boogie's verdicts are computed between two saves of the cache.
const SAVE_EVERY: usize = 50;

/// Boogie's time limit per file; `/noVerify` takes about a second.
const BOOGIE_LIMIT: Duration = Duration::from_secs(120);

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
        let verdicts = match stored.get("verdicts").and_then(Value::as_object) {
            Some(entries) if same_boogie => {
                entries.iter().filter_map(|(key, value)| Some((key.clone(), Verdict::from_json(value)?))).collect()
            }
            _ => BTreeMap::new(),
        };
        let boogie = boogie.or_else(|| stored.get("boogie").and_then(Value::as_str).map(str::to_string));
        Cache { path, boogie, verdicts }
    }

    /// Boogie's version line (from the installed Boogie, or else from the cache).
    pub fn boogie(&self) -> Option<&str> {
        self.boogie.as_deref()
    }

    /// The verdicts on `files` (paths relative to `repo`, with their digests): cached
    /// ones, the others from Boogie run `jobs` at a time when it is installed (and
    /// then cached), `None` where there is no verdict.
    pub fn verdicts(&mut self, repo: &Path, files: &[(String, String)], installed: bool) -> Vec<Option<Verdict>> {
        let missing: Vec<&(String, String)> =
            files.iter().filter(|(_, digest)| !self.verdicts.contains_key(digest)).collect();
        if installed && !missing.is_empty() {
            eprintln!("conformance: Boogie 2.4.1 on {} files not in the cache (about a second each)", missing.len());
            let start = std::time::Instant::now();
            let mut done = 0;
            // Saved chunk by chunk, so that an interrupted run keeps what it learnt.
            for chunk in missing.chunks(SAVE_EVERY) {
                let fresh: Vec<(String, Verdict)> =
                    chunk.par_iter().map(|(relative, digest)| (digest.clone(), run_boogie(repo, relative))).collect();
                self.verdicts.extend(fresh);
                self.save();
                done += chunk.len();
                eprintln!("conformance: Boogie: {done}/{} ({:.0} s)", missing.len(), start.elapsed().as_secs_f64());
            }
        }
        files.iter().map(|(_, digest)| self.verdicts.get(digest).cloned()).collect()
    }

    /// Writes the cache, through a temporary file renamed over the old one so that an
    /// interrupted run leaves the old cache whole.
    fn save(&self) {
        let Some(boogie) = &self.boogie else { return };
        let entries: Map<String, Value> =
            self.verdicts.iter().map(|(digest, verdict)| (digest.clone(), verdict.to_json())).collect();
        let text = serde_json::to_string_pretty(&json!({ "boogie": boogie, "verdicts": entries }))
            .expect("a JSON value serializes");
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

/// Boogie run from `repo` on `relative`, so that its messages name `Test/...`.
fn run_boogie(repo: &Path, relative: &str) -> Verdict {
    let arguments = ["/noVerify", "/nologo", relative];
    let run = match process::run(Path::new("boogie"), &arguments, Some(repo), BOOGIE_LIMIT) {
        Ok(run) => run,
        Err(error) => return Verdict::Failed { what: format!("boogie did not start: {error}") },
    };
    if run.ending == Ending::TimedOut {
        return Verdict::Failed { what: format!("boogie ran over {} s", BOOGIE_LIMIT.as_secs()) };
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

fn first_line(text: &str) -> String {
    text.lines().find(|line| !line.trim().is_empty()).unwrap_or("(no output)").trim().to_string()
}
