//! A lexical scan of a Boogie file: which language features it uses, and whether it
//! belongs to one of the parts of Boogie's suite that are outside seedgen's language
//! (CIVL, floating point).
//!
//! Input: a file's text. Output: the set of [`Feature`]s and the [`Dialect`] markers
//! found in it after comments and string literals are blanked out. A scan, not a parse:
//! a construct is recognised by the tokens that start it (`|{` for a code expression,
//! `forall<` for a type quantifier), so a feature can be missed or, rarely, seen where
//! it is not; it is good enough to say which constructs the disagreements fall on.

use regex::Regex;
use std::collections::BTreeSet;
use std::sync::LazyLock;

/// A Boogie construct beyond the first-order core (int, bool, maps, procedures), as
/// the table groups files by it. The order is the table's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Feature {
    /// Any of the three below.
    Polymorphism,
    /// `function f<T>`, `procedure p<T>`, `forall<T>`, `exists<T>`, `lambda<T>`.
    TypeParameters,
    /// `type Field _;`, `type Seq T;`: a type constructor with parameters.
    TypeConstructors,
    /// `<a>[ref, Field a]a`.
    PolymorphicMaps,
    /// `type Set T = [T]bool;`, `type X = int;`.
    TypeSynonyms,
    BitVectors,
    Reals,
    /// `(var x := e; body)`.
    LetExpressions,
    /// `|{ ... }|`.
    CodeExpressions,
    /// `function ... uses { axiom ...; }`.
    UsesClauses,
    /// `<:`, `extends`, `complete`.
    PartialOrder,
    FreeCall,
    /// `free requires`, `free ensures`, `free invariant`.
    FreeContracts,
    WhereClauses,
    Inline,
    Lambdas,
    /// `{:builtin "..."}`, `{:bvbuiltin "..."}`.
    Builtins,
    /// `{:datatype}`, `{:constructor}`.
    Datatypes,
    UniqueConstants,
    CallForall,
    Break,
    /// `if c then a else b` as an expression.
    IfThenElse,
    /// `{ e }` after `::` in a quantifier.
    Triggers,
    /// `int(e)`, `real(e)`.
    Conversions,
}

impl Feature {
    pub const ALL: [Feature; 24] = [
        Feature::Polymorphism,
        Feature::TypeParameters,
        Feature::TypeConstructors,
        Feature::PolymorphicMaps,
        Feature::TypeSynonyms,
        Feature::BitVectors,
        Feature::Reals,
        Feature::LetExpressions,
        Feature::CodeExpressions,
        Feature::UsesClauses,
        Feature::PartialOrder,
        Feature::FreeCall,
        Feature::FreeContracts,
        Feature::WhereClauses,
        Feature::Inline,
        Feature::Lambdas,
        Feature::Builtins,
        Feature::Datatypes,
        Feature::UniqueConstants,
        Feature::CallForall,
        Feature::Break,
        Feature::IfThenElse,
        Feature::Triggers,
        Feature::Conversions,
    ];

