//! Command-line flags (clap) and their validation into a [`Config`]. The only module,
//! with `main.rs`, that knows clap.

use clap::{Args, Parser, Subcommand, ValueEnum};
use seedgen::cfg::inline;
use seedgen::config::{
    CheckConfig, Config, Dump, Emit, GoalSelection, LspConfig, MergeConfig, MutateConfig, OutputConfig,
    ProveTestsConfig, RunTestsConfig, RunTestsFormat, SeedConfig, Shard, SolverLimits, SuiteForm, SummaryFormat,
    VerifyConfig,
};
use seedgen::diag::MessageFormat;
use seedgen::seed::goals::UnrollGoals;
use seedgen::sema::CheckOptions;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

/// Exhaustive-coverage regression test suites for Boogie programs, from failed proofs.
#[derive(Parser, Debug)]
#[command(name = "seedgen", version, about, long_about = None, propagate_version = true)]
#[command(after_help = "Exit status: 0 success, 1 the program has errors, 2 usage or input error, \
                        3 incomplete (the solver or `--time-limit` left goals or checks undecided; \
                        what was established is still written), 4 `prove-tests --require-coverage` \
                        left goals neither covered nor proved unreachable, 101 internal error (a bug: please report it).")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Parse and type-check Boogie files.
    Check(CheckArgs),
    /// Print the conditionally seeded program: `if (bn == i) { assert false; }` at the
    /// start of every goal block (Boogie text that Boogie 2.4.1 verifies with one error
    /// per reachable goal).
    Seed(SeedArgs),
    /// Generate a test suite that covers every reachable branch, from one solver session
    /// per implementation, and report what is covered, unreachable or not covered.
    #[command(after_help = "Exit status: 0 success; 1 the program has errors, `--existing` found \
                            regressions, `--check` found the suite stale, or with `--fail-on-findings` a \
                            test violates a contract; 2 usage or input error (an \
                            unreadable program or suite); 3 incomplete (the solver or `--time-limit` left \
                            goals undecided, and nothing else failed); 4 with `--require-coverage`, goals \
                            neither covered nor proved unreachable (listed; before 3, after 1); 101 internal error (a bug: please \
                            report it).")]
    ProveTests(ProveTestsArgs),
    /// Prove every contract and assertion (loops by their invariants, calls by their
    /// contracts); each failure comes with a failing test.
    Verify(VerifyArgs),
    /// Run a suite against the program: each test passes, fails (a check or an output
    /// differs from the recording), is invalid (it no longer fits the program) or
    /// cannot run; then the goals the suite leaves uncovered.
    RunTests(RunTestsArgs),
    /// Plant small faults in the program (operators replaced, constants moved by one,
    /// guards negated, assignments and calls deleted, `old` removed) and run the suite
    /// against each: how many it kills, and where the survivors are.
    Mutate(MutateArgs),
    /// Combine the suites of `prove-tests --shard 1/N` … `N/N` into the suite one run
    /// would have written.
    Merge(MergeArgs),
    /// Run the language server on stdin and stdout: syntax and type errors as you type;
    /// on save, dead branches and branches no test reaches, with a code lens per
    /// implementation, hovers on branches and a code action that writes the suite
    /// (docs/editor.md). The generation options are `prove-tests`' and share its cache.
    Lsp(LspArgs),
}

#[derive(Args, Debug)]
pub struct LspArgs {
    #[command(flatten)]
    pub generation: GenerationArgs,
    /// Neither read nor write the cache (`.seedgen/` beside each file).
    #[arg(long)]
    pub no_cache: bool,
    /// How many implementations are generated at once [default: the number of cores].
    #[arg(short, long, value_name = "J", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub jobs: Option<u32>,
    /// How long after the last change a document is checked again, in milliseconds.
    #[arg(long, default_value_t = 150, value_name = "MS")]
    pub debounce_ms: u64,
}

