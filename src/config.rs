//! The validated configuration of one run: what `cli` turns raw flags into before any
//! work starts. Nothing here knows about clap.

use crate::diag::MessageFormat;
pub use crate::seed::goals::GoalSelection;
use std::path::PathBuf;

/// Options shared by every command that reports diagnostics.
#[derive(Clone, Debug)]
pub struct OutputConfig {
    pub message_format: MessageFormat,
    /// Whether diagnostics are colored (resolved from `--color`, `NO_COLOR` and whether
    /// stderr is a terminal).
    pub color: bool,
    /// `--quiet`: no summary lines.
    pub quiet: bool,
}

/// A stage printed back by `--dump`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dump {
    /// The parsed program, printed back as Boogie.
    Ast,
    /// Each implementation's control-flow graph, as unstructured Boogie.
    Cfg,
    /// The graphs after the loop cut by invariants (what the solver sees).
    Cut,
    /// The SMT-LIB text of each implementation's encoding, goals seeded.
    Smt2,
}

#[derive(Clone, Debug)]
pub struct CheckConfig {
    pub files: Vec<PathBuf>,
    pub dump: Option<Dump>,
}

/// `seedgen seed FILE`.
#[derive(Clone, Debug)]
pub struct SeedConfig {
    pub file: PathBuf,
    pub goals: GoalSelection,
    /// `--unroll N`: loops unrolled N times before seeding (0: cut by invariants).
    pub unroll: u32,
}

/// How `prove-tests` prints its summary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SummaryFormat {
    #[default]
    Human,
    Json,
}

/// `seedgen prove-tests FILE`.
#[derive(Clone, Debug)]
pub struct ProveTestsConfig {
    pub file: PathBuf,
    /// Where the suite goes: `-o`, or `<stem>.tests.json` beside the input.
    pub suite: PathBuf,
    /// `--force`: overwrite `suite` even when it is not a seedgen suite.
    pub force: bool,
    pub goals: GoalSelection,
    /// `--proc`: only these implementations; all when empty.
    pub procedures: Vec<String>,
    pub timeout_ms: u32,
    /// `--inline-depth`: levels of calls inlined; beyond, calls are modelled by contracts.
    pub inline_depth: u32,
    /// `--unroll N`: every loop unrolled N times, goals per iteration (0: plain SC, loops
    /// cut by their invariants).
    pub unroll: u32,
    /// `--max-unroll M`: how far a goal whose test missed it on replay is retried with a
    /// deeper exact unrolling (resolved: `2N` when not given).
    pub max_unroll: u32,
    /// Ask for small input values along each test's path (off: `--no-minimize`).
    pub minimize: bool,
    /// `--emit`: the suite's form.
    pub emit: SuiteForm,
    pub format: SummaryFormat,
    /// `--existing SUITE`: keep this suite's tests that still pass, generate only for the
    /// goals they do not enter, report those that fail as regressions (seeds/002).
    pub existing: Option<PathBuf>,
    /// `--check`: write nothing; compare what would be written with `suite` (then the
    /// path `--check` names) and say whether it is stale.
    pub check: bool,
}

/// The form `prove-tests` writes its suite in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SuiteForm {
    /// The canonical JSON suite (docs/suite-format.md).
    #[default]
    Json,
    /// Boogie text: one test procedure per test, readable and replayable by `run-tests`.
    Bpl,
}

impl SuiteForm {
    /// The file extension of the default suite path.
    pub fn extension(self) -> &'static str {
        match self {
            SuiteForm::Json => "json",
            SuiteForm::Bpl => "bpl",
        }
    }
}

impl ProveTestsConfig {
    /// The default suite path: `<stem>.tests.json` (or `.tests.bpl`) in the input's
    /// directory.
    pub fn default_suite_path(file: &std::path::Path, form: SuiteForm) -> PathBuf {
        let stem = file.file_stem().map(|stem| stem.to_string_lossy().into_owned()).unwrap_or_default();
        file.with_file_name(format!("{stem}.tests.{}", form.extension()))
    }
}

/// `seedgen verify FILE`.
#[derive(Clone, Debug)]
pub struct VerifyConfig {
    pub file: PathBuf,
    pub timeout_ms: u32,
}

/// `seedgen run-tests FILE SUITE`.
#[derive(Clone, Debug)]
pub struct RunTestsConfig {
    pub file: PathBuf,
    pub suite: PathBuf,
    pub format: RunTestsFormat,
    /// `--lcov OUT`.
    pub lcov: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunTestsFormat {
    Human,
    Json,
    Junit,
}

#[derive(Clone, Debug)]
pub enum Config {
    Check(CheckConfig, OutputConfig),
    Seed(SeedConfig, OutputConfig),
    ProveTests(ProveTestsConfig, OutputConfig),
    Verify(VerifyConfig, OutputConfig),
    RunTests(RunTestsConfig, OutputConfig),
}

impl Config {
    pub fn output(&self) -> &OutputConfig {
        match self {
            Config::Check(_, output)
            | Config::Seed(_, output)
            | Config::ProveTests(_, output)
            | Config::Verify(_, output)
            | Config::RunTests(_, output) => output,
        }
    }
}
