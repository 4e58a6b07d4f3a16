//! Runs the stages in order for a validated [`Config`] and reports what happened.
//!
//! The driver owns the [`SourceDb`], reads the input files (operational failures become
//! [`InputError`]s, exit 2), runs each stage, and hands every diagnostic to the
//! [`Emitter`]. It never exits the process itself: it returns an [`Outcome`] that
//! `main` maps to the exit status.

mod check;
mod kill_mutants;
pub mod lsp;
mod merge;
mod mutate;
mod run_tests;
mod seed;
mod verify;

pub use check::run_check;
pub use merge::run_merge;
pub use mutate::run_mutate;
pub(crate) use prove_tests::{gen_options, suite_context, CachedReports, ProveJob};
pub use run_tests::run_tests;
pub use seed::run_seed;
pub use verify::run_verify;

use crate::cache::{self, Cache};
use crate::cfg;
use crate::config::{Config, Emit, OutputConfig, ProveTestsConfig, SummaryFormat};
use crate::diag::{Diagnostic, Emitter, Severity, WriteColor};
use crate::gen::{self, GenOptions};
use crate::interp;

use crate::progress::Progress;
use crate::regress::{self, carry::CarriedSuite};
use crate::report::{self, ProcedureReport};
use crate::sema::{self, hir, CheckOptions};
use crate::smt::SessionOptions;
use crate::source::{FileId, SourceDb, MAX_FILE_BYTES};
use crate::suite::{self, SuiteContext};
use crate::syntax::{self, ast};

use rayon::prelude::*;
use std::collections::BTreeSet;
use std::io::{self, Read, Write};
use std::path::Path;
use std::time::{Duration, Instant};

mod prove_tests;
pub use prove_tests::run_prove_tests;

/// How a run ended; `main` maps it to the exit status (see README "Exit status").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Exit 0.
    Success,
    /// Exit 1: the program has errors.
    ProgramErrors,
    /// Exit 2: unreadable input, bad flags.
    InputError,
    /// Exit 3: the solver (a timeout, a resource limit) or `--time-limit` left goals or
    /// checks undecided; everything established was still written and reported.
    Incomplete,
    /// Exit 4: `prove-tests --require-coverage` left goals neither covered nor proved
    /// unreachable (those the solver left undecided among them).
    CoverageGap,
}

/// An operational problem with an input file (not a problem *in* the program).
#[derive(Debug)]
pub struct InputError {
    pub path: String,
    pub reason: String,
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot read `{}`: {}", self.path, self.reason)
    }
}

/// The largest file seedgen reads: far beyond any real program, and the front end needs
/// some eighty times a file's size in memory. Below [`MAX_FILE_BYTES`], so its offsets fit
/// a span.
pub const MAX_SOURCE_BYTES: usize = 256 << 20;
const _: () = assert!(MAX_SOURCE_BYTES < MAX_FILE_BYTES);

/// Reads a source file as UTF-8 text, without the byte order mark some editors put
/// first (Boogie ignores it too). Invalid UTF-8 is reported with its line, column and
/// byte offset.
pub fn read_source(path: &Path) -> Result<String, InputError> {
    let shown = path.display().to_string();
    let fail = |reason: String| InputError { path: shown.clone(), reason };
    // Read through a limit, so that `/dev/zero` or a runaway file is an error, not all
    // of memory.
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(MAX_SOURCE_BYTES as u64 + 1).read_to_end(&mut bytes))
        .map_err(|error| fail(error.to_string()))?;
    if bytes.len() > MAX_SOURCE_BYTES {
        return Err(fail(format!("seedgen reads files of at most {} MiB", MAX_SOURCE_BYTES >> 20)));
    }
    if bytes.starts_with(&[0xff, 0xfe]) || bytes.starts_with(&[0xfe, 0xff]) {
        return Err(fail("not valid UTF-8: it is UTF-16 (it starts with a UTF-16 byte order mark)".to_string()));
    }
    let text = String::from_utf8(bytes).map_err(|error| {
        let offset = error.utf8_error().valid_up_to();
        let valid = &error.as_bytes()[..offset];
        let line = valid.iter().filter(|&&byte| byte == b'\n').count() + 1;
        let line_start = valid.iter().rposition(|&byte| byte == b'\n').map_or(0, |newline| newline + 1);
        let column = String::from_utf8_lossy(&valid[line_start..]).chars().count() + 1;
        let byte = error.as_bytes()[offset];
        fail(format!(
            "not valid UTF-8 (invalid byte sequence at line {line}, column {column}, byte offset {offset}: 0x{byte:02x})"
        ))
    })?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// The front end's result for one file.
pub struct Checked {
    pub ast: ast::Program,
    /// Present when the file parsed and type-checked without errors.
    pub hir: Option<hir::Program>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Checked {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|diagnostic| diagnostic.severity == Severity::Error)
    }
}