#[derive(Args, Debug)]
pub struct MutateArgs {
    /// The program to mutate.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The suite to measure, as `prove-tests` writes it; it must pass on FILE.
    #[arg(long, value_name = "SUITE")]
    pub suite: PathBuf,
    /// How the report is printed: the mutants not killed and the score, or one JSON
    /// document with every mutant.
    #[arg(long, value_enum, default_value_t = FormatArg::Human, value_name = "FORMAT")]
    pub format: FormatArg,
    #[command(flatten)]
    pub language: LanguageArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The shard suites, in any order, one per shard.
    #[arg(required = true, value_name = "SUITE")]
    pub suites: Vec<PathBuf>,
    /// Where to write the merged suite (default: stdout).
    #[arg(short, long, value_name = "OUT")]
    pub output_file: Option<PathBuf>,
    /// Overwrite the output file even when it is not a seedgen suite.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Args, Debug)]
pub struct RunTestsArgs {
    /// The program to test.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The suite, as `prove-tests` writes it.
    #[arg(value_name = "SUITE")]
    pub suite: PathBuf,
    /// How results are printed: human, one JSON document, or JUnit XML.
    #[arg(long, value_enum, default_value_t = RunFormatArg::Human, value_name = "FORMAT")]
    pub format: RunFormatArg,
    /// Also write the suite's coverage of the program as LCOV to OUT.
    #[arg(long, value_name = "OUT")]
    pub lcov: Option<PathBuf>,
    #[command(flatten)]
    pub language: LanguageArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunFormatArg {
    Human,
    Json,
    Junit,
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The program to verify.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    #[command(flatten)]
    pub solver: SolverArgs,
    #[command(flatten)]
    pub language: LanguageArgs,
    /// How the result is printed: the diagnostics and a summary line, or one JSON
    /// document on stdout with each implementation's verdict, its failures and its
    /// undecided checks (where, what, the failing test), for tools and CI.
    #[arg(long, value_enum, default_value_t = FormatArg::Human, value_name = "FORMAT")]
    pub format: FormatArg,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// The options that change what `prove-tests` generates (and key its cache); the
/// language server takes them too.
#[derive(Args, Debug)]
pub struct GenerationArgs {
    /// Which goals are seeded; every goal is reported either way.
    #[arg(long, value_enum, default_value_t = GoalsArg::Leaves, value_name = "WHICH")]
    pub goals: GoalsArg,
    #[command(flatten)]
    pub language: LanguageArgs,
    #[command(flatten)]
    pub solver: SolverArgs,
    /// How many levels of calls to procedures with a body are inlined (at most 64);
    /// deeper calls (and all with 0) are modelled by the callee's contract.
    #[arg(long, default_value_t = 1, value_name = "K",
          value_parser = clap::value_parser!(u32).range(..=i64::from(inline::MAX_DEPTH)))]
    pub inline_depth: u32,
    #[command(flatten)]
    pub unroll: UnrollArgs,
    /// How far a goal whose test missed it on replay is retried with a deeper exact
    /// unrolling of its loops [default: 2N; a value below N counts as N].
    #[arg(long, value_name = "M")]
    pub max_unroll: Option<u32>,
    /// Keep the solver's values as it found them instead of asking, along each test's
    /// path, for inputs as close to 0 as possible.
    #[arg(long)]
    pub no_minimize: bool,
    /// Ask the solver for every test, instead of first trying, by replay, the inputs
    /// one step from each test found (and, with `--unroll`, from the all-defaults
    /// input), which reach most per-iteration goals without a solver check.
    #[arg(long)]
    pub no_search: bool,
}

impl GenerationArgs {
    /// A `prove-tests` run of `file` with these options, its suite and cache at their
    /// default places and every other option at its default.
    fn prove_tests(self, file: PathBuf, jobs: Option<u32>) -> ProveTestsConfig {
        let unroll = self.unroll.unroll;
        let emit = Emit::Suite(SuiteForm::Json);
        ProveTestsConfig {
            language: self.language.into(),
            suite: ProveTestsConfig::default_suite_path(&file, emit),
            force: false,
            goals: self.goals.into(),
            procedures: Vec::new(),
            solver: self.solver.into(),
            inline_depth: self.inline_depth,
            unroll,
            max_unroll: self.max_unroll.unwrap_or(unroll.saturating_mul(2)).max(unroll),
            unroll_goals: self.unroll.unroll_goals.into(),
            minimize: !self.no_minimize,
            search: !self.no_search,
            emit,
            format: SummaryFormat::Human,
            cache_dir: Some(ProveTestsConfig::default_cache_dir(&file)),
            jobs: jobs
                .map_or_else(|| std::thread::available_parallelism().map_or(1, usize::from), |jobs| jobs as usize),
            shard: None,
            lcov: None,
            file,
            existing: None,
            check: false,
            require_coverage: false,
            fail_on_findings: false,
            kill_mutants: false,
        }
    }
}

#[derive(Args, Debug)]
pub struct ProveTestsArgs {
    /// The program to generate tests for.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Where to write the suite (default: `<stem>.tests.json` beside FILE; with `--emit
    /// testcomp` a directory, `<stem>.tests.testcomp`).
    #[arg(short, long, value_name = "SUITE", conflicts_with = "check")]
    pub output_file: Option<PathBuf>,
    /// Regenerate from an existing suite (seeds/002): run it on the program, keep every
    /// test that still passes exactly as it is, generate tests only for the goals the
    /// kept ones do not enter, and list the tests that now fail as regressions (written
    /// unchanged, never replaced; exit status 1 when there are any). The options must be
    /// those the suite was generated with. Such a run neither reads nor writes the cache.
    #[arg(long, value_name = "SUITE", conflicts_with_all = ["procedures", "shard"])]
    pub existing: Option<PathBuf>,
    /// Write nothing: compare what this command would write to SUITE (as if `-o SUITE`)
    /// with SUITE, and print what would change. Exit status 0 when it is up to date, 1
    /// when it is stale (or there are regressions), 2 when SUITE cannot be read.
    /// `--existing S --check S` checks a suite kept by conditional regeneration.
    #[arg(long, value_name = "SUITE")]
    pub check: Option<PathBuf>,
    /// Overwrite the output file even when it is not a seedgen suite (with `--emit
    /// testcomp`: replace a directory that is not a Test-Comp suite seedgen wrote).
    #[arg(long)]
    pub force: bool,
    /// Only this implementation (repeatable).
    #[arg(long = "proc", value_name = "NAME")]
    pub procedures: Vec<String>,
    #[command(flatten)]
    pub generation: GenerationArgs,
    /// The suite's form: canonical JSON, Boogie text (one test procedure per test;
    /// `run-tests` reads both), or a Test-Comp test-suite directory (one subdirectory per
    /// implementation whose inputs are all integers, Booleans, reals and bit-vectors, with `metadata.xml` and
    /// one test case per test; a warning names each implementation left out).
    #[arg(long, value_enum, default_value_t = EmitArg::Json, value_name = "FORM")]
    pub emit: EmitArg,
    /// How the summary is printed.
    #[arg(long, value_enum, default_value_t = FormatArg::Human, value_name = "FORMAT")]
    pub format: FormatArg,
    /// Where results are kept between runs, so that unchanged implementations are not
    /// solved again [default: `.seedgen/` beside FILE].
    #[arg(long, value_name = "DIR", conflicts_with = "no_cache")]
    pub cache_dir: Option<PathBuf>,
    /// Neither read nor write the cache.
    #[arg(long)]
    pub no_cache: bool,
    /// How many implementations are generated at once [default: the number of cores].
    #[arg(short, long, value_name = "J", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub jobs: Option<u32>,
    /// Only the K-th of N shards of the implementations (every N-th, in program order,
    /// from the K-th); `seedgen merge` combines the N suites.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Also write the suite's coverage of the program as LCOV to OUT.
    #[arg(long, value_name = "OUT", conflicts_with = "check")]
    pub lcov: Option<PathBuf>,
    /// The coverage gate: fail (exit status 4, after the suite is written or checked)
    /// when a goal is neither covered nor proved unreachable, listing each such goal.
    #[arg(long)]
    pub require_coverage: bool,
    /// The findings gate: fail (exit status 1, after the suite is written or checked)
    /// when a test violates a contract (an assertion, an invariant, a precondition at a
    /// call, a postcondition: its recorded outcome is `fail`). Each such test is a
    /// finding, reported at the violated clause with its inputs whether or not this is
    /// given: a warning without it, an error with it.
    #[arg(long)]
    pub fail_on_findings: bool,
    /// Also aim at mutation adequacy: for every mutant `seedgen mutate` makes of an
    /// implementation, a test that kills it (from the suite's tests, their neighbours,
    /// or the product program of the original and the mutant), or a proof that it is
    /// equivalent; the rest are reported undecided. Tests record the mutants they kill.
    #[arg(long)]
    pub kill_mutants: bool,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// The solver's limits, shared by `verify` and `prove-tests`.
#[derive(Args, Debug)]
pub struct SolverArgs {
    /// The solver's time limit per check, in milliseconds.
    #[arg(long, default_value_t = 10_000, value_name = "MS")]
    pub timeout_ms: u32,
    /// The whole run's time limit, in seconds (fractions allowed): checks still open
    /// then are answered "not covered: the run's time limit was reached", what was
    /// established is written, and the exit status is 3 (incomplete).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,
}

/// A positive number of seconds, at most a year.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    const YEAR: f64 = 365.0 * 24.0 * 3600.0;
    match text.trim().parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds <= YEAR => Ok(Duration::from_secs_f64(seconds)),
        Ok(_) => Err(format!("`{text}` is not a number of seconds above 0 and at most a year")),
        Err(_) => Err(format!("`{text}` is not a number of seconds (e.g. `30` or `0.5`)")),
    }
}

