//! Suites: the generated tests of a run in their canonical, versioned JSON form
//! ([`json`]) or its Boogie form ([`bpl`]), and writing them safely.

pub mod bpl;
pub mod diff;
pub mod json;
pub mod load;
pub mod merge;
pub mod value;

use crate::cfg::{print::print_cfg, print::print_expr, Cfg};
use crate::config::{Shard, SuiteForm};
use crate::gen::enumerate::{Candidate, GoalStatus};
use crate::gen::ImplementationRun;
use crate::interp::{Outcome, Replay, TestInput, TraceItem};
use crate::seed::goals::GoalSelection;
use crate::sema::hir;
use crate::source::{SourceDb, Span};
use crate::vc::Value;
use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::Path;

/// `sha256:<hex>` of `bytes`.
pub fn digest(bytes: &[u8]) -> String {
    let hash = Sha256::digest(bytes);
    let hex: String = hash.iter().map(|byte| format!("{byte:02x}")).collect();
    format!("sha256:{hex}")
}

/// The digest of what one implementation's tests depend on in its own text: the
/// implementation and its procedure's contract, as seedgen reads them.
pub fn implementation_digest(program: &hir::Program, cfg: &Cfg) -> String {
    let procedure = &program.procedures[cfg.procedure.index()];
    let mut text = print_cfg(program, cfg);
    for clause in procedure.requires.iter().chain(&procedure.ensures) {
        text.push_str(&print_expr(program, &procedure.locals, &clause.expr));
        text.push('\n');
    }
    digest(text.as_bytes())
}

/// Everything [`build`] needs besides the runs.
pub struct SuiteContext<'a> {
    pub db: &'a SourceDb,
    pub program: &'a hir::Program,
    /// The source file as the user named it.
    pub file: &'a str,
    pub source_text: &'a str,
    pub goals: GoalSelection,
    pub inline_depth: u32,
    pub unroll: u32,
    pub max_unroll: u32,
    /// `--shard K/N`: the suite holds only that shard's implementations.
    pub shard: Option<Shard>,
}

/// An implementation's tests of an existing suite, carried unchanged into its
/// regeneration (`prove-tests --existing`): those that pass on the current program
/// (kept) and those that fail (regressions), in the existing suite's order.
#[derive(Clone, Debug, Default)]
pub struct Carried {
    pub tests: Vec<json::Test>,
    /// Per test of `tests`, the goals its run on the current program entered when it
    /// passes; empty for a regression, whose run counts for nothing.
    pub entered: Vec<Vec<String>>,
}

impl Carried {
    /// The number after `<name>/t` of the highest-numbered test: new tests are numbered
    /// after it, so that no id is used twice and kept ones keep theirs.
    fn last_number(&self, name: &str) -> usize {
        let prefix = format!("{name}/t");
        let number = |test: &json::Test| test.id.strip_prefix(&prefix).and_then(|number| number.parse().ok());
        self.tests.iter().filter_map(number).max().unwrap_or(0)
    }

    /// The first carried test whose run entered `goal`.
    fn first_entering(&self, goal: &str) -> Option<String> {
        let entering = self.tests.iter().zip(&self.entered).find(|(_, entered)| entered.iter().any(|id| id == goal));
        entering.map(|(test, _)| test.id.clone())
    }
}

/// The suite of a generation run, from each implementation's section ([`procedure`]),
/// in program order.
pub fn build(context: &SuiteContext, procedures: Vec<json::Procedure>) -> json::Suite {
    json::Suite {
        format: json::FORMAT.to_string(),
        version: json::VERSION,
        tool: format!("seedgen {}", env!("CARGO_PKG_VERSION")),
        source: json::Source { file: context.file.to_string(), digest: digest(context.source_text.as_bytes()) },
        options: options(context),
        procedures,
    }
}

/// The options a suite of `context` records (its goal ids depend on them).
pub fn options(context: &SuiteContext) -> json::Options {
    json::Options {
        goals: match context.goals {
            GoalSelection::Leaves => "leaves",
            GoalSelection::All => "all",
        }
        .to_string(),
        inline_depth: context.inline_depth,
        unroll: context.unroll,
        max_unroll: if context.unroll == 0 { 0 } else { context.max_unroll },
        shard: context.shard.map(|shard| json::Shard { index: shard.index, count: shard.count }),
    }
}

/// The id of the `index`th new test of `run`, numbered after the `first` tests carried.
fn test_id(run: &ImplementationRun, first: usize, index: usize) -> String {
    format!("{}/t{}", run.name, first + index + 1)
}