/// Parses and checks one file already in the database. The checker runs only on a
/// file that parsed cleanly, so its errors never echo a syntax error.
pub fn check_file(db: &SourceDb, file: FileId, language: CheckOptions) -> Checked {
    let (ast, parse_errors) = syntax::parse(file, db.text(file));
    let mut diagnostics: Vec<Diagnostic> = parse_errors.iter().map(|error| error.to_diagnostic()).collect();
    if !diagnostics.is_empty() {
        return Checked { ast, hir: None, diagnostics };
    }
    let (hir, sema_errors) = sema::check_with(&ast, language);
    diagnostics.extend(sema_errors.iter().map(|error| error.to_diagnostic()));
    Checked { ast, hir, diagnostics }
}

/// Where results (stdout) and diagnostics (stderr) go.
pub struct Streams<'a> {
    pub out: &'a mut dyn Write,
    pub err: &'a mut dyn WriteColor,
}

fn count(diagnostics: &[Diagnostic], severity: Severity) -> usize {
    diagnostics.iter().filter(|diagnostic| diagnostic.severity == severity).count()
}

fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// Reads, parses and checks one file, emitting its diagnostics; the checked program
/// when it has no errors, otherwise the outcome to end the run with.
fn front_end(
    db: &mut SourceDb,
    path: &Path,
    language: CheckOptions,
    output: &OutputConfig,
    streams: &mut Streams,
) -> io::Result<Result<(ast::Program, hir::Program), Outcome>> {
    let text = match read_source(path) {
        Ok(text) => text,
        Err(error) => {
            writeln!(streams.err, "seedgen: error: {error}")?;
            return Ok(Err(Outcome::InputError));
        }
    };
    let file = db.add(path.display().to_string(), text);
    let checked = check_file(db, file, language);
    emit_all(db, output, streams, &checked.diagnostics)?;
    Ok(checked.hir.map(|hir| (checked.ast, hir)).ok_or(Outcome::ProgramErrors))
}

fn emit_all(db: &SourceDb, output: &OutputConfig, streams: &mut Streams, diagnostics: &[Diagnostic]) -> io::Result<()> {
    let emitter = Emitter { db, format: output.message_format };
    diagnostics.iter().try_for_each(|diagnostic| emitter.emit(streams.err, diagnostic))
}

/// A checked program lowered to graphs, with the source database its spans point into.
struct Lowered {
    db: SourceDb,
    /// The program as parsed (the cache digests its declarations).
    ast: ast::Program,
    program: hir::Program,
    cfgs: Vec<cfg::Cfg>,
}

/// Reads, checks and lowers one file, emitting every diagnostic on the way; the
/// lowered program, or the outcome to end the run with.
fn load_and_lower(
    path: &Path,
    language: CheckOptions,
    deadline: Option<Instant>,
    output: &OutputConfig,
    streams: &mut Streams,
) -> io::Result<Result<Lowered, Outcome>> {
    let mut db = SourceDb::new();
    let (ast, program) = match front_end(&mut db, path, language, output, streams)? {
        Ok(checked) => checked,
        Err(outcome) => return Ok(Err(outcome)),
    };
    let program = match crate::mono::monomorphize_until(program, deadline) {
        Ok(program) => program,
        Err(error) => {
            emit_all(&db, output, streams, &[error.to_diagnostic()])?;
            if matches!(error, crate::mono::MonoError::TimeLimit { .. }) {
                if !output.quiet {
                    writeln!(
                        streams.err,
                        "seedgen: incomplete: the run's time limit was reached before any check; exit status 3"
                    )?;
                }
                return Ok(Err(Outcome::Incomplete));
            }
            return Ok(Err(Outcome::ProgramErrors));
        }
    };
    let (cfgs, errors) = cfg::lower::lower_all(&program);
    if !errors.is_empty() {
        let diagnostics: Vec<Diagnostic> = errors.iter().map(|error| error.to_diagnostic()).collect();
        emit_all(&db, output, streams, &diagnostics)?;
        return Ok(Err(Outcome::ProgramErrors));
    }
    Ok(Ok(Lowered { db, ast, program, cfgs }))
}

/// Why `prove-tests` may not write its suite to `path`: it is a directory, or a file is
/// there that is not a seedgen suite (a program given as `-o` by mistake, say) or that
/// cannot be read to tell, and `--force` is not given. Checked before any work, so a
/// long run does not end in a refusal.
pub(crate) fn refuse_to_write(path: &Path, force: bool) -> Option<String> {
    let shown = path.display();
    if path.is_dir() {
        return Some(format!("cannot write `{shown}`: it is a directory"));
    }
    if force || !path.is_file() {
        return None;
    }
    let reason = match std::fs::File::open(path) {
        Err(error) => format!("cannot be read to tell whether it is a seedgen suite ({error})"),
        // Read as a source is (within its size limit): what is no UTF-8 text is no suite.
        Ok(_) if read_source(path).is_ok_and(|text| suite::load::is_suite(&text)) => return None,
        Ok(_) => "is not a seedgen suite".to_string(),
    };
    Some(format!("`{shown}` exists and {reason}; pass `--force` to overwrite it"))
}

