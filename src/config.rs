//! The validated configuration of one run: what `cli` turns raw flags into before any
//! work starts. Nothing here knows about clap.

use crate::diag::MessageFormat;
pub use crate::seed::goals::GoalSelection;
use crate::seed::goals::UnrollGoals;
use crate::sema::CheckOptions;
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
    /// `--verbose`: what each step cost, on stderr (`prove-tests`: one line per
    /// implementation, then the phases of the run).
    pub verbose: bool,
    /// Whether a long run shows a progress bar on stderr: stderr is a terminal and
    /// neither `--quiet` nor a machine-readable message format is asked for.
    pub progress: bool,
}

impl OutputConfig {
    /// Nothing but diagnostics, uncolored, no progress: for runs whose stdout and
    /// stderr a program reads (the language server's).
    pub fn silent() -> OutputConfig {
        OutputConfig {
            message_format: MessageFormat::Human,
            color: false,
            quiet: true,
            verbose: false,
            progress: false,
        }
    }
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
    /// How the program is read (`--infer-modifies`).
    pub language: CheckOptions,
    pub dump: Option<Dump>,
    /// The unrolling bound the dumped graphs and encodings are built with.
    pub unroll: u32,
}

/// `seedgen seed FILE`.
#[derive(Clone, Debug)]
pub struct SeedConfig {
    pub file: PathBuf,
    /// How the program is read (`--infer-modifies`).
    pub language: CheckOptions,
    pub goals: GoalSelection,
    /// `--unroll N`: loops unrolled N times before seeding (0: cut by invariants).
    pub unroll: u32,
    /// `--unroll-goals`: how the goals of nested unrolled loops count.
    pub unroll_goals: UnrollGoals,
    /// `--mutant ID`: print this mutant's product program instead.
    pub mutant: Option<String>,
    /// `--guarded` (with `--mutant`): the original guarded at the mutation instead.
    pub guarded: bool,
    /// `--rejoined` (with `--mutant`): the proof that the mutant's run rejoins the original's.
    pub rejoined: bool,
    /// `--inline-depth K` (with `--mutant`): the product inlines `K + 1` levels.
    pub inline_depth: u32,
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
    /// How the program is read (`--infer-modifies`).
    pub language: CheckOptions,
    /// Where the suite goes: `-o`, or `<stem>.tests.json` (`.tests.bpl`,
    /// `.tests.testcomp/`) beside the input.
    pub suite: PathBuf,
    /// `--force`: overwrite `suite` even when it is not a seedgen suite.
    pub force: bool,
    pub goals: GoalSelection,
    /// `--proc`: only these implementations; all when empty.
    pub procedures: Vec<String>,
    pub solver: SolverLimits,
    /// `--inline-depth`: levels of calls inlined; beyond, calls are modelled by contracts.
    pub inline_depth: u32,
    /// `--unroll N`: every loop unrolled N times, goals per iteration (0: plain SC, loops
    /// cut by their invariants).
    pub unroll: u32,
    /// `--max-unroll M`: how far a goal whose test missed it on replay is retried with a
    /// deeper exact unrolling (resolved: `2N` when not given).
    pub max_unroll: u32,
    /// `--unroll-goals`: how the goals of nested unrolled loops count.
    pub unroll_goals: UnrollGoals,
    /// Ask for small input values along each test's path (off: `--no-minimize`).
    pub minimize: bool,
    /// Search around each test found by replay (off: `--no-search`).
    pub search: bool,
    /// `--emit`: the suite's form, or the Test-Comp directory.
    pub emit: Emit,
    pub format: SummaryFormat,
    /// Where per-implementation results are kept between runs (`--cache-dir`, default
    /// `.seedgen/` beside the input); `None` with `--no-cache` or `--existing`.
    pub cache_dir: Option<PathBuf>,
    /// `--jobs`: implementations generated at once (default: the number of cores).
    pub jobs: usize,
    /// `--shard K/N`: only every N-th implementation, from the K-th.
    pub shard: Option<Shard>,
    /// `--lcov OUT`: the suite's coverage of the program, as `run-tests --lcov` writes it.
    pub lcov: Option<PathBuf>,
    /// `--existing SUITE`: keep this suite's tests that still pass, generate only for the
    /// goals they do not enter, report those that fail as regressions (seeds/002).
    pub existing: Option<PathBuf>,
    /// `--check`: write nothing; compare what would be written with `suite` (then the
    /// path `--check` names) and say whether it is stale.
    pub check: bool,
    /// `--require-coverage`: a goal neither covered nor proved unreachable fails the run
    /// (exit status 4), each such goal listed.
    pub require_coverage: bool,
    /// `--fail-on-findings`: a test of the suite that violates a contract (a finding,
    /// always reported) fails the run (exit status 1).
    pub fail_on_findings: bool,
    /// `--kill-mutants`: a killing test (or an equivalence proof) per mutant too.
    pub kill_mutants: bool,
}

