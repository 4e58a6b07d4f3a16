//! Syntax errors, as data, and their one conversion into diagnostics.

use crate::diag::Diagnostic;
use crate::source::Span;
use crate::syntax::lexer::LexError;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    Lex {
        error: LexError,
        span: Span,
    },
    /// A run of characters that start no token.
    InvalidChars {
        found: String,
        span: Span,
    },
    UnexpectedToken {
        found: String,
        span: Span,
        expected: Vec<String>,
    },
    UnexpectedEof {
        span: Span,
        expected: Vec<String>,
    },
    /// Brackets nested deeper than [`crate::syntax::MAX_NESTING`].
    NestingTooDeep {
        span: Span,
        limit: usize,
    },
    /// An expression nested deeper than [`crate::syntax::MAX_EXPR_DEPTH`].
    ExprTooDeep {
        span: Span,
        limit: usize,
    },
    /// A statement nested deeper than [`crate::syntax::MAX_STMT_DEPTH`] (an `else if`
    /// chain counts).
    StmtTooDeep {
        span: Span,
        limit: usize,
    },
    /// `var` after the first statement of a body.
    LocalAfterStatement {
        span: Span,
        first_statement: Span,
    },
    /// More errors than are worth showing; the count of those left out.
    TooMany {
        span: Span,
        omitted: usize,
    },
}

/// At most this many expected tokens are listed.
const MAX_EXPECTED_SHOWN: usize = 8;

impl ParseError {
    pub fn span(&self) -> Span {
        match self {
            ParseError::Lex { span, .. }
            | ParseError::InvalidChars { span, .. }
            | ParseError::UnexpectedToken { span, .. }
            | ParseError::UnexpectedEof { span, .. }
            | ParseError::NestingTooDeep { span, .. }
            | ParseError::ExprTooDeep { span, .. }
            | ParseError::StmtTooDeep { span, .. }
            | ParseError::LocalAfterStatement { span, .. }
            | ParseError::TooMany { span, .. } => *span,
        }
    }

    pub fn to_diagnostic(&self) -> Diagnostic {
        match self {
            ParseError::Lex { error, span } => lex_diagnostic(error, *span),
            ParseError::InvalidChars { found, span } => {
                let plural = if found.chars().nth(1).is_some() { "s" } else { "" };
                Diagnostic::error(format!("invalid character{plural} `{}`", shown_chars(found)))
                    .with_primary(*span, "not part of any Boogie token")
            }
            ParseError::UnexpectedToken { found, span, expected } => {
                let diagnostic =
                    Diagnostic::error(format!("unexpected {found}")).with_primary(*span, expected_label(expected));
                with_hints(diagnostic, found, expected)
            }
            ParseError::UnexpectedEof { span, expected } => {
                Diagnostic::error("unexpected end of file").with_primary(*span, expected_label(expected))
            }
            ParseError::NestingTooDeep { span, limit } => {
                Diagnostic::error(format!("brackets nested more than {limit} levels deep"))
                    .with_primary(*span, "this bracket is too deep")
                    .with_note("seedgen limits nesting so that no input can exhaust its stack")
            }
            ParseError::ExprTooDeep { span, limit } => {
                Diagnostic::error(format!("expression nested more than {limit} levels deep"))
                    .with_primary(*span, "this expression is too deep")
                    .with_help("split it with intermediate variables or functions")
            }
            ParseError::StmtTooDeep { span, limit } => {
                Diagnostic::error(format!("statements nested more than {limit} levels deep"))
                    .with_primary(*span, "this branch is too deep")
                    .with_note("each `else if` counts as nested in the `else` before it")
                    .with_help("split the chain, e.g. into a helper procedure")
            }
            ParseError::LocalAfterStatement { span, first_statement } => {
                Diagnostic::error("local variable declared after a statement")
                    .with_primary(*span, "declared here")
                    .with_secondary(*first_statement, "the first statement of the body")
                    .with_help("move the declaration to the start of the body, before the first statement")
            }
            ParseError::TooMany { span, omitted } => {
                Diagnostic::error(format!("{omitted} more syntax errors not shown"))
                    .with_primary(*span, "the next one starts here")
            }
        }
    }
}