/// One implementation's section of the suite; `cfg` is the lowered graph of `run`, and
/// `carried` the tests of an existing suite written first, unchanged, with the new ones
/// numbered after them (`Carried::default()` without `--existing`).
pub fn procedure(context: &SuiteContext, run: &ImplementationRun, cfg: &Cfg, carried: &Carried) -> json::Procedure {
    let first = carried.last_number(&run.name);
    let implementation = context.program.implementations[cfg.implementation.index()].span;
    let goals = run
        .goals()
        .iter()
        .zip(&run.enumeration.status)
        .map(|(goal, status)| {
            let (status, test, reason) = match status {
                GoalStatus::Covered { test } => ("covered", Some(test_id(run, first, *test)), None),
                GoalStatus::Kept => ("covered", carried.first_entering(&goal.id.0), None),
                GoalStatus::Unreachable => ("unreachable", None, None),
                GoalStatus::NotCovered { reason } => ("not_covered", None, Some(reason.describe())),
            };
            json::Goal {
                id: goal.id.0.clone(),
                span: position_within(context.db, implementation, goal.span),
                leaf: goal.leaf,
                status: status.to_string(),
                test,
                reason,
            }
        })
        .collect();
    let new_tests = run.enumeration.candidates.iter().enumerate();
    let tests = (carried.tests.iter().cloned())
        .chain(new_tests.map(|(index, candidate)| test(context, run, cfg, test_id(run, first, index), candidate)))
        .collect();
    json::Procedure { name: run.name.clone(), digest: implementation_digest(context.program, cfg), goals, tests }
}

/// `span`'s lines and columns in its file.
pub fn position(db: &SourceDb, span: Span) -> json::Position {
    let start = db.line_col(span);
    let end = db.line_col(Span { start: span.end, ..span });
    json::Position { line: start.line, column: start.column, end_line: end.line, end_column: end.column }
}

/// `span`'s place in the text of `within` (its implementation's declaration) as if that
/// text were a file of its own, the goal spans of suite format 3: moving the
/// implementation elsewhere in the file, or editing another one, leaves them alone
/// (issue 6, "editing one procedure changes only its section").
pub fn position_within(db: &SourceDb, within: Span, span: Span) -> json::Position {
    let origin = db.line_col(within);
    // Goals are blocks of the implementation's own body: a span before it (none the
    // front end makes) is placed at its start rather than at a negative line.
    let at = |offset: u32| {
        let point = db.line_col(Span { start: offset.max(within.start), ..span });
        let line = point.line - origin.line + 1;
        let column = if line == 1 { point.column - origin.column + 1 } else { point.column };
        (line, column)
    };
    let ((line, column), (end_line, end_column)) = (at(span.start), at(span.end));
    json::Position { line, column, end_line, end_column }
}

fn test(context: &SuiteContext, run: &ImplementationRun, cfg: &Cfg, id: String, candidate: &Candidate) -> json::Test {
    let goal_ids = |indices: &[usize]| indices.iter().map(|&goal| run.goals()[goal].id.0.clone()).collect();
    let names = Names { program: context.program, cfg };
    let replayed = &candidate.test;
    json::Test {
        id,
        targets: goal_ids(&candidate.targets),
        covers: goal_ids(&candidate.covers),
        inputs: names.inputs(&replayed.input),
        trace: replayed.input.trace.iter().map(|item| names.trace_entry(item)).collect(),
        expect: names.expect(&replayed.replay),
    }
}

/// Names variables and functions for the suite: the entry implementation's locals by
/// its graph as lowered, the rest by the program.
struct Names<'a> {
    program: &'a hir::Program,
    cfg: &'a Cfg,
}

impl Names<'_> {
    fn local(&self, id: hir::LocalId) -> String {
        self.cfg.locals[id.index()].name.clone()
    }

    fn value(&self, value: &Value) -> serde_json::Value {
        value::to_json(self.program, value)
    }

    fn named<'v>(&self, entries: impl Iterator<Item = (String, &'v Value)>) -> Vec<json::Named> {
        entries.map(|(name, value)| json::Named { name, value: self.value(value) }).collect()
    }

    fn inputs(&self, input: &TestInput) -> json::Inputs {
        let program = self.program;
        let ins = (0..input.params.len()).map(|index| self.local(hir::LocalId::from_index(index)));
        json::Inputs {
            params: self.named(ins.zip(&input.params)),
            globals: self
                .named(input.globals.iter().map(|(id, value)| (program.globals[id.index()].name.clone(), value))),
            consts: self.named(input.consts.iter().map(|(id, value)| (program.consts[id.index()].name.clone(), value))),
            uninitialized: self.named(input.uninitialized.iter().map(|(id, value)| (self.local(*id), value))),
            functions: input
                .functions
                .iter()
                .map(|table| json::FunctionTable {
                    name: program.functions[table.function.index()].name.clone(),
                    entries: table
                        .entries
                        .iter()
                        .map(|(args, result)| (args.iter().map(|arg| self.value(arg)).collect(), self.value(result)))
                        .collect(),
                    default: self.value(&table.default),
                })
                .collect(),
        }
    }

    fn trace_entry(&self, item: &TraceItem) -> json::TraceEntry {
        match item {
            TraceItem::Havoc { var, value } => json::TraceEntry::Havoc { var: var.clone(), value: self.value(value) },
            TraceItem::CallOut { callee, var, value } => {
                json::TraceEntry::CallOut { callee: callee.clone(), var: var.clone(), value: self.value(value) }
            }
            TraceItem::CallModifies { callee, global, value } => json::TraceEntry::CallModifies {
                callee: callee.clone(),
                global: global.clone(),
                value: self.value(value),
            },
            TraceItem::Goto { target } => json::TraceEntry::Goto { target: target.clone() },
        }
    }

    fn expect(&self, replay: &Replay) -> json::Expect {
        let (outcome, message) = expected_outcome(&replay.outcome);
        let mut expect =
            json::Expect { outcome: outcome.to_string(), message, outputs: Vec::new(), globals: Vec::new() };
        for (var, value) in &replay.outputs {
            match var {
                hir::Var::Local(id) => {
                    expect.outputs.push(json::Named { name: self.local(*id), value: self.value(value) })
                }
                hir::Var::Global(id) => expect.globals.push(json::Named {
                    name: self.program.globals[id.index()].name.clone(),
                    value: self.value(value),
                }),
                hir::Var::Const(_) | hir::Var::Bound(_) => {}
            }
        }
        expect
    }
}

