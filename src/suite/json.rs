//! The canonical suite file, version 3 (documented in `docs/suite-format.md`).
//!
//! These are wire types only: [`crate::suite::build`] fills them from a generation run,
//! [`crate::suite::load`] reads them back; nothing else in the crate derives
//! `Serialize`. Reading is strict: an unknown field is an error, so a typo in a
//! hand-written suite is reported instead of ignored. The file is deterministic: every
//! list is in a fixed order (procedures, goals and tests in program order), there are no
//! timestamps, times or absolute paths, and the JSON is pretty-printed with two-space
//! indentation and a final newline.

use serde::{Deserialize, Serialize};

/// The format's name, the first field of every suite file.
pub const FORMAT: &str = "seedgen-suite";
/// Bumped on every incompatible change of the format. 2: tests are replayed, carry
/// their expected outcome (`expect`) and a complete trace; no more candidates. 3: goal
/// spans are positions in the implementation's text, not in the file, so that nothing
/// in a procedure's section depends on where the procedure sits. 4: with unrolling, the
/// goals of nested loops count per loop by default, and `options.unroll_goals` says
/// how they count.
pub const VERSION: u32 = 4;

/// 5: a test may record the mutants it kills (`kills`, `prove-tests --kill-mutants`).
/// A suite without such a test is written as version 4, byte for byte what it was, so
/// only suites made with `--kill-mutants` need this seedgen to be read.
pub const VERSION_KILLS: u32 = 5;

/// The version a suite of `procedures` is written with.
pub fn version_of(procedures: &[Procedure]) -> u32 {
    let kills = procedures.iter().flat_map(|procedure| &procedure.tests).any(|test| !test.kills.is_empty());
    if kills {
        VERSION_KILLS
    } else {
        VERSION
    }
}

/// The versions this seedgen reads. A version 2 suite differs only in its goal spans,
/// which no reader interprets (diagnostics and reports place goals by the current
/// program), so `run-tests`, `--existing`, `--check` and `merge` keep working on a
/// committed suite of version 2; a version 3 suite is a version 4 suite without
/// `options.unroll_goals`, which then means `combinations`. What `prove-tests` writes
/// is version 4, or 5 with `--kill-mutants`.
pub const READABLE: [u32; 4] = [2, 3, VERSION, VERSION_KILLS];

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Suite {
    pub format: String,
    pub version: u32,
    /// `seedgen <version>`.
    pub tool: String,
    pub source: Source,
    pub options: Options,
    pub procedures: Vec<Procedure>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// The path as given on the command line.
    pub file: String,
    /// `sha256:<hex>` of the file's bytes.
    pub digest: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// `leaves` or `all`.
    pub goals: String,
    /// Levels of calls inlined (`--inline-depth`).
    pub inline_depth: u32,
    /// Loop iterations unrolled (`--unroll`): goal ids carry iterations (`body@2`) when
    /// it is not 0. Absent means 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unroll: u32,
    /// The deeper unrolling missed goals were retried with (`--max-unroll`). Absent
    /// means 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub max_unroll: u32,
    /// How the goals of loops nested in unrolled loops count (`--unroll-goals`). Written
    /// when `unroll` is not 0; absent means `combinations`, what versions 2 and 3 count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unroll_goals: Option<UnrollGoals>,
    /// `--shard K/N`: the suite holds only the implementations at positions `K-1`,
    /// `K-1+N`, … (program order). Absent in a whole suite, and in what `seedgen merge`
    /// makes of the N shards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
}

/// `options.unroll_goals`.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum UnrollGoals {
    PerLoop,
    Combinations,
}

impl From<crate::seed::goals::UnrollGoals> for UnrollGoals {
    fn from(mode: crate::seed::goals::UnrollGoals) -> UnrollGoals {
        match mode {
            crate::seed::goals::UnrollGoals::PerLoop => UnrollGoals::PerLoop,
            crate::seed::goals::UnrollGoals::Combinations => UnrollGoals::Combinations,
        }
    }
}

impl From<UnrollGoals> for crate::seed::goals::UnrollGoals {
    fn from(mode: UnrollGoals) -> crate::seed::goals::UnrollGoals {
        match mode {
            UnrollGoals::PerLoop => crate::seed::goals::UnrollGoals::PerLoop,
            UnrollGoals::Combinations => crate::seed::goals::UnrollGoals::Combinations,
        }
    }
}

/// `mode` as JSON spells it (the flag's spelling).
pub fn unroll_goals_name(mode: UnrollGoals) -> &'static str {
    crate::seed::goals::UnrollGoals::from(mode).as_str()
}

/// The mode JSON spells `name`.
pub fn unroll_goals_named(name: &str) -> Option<UnrollGoals> {
    crate::seed::goals::UnrollGoals::parse(name).map(UnrollGoals::from)
}

impl Options {
    /// How the suite's goal ids count the iterations of nested loops.
    pub fn unroll_goals(&self) -> crate::seed::goals::UnrollGoals {
        self.unroll_goals.map_or(crate::seed::goals::UnrollGoals::Combinations, Into::into)
    }

    /// The options with `unroll_goals` as it is read (`combinations` when absent and
    /// `unroll` is not 0): two suites count their goals alike when these are equal.
    pub fn resolved(&self) -> Options {
        let unroll_goals = (self.unroll != 0).then(|| self.unroll_goals().into());
        Options { unroll_goals, ..self.clone() }
    }
}