/// `--shard K/N`: the implementations at positions `K-1`, `K-1+N`, `K-1+2N`, … of the
/// selected ones, in program order. Round robin spreads neighbouring (often similar)
/// procedures over the shards, and lets `merge` put the procedures back in program
/// order from the shards alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// `K`, from 1.
    pub index: u32,
    /// `N`, at least 1.
    pub count: u32,
}

impl Shard {
    /// Whether the implementation at `position` (from 0, in program order) is this
    /// shard's.
    pub fn contains(self, position: usize) -> bool {
        position % self.count as usize == (self.index - 1) as usize
    }

    /// How many of `total` implementations are this shard's.
    pub fn size(self, total: usize) -> usize {
        (0..total).filter(|&position| self.contains(position)).count()
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `K/N` with `1 <= K <= N`.
    fn from_str(text: &str) -> Result<Shard, String> {
        let usage = || format!("`{text}` is not K/N with 1 <= K <= N (e.g. `2/3`)");
        let (index, count) = text.split_once('/').ok_or_else(usage)?;
        let index: u32 = index.trim().parse().map_err(|_| usage())?;
        let count: u32 = count.trim().parse().map_err(|_| usage())?;
        if index == 0 || index > count {
            return Err(usage());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
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

/// What `prove-tests` writes: the suite in one of its forms, or the Test-Comp
/// directory made from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emit {
    Suite(SuiteForm),
    /// A directory in the Test-Comp test-suite format (`suite::testcomp`): an export,
    /// which `run-tests` does not read.
    Testcomp,
}

impl Emit {
    /// The extension of the default output path.
    pub fn extension(self) -> &'static str {
        match self {
            Emit::Suite(form) => form.extension(),
            Emit::Testcomp => "testcomp",
        }
    }
}

impl ProveTestsConfig {
    /// The default cache directory: `.seedgen/` in the input's directory.
    pub fn default_cache_dir(file: &std::path::Path) -> PathBuf {
        file.parent().unwrap_or(std::path::Path::new("")).join(".seedgen")
    }

    /// The default output path: `<stem>.tests.json` (or `.tests.bpl`, `.tests.testcomp`)
    /// in the input's directory.
    pub fn default_suite_path(file: &std::path::Path, emit: Emit) -> PathBuf {
        let stem = file.file_stem().map(|stem| stem.to_string_lossy().into_owned()).unwrap_or_default();
        file.with_file_name(format!("{stem}.tests.{}", emit.extension()))
    }
}

/// `seedgen lsp`: the language server. Each document is generated for as
/// `prove-tests FILE` with the same generation options would, sharing its cache.
#[derive(Clone, Debug)]
pub struct LspConfig {
    /// The `prove-tests` run every document's is made from: its generation options and
    /// `--jobs` (its file, suite and cache are the document's).
    pub template: ProveTestsConfig,
    /// Neither read nor write the cache (`--no-cache`).
    pub no_cache: bool,
    /// How long after the last change a document is checked again.
    pub debounce: std::time::Duration,
}

impl LspConfig {
    /// The `prove-tests` run of `file` (its default suite and cache) with these options.
    pub fn prove_tests(&self, file: &std::path::Path) -> ProveTestsConfig {
        ProveTestsConfig {
            file: file.to_path_buf(),
            suite: ProveTestsConfig::default_suite_path(file, self.template.emit),
            cache_dir: (!self.no_cache).then(|| ProveTestsConfig::default_cache_dir(file)),
            ..self.template.clone()
        }
    }
}

/// `seedgen verify FILE`.
#[derive(Clone, Debug)]
pub struct VerifyConfig {
    pub file: PathBuf,
    /// How the program is read (`--infer-modifies`).
    pub language: CheckOptions,
    pub solver: SolverLimits,
    /// `--format`: diagnostics and a summary line, or one JSON report on stdout.
    pub format: SummaryFormat,
}

/// `--timeout-ms` and `--time-limit`: how long the solver may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverLimits {
    /// Per check, in milliseconds.
    pub timeout_ms: u32,
    /// The whole run's, from its start; `None` for no limit.
    pub time_limit: Option<std::time::Duration>,
}

impl SolverLimits {
    /// The session options of a run started at `start`.
    /// The run's deadline, `--time-limit` after `start`.
    pub fn deadline(&self, start: std::time::Instant) -> Option<std::time::Instant> {
        self.time_limit.map(|limit| start + limit)
    }

