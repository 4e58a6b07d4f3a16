//! Diagnostics: problems in the user's program, with spans, and their three renderings.
//!
//! Each stage reports problems as its own data-only error enum (`syntax::ParseError`,
//! `sema::SemaError`, ...) and turns each variant into a [`Diagnostic`] in exactly one
//! place. This module renders them:
//! - `human`: rustc style through codespan-reporting (primary label on the faulty span,
//!   secondary labels on related declarations, `help:`/`note:` lines);
//! - `short`: `file:line:col: severity: message`, one per line, for editors' problem
//!   matchers;
//! - `json`: one JSON object per line (see [`JsonDiagnostic`] for the fields).

use crate::source::{SourceDb, Span};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::term;
use serde::Serialize;
use std::io;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Note,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// A labelled span: the primary label marks the fault, secondary ones related places.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
    pub primary: bool,
}

/// One problem, ready to render. Build it with the chained constructors:
/// `Diagnostic::error("unknown variable `x`").with_primary(span, "not found in this scope")`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub labels: Vec<Label>,
    /// Lines rendered after the snippet, each starting with `help:` or `note:`.
    pub notes: Vec<String>,
}

/// Messages and labels longer than this many characters are shortened in the middle:
/// they quote the user's names and literals, which may be a million characters long.
/// Notes are kept whole: they carry data, such as a failing test's values.
const MAX_MESSAGE_CHARS: usize = 400;

/// `text`, its middle replaced by `…` when it is longer than [`MAX_MESSAGE_CHARS`].
fn elided(text: String) -> String {
    let count = text.chars().count();
    if count <= MAX_MESSAGE_CHARS {
        return text;
    }
    let keep = MAX_MESSAGE_CHARS / 2;
    let head: String = text.chars().take(keep).collect();
    let tail: String = text.chars().skip(count - keep).collect();
    format!("{head}…{tail}")
}

impl Diagnostic {
    pub fn new(severity: Severity, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity, message: elided(message.into()), labels: Vec::new(), notes: Vec::new() }
    }

    pub fn error(message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Error, message)
    }

    pub fn warning(message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Warning, message)
    }

    pub fn with_primary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label { span, message: elided(message.into()), primary: true });
        self
    }

    pub fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label { span, message: elided(message.into()), primary: false });
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.notes.push(format!("help: {}", help.into()));
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(format!("note: {}", note.into()));
        self
    }

    /// The span of the first primary label, where `short` and `json` place the problem.
    pub fn primary_span(&self) -> Option<Span> {
        self.labels.iter().find(|label| label.primary).map(|label| label.span)
    }
}

/// How diagnostics are printed (`--message-format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MessageFormat {
    #[default]
    Human,
    Short,
    Json,
}

/// Renders diagnostics in one format to one stream (colored when the stream is).
pub struct Emitter<'a> {
    pub db: &'a SourceDb,
    pub format: MessageFormat,
}

impl Emitter<'_> {
    pub fn emit(&self, out: &mut dyn WriteColor, diagnostic: &Diagnostic) -> io::Result<()> {
        match self.format {
            MessageFormat::Human => self.emit_human(out, diagnostic),
            MessageFormat::Short => writeln!(out, "{}", render_short(self.db, diagnostic)),
            MessageFormat::Json => writeln!(out, "{}", render_json(self.db, diagnostic)),
        }
    }

    fn emit_human(&self, out: &mut dyn WriteColor, diagnostic: &Diagnostic) -> io::Result<()> {
        let config = term::Config::default();
        term::emit_to_write_style(out, &config, self.db.files(), &to_codespan(diagnostic)).map_err(io::Error::other)
    }
}

pub use codespan_reporting::term::termcolor::WriteColor;

