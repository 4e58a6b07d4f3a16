//! Tokens of the Boogie language (logos), as the `(start, Token, end)` triples lalrpop
//! consumes.
//!
//! Identifiers follow Boogie: letters, digits and `'~#$^_.?` (not first: a digit), with
//! an optional leading `\` that lets a keyword be used as a name. Block comments nest, as
//! in Boogie. The Unicode spellings Boogie accepts (`∀ ∃ λ ⇒ ⇔ ¬ ∧ ∨ ≠ ≤ ≥ •`) are the
//! same tokens as their ASCII forms.

use logos::{FilterResult, Logos};
use num_bigint::BigUint;
use std::fmt;

/// Integer literals longer than this are rejected: converting them would be quadratic,
/// and no real program needs them.
pub const MAX_LITERAL_DIGITS: usize = 100_000;

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum LexError {
    #[default]
    InvalidChar,
    UnterminatedComment,
    UnterminatedString,
    LiteralTooLong,
    /// A bit-vector literal's width (`1bv99999999999`) beyond `u32`.
    BitVectorWidth,
    /// Hexadecimal floating-point literals (`0x1.0e0f24e8`), outside the core.
    FloatLiteral,
}

#[derive(Logos, Clone, Debug, PartialEq, Eq)]
#[logos(error = LexError)]
#[logos(skip r"[ \t\r\n\f]+")]
#[logos(skip(r"//[^\n]*", allow_greedy = true))]
pub enum Token {
    #[token("/*", skip_block_comment)]
    BlockComment,

    // Declarations.
    #[token("type")]
    Type,
    #[token("finite")]
    Finite,
    #[token("const")]
    Const,
    #[token("unique")]
    Unique,
    #[token("extends")]
    Extends,
    #[token("complete")]
    Complete,
    #[token("function")]
    Function,
    #[token("returns")]
    Returns,
    #[token("axiom")]
    Axiom,
    #[token("var")]
    Var,
    #[token("where")]
    Where,
    #[token("procedure")]
    Procedure,
    #[token("implementation")]
    Implementation,
    #[token("uses")]
    Uses,
    #[token("requires")]
    Requires,
    #[token("ensures")]
    Ensures,
    #[token("modifies")]
    Modifies,
    #[token("free")]
    Free,

    // Statements.
    #[token("assert")]
    Assert,
    #[token("assume")]
    Assume,
    #[token("havoc")]
    Havoc,
    #[token("call")]
    Call,
    #[token("async")]
    Async,
    #[token("par")]
    Par,
    #[token("yield")]
    Yield,
    #[token("if")]
    If,
    #[token("then")]
    Then,
    #[token("else")]
    Else,
    #[token("while")]
    While,
    #[token("invariant")]
    Invariant,
    #[token("break")]
    Break,
    #[token("return")]
    Return,
    #[token("goto")]
    Goto,

    // Types and expressions.
    #[token("int")]
    Int,
    #[token("bool")]
    Bool,
    #[token("real")]
    Real,
    #[token("true")]
    True,
    #[token("false")]
    False,
    #[token("old")]
    Old,
    #[token("forall")]
    #[token("∀")]
    Forall,
    #[token("exists")]
    #[token("∃")]
    Exists,
    #[token("lambda")]
    #[token("λ")]
    Lambda,
    #[token("div")]
    Div,
    #[token("mod")]
    Mod,

    // Punctuation and operators.
    #[token("<==>")]
    #[token("⇔")]
    Iff,
    #[token("==>")]
    #[token("⇒")]
    Implies,
    #[token("<==")]
    #[token("⇐")]
    Explies,
    #[token("&&")]
    #[token("∧")]
    And,
    #[token("||")]
    #[token("∨")]
    Or,
    #[token("==")]
    EqEq,
    #[token("!=")]
    #[token("≠")]
    NotEq,
    #[token("<")]
    Lt,
    #[token("<=")]
    #[token("≤")]
    Le,
    #[token(">")]
    Gt,
    #[token(">=")]
    #[token("≥")]
    Ge,
    #[token("<:")]
    Subtype,
    #[token("++")]
    Concat,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("**")]
    Power,
    #[token("/")]
    Slash,
    #[token("!")]
    #[token("¬")]
    Bang,
    #[token("=")]
    Eq,
    #[token(":=")]
    Assign,
    #[token("::")]
    #[token("•")]
    ColonColon,
    #[token(":")]
    Colon,
    #[token(";")]
    Semi,
    #[token(",")]
    Comma,
    #[token("|")]
    Bar,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,

    // Literals and names.
    #[regex(r"[0-9]+", natural)]
    Natural(BigUint),
    #[regex(r"[0-9]+bv[0-9]+", bit_vector)]
    BitVector((BigUint, u32)),
    #[regex(r"[0-9]+e-?[0-9]+", |lex| lex.slice().to_string())]
    #[regex(r"[0-9]+\.[0-9]+(e-?[0-9]+)?", |lex| lex.slice().to_string())]
    Decimal(String),
    #[regex(r"-?0x[0-9a-fA-F]+\.[0-9a-fA-F]+e-?[0-9]+f[0-9]+e[0-9]+", float_literal)]
    FloatLiteral,
    // Boogie's only escape is `\"`; any other backslash is an ordinary character.
    #[regex(r#""(\\"|[^"\n])*""#, |lex| { let s = lex.slice(); s[1..s.len() - 1].to_string() })]
    #[regex(r#""(\\"|[^"\n])*"#, unterminated_string)]
    Str(String),
    #[regex(r"\\?[a-zA-Z'~#$^_.?`][a-zA-Z0-9'~#$^_.?`]*", identifier)]
    Ident(String),
}