/// Which shard of `count` a suite is (`index` from 1).
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

fn is_zero(value: &u32) -> bool {
    *value == 0
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Procedure {
    pub name: String,
    /// `sha256:<hex>` of the implementation and its procedure's contract as seedgen
    /// reads them: unchanged when only other procedures change.
    pub digest: String,
    pub goals: Vec<Goal>,
    pub tests: Vec<Test>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Goal {
    /// The stable structural id, e.g. `binary_search/while#1/body/if#2/else`.
    pub id: String,
    pub span: Position,
    /// Covering it covers no other goal (it was seeded with `--goals leaves`).
    pub leaf: bool,
    /// `covered`, `unreachable` or `not_covered`.
    pub status: String,
    /// The test whose replay first entered it (for `covered`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test: Option<String>,
    /// Why it is not covered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Where a goal is, end exclusive, columns in characters. Version 3: in the text of its
/// implementation (the `procedure` declaration with a body, or the `implementation`) as
/// if that text were a file of its own: line 1 is the declaration's first line, and
/// columns on it count from the declaration's first character. Version 2: lines and
/// columns of the file, from 1.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Position {
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Test {
    /// `<procedure>/t<n>`, numbered from 1 in generation order.
    pub id: String,
    /// The goals the query asked for (the solver's model reaches at least one).
    #[serde(default)]
    pub targets: Vec<String>,
    /// Every goal its replay entered.
    #[serde(default)]
    pub covers: Vec<String>,
    pub inputs: Inputs,
    /// The nondeterministic choices of its run, in execution order.
    #[serde(default)]
    pub trace: Vec<TraceEntry>,
    /// What its run did when it was generated: the regression oracle.
    pub expect: Expect,
    /// The mutants of its implementation it kills, by id (`P/m3`, as `seedgen mutate`
    /// numbers them), when the suite was made with `--kill-mutants` (version 5).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kills: Vec<String>,
}

/// Every value [`Expect::outcome`] may have: only runs that are executions become tests,
/// so [`crate::suite::expected_outcome`]'s `error` is never recorded.
pub const OUTCOMES: [&str; 4] = ["pass", "fail", "infeasible", "unchecked"];

/// The recorded outcome of a test's run.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// `pass`: the procedure returned; `fail`: a check failed (`message` says which);
    /// `infeasible`: an `assume` stopped the run after its goals; `unchecked`: the run
    /// stopped, after its goals, at a check the interpreter cannot decide (`message`
    /// says which, and why).
    pub outcome: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// For `pass`: the out-parameters' final values, by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outputs: Vec<Named>,
    /// For `pass`: the final values of the globals the procedure modifies.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub globals: Vec<Named>,
}

#[derive(Serialize, Deserialize, Debug, Default, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Inputs {
    /// In-parameters by name.
    #[serde(default)]
    pub params: Vec<Named>,
    /// Global variables' values at entry (those the path reads).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub globals: Vec<Named>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub consts: Vec<Named>,
    /// Out-parameters and locals read before they are written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uninitialized: Vec<Named>,
    /// Tables of uninterpreted functions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub functions: Vec<FunctionTable>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Named {
    pub name: String,
    pub value: serde_json::Value,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FunctionTable {
    pub name: String,
    /// `[[arguments...], result]` pairs.
    pub entries: Vec<(Vec<serde_json::Value>, serde_json::Value)>,
    pub default: serde_json::Value,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
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

#[cfg(test)]
impl Suite {
    /// A suite of `procedures` for a program `p.bpl`, with default options: the fixture
    /// of unit tests that compare or combine suites.
    pub(crate) fn for_tests(procedures: Vec<Procedure>) -> Suite {
        Suite {
            format: FORMAT.to_string(),
            version: VERSION,
            tool: "seedgen 0".to_string(),
            source: Source { file: "p.bpl".to_string(), digest: "sha256:0".to_string() },
            options: Options {
                goals: "leaves".to_string(),
                inline_depth: 1,
                unroll: 0,
                max_unroll: 0,
                unroll_goals: None,
                shard: None,
            },
            procedures,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seed::goals::UnrollGoals as Counted;

    #[test]
    fn unroll_goals_are_written_with_the_flags_spelling_and_read_as_combinations_when_absent() {
        let mut suite = Suite::for_tests(Vec::new());
        suite.options.unroll = 2;
        assert_eq!(suite.options.unroll_goals(), Counted::Combinations, "a version 3 suite");
        suite.options.unroll_goals = Some(Counted::PerLoop.into());
        let text = to_text(&suite);
        assert!(text.contains("\"unroll_goals\": \"per-loop\""), "{text}");
        let read: Suite = serde_json::from_str(&text).expect("it reads back");
        assert_eq!(read.options.unroll_goals(), Counted::PerLoop);
        assert!(serde_json::from_str::<Suite>(&text.replace("per-loop", "sometimes")).is_err());
        let absent = Options { unroll_goals: None, ..suite.options.clone() };
        let combinations = Options { unroll_goals: Some(UnrollGoals::Combinations), ..suite.options.clone() };
        assert_eq!(absent.resolved(), combinations.resolved());
        assert_ne!(suite.options.resolved(), combinations.resolved());
        assert_eq!(unroll_goals_named(unroll_goals_name(UnrollGoals::PerLoop)), Some(UnrollGoals::PerLoop));
    }
}
