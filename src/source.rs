//! The source database: every file seedgen reads, and the spans that point into them.
//!
//! Every IR node in every stage carries a [`Span`], so any stage can report a problem at
//! the user's text without re-reading it. Spans are byte offsets into one file of the
//! [`SourceDb`]; the database is the `codespan_reporting` files store used to render them.

use codespan_reporting::files::{Files, SimpleFiles};
use std::ops::Range;

/// Identifies one file of a [`SourceDb`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct FileId(pub u32);

/// A byte range `start..end` of one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span { file, start: offset(start), end: offset(end) }
    }

    /// The smallest span covering both `self` and `other` (same file).
    pub fn to(self, other: Span) -> Span {
        Span { file: self.file, start: self.start.min(other.start), end: self.end.max(other.end) }
    }

    /// An empty span at the start of `self`.
    pub fn shrink_to_start(self) -> Span {
        Span { end: self.start, ..self }
    }

    pub fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    /// Whether `other` (same file) lies within `self`.
    pub fn contains(self, other: Span) -> bool {
        self.file == other.file && self.start <= other.start && other.end <= self.end
    }
}

/// Source offsets are stored as `u32`; the reader refuses files of 4 GiB or more, so
/// the conversion cannot lose information.
fn offset(byte: usize) -> u32 {
    u32::try_from(byte).expect("SourceDb::add rejects files of 4 GiB or more")
}

/// One-based line and column of a position, columns counted in characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCol {
    pub line: usize,
    pub column: usize,
}

/// All files of one run, by [`FileId`].
#[derive(Default)]
pub struct SourceDb {
    files: SimpleFiles<String, String>,
}

/// The largest file seedgen accepts; offsets must fit a `u32`.
pub const MAX_FILE_BYTES: usize = u32::MAX as usize;

impl SourceDb {
    pub fn new() -> SourceDb {
        SourceDb::default()
    }

    /// Adds a file and returns its id. `name` is how diagnostics show it (the path as the
    /// user gave it, never made absolute).
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        let text = text.into();
        assert!(text.len() < MAX_FILE_BYTES, "callers check MAX_FILE_BYTES before adding a file");
        let id = self.files.add(name.into(), text);
        FileId(u32::try_from(id).expect("fewer than 2^32 files per run"))
    }

    pub fn name(&self, file: FileId) -> &str {
        self.files.get(file.0 as usize).expect("FileId comes from this SourceDb").name()
    }

    pub fn text(&self, file: FileId) -> &str {
        self.files.get(file.0 as usize).expect("FileId comes from this SourceDb").source()
    }

    /// The text a span covers.
    pub fn snippet(&self, span: Span) -> &str {
        &self.text(span.file)[span.range()]
    }

    /// One-based line and character column of the start of `span`.
    pub fn line_col(&self, span: Span) -> LineCol {
        let file = span.file.0 as usize;
        let location = self
            .files
            .location(file, span.start as usize)
            .expect("spans produced by the front end lie inside their file");
        LineCol { line: location.line_number, column: location.column_number }
    }

    /// The codespan store, for rendering diagnostics.
    pub fn files(&self) -> &SimpleFiles<String, String> {
        &self.files
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_is_one_based_and_counts_characters() {
        let mut db = SourceDb::new();
        let file = db.add("a.bpl", "ab\n\u{e9}x y");
        let span = Span::new(file, 7, 8);
        assert_eq!(db.snippet(span), "y");
        assert_eq!(db.line_col(span), LineCol { line: 2, column: 4 });
    }

    #[test]
    fn to_covers_both_spans() {
        let a = Span::new(FileId(0), 3, 5);
        let b = Span::new(FileId(0), 1, 4);
        assert_eq!(a.to(b), Span::new(FileId(0), 1, 5));
    }
}