    /// The name in the table and in the JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Feature::Polymorphism => "polymorphism (any)",
            Feature::TypeParameters => "  type parameters <T>",
            Feature::TypeConstructors => "  type constructors T a",
            Feature::PolymorphicMaps => "  polymorphic maps <a>[..]",
            Feature::TypeSynonyms => "type synonyms =",
            Feature::BitVectors => "bit-vectors",
            Feature::Reals => "reals",
            Feature::LetExpressions => "let-expressions (var x := e; ..)",
            Feature::CodeExpressions => "code expressions |{ }|",
            Feature::UsesClauses => "uses { } clauses",
            Feature::PartialOrder => "<: extends complete",
            Feature::FreeCall => "free call",
            Feature::FreeContracts => "free requires/ensures/invariant",
            Feature::WhereClauses => "where clauses",
            Feature::Inline => "{:inline}",
            Feature::Lambdas => "lambdas",
            Feature::Builtins => "{:builtin} {:bvbuiltin}",
            Feature::Datatypes => "{:datatype}",
            Feature::UniqueConstants => "unique constants",
            Feature::CallForall => "call forall",
            Feature::Break => "break",
            Feature::IfThenElse => "if-then-else expressions",
            Feature::Triggers => "triggers { }",
            Feature::Conversions => "int(e) real(e)",
        }
    }

    /// The pattern that marks the feature in blanked text (see [`blank`]); the
    /// umbrella [`Feature::Polymorphism`] has none of its own.
    fn pattern(self) -> Option<String> {
        const IDENT: &str = r"[A-Za-z_.$#'?^~][\w.$#'?^~]*";
        const ATTRIBUTES: &str = r"(\{:[^}]*\}\s*)*";
        let pattern: String = match self {
            Feature::Polymorphism => return None,
            Feature::TypeParameters => {
                format!(r"\b(forall|exists|lambda)\s*<|\b(function|procedure|implementation)\s+{ATTRIBUTES}{IDENT}\s*<")
            }
            Feature::TypeConstructors => format!(r"\btype\s+{ATTRIBUTES}(finite\s+)?{IDENT}\s+{IDENT}"),
            Feature::PolymorphicMaps => format!(r"<\s*{IDENT}(\s*,\s*{IDENT})*\s*>\s*\["),
            Feature::TypeSynonyms => format!(r"\btype\s+{ATTRIBUTES}{IDENT}(\s+{IDENT})*\s*="),
            Feature::BitVectors => r"\bbv\d+\b|\b\d+bv\d+\b".into(),
            Feature::Reals => r"\breal\b|\b\d+\.\d+|\b\d+e-?\d+\b".into(),
            Feature::LetExpressions => r"\(\s*var\b".into(),
            Feature::CodeExpressions => r"\|\{".into(),
            Feature::UsesClauses => r"\buses\s*\{".into(),
            Feature::PartialOrder => r"<:|\bextends\b|\bcomplete\b".into(),
            Feature::FreeCall => r"\bfree\s+call\b".into(),
            Feature::FreeContracts => r"\bfree\s+(requires|ensures|invariant)\b".into(),
            Feature::WhereClauses => r"\bwhere\b".into(),
            Feature::Inline => r"\{:inline\b".into(),
            Feature::Lambdas => r"\blambda\b".into(),
            Feature::Builtins => r"\{:(bv)?builtin\b".into(),
            Feature::Datatypes => r"\{:(datatype|constructor)\b|\bdatatype\b".into(),
            Feature::UniqueConstants => r"\bunique\b".into(),
            Feature::CallForall => r"\bcall\s+forall\b".into(),
            Feature::Break => r"\bbreak\b".into(),
            Feature::IfThenElse => r"\bthen\b".into(),
            Feature::Triggers => r"::\s*(\{:[^}]*\}\s*)*\{\s*[^:\s]".into(),
            Feature::Conversions => r"\b(int|real)\s*\(".into(),
        };
        Some(pattern)
    }
}

/// A part of Boogie's language that seedgen leaves out by design, so its files are
/// counted apart from the core.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Dialect {
    /// CIVL: `yield`, `par`, `async`, `{:layer}`, `{:yields}`, movers, linear types.
    Civl,
    /// Floating point: `float24e8`, `RoundingMode`, float literals.
    FloatingPoint,
}

impl Dialect {
    fn pattern(self) -> &'static str {
        match self {
            Dialect::Civl => concat!(
                r"\b(yield|par|async)\b|\{:(layer|yields|linear|linear_in|linear_out|atomic|left|right|both|",
                r"refines|pending_async|intro|mover|pure|lemma|yield_invariant|yield_requires|yield_ensures|",
                r"yield_preserves|yield_loop|hide|witness|commutativity|IS|IS_invariant|IS_abstraction)\b|",
                r"\b(atomic|left|right|both|link|pure|invariant|async)\s+action\b|\byield\s+(procedure|invariant)\b"
            ),
            Dialect::FloatingPoint => concat!(
                r"\bfloat\d+e\d+\b|\bfloat\s*<|\bRoundingMode\b|\b(RNE|RNA|RTP|RTN|RTZ)\b|",
                r"\b0x?[0-9a-fA-F.]+e-?\d+f\d+e\d+\b|\b0(NaN|[+-]oo|[+-]zero)\d+e\d+\b"
            ),
        }
    }

    /// The directories of Boogie's suite given to a dialect: a file there belongs to it
    /// even where the scan sees no marker (an input file of a CIVL test, say).
    fn directories(self) -> &'static [&'static str] {
        match self {
            Dialect::Civl => &["Test/civl/"],
            Dialect::FloatingPoint => &["Test/floats/", "Test/roundingmodes/"],
        }
    }
}