fn to_codespan(diagnostic: &Diagnostic) -> cs::Diagnostic<usize> {
    let severity = match diagnostic.severity {
        Severity::Note => cs::Severity::Note,
        Severity::Warning => cs::Severity::Warning,
        Severity::Error => cs::Severity::Error,
    };
    let labels = diagnostic
        .labels
        .iter()
        .map(|label| {
            let style = if label.primary { cs::LabelStyle::Primary } else { cs::LabelStyle::Secondary };
            cs::Label::new(style, label.span.file.0 as usize, label.span.range()).with_message(label.message.clone())
        })
        .collect();
    cs::Diagnostic::new(severity)
        .with_message(diagnostic.message.clone())
        .with_labels(labels)
        .with_notes(diagnostic.notes.clone())
}

/// `file:line:col: severity: message`, the format of gcc and of editors' problem matchers.
/// A diagnostic without a span prints as `seedgen: severity: message`.
pub fn render_short(db: &SourceDb, diagnostic: &Diagnostic) -> String {
    let message = one_line(&diagnostic.message);
    match diagnostic.primary_span() {
        Some(span) => {
            let at = db.line_col(span);
            let name = db.name(span.file);
            format!("{name}:{}:{}: {}: {message}", at.line, at.column, diagnostic.severity.as_str())
        }
        None => format!("seedgen: {}: {message}", diagnostic.severity.as_str()),
    }
}

fn one_line(message: &str) -> String {
    message.replace('\n', " ")
}

/// The JSON form of a diagnostic, one object per line: `severity`, `message`, `file`,
/// `line`, `column`, `end_line`, `end_column` (1-based, columns in characters, end
/// exclusive), `labels` (each with `message`, `primary` and the same position fields) and
/// `notes`. A diagnostic without a span has no position fields.
#[derive(Serialize)]
pub struct JsonDiagnostic {
    pub severity: Severity,
    pub message: String,
    #[serde(flatten)]
    pub position: Option<JsonPosition>,
    pub labels: Vec<JsonLabel>,
    pub notes: Vec<String>,
}

#[derive(Serialize)]
pub struct JsonPosition {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
}

#[derive(Serialize)]
pub struct JsonLabel {
    pub message: String,
    pub primary: bool,
    #[serde(flatten)]
    pub position: JsonPosition,
}

fn json_position(db: &SourceDb, span: Span) -> JsonPosition {
    let start = db.line_col(span);
    let end = db.line_col(Span { start: span.end, ..span });
    JsonPosition {
        file: db.name(span.file).to_string(),
        line: start.line,
        column: start.column,
        end_line: end.line,
        end_column: end.column,
    }
}

pub fn render_json(db: &SourceDb, diagnostic: &Diagnostic) -> String {
    let json = JsonDiagnostic {
        severity: diagnostic.severity,
        message: diagnostic.message.clone(),
        position: diagnostic.primary_span().map(|span| json_position(db, span)),
        labels: diagnostic
            .labels
            .iter()
            .map(|label| JsonLabel {
                message: label.message.clone(),
                primary: label.primary,
                position: json_position(db, label.span),
            })
            .collect(),
        notes: diagnostic.notes.clone(),
    };
    serde_json::to_string(&json).expect("diagnostics serialize to JSON")
}

/// Renders diagnostics as plain human text (no color), as the snapshot tests see them.
pub fn render_human_plain(db: &SourceDb, diagnostics: &[Diagnostic]) -> String {
    let mut buffer = term::termcolor::NoColor::new(Vec::new());
    let emitter = Emitter { db, format: MessageFormat::Human };
    for diagnostic in diagnostics {
        emitter.emit(&mut buffer, diagnostic).expect("writing to memory cannot fail");
    }
    String::from_utf8(buffer.into_inner()).expect("codespan renders UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_messages_are_shortened_in_the_middle() {
        let name = "x".repeat(1_000_000);
        let diagnostic =
            Diagnostic::error(format!("cannot find variable `{name}`")).with_primary(Span::default(), name);
        assert_eq!(diagnostic.message.chars().count(), MAX_MESSAGE_CHARS + 1);
        assert!(diagnostic.message.starts_with("cannot find variable `xxx") && diagnostic.message.ends_with("xxx`"));
        assert!(diagnostic.message.contains('…'));
        assert_eq!(diagnostic.labels[0].message.chars().count(), MAX_MESSAGE_CHARS + 1);
        assert_eq!(Diagnostic::error("short").message, "short");
    }
}