fn skip_block_comment(lex: &mut logos::Lexer<Token>) -> FilterResult<(), LexError> {
    let rest = lex.remainder().as_bytes();
    let mut depth = 1usize;
    let mut index = 0;
    while index < rest.len() {
        match (rest[index], rest.get(index + 1)) {
            (b'/', Some(b'*')) => {
                depth += 1;
                index += 2;
            }
            (b'*', Some(b'/')) => {
                depth -= 1;
                index += 2;
                if depth == 0 {
                    lex.bump(index);
                    return FilterResult::Skip;
                }
            }
            _ => index += 1,
        }
    }
    lex.bump(rest.len());
    FilterResult::Error(LexError::UnterminatedComment)
}

fn float_literal(_: &mut logos::Lexer<Token>) -> Result<(), LexError> {
    Err(LexError::FloatLiteral)
}

fn unterminated_string(_: &mut logos::Lexer<Token>) -> Result<String, LexError> {
    Err(LexError::UnterminatedString)
}

fn natural(lex: &mut logos::Lexer<Token>) -> Result<BigUint, LexError> {
    parse_digits(lex.slice())
}

fn parse_digits(digits: &str) -> Result<BigUint, LexError> {
    if digits.len() > MAX_LITERAL_DIGITS {
        return Err(LexError::LiteralTooLong);
    }
    Ok(BigUint::parse_bytes(digits.as_bytes(), 10).expect("the regex admits only decimal digits"))
}

fn bit_vector(lex: &mut logos::Lexer<Token>) -> Result<(BigUint, u32), LexError> {
    let (value, width) = lex.slice().split_once("bv").expect("the regex contains `bv`");
    let width = width.parse::<u32>().map_err(|_| LexError::BitVectorWidth)?;
    Ok((parse_digits(value)?, width))
}

fn identifier(lex: &mut logos::Lexer<Token>) -> String {
    let text = lex.slice();
    text.strip_prefix('\\').unwrap_or(text).to_string()
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Natural(value) => write!(f, "number `{value}`"),
            Token::BitVector((value, width)) => write!(f, "bit-vector literal `{value}bv{width}`"),
            Token::Decimal(text) => write!(f, "decimal `{text}`"),
            Token::Str(text) => write!(f, "string \"{text}\""),
            Token::Ident(name) => write!(f, "identifier `{name}`"),
            other => write!(f, "`{}`", other.spelling()),
        }
    }
}

impl Token {
    /// How a fixed token is written (payload tokens give a placeholder).
    pub fn spelling(&self) -> &'static str {
        match self {
            Token::BlockComment => "/*",
            Token::Type => "type",
            Token::Finite => "finite",
            Token::Const => "const",
            Token::Unique => "unique",
            Token::Extends => "extends",
            Token::Complete => "complete",
            Token::Function => "function",
            Token::Returns => "returns",
            Token::Axiom => "axiom",
            Token::Var => "var",
            Token::Where => "where",
            Token::Procedure => "procedure",
            Token::Implementation => "implementation",
            Token::Uses => "uses",
            Token::Requires => "requires",
            Token::Ensures => "ensures",
            Token::Modifies => "modifies",
            Token::Free => "free",
            Token::Assert => "assert",
            Token::Assume => "assume",
            Token::Havoc => "havoc",
            Token::Call => "call",
            Token::Async => "async",
            Token::Par => "par",
            Token::Yield => "yield",
            Token::If => "if",
            Token::Then => "then",
            Token::Else => "else",
            Token::While => "while",
            Token::Invariant => "invariant",
            Token::Break => "break",
            Token::Return => "return",
            Token::Goto => "goto",
            Token::Int => "int",
            Token::Bool => "bool",
            Token::Real => "real",
            Token::True => "true",
            Token::False => "false",
            Token::Old => "old",
            Token::Forall => "forall",
            Token::Exists => "exists",
            Token::Lambda => "lambda",
            Token::Div => "div",
            Token::Mod => "mod",
            Token::Iff => "<==>",
            Token::Implies => "==>",
            Token::Explies => "<==",
            Token::And => "&&",
            Token::Or => "||",
            Token::EqEq => "==",
            Token::NotEq => "!=",
            Token::Lt => "<",
            Token::Le => "<=",
            Token::Gt => ">",
            Token::Ge => ">=",
            Token::Subtype => "<:",
            Token::Concat => "++",
            Token::Plus => "+",
            Token::Minus => "-",
            Token::Star => "*",
            Token::Power => "**",
            Token::Slash => "/",
            Token::Bang => "!",
            Token::Eq => "=",
            Token::Assign => ":=",
            Token::ColonColon => "::",
            Token::Colon => ":",
            Token::Semi => ";",
            Token::Comma => ",",
            Token::Bar => "|",
            Token::LParen => "(",
            Token::RParen => ")",
            Token::LBracket => "[",
            Token::RBracket => "]",
            Token::LBrace => "{",
            Token::RBrace => "}",
            Token::FloatLiteral => "float literal",
            Token::Natural(_) => "number",
            Token::BitVector(_) => "bit-vector literal",
            Token::Decimal(_) => "decimal",
            Token::Str(_) => "string",
            Token::Ident(_) => "identifier",
        }
    }

    /// Whether the token opens or closes a bracket pair, for the nesting limit.
    pub fn nesting_delta(&self) -> isize {
        match self {
            Token::LParen | Token::LBracket | Token::LBrace => 1,
            Token::RParen | Token::RBracket | Token::RBrace => -1,
            _ => 0,
        }
    }
}

