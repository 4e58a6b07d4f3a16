//! The canonical suite file, version 1 (documented in `docs/suite-format.md`).
//!
//! These are wire types only: [`crate::suite::build`] fills them from a generation run,
//! and nothing else in the crate derives `Serialize`. The file is deterministic: every
//! list is in a fixed order (procedures, goals and tests in program order), there are no
//! timestamps, times or absolute paths, and the JSON is pretty-printed with two-space
//! indentation and a final newline.

use serde::Serialize;

/// The format's name, the first field of every suite file.
pub const FORMAT: &str = "seedgen-suite";
/// Bumped on every incompatible change of the format.
pub const VERSION: u32 = 1;

#[derive(Serialize, Debug)]
pub struct Suite {
    pub format: &'static str,
    pub version: u32,
    /// `seedgen <version>`.
    pub tool: String,
    pub source: Source,
    pub options: Options,
    pub procedures: Vec<Procedure>,
}

#[derive(Serialize, Debug)]
pub struct Source {
    /// The path as given on the command line.
    pub file: String,
    /// `sha256:<hex>` of the file's bytes.
    pub digest: String,
}

#[derive(Serialize, Debug)]
pub struct Options {
    /// `leaves` or `all`.
    pub goals: &'static str,
}

#[derive(Serialize, Debug)]
pub struct Procedure {
    pub name: String,
    /// `sha256:<hex>` of the implementation and its procedure's contract as seedgen
    /// reads them: unchanged when only other procedures change.
    pub digest: String,
    pub goals: Vec<Goal>,
    pub tests: Vec<Test>,
}

#[derive(Serialize, Debug)]
pub struct Goal {
    /// The stable structural id, e.g. `binary_search/while#1/body/if#2/else`.
    pub id: String,
    pub span: Position,
    /// Covering it covers no other goal (it was seeded with `--goals leaves`).
    pub leaf: bool,
    /// `covered`, `candidate`, `unreachable` or `not_covered`.
    pub status: &'static str,
    /// The test that covers it (for `covered` and `candidate`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub test: Option<String>,
    /// Why it is not covered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// 1-based lines and columns (columns in characters), end exclusive.
#[derive(Serialize, Debug)]
pub struct Position {
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
}

#[derive(Serialize, Debug)]
pub struct Test {
    /// `<procedure>/t<n>`, numbered from 1 in generation order.
    pub id: String,
    /// `test` when its model is an execution of the program; `candidate` when its path
    /// goes through a loop invariant or a callee contract (to be confirmed by replay).
    pub kind: &'static str,
    /// Why a candidate is unconfirmed beyond abstractions (the solver answered `unknown`
    /// and this is its best-effort model).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The goals the query asked for (it reaches at least one).
    pub targets: Vec<String>,
    /// Every goal its path reaches.
    pub covers: Vec<String>,
    pub inputs: Inputs,
    /// The nondeterministic choices along the path, in execution order.
    pub trace: Vec<TraceEntry>,
}

#[derive(Serialize, Debug, Default)]
pub struct Inputs {
    /// In-parameters by name.
    pub params: Vec<Named>,
    /// Global variables' values at entry (those the path reads).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub globals: Vec<Named>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub consts: Vec<Named>,
    /// Out-parameters and locals read before they are written.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub uninitialized: Vec<Named>,
    /// Tables of uninterpreted functions.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub functions: Vec<FunctionTable>,
}

#[derive(Serialize, Debug)]
pub struct Named {
    pub name: String,
    pub value: serde_json::Value,
}

#[derive(Serialize, Debug)]
pub struct FunctionTable {
    pub name: String,
    /// `[[arguments...], result]` pairs.
    pub entries: Vec<(Vec<serde_json::Value>, serde_json::Value)>,
    pub default: serde_json::Value,
}

#[derive(Serialize, Debug)]
#[serde(rename_all = "snake_case")]
pub enum TraceEntry {
    /// A `havoc`'s value.
    Havoc { var: String, value: serde_json::Value },
    /// A result of a call to a procedure without a body.
    CallOut { callee: String, var: String, value: serde_json::Value },
    /// A global that such a call modifies, its value after the call.
    CallModifies { callee: String, global: String, value: serde_json::Value },
    /// The branch a nondeterministic `goto` (or `if (*)`, `while (*)`) takes, by the
    /// structural path of its target.
    Goto { target: String },
}

/// Renders a suite as its canonical text.
pub fn to_text(suite: &Suite) -> String {
    let mut text = serde_json::to_string_pretty(suite).expect("suites serialize to JSON");
    text.push('\n');
    text
}