fn lex_diagnostic(error: &LexError, span: Span) -> Diagnostic {
    match error {
        LexError::InvalidChar => {
            Diagnostic::error("invalid character").with_primary(span, "not part of any Boogie token")
        }
        LexError::UnterminatedComment => Diagnostic::error("unterminated block comment")
            .with_primary(span.shrink_to_start(), "this comment is never closed")
            .with_note("block comments nest in Boogie: each `/*` needs its own `*/`"),
        LexError::UnterminatedString => {
            Diagnostic::error("unterminated string").with_primary(span, "this string has no closing `\"`")
        }
        LexError::LiteralTooLong => Diagnostic::error("integer literal too long")
            .with_primary(span, "more digits than seedgen accepts")
            .with_note(format!("literals are limited to {} digits", crate::syntax::lexer::MAX_LITERAL_DIGITS)),
        LexError::BitVectorWidth => Diagnostic::error("bit-vector width too large")
            .with_primary(span, format!("widths are at most {} bits", u32::MAX)),
        LexError::FloatLiteral => Diagnostic::error("floating-point literals are not supported yet")
            .with_primary(span, "floating-point literal"),
    }
}

/// At most this many invalid characters are shown in a message.
const MAX_CHARS_SHOWN: usize = 16;

/// Characters as a message shows them: control and invisible ones escaped (`\u{0}`,
/// `\u{202e}`), so a message never carries a terminal escape or reorders its text.
fn shown_chars(found: &str) -> String {
    let mut shown: String = found.chars().take(MAX_CHARS_SHOWN).flat_map(char::escape_debug).collect();
    if found.chars().nth(MAX_CHARS_SHOWN).is_some() {
        shown.push('…');
    }
    shown
}

/// Token classes are named plainly; fixed tokens are shown in backticks.
fn pretty_expected(terminal: &str) -> String {
    let bare = terminal.trim_matches('"').replace("\\\"", "\"");
    match bare.as_str() {
        "identifier" => "identifier".to_string(),
        "natural" => "number".to_string(),
        "bitvector" => "bit-vector literal".to_string(),
        "decimal" => "decimal".to_string(),
        "string" => "string".to_string(),
        _ => format!("`{bare}`"),
    }
}

/// Separators and closers say most about where the parser is, so they come first;
/// the long tail of binary operators last.
fn expected_rank(terminal: &str) -> u8 {
    let bare = terminal.trim_matches('"');
    match bare {
        ";" | ")" | "]" | "}" | "," | ":=" | ":" | "::" | "then" | "else" | "{" | "(" => 0,
        "identifier" | "natural" | "bitvector" | "decimal" | "string" => 1,
        _ if bare.chars().all(|c| c.is_ascii_alphabetic()) && !matches!(bare, "div" | "mod") => 2,
        _ => 3,
    }
}

fn expected_label(expected: &[String]) -> String {
    if expects(expected, "natural") && expects(expected, "identifier") && expects(expected, "old") {
        return "expected an expression".to_string();
    }
    let mut ordered: Vec<&String> = expected.iter().collect();
    ordered.sort_by_key(|terminal| expected_rank(terminal));
    let shown: Vec<String> = ordered.iter().take(MAX_EXPECTED_SHOWN).map(|t| pretty_expected(t)).collect();
    match shown.len() {
        0 => "unexpected here".to_string(),
        1 => format!("expected {}", shown[0]),
        _ if expected.len() > MAX_EXPECTED_SHOWN => {
            format!("expected one of {}, …", shown.join(", "))
        }
        _ => format!("expected one of {}", shown.join(", ")),
    }
}

fn expects(expected: &[String], spelling: &str) -> bool {
    expected.iter().any(|terminal| terminal.trim_matches('"') == spelling)
}

/// Boogie's grammar has a few rules people trip over; say which one.
fn with_hints(diagnostic: Diagnostic, found: &str, expected: &[String]) -> Diagnostic {
    let is = |spelling: &str| found == format!("`{spelling}`");
    // In an `&&` chain the parser expects more `&&` but not `||`, and vice versa.
    let mixes = (is("||") && !expects(expected, "||")) || (is("&&") && !expects(expected, "&&"));
    if mixes {
        return diagnostic.with_help("`&&` and `||` cannot be mixed without parentheses: write `(a && b) || c`");
    }
    if ["==", "!=", "<", "<=", ">", ">=", "<:"].iter().any(|op| is(op)) && !expects(expected, "==") {
        return diagnostic.with_help("comparisons do not chain: write `a < b && b < c`");
    }
    let keyword = found.strip_prefix('`').and_then(|rest| rest.strip_suffix('`'));
    if let Some(keyword) = keyword.filter(|word| word.chars().all(|c| c.is_ascii_alphabetic())) {
        if expects(expected, "identifier") && !expects(expected, "natural") {
            return diagnostic.with_help(format!("`{keyword}` is a keyword; write `\\{keyword}` to use it as a name"));
        }
    }
    diagnostic
}