/// One lexing problem, with its byte range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexProblem {
    pub error: LexError,
    pub start: usize,
    pub end: usize,
}

/// Lexes a whole file. Runs of invalid characters are reported once, so a file of
/// garbage gives a handful of errors, not millions.
pub fn lex(source: &str) -> (Vec<(usize, Token, usize)>, Vec<LexProblem>) {
    let mut tokens = Vec::new();
    let mut problems: Vec<LexProblem> = Vec::new();
    let mut lexer = Token::lexer(source);
    while let Some(result) = lexer.next() {
        let range = lexer.span();
        match result {
            Ok(token) => tokens.push((range.start, token, range.end)),
            Err(error) => match problems.last_mut() {
                Some(last) if error == LexError::InvalidChar && last.error == error && last.end == range.start => {
                    last.end = range.end;
                }
                _ => problems.push(LexProblem { error, start: range.start, end: range.end }),
            },
        }
    }
    (tokens, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(source: &str) -> Vec<Token> {
        let (tokens, problems) = lex(source);
        assert!(problems.is_empty(), "{problems:?}");
        tokens.into_iter().map(|(_, token, _)| token).collect()
    }

    #[test]
    fn identifiers_take_boogie_special_characters() {
        assert_eq!(
            kinds("$Heap x' a.b ?q \\while"),
            ["$Heap", "x'", "a.b", "?q", "while"].map(|name| Token::Ident(name.into()))
        );
    }

    #[test]
    fn keywords_beat_identifiers_but_prefixes_do_not() {
        assert_eq!(kinds("if iff"), vec![Token::If, Token::Ident("iff".into())]);
    }

    #[test]
    fn block_comments_nest() {
        assert_eq!(kinds("a /* b /* c */ d */ e").len(), 2);
        let (_, problems) = lex("a /* b /* c */");
        assert_eq!(problems[0].error, LexError::UnterminatedComment);
    }

    #[test]
    fn literals() {
        assert_eq!(kinds("42"), vec![Token::Natural(42u32.into())]);
        assert_eq!(kinds("5bv32"), vec![Token::BitVector((5u32.into(), 32))]);
        assert_eq!(kinds("1.5"), vec![Token::Decimal("1.5".into())]);
        assert_eq!(kinds("\"a\\\"b\""), vec![Token::Str("a\\\"b".into())]);
        // Boogie: `\\` is not an escape, so `"x\\" y\""` is one string.
        assert_eq!(kinds(r#""x\\" y\"""#), vec![Token::Str(r#"x\\" y\""#.into())]);
    }

    #[test]
    fn operators_take_the_longest_match() {
        assert_eq!(
            kinds("<==> ==> <== <= <: < := :: : {"),
            vec![
                Token::Iff,
                Token::Implies,
                Token::Explies,
                Token::Le,
                Token::Subtype,
                Token::Lt,
                Token::Assign,
                Token::ColonColon,
                Token::Colon,
                Token::LBrace
            ]
        );
    }

    #[test]
    fn runs_of_garbage_are_one_problem() {
        let (_, problems) = lex("x @@@@ y");
        assert_eq!(problems, vec![LexProblem { error: LexError::InvalidChar, start: 2, end: 6 }]);
    }

    #[test]
    fn overlong_literals_are_rejected_not_converted() {
        let (_, problems) = lex(&"9".repeat(MAX_LITERAL_DIGITS + 1));
        assert_eq!(problems[0].error, LexError::LiteralTooLong);
    }
}