fn parse_shard(text: &str) -> Result<Shard, String> {
    text.parse()
}

/// `--unroll N`, shared by `seed` and `prove-tests` (and `check --dump`).
#[derive(Args, Debug)]
pub struct UnrollArgs {
    /// Unroll every loop N times: goals inside a body get one copy per iteration 1..N and
    /// the loop exit one per iteration count 0..N; beyond N the loop is abstracted by its
    /// invariants. 0 (the default) treats loops by their invariants alone.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub unroll: u32,
    /// With `--unroll`: how the goals of a loop nested in another count. `per-loop`: an
    /// inner loop's `body@k` and `exit@k` mean that some run of it made k iterations,
    /// in whichever iteration of the outer loops (goals linear in N); `combinations`: one
    /// goal per combination of the iteration counts of the loops around it.
    #[arg(long, value_enum, default_value_t = UnrollGoalsArg::PerLoop, value_name = "HOW")]
    pub unroll_goals: UnrollGoalsArg,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnrollGoalsArg {
    PerLoop,
    Combinations,
}

impl From<UnrollGoalsArg> for UnrollGoals {
    fn from(mode: UnrollGoalsArg) -> UnrollGoals {
        match mode {
            UnrollGoalsArg::PerLoop => UnrollGoals::PerLoop,
            UnrollGoalsArg::Combinations => UnrollGoals::Combinations,
        }
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmitArg {
    /// The canonical JSON suite.
    Json,
    /// The suite as Boogie text.
    Bpl,
    /// A Test-Comp test-suite directory (an export: neither `run-tests` nor `--check` reads it).
    Testcomp,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatArg {
    Human,
    Json,
}

impl From<FormatArg> for SummaryFormat {
    fn from(format: FormatArg) -> SummaryFormat {
        match format {
            FormatArg::Human => SummaryFormat::Human,
            FormatArg::Json => SummaryFormat::Json,
        }
    }
}

#[derive(Args, Debug)]
pub struct SeedArgs {
    /// The program to seed.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Which goals get a seed: the innermost branches only (`leaves`: covering them
    /// covers the rest), or every branch outcome (`all`).
    #[arg(long, value_enum, default_value_t = GoalsArg::Leaves, value_name = "WHICH")]
    pub goals: GoalsArg,
    #[command(flatten)]
    pub unroll: UnrollArgs,
    /// Print instead the product program of mutant ID (`P/m3`, as `seedgen mutate
    /// --format json` names it): the original and the mutant side by side on the same
    /// inputs, and an assertion that their outcomes, outputs and final globals agree.
    /// `boogie /useArrayTheory /proc:P$product` checks an equivalence claim on it (with
    /// `/loopUnroll:N` for a claim up to N iterations).
    #[arg(long, value_name = "ID")]
    pub mutant: Option<String>,
    /// With `--mutant`: print instead the original program guarded at the mutation by
    /// the check that the mutant computes the same there; `boogie /useArrayTheory`
    /// verifying it proves the mutant equivalent for runs of any length.
    #[arg(long, requires = "mutant")]
    pub guarded: bool,
    /// With `--mutant`: print instead the proof that the mutant's run, where it leaves
    /// the original's, comes back to it (a branch taken the other way, a loop that
    /// lags); `boogie /useArrayTheory` verifying it proves the mutant equivalent.
    #[arg(long, requires = "mutant", conflicts_with = "guarded")]
    pub rejoined: bool,
    /// With `--mutant`: the levels of calls inlined below the product's own calls.
    #[arg(long, default_value_t = 1, value_name = "K",
          value_parser = clap::value_parser!(u32).range(..i64::from(inline::MAX_DEPTH)))]
    pub inline_depth: u32,
    #[command(flatten)]
    pub language: LanguageArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoalsArg {
    Leaves,
    All,
}

impl From<GoalsArg> for GoalSelection {
    fn from(goals: GoalsArg) -> GoalSelection {
        match goals {
            GoalsArg::Leaves => GoalSelection::Leaves,
            GoalsArg::All => GoalSelection::All,
        }
    }
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The files to check.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Print a stage of the pipeline to stdout.
    #[arg(long, value_enum, value_name = "STAGE")]
    pub dump: Option<DumpArg>,
    /// With `--dump cut` or `--dump smt2`: the graphs and encodings of `--unroll N`, as
    /// `prove-tests --unroll N` builds them before inlining.
    #[arg(long, default_value_t = 0, value_name = "N", requires = "dump")]
    pub unroll: u32,
    #[command(flatten)]
    pub language: LanguageArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// How a program is read, for every command that reads one.
#[derive(Args, Debug)]
pub struct LanguageArgs {
    /// Add to each procedure with a body the globals its bodies and callees may modify,
    /// as Boogie's `-inferModifies` does (front ends such as SMACK rely on it), instead
    /// of rejecting writes missing from its `modifies` clause.
    #[arg(long)]
    pub infer_modifies: bool,
}

impl From<LanguageArgs> for CheckOptions {
    fn from(args: LanguageArgs) -> CheckOptions {
        CheckOptions { infer_modifies: args.infer_modifies }
    }
}

#[derive(Args, Debug)]
pub struct OutputArgs {
    /// How diagnostics are printed: `short` is `file:line:col: severity: message`, one per
    /// line; `json` is one JSON object per line.
    #[arg(long, value_enum, default_value_t = MessageFormatArg::Human, value_name = "FORMAT")]
    pub message_format: MessageFormatArg,
    /// When to color diagnostics (`NO_COLOR` set in the environment means never in `auto`).
    #[arg(long, value_enum, default_value_t = ColorArg::Auto, value_name = "WHEN")]
    pub color: ColorArg,
    /// Print no summary lines, only diagnostics and results.
    #[arg(short, long)]
    pub quiet: bool,
    /// Print what each step cost on stderr (`prove-tests`: each implementation's time
    /// and whether it came from the cache, then the phases of the run).
    #[arg(short, long, conflicts_with = "quiet")]
    pub verbose: bool,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageFormatArg {
    Human,
    Short,
    Json,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorArg {
    Auto,
    Always,
    Never,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DumpArg {
    /// The parsed program, printed back as Boogie text.
    Ast,
    /// Each implementation's control-flow graph, as unstructured Boogie.
    Cfg,
    /// The graphs after the loop cut by invariants (what the solver sees).
    Cut,
    /// The SMT-LIB text of each implementation's encoding, goals seeded.
    Smt2,
}

impl Cli {
    /// The flags, or the usage error of a combination clap cannot express.
    pub fn validated(self) -> Result<Cli, clap::Error> {
        use clap::CommandFactory;
        if let Command::ProveTests(args) = &self.command {
            if args.emit == EmitArg::Testcomp && args.check.is_some() {
                let message = "`--emit testcomp` cannot be used with `--check`: `--check` compares a suite file \
                               (JSON or Boogie), and the Test-Comp directory is an export of one";
                let mut command = Cli::command();
                command.build();
                let prove_tests = command.find_subcommand_mut("prove-tests").expect("the subcommand is declared");
                return Err(prove_tests.error(clap::error::ErrorKind::ArgumentConflict, message));
            }
        }
        Ok(self)
    }

    /// Validates the raw flags into the configuration the driver runs.
    pub fn into_config(self) -> Config {
        match self.command {
            Command::Check(args) => {
                let dump = args.dump.map(|dump| match dump {
                    DumpArg::Ast => Dump::Ast,
                    DumpArg::Cfg => Dump::Cfg,
                    DumpArg::Cut => Dump::Cut,
                    DumpArg::Smt2 => Dump::Smt2,
                });
                let config =
                    CheckConfig { files: args.files, language: args.language.into(), dump, unroll: args.unroll };
                Config::Check(config, output_config(&args.output))
            }
            Command::Seed(args) => {
                let config = SeedConfig {
                    file: args.file,
                    language: args.language.into(),
                    goals: args.goals.into(),
                    unroll: args.unroll.unroll,
                    unroll_goals: args.unroll.unroll_goals.into(),
                    mutant: args.mutant,
                    guarded: args.guarded,
                    rejoined: args.rejoined,
                    inline_depth: args.inline_depth,
                };
                Config::Seed(config, output_config(&args.output))
            }
            Command::Verify(args) => Config::Verify(
                VerifyConfig {
                    file: args.file,
                    language: args.language.into(),
                    solver: args.solver.into(),
                    format: args.format.into(),
                },
                output_config(&args.output),
            ),
            Command::RunTests(args) => {
                let format = match args.format {
                    RunFormatArg::Human => RunTestsFormat::Human,
                    RunFormatArg::Json => RunTestsFormat::Json,
                    RunFormatArg::Junit => RunTestsFormat::Junit,
                };
                let language = args.language.into();
                let config = RunTestsConfig { file: args.file, language, suite: args.suite, format, lcov: args.lcov };
                Config::RunTests(config, output_config(&args.output))
            }
            Command::Mutate(args) => {
                let language = args.language.into();
                let config = MutateConfig { file: args.file, language, suite: args.suite, format: args.format.into() };
                Config::Mutate(config, output_config(&args.output))
            }
            Command::ProveTests(args) => {
                let emit = match args.emit {
                    EmitArg::Json => Emit::Suite(SuiteForm::Json),
                    EmitArg::Bpl => Emit::Suite(SuiteForm::Bpl),
                    EmitArg::Testcomp => Emit::Testcomp,
                };
                let check = args.check.is_some();
                let suite = (args.check.or(args.output_file))
                    .unwrap_or_else(|| ProveTestsConfig::default_suite_path(&args.file, emit));
                let defaults = args.generation.prove_tests(args.file.clone(), args.jobs);
                let config = ProveTestsConfig {
                    suite,
                    force: args.force,
                    procedures: args.procedures,
                    emit,
                    format: args.format.into(),
                    // A regeneration from an existing suite is solved afresh: its sections
                    // hold tests no cache entry knows of.
                    cache_dir: match (args.no_cache || args.existing.is_some(), args.cache_dir) {
                        (true, _) => None,
                        (false, dir) => dir.or(defaults.cache_dir.clone()),
                    },
                    shard: args.shard,
                    lcov: args.lcov,
                    existing: args.existing,
                    check,
                    require_coverage: args.require_coverage,
                    fail_on_findings: args.fail_on_findings,
                    kill_mutants: args.kill_mutants,
                    ..defaults
                };
                Config::ProveTests(config, output_config(&args.output))
            }
            Command::Lsp(args) => {
                let config = LspConfig {
                    template: args.generation.prove_tests(PathBuf::new(), args.jobs),
                    no_cache: args.no_cache,
                    debounce: Duration::from_millis(args.debounce_ms),
                };
                Config::Lsp(config, OutputConfig::silent())
            }
            Command::Merge(args) => Config::Merge(
                MergeConfig { suites: args.suites, output: args.output_file, force: args.force },
                output_config(&args.output),
            ),
        }
    }
}

impl From<SolverArgs> for SolverLimits {
    fn from(args: SolverArgs) -> SolverLimits {
        SolverLimits { timeout_ms: args.timeout_ms, time_limit: args.time_limit }
    }
}

fn output_config(args: &OutputArgs) -> OutputConfig {
    let message_format = match args.message_format {
        MessageFormatArg::Human => MessageFormat::Human,
        MessageFormatArg::Short => MessageFormat::Short,
        MessageFormatArg::Json => MessageFormat::Json,
    };
    let color = match args.color {
        ColorArg::Always => true,
        ColorArg::Never => false,
        ColorArg::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty()) && std::io::stderr().is_terminal()
        }
    };
    // A bar would garble what a tool reads, and `--quiet` asks for silence.
    let progress = std::io::stderr().is_terminal() && !args.quiet && message_format == MessageFormat::Human;
    OutputConfig { message_format, color, quiet: args.quiet, verbose: args.verbose, progress }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn flags_are_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn check_takes_several_files_and_formats() {
        let cli = Cli::try_parse_from(["seedgen", "check", "a.bpl", "b.bpl", "--message-format", "short"])
            .expect("valid flags");
        let Config::Check(check, output) = cli.into_config() else { panic!("check parses to Config::Check") };
        assert_eq!(check.files.len(), 2);
        assert_eq!(output.message_format, MessageFormat::Short);
    }

    #[test]
    fn check_needs_a_file() {
        assert!(Cli::try_parse_from(["seedgen", "check"]).is_err());
    }

    fn prove_tests(args: &[&str]) -> Option<ProveTestsConfig> {
        let cli = Cli::try_parse_from(["seedgen", "prove-tests", "p.bpl"].iter().chain(args)).ok()?.validated().ok()?;
        let Config::ProveTests(config, _) = cli.into_config() else { panic!("prove-tests parses to ProveTests") };
        Some(config)
    }

    #[test]
    fn prove_tests_overwrites_only_suites_unless_forced() {
        assert!(!prove_tests(&[]).expect("valid flags").force);
        assert!(prove_tests(&["--force"]).expect("valid flags").force);
    }

    #[test]
    fn mutate_needs_a_suite_and_takes_a_format() {
        assert!(Cli::try_parse_from(["seedgen", "mutate", "p.bpl"]).is_err(), "--suite is required");
        let cli = Cli::try_parse_from(["seedgen", "mutate", "p.bpl", "--suite", "s.json", "--format", "json"])
            .expect("valid flags");
        let Config::Mutate(config, _) = cli.into_config() else { panic!("mutate parses to Config::Mutate") };
        assert_eq!((config.suite.to_str(), config.format), (Some("s.json"), SummaryFormat::Json));
    }

    #[test]
    fn check_names_the_suite_compared_and_excludes_an_output_path() {
        let config = prove_tests(&["--check", "s.json"]).expect("valid flags");
        assert!(config.check);
        assert_eq!(config.suite, PathBuf::from("s.json"));
        assert!(prove_tests(&["--check", "s.json", "-o", "t.json"]).is_none());
        assert!(prove_tests(&["--check", "s.json", "--lcov", "c.info"]).is_none(), "--check writes nothing");
        let config = prove_tests(&["--existing", "s.json", "--check", "s.json"]).expect("valid flags");
        assert_eq!(config.existing, Some(PathBuf::from("s.json")));
    }

    #[test]
    fn existing_regenerates_every_procedure() {
        assert!(prove_tests(&["--existing", "s.json", "--proc", "P"]).is_none());
        assert!(prove_tests(&["--existing", "s.json", "--shard", "1/2"]).is_none());
        assert!(!prove_tests(&[]).expect("valid flags").check);
        let config = prove_tests(&["--existing", "s.json"]).expect("valid flags");
        assert_eq!(config.cache_dir, None, "a regeneration bypasses the cache");
    }

    #[test]
    fn prove_tests_bounds_its_depths() {
        assert_eq!(prove_tests(&["--inline-depth", "64"]).expect("valid flags").inline_depth, 64);
        assert!(prove_tests(&["--inline-depth", "65"]).is_none(), "deeper inlining is refused");
        let config = prove_tests(&["--unroll", "4294967295"]).expect("valid flags");
        assert_eq!(config.max_unroll, u32::MAX, "twice the bound saturates");
    }

    #[test]
    fn prove_tests_caches_beside_the_input_unless_told() {
        let cli = Cli::try_parse_from(["seedgen", "prove-tests", "dir/p.bpl"]).expect("valid flags");
        let Config::ProveTests(config, _) = cli.into_config() else { panic!("prove-tests parses to ProveTests") };
        assert_eq!(config.cache_dir, Some(PathBuf::from("dir/.seedgen")));
        assert_eq!(prove_tests(&[]).expect("valid flags").cache_dir, Some(PathBuf::from(".seedgen")));
        assert_eq!(prove_tests(&["--cache-dir", "c"]).expect("valid flags").cache_dir, Some(PathBuf::from("c")));
        assert_eq!(prove_tests(&["--no-cache"]).expect("valid flags").cache_dir, None);
        assert!(prove_tests(&["--no-cache", "--cache-dir", "c"]).is_none(), "the two contradict");
    }

    #[test]
    fn prove_tests_takes_jobs_and_a_shard() {
        assert_eq!(prove_tests(&["--jobs", "3"]).expect("valid flags").jobs, 3);
        assert!(prove_tests(&[]).expect("valid flags").jobs >= 1);
        assert!(prove_tests(&["--jobs", "0"]).is_none());
        assert_eq!(prove_tests(&["--shard", "2/3"]).expect("valid flags").shard, Some(Shard { index: 2, count: 3 }));
        assert!(prove_tests(&["--shard", "4/3"]).is_none());
    }

    #[test]
    fn testcomp_writes_a_directory_beside_the_program_and_cannot_be_checked() {
        let config = prove_tests(&["--emit", "testcomp"]).expect("valid flags");
        assert_eq!((config.emit, config.suite), (Emit::Testcomp, PathBuf::from("p.tests.testcomp")));
        assert!(prove_tests(&["--emit", "testcomp", "--lcov", "c.info", "--existing", "s.json"]).is_some());
        assert!(
            prove_tests(&["--emit", "testcomp", "--check", "s.json"]).is_none(),
            "a directory is no suite to check"
        );
        assert!(prove_tests(&["--emit", "bpl", "--check", "s.bpl"]).is_some());
    }

    #[test]
    fn verbose_and_quiet_contradict() {
        assert!(prove_tests(&["--verbose", "--quiet"]).is_none());
        assert!(prove_tests(&["-v"]).is_some());
    }
}
