//! The incremental cache of `prove-tests`: each implementation's report kept
//! in a directory (`.seedgen/` beside the input by default), so that a run re-solves
//! only the implementations whose inputs changed.
//!
//! An entry is one JSON file per [`Slot`], holding the [`Key`] it was made for, the
//! implementation's section of the suite, its goal spans relative to the
//! implementation's start and its counts. An entry is used only when it parses, its
//! key is the one computed now and its spans fit the implementation's text; anything
//! else (a truncated or corrupt file, an entry of another program or another seedgen)
//! is ignored and replaced. Entries are written to a temporary file and renamed, so a
//! reader sees a whole entry or none. The cache is a convenience: failing to read or
//! write it never fails a run.
//!
//! Invariant: a run that reads its reports from the cache writes the same suite, the
//! same summary (but for times) and the same warnings as a run without it.

pub mod key;

pub use key::{Key, Keys, Slot};

use crate::report::{Counts, ProcedureReport};
use crate::source::SourceDb;
use crate::source::Span;
use crate::suite::{self, json};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The `format` of every entry file.
const FORMAT: &str = "seedgen-cache-entry";

/// One implementation's entry, as stored.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    format: String,
    /// The key the entry was made for; checked on every read.
    key: String,
    procedure: json::Procedure,
    /// Each goal's span, as byte offsets from the start of the implementation.
    spans: Vec<(u32, u32)>,
    counts: Counts,
}

/// A cache directory.
pub struct Cache {
    dir: PathBuf,
}

impl Cache {
    /// The cache in `dir`; nothing is read or created until it is used.
    pub fn new(dir: &Path) -> Cache {
        Cache { dir: dir.to_path_buf() }
    }

    fn path(&self, slot: &Slot) -> PathBuf {
        self.dir.join(format!("{}.json", slot.0))
    }

    /// The report stored in `slot` for `key`, its goals placed in `implementation`
    /// (the span of the implementation's declaration, now); `None` unless the entry is
    /// whole and was made for exactly this key.
    pub fn load(&self, db: &SourceDb, slot: &Slot, key: &Key, implementation: Span) -> Option<ProcedureReport> {
        let text = std::fs::read_to_string(self.path(slot)).ok()?;
        let entry: Entry = serde_json::from_str(&text).ok()?;
        if entry.format != FORMAT || entry.key != key.0 || entry.spans.len() != entry.procedure.goals.len() {
            return None;
        }
        let length = implementation.end - implementation.start;
        let mut procedure = entry.procedure;
        let mut goal_spans = Vec::with_capacity(entry.spans.len());
        for (goal, &(start, end)) in procedure.goals.iter_mut().zip(&entry.spans) {
            if start > end || end > length {
                return None;
            }
            let span = Span {
                file: implementation.file,
                start: implementation.start + start,
                end: implementation.start + end,
            };
            goal.span = suite::position_within(db, implementation, span);
            goal_spans.push(span);
        }
        let counts = Counts { time_ms: 0, ..entry.counts };
        Some(ProcedureReport { suite: procedure, goal_spans, counts, cached: true, timed_out: false })
    }

    /// Stores `report` in `slot` under `key`. A report whose goals lie outside the
    /// implementation's text, or that timed out, is not stored: its result could not be
    /// placed or reproduced.
    pub fn store(&self, slot: &Slot, key: &Key, implementation: Span, report: &ProcedureReport) -> std::io::Result<()> {
        if report.timed_out {
            return Ok(());
        }
        let inside = |span: &Span| {
            span.file == implementation.file && implementation.start <= span.start && span.end <= implementation.end
        };
        if !report.goal_spans.iter().all(inside) {
            return Ok(());
        }
        let entry = Entry {
            format: FORMAT.to_string(),
            key: key.0.clone(),
            procedure: report.suite.clone(),
            spans: report
                .goal_spans
                .iter()
                .map(|span| (span.start - implementation.start, span.end - implementation.start))
                .collect(),
            counts: Counts { time_ms: 0, ..report.counts.clone() },
        };
        let text = serde_json::to_string(&entry).expect("cache entries serialize to JSON");
        self.write(&self.path(slot), text.as_bytes())
    }

    /// Writes a file through a temporary one renamed over it. Unlike the suite, an
    /// entry is not synced to disk: one lost in a crash is rebuilt by the next run, and
    /// one torn by it fails its key check.
    fn write(&self, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
        if !self.dir.is_dir() {
            std::fs::create_dir_all(&self.dir)?;
            // Keep the cache out of version control, as cargo does for `target/`.
            std::fs::write(self.dir.join(".gitignore"), "# Made by seedgen: its cache.\n*\n")?;
        }
        let mut builder = tempfile::Builder::new();
        builder.prefix(".entry.").suffix(".tmp");
        // As any file the user's umask allows, not tempfile's private 0600.
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        let mut file = builder.tempfile_in(&self.dir)?;
        file.write_all(bytes)?;
        file.persist(path).map_err(|error| error.error)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests;