/// What the scan found in one file.
#[derive(Clone, Debug, Default)]
pub struct Scan {
    pub features: BTreeSet<Feature>,
    pub dialects: BTreeSet<Dialect>,
}

struct Patterns {
    features: Vec<(Feature, Regex)>,
    civl: Regex,
    floating_point: Regex,
}

static PATTERNS: LazyLock<Patterns> = LazyLock::new(|| Patterns {
    features: Feature::ALL
        .iter()
        .filter_map(|&feature| Some((feature, Regex::new(&feature.pattern()?).expect("a feature's pattern is valid"))))
        .collect(),
    civl: Regex::new(Dialect::Civl.pattern()).expect("the CIVL pattern is valid"),
    floating_point: Regex::new(Dialect::FloatingPoint.pattern()).expect("the floating-point pattern is valid"),
});

/// Scans `text`, the contents of the file at `relative_path` (`Test/...`).
pub fn scan(relative_path: &str, text: &str) -> Scan {
    let text = blank(text);
    let patterns = &*PATTERNS;
    let mut features: BTreeSet<Feature> =
        patterns.features.iter().filter(|(_, regex)| regex.is_match(&text)).map(|&(feature, _)| feature).collect();
    if [Feature::TypeParameters, Feature::TypeConstructors, Feature::PolymorphicMaps]
        .iter()
        .any(|feature| features.contains(feature))
    {
        features.insert(Feature::Polymorphism);
    }
    let mut dialects = BTreeSet::new();
    for (dialect, regex) in [(Dialect::Civl, &patterns.civl), (Dialect::FloatingPoint, &patterns.floating_point)] {
        let in_directory = dialect.directories().iter().any(|directory| relative_path.starts_with(directory));
        if in_directory || regex.is_match(&text) {
            dialects.insert(dialect);
        }
    }
    Scan { features, dialects }
}

/// `text` with its comments (`// ...`, nested `/* ... */`) and string literals replaced
/// by spaces, line breaks kept, so that no pattern matches inside them.
pub fn blank(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    let mut depth = 0usize;
    let mut in_line_comment = false;
    let mut in_string = false;
    while index < bytes.len() {
        let byte = bytes[index];
        let next = bytes.get(index + 1).copied();
        let blanked = if in_line_comment {
            in_line_comment = byte != b'\n';
            true
        } else if depth > 0 {
            if byte == b'*' && next == Some(b'/') {
                depth -= 1;
                out.extend_from_slice(b"  ");
                index += 2;
                continue;
            }
            if byte == b'/' && next == Some(b'*') {
                depth += 1;
                out.extend_from_slice(b"  ");
                index += 2;
                continue;
            }
            true
        } else if in_string {
            in_string = byte != b'"' && byte != b'\n';
            true
        } else if byte == b'/' && next == Some(b'/') {
            in_line_comment = true;
            true
        } else if byte == b'/' && next == Some(b'*') {
            depth = 1;
            out.extend_from_slice(b"  ");
            index += 2;
            continue;
        } else if byte == b'"' {
            in_string = true;
            true
        } else {
            false
        };
        out.push(if blanked && byte != b'\n' { b' ' } else { byte });
        index += 1;
    }
    // Only ASCII bytes were replaced, by ASCII spaces, but a multi-byte character in a
    // comment is blanked byte by byte, which is still valid UTF-8 (all spaces).
    String::from_utf8(out).expect("blanking replaces whole characters' bytes by spaces")
}
