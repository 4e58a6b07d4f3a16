//! Places in a document both ways: byte offsets (what every [`Span`] holds) and LSP
//! positions (a line and a character offset in it, characters counted in the encoding
//! the client and server agreed on: UTF-16 code units unless the client offers UTF-8).
//! Lines end at `\n` (a `\r` before it is part of the line's end, not of its text).
//!
//! Input: the text a document had when it was checked. Every offset or position given
//! is clamped into the text, so a stale position from the client never panics.

use crate::diag::{self, Severity};
use crate::source::Span;
use lsp_types::{DiagnosticRelatedInformation, DiagnosticSeverity, Location, Position, Range, Uri};

/// How characters are counted in a [`Position`]'s `character`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
}

/// The line starts of one text, for conversions in both directions.
pub struct LineIndex<'a> {
    text: &'a str,
    /// The byte offset where each line starts; the first is 0.
    starts: Vec<usize>,
    encoding: Encoding,
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str, encoding: Encoding) -> LineIndex<'a> {
        let starts = std::iter::once(0).chain(text.match_indices('\n').map(|(at, _)| at + 1)).collect();
        LineIndex { text, starts, encoding }
    }

    /// The position of byte `offset` (clamped to the text, moved back to a character
    /// boundary).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&start| start <= offset) - 1;
        let before = &self.text[self.starts[line]..offset];
        let character = match self.encoding {
            Encoding::Utf8 => before.len(),
            Encoding::Utf16 => before.encode_utf16().count(),
        };
        Position { line: count(line), character: count(character) }
    }

    /// The byte offset of `position`; a line past the end is the end of the text, a
    /// character past the end of its line the line's end.
    pub fn offset(&self, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else { return self.text.len() };
        let end = self.starts.get(position.line as usize + 1).map_or(self.text.len(), |&next| next - 1);
        let line = self.text[start..end].strip_suffix('\r').unwrap_or(&self.text[start..end]);
        let mut units = 0;
        for (at, character) in line.char_indices() {
            if units >= position.character as usize {
                return start + at;
            }
            units += match self.encoding {
                Encoding::Utf8 => character.len_utf8(),
                Encoding::Utf16 => character.len_utf16(),
            };
        }
        start + line.len()
    }

    pub fn range(&self, span: Span) -> Range {
        Range { start: self.position(span.start as usize), end: self.position(span.end as usize) }
    }
}

/// LSP positions are `u32`s; a document of 4 GiB or more is refused before it is
/// indexed, so no line or character count exceeds that.
fn count(value: usize) -> u32 {
    u32::try_from(value).expect("documents are smaller than 4 GiB")
}

/// A seedgen diagnostic of the document at `uri` as an LSP diagnostic: at its primary
/// label (the start of the document when it has none), its notes after its message, its
/// secondary labels as related information.
pub fn diagnostic(index: &LineIndex, uri: &Uri, diagnostic: &diag::Diagnostic) -> lsp_types::Diagnostic {
    let range = diagnostic.primary_span().map_or_else(Range::default, |span| index.range(span));
    let mut message = diagnostic.message.clone();
    for note in &diagnostic.notes {
        message.push('\n');
        message.push_str(note);
    }
    let related: Vec<DiagnosticRelatedInformation> = diagnostic
        .labels
        .iter()
        .filter(|label| !label.primary)
        .map(|label| DiagnosticRelatedInformation {
            location: Location { uri: uri.clone(), range: index.range(label.span) },
            message: label.message.clone(),
        })
        .collect();
    lsp_types::Diagnostic {
        range,
        severity: Some(match diagnostic.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Note => DiagnosticSeverity::INFORMATION,
        }),
        source: Some("seedgen".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..lsp_types::Diagnostic::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: u32, character: u32) -> Position {
        Position { line, character }
    }

    #[test]
    fn characters_count_utf16_units_by_default_and_bytes_in_utf8() {
        // `𝔸` is 4 bytes and 2 UTF-16 units; `é` 2 bytes and 1 unit.
        let text = "ab\r\né𝔸x\n";
        let utf16 = LineIndex::new(text, Encoding::Utf16);
        let x = text.find('x').expect("x is in the text");
        assert_eq!(utf16.position(x), at(1, 3));
        assert_eq!(utf16.offset(at(1, 3)), x);
        let utf8 = LineIndex::new(text, Encoding::Utf8);
        assert_eq!(utf8.position(x), at(1, 6));
        assert_eq!(utf8.offset(at(1, 6)), x);
    }

    #[test]
    fn positions_out_of_the_text_are_clamped() {
        let text = "ab\r\ncd";
        let index = LineIndex::new(text, Encoding::Utf16);
        assert_eq!(index.offset(at(0, 99)), 2, "the end of the first line, before its `\\r`");
        assert_eq!(index.offset(at(7, 0)), text.len());
        assert_eq!(index.position(99), at(1, 2));
        // Inside `é`: moved back to its start.
        assert_eq!(LineIndex::new("é", Encoding::Utf16).position(1), at(0, 0));
    }
}