    pub fn session_options(&self, start: std::time::Instant) -> crate::smt::SessionOptions {
        crate::smt::SessionOptions {
            timeout_ms: Some(self.timeout_ms),
            deadline: self.deadline(start),
            ..crate::smt::SessionOptions::default()
        }
    }
}

/// `seedgen run-tests FILE SUITE`.
#[derive(Clone, Debug)]
pub struct RunTestsConfig {
    pub file: PathBuf,
    /// How the program is read (`--infer-modifies`).
    pub language: CheckOptions,
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

/// `seedgen mutate FILE --suite SUITE`.
#[derive(Clone, Debug)]
pub struct MutateConfig {
    pub file: PathBuf,
    /// How the program is read (`--infer-modifies`).
    pub language: CheckOptions,
    pub suite: PathBuf,
    /// How the report is printed: human lines or one JSON document.
    pub format: SummaryFormat,
}

/// `seedgen merge SUITE...`: shard suites combined into the suite of one run.
#[derive(Clone, Debug)]
pub struct MergeConfig {
    pub suites: Vec<PathBuf>,
    /// `-o`: where the merged suite goes (stdout when absent).
    pub output: Option<PathBuf>,
    /// `--force`: overwrite `output` even when it is not a seedgen suite.
    pub force: bool,
}

#[derive(Clone, Debug)]
pub enum Config {
    Check(CheckConfig, OutputConfig),
    Seed(SeedConfig, OutputConfig),
    ProveTests(ProveTestsConfig, OutputConfig),
    Verify(VerifyConfig, OutputConfig),
    RunTests(RunTestsConfig, OutputConfig),
    Mutate(MutateConfig, OutputConfig),
    Merge(MergeConfig, OutputConfig),
    Lsp(LspConfig, OutputConfig),
}

impl Config {
    pub fn output(&self) -> &OutputConfig {
        match self {
            Config::Check(_, output)
            | Config::Seed(_, output)
            | Config::ProveTests(_, output)
            | Config::Verify(_, output)
            | Config::RunTests(_, output)
            | Config::Mutate(_, output) => output,
            Config::Merge(_, output) | Config::Lsp(_, output) => output,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Shard;

    #[test]
    fn shards_read_k_of_n() {
        assert_eq!("2/3".parse(), Ok(Shard { index: 2, count: 3 }));
        assert_eq!("1/1".parse(), Ok(Shard { index: 1, count: 1 }));
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", "-1/2", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad} is refused");
        }
    }

    #[test]
    fn shards_partition_the_implementations() {
        let shards: Vec<Shard> = (1..=3).map(|index| Shard { index, count: 3 }).collect();
        for position in 0..10 {
            assert_eq!(shards.iter().filter(|shard| shard.contains(position)).count(), 1);
        }
        assert_eq!(shards.iter().map(|shard| shard.size(10)).collect::<Vec<_>>(), [4, 3, 3]);
    }
}