/// [`Outcome::Incomplete`], said on stderr, when `undecided` goals or checks remain.
fn incomplete_if(undecided: usize, what: &str, output: &OutputConfig, streams: &mut Streams) -> io::Result<Outcome> {
    if undecided == 0 {
        return Ok(Outcome::Success);
    }
    if !output.quiet {
        writeln!(
            streams.err,
            "seedgen: incomplete: the solver left {} undecided (a timeout, a resource limit, the run's \
             time limit, or axioms that contradict each other: each says which); exit status 3",
            plural(undecided, what)
        )?;
    }
    Ok(Outcome::Incomplete)
}

/// Reads the suite at `path` and parses it with `parse`; an unreadable file or a suite
/// that cannot be read is reported (a diagnostic in the suite file) as an input error.
fn read_suite<T>(
    path: &Path,
    output: &OutputConfig,
    streams: &mut Streams,
    parse: impl FnOnce(&str) -> Result<T, suite::load::LoadError>,
) -> io::Result<Result<(String, T), Outcome>> {
    let text = match read_source(path) {
        Ok(text) => text,
        Err(error) => {
            writeln!(streams.err, "seedgen: error: {error}")?;
            return Ok(Err(Outcome::InputError));
        }
    };
    match parse(&text) {
        Ok(parsed) => Ok(Ok((text, parsed))),
        Err(error) => {
            // The suite joins a database of its own: only this diagnostic points into it.
            let mut suite_db = SourceDb::new();
            let file = suite_db.add(path.display().to_string(), text);
            emit_all(&suite_db, output, streams, &[error.to_diagnostic(file)])?;
            Ok(Err(Outcome::InputError))
        }
    }
}

/// Settles the goals the runs found unsatisfiable over abstractions: dead code is
/// proved only over verified abstractions (DESIGN.md §1), so the implementations such a
/// run relied on (itself for its loop invariants, and every implementation its calls
/// may reach) are verified — only when some run needs it — and a run whose abstractions
/// do not all verify has its "unreachable" goals withdrawn to "not covered".
fn prove_unreachable(
    program: &hir::Program,
    all: &[cfg::Cfg],
    cfgs: &[cfg::Cfg],
    runs: &mut [gen::ImplementationRun],
    session: &SessionOptions,
) {
    let relied_on = |cfg: &cfg::Cfg| {
        let mut needed = reachable_implementations(program, all, cfg);
        needed.insert(cfg.implementation);
        needed
    };
    let needed: BTreeSet<hir::ImplId> =
        cfgs.iter().zip(runs.iter()).filter(|(_, run)| run.needs_proof()).flat_map(|(cfg, _)| relied_on(cfg)).collect();
    if needed.is_empty() {
        return;
    }
    let to_verify: Vec<cfg::Cfg> = all.iter().filter(|&cfg| needed.contains(&cfg.implementation)).cloned().collect();
    let verdicts = crate::verify::verify(program, &to_verify, session, crate::verify::Confirmation::Skip);
    let verified = |implementation: hir::ImplId| {
        verdicts.iter().any(|verdict| verdict.implementation == implementation && verdict.is_verified())
    };
    for (cfg, run) in cfgs.iter().zip(runs.iter_mut()) {
        if run.needs_proof() && !relied_on(cfg).into_iter().all(verified) {
            run.withdraw_unreachable();
        }
    }
}

fn callees(cfg: &cfg::Cfg) -> impl Iterator<Item = hir::ProcId> + '_ {
    cfg.blocks.iter().flat_map(|block| &block.cmds).filter_map(|cmd| match &cmd.kind {
        cfg::CmdKind::Call { callee, .. } => Some(*callee),
        _ => None,
    })
}

/// Every implementation a call in `cfg` may reach, directly or through other calls.
fn reachable_implementations(program: &hir::Program, all: &[cfg::Cfg], cfg: &cfg::Cfg) -> BTreeSet<hir::ImplId> {
    let implementations = |cfg: &cfg::Cfg| -> Vec<hir::ImplId> {
        callees(cfg).flat_map(|callee| program.procedures[callee.index()].implementations.iter().copied()).collect()
    };
    let mut reached = BTreeSet::new();
    let mut pending = implementations(cfg);
    while let Some(implementation) = pending.pop() {
        if reached.insert(implementation) {
            if let Some(callee) = all.iter().find(|cfg| cfg.implementation == implementation) {
                pending.extend(implementations(callee));
            }
        }
    }
    reached
}

/// Runs a validated configuration.
pub fn run(config: &Config, streams: &mut Streams) -> io::Result<Outcome> {
    match config {
        Config::Check(check, output) => run_check(check, output, streams),
        Config::Seed(seed, output) => run_seed(seed, output, streams),
        Config::ProveTests(prove, output) => run_prove_tests(prove, output, streams),
        Config::Verify(verify, output) => run_verify(verify, output, streams),
        Config::RunTests(run, output) => run_tests(run, output, streams),
        Config::Mutate(mutate, output) => run_mutate(mutate, output, streams),
        Config::Merge(merge, output) => run_merge(merge, output, streams),
        Config::Lsp(config, _) => lsp::run_lsp(config),
    }
}
