//! Suites: the generated tests of a run in their canonical, versioned JSON form
//! ([`json`]), its Boogie form ([`bpl`]) or its Test-Comp form ([`testcomp`]), and
//! writing them safely.

pub mod bpl;
pub mod bpl_value;
pub mod diff;
pub mod json;
pub mod load;
pub mod merge;
pub mod testcomp;
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
    pub unroll_goals: crate::seed::goals::UnrollGoals,
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
        version: json::version_of(&procedures),
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
        unroll_goals: (context.unroll != 0).then(|| context.unroll_goals.into()),
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
/// ("editing one procedure changes only its section", docs/suite-format.md, "Stability").
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
        kills: Vec::new(),
    }
}

/// A test of `cfg`'s implementation made from an input and its run on `program` (its
/// trace completed by the run), recorded as generation records its tests: `covers` the
/// goals the run entered, `kills` the mutants it kills (`prove-tests --kill-mutants`).
pub fn replayed_test(
    program: &hir::Program,
    cfg: &Cfg,
    id: String,
    (input, replay): (&TestInput, &Replay),
    covers: Vec<String>,
) -> json::Test {
    let names = Names { program, cfg };
    json::Test {
        id,
        targets: Vec::new(),
        covers,
        inputs: names.inputs(input),
        trace: input.trace.iter().map(|item| names.trace_entry(item)).collect(),
        expect: names.expect(replay),
        kills: Vec::new(),
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
/// executions, or whose prefix up to a check the interpreter cannot decide is one,
/// become tests (see `gen::enumerate`), so only the first four occur.
pub fn expected_outcome(outcome: &Outcome) -> (&'static str, Option<String>) {
    match outcome {
        Outcome::Passed => ("pass", None),
        Outcome::Failed(violation) => ("fail", Some(violation.message.clone())),
        Outcome::Infeasible(stop) => ("infeasible", Some(stop.message.clone())),
        Outcome::CannotEvaluate(stop) => ("unchecked", Some(stop.message.clone())),
        Outcome::Invalid(stop) | Outcome::BudgetExhausted(stop) | Outcome::ReplayError { stop, .. } => {
            ("error", Some(stop.message.clone()))
        }
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
    let (path, dir) = resolved_parent(path);
    let (path, dir) = (path.as_path(), dir.as_path());
    let name = path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut file = builder.tempfile_in(dir).map_err(|error| cannot_create_in(dir, error))?;
    if let Ok(existing) = std::fs::metadata(path) {
        file.as_file().set_permissions(existing.permissions())?;
    }
    file.write_all(text.as_bytes())?;
    file.as_file().sync_all()?;
    before_rename();
    file.persist(path).map_err(|error| error.error)?;
    sync_directory(dir);
    Ok(())
}

/// An error creating a temporary file or directory in `dir`, said so that the user can
/// act on it: tempfile's errors name the random temporary path.
fn cannot_create_in(dir: &Path, error: std::io::Error) -> std::io::Error {
    use std::io::ErrorKind;
    let shown = dir.display();
    let reason = match error.kind() {
        ErrorKind::NotFound => format!("the directory `{shown}` does not exist"),
        ErrorKind::PermissionDenied => format!("no permission to create a file in `{shown}`"),
        kind => format!("cannot create a file in `{shown}`: {kind}"),
    };
    std::io::Error::new(error.kind(), reason)
}

/// A test hook (tests/it/hostile.rs), read nowhere else: `SEEDGEN_FAULT` set to
/// `abort-before-rename` kills the process between writing the temporary file (or
/// directory) and renaming it, as a crash or `kill -9` at the worst moment would;
/// `wait-before-rename` waits there for a minute, for a test to send a signal.
fn before_rename() {
    match std::env::var("SEEDGEN_FAULT").as_deref() {
        Ok("abort-before-rename") => std::process::abort(),
        Ok("wait-before-rename") => std::thread::sleep(std::time::Duration::from_secs(60)),
        _ => {}
    }
}

/// Makes a rename in `dir` durable. Where a directory cannot be synced (some file
/// systems refuse), the rename stands all the same.
fn sync_directory(dir: &Path) {
    #[cfg(unix)]
    if let Ok(directory) = std::fs::File::open(dir) {
        let _ = directory.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// `path` and its parent directory, a symbolic link resolved to what it names (so that
/// the link stays and its target is replaced).
fn resolved_parent(path: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let resolved = if path.is_symlink() { std::fs::canonicalize(path).ok() } else { None };
    let path = resolved.unwrap_or_else(|| path.to_path_buf());
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    (path, parent)
}

/// Writes the directory `path` holding exactly `files` (paths relative to it), as
/// [`write_atomically`] writes a file: built as `.<name>.<random>.tmp` in the same parent,
/// then renamed into place, so that `path` is the old directory or the new one, never a
/// mix. An existing `path` is swapped with the new directory in one step where the
/// system can (`renameat2(RENAME_EXCHANGE)` on Linux, `renamex_np` on macOS); elsewhere it
/// is moved aside first. The old one is then deleted. A directory that already holds
/// exactly `files` is left alone.
pub fn write_directory_atomically(path: &Path, files: &[(std::path::PathBuf, String)]) -> std::io::Result<()> {
    if holds_exactly(path, files) {
        return Ok(());
    }
    let (path, parent) = resolved_parent(path);
    let name = path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    let staging = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempdir_in(&parent)
        .map_err(|error| cannot_create_in(&parent, error))?;
    for (relative, text) in files {
        let file = staging.path().join(relative);
        let directory = file.parent().expect("a file in the directory has a parent");
        std::fs::create_dir_all(directory)?;
        let mut written = std::fs::File::create(&file)?;
        written.write_all(text.as_bytes())?;
        written.sync_all()?;
        sync_directory(directory);
    }
    sync_directory(staging.path());
    before_rename();
    let staged = staging.keep();
    let replaced = std::fs::rename(&staged, &path).or_else(|_| replace(&staged, &path, &parent, &name));
    if replaced.is_err() {
        let _ = std::fs::remove_dir_all(&staged);
    }
    replaced?;
    sync_directory(&parent);
    Ok(())
}

/// Puts the directory `staged` in the place of what is at `path` (which a plain rename
/// could not replace: a directory that is not empty, or a file), then deletes the old.
fn replace(staged: &Path, path: &Path, parent: &Path, name: &str) -> std::io::Result<()> {
    #[cfg(any(target_os = "linux", target_os = "macos"))]
    {
        use rustix::fs::{renameat_with, RenameFlags, CWD};
        if renameat_with(CWD, staged, CWD, path, RenameFlags::EXCHANGE).is_ok() {
            // `staged` now holds the old directory or file.
            return remove_any(staged);
        }
    }
    replace_in_two_steps(staged, path, parent, name)
}

/// [`replace`] where the system cannot swap: what is at `path` is moved into a
/// `.<name>.<random>.old` directory, `staged` renamed to `path`, and the old deleted. An
/// interruption between the two renames leaves no `path`, the old one in `.….old` and the
/// new one in `.….tmp`.
fn replace_in_two_steps(staged: &Path, path: &Path, parent: &Path, name: &str) -> std::io::Result<()> {
    let aside = tempfile::Builder::new().prefix(&format!(".{name}.")).suffix(".old").tempdir_in(parent)?;
    let old = aside.path().join(name);
    std::fs::rename(path, &old)?;
    std::fs::rename(staged, path)?;
    remove_any(&old)
}

fn remove_any(path: &Path) -> std::io::Result<()> {
    if std::fs::symlink_metadata(path)?.is_dir() {
        std::fs::remove_dir_all(path)
    } else {
        std::fs::remove_file(path)
    }
}

/// Whether the directory `path` holds exactly `files`, byte for byte, and nothing else.
fn holds_exactly(path: &Path, files: &[(std::path::PathBuf, String)]) -> bool {
    let Some(found) = files_below(path) else { return false };
    found.len() == files.len()
        && files.iter().all(|(relative, text)| {
            found.contains(relative) && std::fs::read(path.join(relative)).is_ok_and(|bytes| bytes == text.as_bytes())
        })
}

/// Every regular file below the directory `dir`, by its path relative to `dir`, in path
/// order; `None` when `dir` cannot be read or holds anything but directories and regular
/// files (a link, a device).
pub fn files_below(dir: &Path) -> Option<Vec<std::path::PathBuf>> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(next) = pending.pop() {
        for entry in std::fs::read_dir(&next).ok()? {
            let entry = entry.ok()?;
            match entry.file_type().ok()? {
                kind if kind.is_dir() => pending.push(entry.path()),
                kind if kind.is_file() => {
                    found.push(entry.path().strip_prefix(dir).expect("below the directory").to_path_buf())
                }
                _ => return None,
            }
        }
    }
    found.sort();
    Some(found)
}

#[cfg(test)]
mod tests {
    use super::write_directory_atomically;
    use std::path::{Path, PathBuf};

    fn files(texts: &[(&str, &str)]) -> Vec<(PathBuf, String)> {
        texts.iter().map(|(path, text)| (PathBuf::from(path), text.to_string())).collect()
    }

    /// Every file below `dir`, by its relative path, with its text.
    fn tree(dir: &Path) -> Vec<(PathBuf, String)> {
        let found = super::files_below(dir).expect("a directory of files");
        found.into_iter().map(|path| (path.clone(), std::fs::read_to_string(dir.join(path)).expect("text"))).collect()
    }

    /// The names in `dir` besides `keep`: a staging or moved-aside directory left over.
    fn others(dir: &Path, keep: &str) -> Vec<String> {
        let names = std::fs::read_dir(dir).expect("readable").map(|entry| entry.expect("readable").file_name());
        names.map(|name| name.to_string_lossy().into_owned()).filter(|name| name != keep).collect()
    }

    #[test]
    fn a_directory_is_created_replaced_whole_and_left_alone_when_unchanged() {
        let parent = tempfile::tempdir().expect("a temporary directory");
        let out = parent.path().join("out");
        let first = files(&[("P/metadata.xml", "m"), ("P/t1.xml", "1"), ("Q/metadata.xml", "q")]);
        write_directory_atomically(&out, &first).expect("written");
        assert_eq!(tree(&out), first);
        let second = files(&[("P/metadata.xml", "m2")]);
        write_directory_atomically(&out, &second).expect("replaced");
        assert_eq!(tree(&out), second, "nothing of the old directory is left");
        assert_eq!(others(parent.path(), "out"), Vec::<String>::new(), "no staging directory is left");

        let stamp = |path: &Path| std::fs::metadata(path).and_then(|metadata| metadata.modified()).expect("a time");
        let before = stamp(&out.join("P/metadata.xml"));
        std::thread::sleep(std::time::Duration::from_millis(20));
        write_directory_atomically(&out, &second).expect("unchanged");
        assert_eq!(stamp(&out.join("P/metadata.xml")), before, "an unchanged directory is not rewritten");
    }

    #[test]
    fn without_a_swap_the_old_directory_is_moved_aside_then_deleted() {
        let parent = tempfile::tempdir().expect("a temporary directory");
        let (out, staged) = (parent.path().join("out"), parent.path().join(".out.x.tmp"));
        let (old, new) = (files(&[("P/t1.xml", "old")]), files(&[("Q/t1.xml", "new")]));
        write_directory_atomically(&out, &old).expect("written");
        write_directory_atomically(&staged, &new).expect("written");
        super::replace_in_two_steps(&staged, &out, parent.path(), "out").expect("replaced");
        assert_eq!(tree(&out), new);
        assert_eq!(others(parent.path(), "out"), Vec::<String>::new(), "nothing is left beside it");
    }

    #[test]
    fn a_file_in_the_way_is_replaced_and_a_link_is_followed() {
        let parent = tempfile::tempdir().expect("a temporary directory");
        let out = parent.path().join("out");
        std::fs::write(&out, "a file").expect("writable");
        let wanted = files(&[("P/metadata.xml", "m")]);
        write_directory_atomically(&out, &wanted).expect("replaced");
        assert_eq!(tree(&out), wanted);
        #[cfg(unix)]
        {
            let link = parent.path().join("link");
            std::os::unix::fs::symlink("out", &link).expect("a link");
            let newer = files(&[("R/metadata.xml", "r")]);
            write_directory_atomically(&link, &newer).expect("replaced");
            assert!(link.is_symlink(), "the link stays a link");
            assert_eq!(tree(&out), newer, "what it names is replaced");
        }
    }
}