/// The `expect.outcome` and `expect.message` of a run's outcome. Only runs that are
/// executions become tests (see `gen::enumerate`), so only these three occur.
pub fn expected_outcome(outcome: &Outcome) -> (&'static str, Option<String>) {
    match outcome {
        Outcome::Passed => ("pass", None),
        Outcome::Failed(violation) => ("fail", Some(violation.message.clone())),
        Outcome::Infeasible(stop) => ("infeasible", Some(stop.message.clone())),
        Outcome::Invalid(stop)
        | Outcome::CannotEvaluate(stop)
        | Outcome::BudgetExhausted(stop)
        | Outcome::ReplayError { stop, .. } => ("error", Some(stop.message.clone())),
    }
}

/// The text of `suite` (of `program`'s implementations) in the form `--emit` asks for.
pub fn to_text(suite: &json::Suite, program: &hir::Program, form: SuiteForm) -> String {
    match form {
        SuiteForm::Json => json::to_text(suite),
        SuiteForm::Bpl => bpl::to_text(suite, program),
    }
}

/// Writes `text` to `path` atomically: to a temporary file `.<name>.<random>.tmp` in the
/// same directory, then renamed over `path`, so an interrupted run never leaves a
/// half-written file and `path` is the old file or the new one, never a mix. A new file
/// gets the permissions the umask allows, a replaced one keeps its own; a symbolic link
/// is followed (the file it names is replaced, the link stays). What is neither a
/// regular file nor absent (`/dev/null`, a pipe) is written in place: renaming over a
/// device would replace it.
///
/// A regular file that already holds exactly `text` is left alone: an unchanged output
/// costs no write and no sync (a warm `prove-tests` run), and keeps its time stamp for
/// the tools watching it.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::{Error, ErrorKind};
    match std::fs::metadata(path) {
        Ok(metadata) if metadata.is_dir() => return Err(Error::new(ErrorKind::IsADirectory, "it is a directory")),
        Ok(metadata) if !metadata.is_file() => {
            return std::fs::OpenOptions::new().write(true).open(path)?.write_all(text.as_bytes());
        }
        Ok(metadata)
            if metadata.len() == text.len() as u64
                && std::fs::read(path).is_ok_and(|bytes| bytes == text.as_bytes()) =>
        {
            return Ok(());
        }
        _ => {}
    }
    let resolved = if path.is_symlink() { std::fs::canonicalize(path).ok() } else { None };
    let path = resolved.as_deref().unwrap_or(path);
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let name = path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    // tempfile's errors name the random temporary path; say what the user can act on.
    let mut file = builder.tempfile_in(dir).map_err(|error| {
        let shown = dir.display();
        let reason = match error.kind() {
            ErrorKind::NotFound => format!("the directory `{shown}` does not exist"),
            ErrorKind::PermissionDenied => format!("no permission to create a file in `{shown}`"),
            kind => format!("cannot create a file in `{shown}`: {kind}"),
        };
        Error::new(error.kind(), reason)
    })?;
    if let Ok(existing) = std::fs::metadata(path) {
        file.as_file().set_permissions(existing.permissions())?;
    }
    file.write_all(text.as_bytes())?;
    file.as_file().sync_all()?;
    // A test hook (tests/it/hostile.rs), read nowhere else: `SEEDGEN_FAULT` set to
    // `abort-before-rename` kills the process between writing the temporary file and
    // renaming it, as a crash or `kill -9` at the worst moment would; `wait-before-rename`
    // waits there for a minute, for a test to send a signal.
    match std::env::var("SEEDGEN_FAULT").as_deref() {
        Ok("abort-before-rename") => std::process::abort(),
        Ok("wait-before-rename") => std::thread::sleep(std::time::Duration::from_secs(60)),
        _ => {}
    }
    file.persist(path).map_err(|error| error.error)?;
    // The rename is durable once the directory is; where a directory cannot be synced
    // (some file systems refuse), the rename stands all the same.
    #[cfg(unix)]
    if let Ok(directory) = std::fs::File::open(dir) {
        let _ = directory.sync_all();
    }
    Ok(())
}
