//! Runs the stages in order for a validated [`Config`] and reports what happened.
//!
//! The driver owns the [`SourceDb`], reads the input files (operational failures become
//! [`InputError`]s, exit 2), runs each stage, and hands every diagnostic to the
//! [`Emitter`]. It never exits the process itself: it returns an [`Outcome`] that
//! `main` maps to the exit status.

use crate::cfg;
use crate::config::{
    CheckConfig, Config, Dump, OutputConfig, ProveTestsConfig, RunTestsConfig, RunTestsFormat, SeedConfig,
    SummaryFormat, VerifyConfig,
};
use crate::diag::{Diagnostic, Emitter, Severity, WriteColor};
use crate::gen::{self, GenOptions};
use crate::interp;
use crate::regress::{self, carry::CarriedSuite};
use crate::report;
use crate::seed::{goals, print::print_seeded_program, seeded};
use crate::sema::{self, hir};
use crate::smt::SessionOptions;
use crate::source::{FileId, SourceDb, MAX_FILE_BYTES};
use crate::suite::{self, SuiteContext};
use crate::syntax::{self, ast};
use crate::verify;
use rayon::prelude::*;
use std::collections::BTreeSet;
use std::io::{self, Read, Write};
use std::path::Path;

/// How a run ended; `main` maps it to the exit status (see README "Exit status").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Exit 0.
    Success,
    /// Exit 1: the program has errors.
    ProgramErrors,
    /// Exit 2: unreadable input, bad flags.
    InputError,
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
pub fn check_file(db: &SourceDb, file: FileId) -> Checked {
    let (ast, parse_errors) = syntax::parse(file, db.text(file));
    let mut diagnostics: Vec<Diagnostic> = parse_errors.iter().map(|error| error.to_diagnostic()).collect();
    if !diagnostics.is_empty() {
        return Checked { ast, hir: None, diagnostics };
    }
    let (hir, sema_errors) = sema::check(&ast);
    diagnostics.extend(sema_errors.iter().map(|error| error.to_diagnostic()));
    Checked { ast, hir, diagnostics }
}

/// Where results (stdout) and diagnostics (stderr) go.
pub struct Streams<'a> {
    pub out: &'a mut dyn Write,
    pub err: &'a mut dyn WriteColor,
}

/// `seedgen check FILE...`
pub fn run_check(config: &CheckConfig, output: &OutputConfig, streams: &mut Streams) -> io::Result<Outcome> {
    let mut db = SourceDb::new();
    let mut outcome = Outcome::Success;
    let mut error_count = 0;
    let mut warning_count = 0;
    for path in &config.files {
        let text = match read_source(path) {
            Ok(text) => text,
            Err(error) => {
                writeln!(streams.err, "seedgen: error: {error}")?;
                outcome = Outcome::InputError;
                error_count += 1;
                continue;
            }
        };
        let file = db.add(path.display().to_string(), text);
        let checked = check_file(&db, file);
        let mut diagnostics = checked.diagnostics.clone();
        if let (Some(dump), false) = (config.dump, checked.has_errors()) {
            match dump_stage(&checked, dump) {
                Ok(text) => write!(streams.out, "{text}")?,
                Err(errors) => diagnostics.extend(errors),
            }
        }
        emit_all(&db, output, streams, &diagnostics)?;
        error_count += count(&diagnostics, Severity::Error);
        warning_count += count(&diagnostics, Severity::Warning);
        if error_count > 0 && outcome == Outcome::Success {
            outcome = Outcome::ProgramErrors;
        }
    }
    if output.message_format == crate::diag::MessageFormat::Human && !output.quiet {
        writeln!(streams.err, "{}", summary(config.files.len(), error_count, warning_count))?;
    }
    Ok(outcome)
}

/// `--dump STAGE` of a file that checked cleanly: the stage printed back, or the
/// diagnostics of the stages that could not be reached.
fn dump_stage(checked: &Checked, dump: Dump) -> Result<String, Vec<Diagnostic>> {
    let hir = checked.hir.as_ref().expect("a file without errors has its HIR");
    if dump == Dump::Ast {
        return Ok(syntax::printer::print_program(&checked.ast));
    }
    let (cfgs, errors) = cfg::lower::lower_all(hir);
    if !errors.is_empty() {
        return Err(errors.iter().map(|error| error.to_diagnostic()).collect());
    }
    let cut: Vec<cfg::Cfg> = cfgs.iter().map(|graph| cfg::cut::cut_loops(hir, graph)).collect();
    Ok(match dump {
        Dump::Ast => unreachable!("handled above"),
        Dump::Cfg => cfg::print::print_program(hir, &cfgs),
        Dump::Cut => cfg::print::print_program(hir, &cut),
        Dump::Smt2 => cut
            .iter()
            .map(|graph| {
                let seeded =
                    seeded::seed(graph, &goals::goals(graph), Default::default(), &seeded::visible_names(hir, graph));
                let encoding = std::sync::Arc::new(crate::vc::encode(hir, &seeded.cfg));
                format!("; implementation {}\n{}", graph.name, crate::smt::to_smt2(encoding))
            })
            .collect(),
    })
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

fn summary(files: usize, errors: usize, warnings: usize) -> String {
    let checked = format!("checked {}", plural(files, "file"));
    match (errors, warnings) {
        (0, 0) => format!("{checked}: no problems"),
        (0, _) => format!("{checked}: {}", plural(warnings, "warning")),
        _ => format!("{checked}: {}, {}", plural(errors, "error"), plural(warnings, "warning")),
    }
}

/// Reads, parses and checks one file, emitting its diagnostics; the checked program
/// when it has no errors, otherwise the outcome to end the run with.
fn front_end(
    db: &mut SourceDb,
    path: &Path,
    output: &OutputConfig,
    streams: &mut Streams,
) -> io::Result<Result<hir::Program, Outcome>> {
    let text = match read_source(path) {
        Ok(text) => text,
        Err(error) => {
            writeln!(streams.err, "seedgen: error: {error}")?;
            return Ok(Err(Outcome::InputError));
        }
    };
    let file = db.add(path.display().to_string(), text);
    let checked = check_file(db, file);
    emit_all(db, output, streams, &checked.diagnostics)?;
    Ok(checked.hir.ok_or(Outcome::ProgramErrors))
}

fn emit_all(db: &SourceDb, output: &OutputConfig, streams: &mut Streams, diagnostics: &[Diagnostic]) -> io::Result<()> {
    let emitter = Emitter { db, format: output.message_format };
    diagnostics.iter().try_for_each(|diagnostic| emitter.emit(streams.err, diagnostic))
}

/// A checked program lowered to graphs, with the source database its spans point into.
struct Lowered {
    db: SourceDb,
    program: hir::Program,
    cfgs: Vec<cfg::Cfg>,
}

/// Reads, checks and lowers one file, emitting every diagnostic on the way; the
/// lowered program, or the outcome to end the run with.
fn load_and_lower(path: &Path, output: &OutputConfig, streams: &mut Streams) -> io::Result<Result<Lowered, Outcome>> {
    let mut db = SourceDb::new();
    let program = match front_end(&mut db, path, output, streams)? {
        Ok(program) => program,
        Err(outcome) => return Ok(Err(outcome)),
    };
    let (cfgs, errors) = cfg::lower::lower_all(&program);
    if !errors.is_empty() {
        let diagnostics: Vec<Diagnostic> = errors.iter().map(|error| error.to_diagnostic()).collect();
        emit_all(&db, output, streams, &diagnostics)?;
        return Ok(Err(Outcome::ProgramErrors));
    }
    Ok(Ok(Lowered { db, program, cfgs }))
}

/// `seedgen seed FILE`: the conditionally seeded program on stdout.
pub fn run_seed(config: &SeedConfig, output: &OutputConfig, streams: &mut Streams) -> io::Result<Outcome> {
    let Lowered { program, cfgs, .. } = match load_and_lower(&config.file, output, streams)? {
        Ok(lowered) => lowered,
        Err(outcome) => return Ok(outcome),
    };
    // Loops past the bound stay loops: Boogie abstracts them by their invariants as the
    // cut does for `prove-tests`.
    let seeded: Vec<seeded::SeededCfg> = cfgs
        .iter()
        .map(|cfg| {
            let unrolled = cfg::unroll::unroll_loops(&program, cfg, config.unroll).cfg;
            let taken = seeded::visible_names(&program, &unrolled);
            seeded::seed(&unrolled, &goals::goals(&unrolled), config.goals, &taken)
        })
        .collect();
    write!(streams.out, "{}", print_seeded_program(&program, &seeded))?;
    Ok(Outcome::Success)
}

/// Why `prove-tests` may not write its suite to `path`: it is a directory, or a file is
/// there that is not a seedgen suite (a program given as `-o` by mistake, say) or that
/// cannot be read to tell, and `--force` is not given. Checked before any work, so a
/// long run does not end in a refusal.
fn refuse_to_write(path: &Path, force: bool) -> Option<String> {
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

/// `seedgen prove-tests FILE`: generate the suite, write it, print the summary.
pub fn run_prove_tests(config: &ProveTestsConfig, output: &OutputConfig, streams: &mut Streams) -> io::Result<Outcome> {
    if let Some(refusal) = refuse_to_write(&config.suite, config.force).filter(|_| !config.check) {
        writeln!(streams.err, "seedgen: error: {refusal}")?;
        return Ok(Outcome::InputError);
    }
    let Lowered { db, program, cfgs: all_cfgs } = match load_and_lower(&config.file, output, streams)? {
        Ok(lowered) => lowered,
        Err(outcome) => return Ok(outcome),
    };
    if all_cfgs.is_empty() {
        writeln!(streams.err, "seedgen: error: `{}` has no procedure with a body to test", config.file.display())?;
        return Ok(Outcome::InputError);
    }
    let options = GenOptions {
        goals: config.goals,
        procedures: config.procedures.clone(),
        session: SessionOptions { timeout_ms: Some(config.timeout_ms), ..SessionOptions::default() },
        inline_depth: config.inline_depth,
        unroll: config.unroll,
        max_unroll: config.max_unroll,
        minimize: config.minimize,
    };
    let selected = gen::select(&all_cfgs, &options);
    if let Some(missing) = config.procedures.iter().find(|name| !selected.iter().any(|cfg| &cfg.name == *name)) {
        writeln!(streams.err, "seedgen: error: `{}` has no implementation named `{missing}`", config.file.display())?;
        return Ok(Outcome::InputError);
    }
    let file = db.name(FileId(0)).to_string();
    let context = SuiteContext {
        db: &db,
        program: &program,
        file: &file,
        source_text: db.text(FileId(0)),
        goals: config.goals,
        inline_depth: config.inline_depth,
        unroll: config.unroll,
        max_unroll: config.max_unroll,
    };
    let carried = match &config.existing {
        None => CarriedSuite::default(),
        Some(path) => match carry_existing(path, &program, &all_cfgs, &suite::options(&context), output, streams)? {
            Ok(carried) => carried,
            Err(outcome) => return Ok(outcome),
        },
    };
    let machine = interp::Machine::new(&program, &all_cfgs, interp::Limits::default());
    // Implementations are independent: each has its own solver session (and z3
    // context); rayon keeps the results in program order.
    let mut runs: Vec<gen::ImplementationRun> = selected
        .par_iter()
        .map(|original| gen::generate_open(&program, &machine, original, &options, &carried.kept_goals(&original.name)))
        .collect();
    prove_unreachable(&program, &all_cfgs, &selected, &mut runs, &options.session);
    emit_all(&db, output, streams, &report::goal_diagnostics(&runs))?;
    let suite = suite::build_carrying(&context, &runs, &selected.iter().collect::<Vec<_>>(), &carried.carried);
    let text = suite::to_text(&suite, &program, config.emit);
    let regressions = if carried.regressions.is_empty() { Outcome::Success } else { Outcome::ProgramErrors };
    if config.check {
        let outcome = check_suite(&config.suite, &suite, &text, output, streams)?;
        write_regressions(&db, &carried, streams)?;
        return Ok(if outcome == Outcome::Success { regressions } else { outcome });
    }
    if let Err(error) = suite::write_atomically(&config.suite, &text) {
        writeln!(streams.err, "seedgen: error: cannot write `{}`: {error}", config.suite.display())?;
        return Ok(Outcome::InputError);
    }
    let summary = report::summarize_carrying(&runs, &carried);
    match config.format {
        SummaryFormat::Human => {
            write!(streams.out, "{}", summary.to_human())?;
            write_regressions(&db, &carried, streams)?;
            if !output.quiet {
                writeln!(streams.err, "wrote {}", config.suite.display())?;
            }
        }
        SummaryFormat::Json => writeln!(streams.out, "{}", summary.to_json())?,
    }
    Ok(regressions)
}

/// `--existing SUITE`: the suite read, checked to be of the options this run writes
/// (`options`: its goal ids depend on them), and run on the program; the tests to carry
/// into the new suite, or the outcome to end the run with (an unreadable suite is an
/// input error, exit 2).
fn carry_existing(
    path: &Path,
    program: &hir::Program,
    cfgs: &[cfg::Cfg],
    options: &suite::json::Options,
    output: &OutputConfig,
    streams: &mut Streams,
) -> io::Result<Result<CarriedSuite, Outcome>> {
    let read = read_suite(path, output, streams, |text| suite::load::load_text_with_suite(program, cfgs, text))?;
    let (_, (tests, suite)) = match read {
        Ok(read) => read,
        Err(outcome) => return Ok(Err(outcome)),
    };
    if &suite.options != options {
        writeln!(
            streams.err,
            "seedgen: error: `{}` was generated with other options than this run's; pass the options it records \
             (`options` in the suite) or regenerate it without `--existing`",
            path.display()
        )?;
        return Ok(Err(Outcome::InputError));
    }
    Ok(Ok(regress::carry::carry(program, cfgs, &suite, &tests, options.unroll)))
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

/// `--check`: compares `text`, what the run would write (`suite` parsed), with the suite
/// at `path`, writing nothing; success when they are byte-identical, program errors
/// (exit 1) when the suite is stale, with what would change on stdout.
fn check_suite(
    path: &Path,
    suite: &suite::json::Suite,
    text: &str,
    output: &OutputConfig,
    streams: &mut Streams,
) -> io::Result<Outcome> {
    let (old_text, old) = match read_suite(path, output, streams, suite::load::read)? {
        Ok(read) => read,
        Err(outcome) => return Ok(outcome),
    };
    let shown = path.display();
    if old_text == text {
        writeln!(streams.out, "`{shown}` is up to date")?;
        return Ok(Outcome::Success);
    }
    writeln!(streams.out, "`{shown}` is stale: regenerating it would change")?;
    let mut differences = suite::diff::differences(&old, suite);
    if differences.is_empty() {
        differences.push("its text only (another form or layout than `prove-tests` writes)".to_string());
    }
    for difference in differences {
        writeln!(streams.out, "  {difference}")?;
    }
    Ok(Outcome::ProgramErrors)
}

/// The tests of the existing suite that no longer pass, after the summary.
fn write_regressions(db: &SourceDb, carried: &CarriedSuite, streams: &mut Streams) -> io::Result<()> {
    if carried.regressions.is_empty() {
        return Ok(());
    }
    let count = plural(carried.regressions.len(), "regression");
    writeln!(streams.out, "{count}: tests of the existing suite that no longer pass (kept in the suite unchanged)")?;
    for result in &carried.regressions {
        writeln!(streams.out, "  {}", regress::render::result_line(db, result))?;
    }
    Ok(())
}

/// `seedgen verify FILE`: every contract and assertion proved, or a failure with its
/// failing test at the failing clause.
pub fn run_verify(config: &VerifyConfig, output: &OutputConfig, streams: &mut Streams) -> io::Result<Outcome> {
    let Lowered { db, program, cfgs } = match load_and_lower(&config.file, output, streams)? {
        Ok(lowered) => lowered,
        Err(outcome) => return Ok(outcome),
    };
    let options = SessionOptions { timeout_ms: Some(config.timeout_ms), ..SessionOptions::default() };
    let verdicts = verify::verify(&program, &cfgs, &options);
    let diagnostics = verify::diagnostics(&verdicts);
    emit_all(&db, output, streams, &diagnostics)?;
    let failures = count(&diagnostics, Severity::Error);
    if output.message_format == crate::diag::MessageFormat::Human && !output.quiet {
        let verified = verdicts.iter().filter(|verdict| verdict.is_verified()).count();
        writeln!(
            streams.err,
            "verified {verified} of {}: {}",
            plural(verdicts.len(), "implementation"),
            if failures == 0 { "no failures".to_string() } else { plural(failures, "failure") }
        )?;
    }
    Ok(if failures == 0 { Outcome::Success } else { Outcome::ProgramErrors })
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
    let verdicts = verify::verify(program, &to_verify, session);
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

/// `seedgen run-tests FILE SUITE`: replay every test of the suite on the program.
pub fn run_tests(config: &RunTestsConfig, output: &OutputConfig, streams: &mut Streams) -> io::Result<Outcome> {
    let Lowered { db, program, cfgs } = match load_and_lower(&config.file, output, streams)? {
        Ok(lowered) => lowered,
        Err(outcome) => return Ok(outcome),
    };
    let (_, (tests, options)) =
        match read_suite(&config.suite, output, streams, |text| suite::load::load_text(&program, &cfgs, text))? {
            Ok(read) => read,
            Err(outcome) => return Ok(outcome),
        };
    // The goal ids of an unrolled suite carry iterations: measure coverage the same way.
    let run = regress::run(&program, &cfgs, &tests, interp::Limits::default(), options.unroll);
    if !output.quiet {
        emit_all(&db, output, streams, &regress::render::uncovered_goals(&run))?;
    }
    let text = match config.format {
        RunTestsFormat::Human => regress::render::human(&db, &run),
        RunTestsFormat::Json => regress::render::json(&db, &run),
        RunTestsFormat::Junit => regress::render::junit(&db, &run, &config.suite.display().to_string()),
    };
    write!(streams.out, "{text}")?;
    if let Some(path) = &config.lcov {
        if let Err(error) = suite::write_atomically(path, &regress::render::lcov(&db, &run, &cfgs)) {
            writeln!(streams.err, "seedgen: error: cannot write `{}`: {error}", path.display())?;
            return Ok(Outcome::InputError);
        }
    }
    Ok(if run.count(|verdict| matches!(verdict, regress::Verdict::Error { .. })) > 0 {
        Outcome::InputError
    } else if run.count(|verdict| !matches!(verdict, regress::Verdict::Pass)) > 0 {
        Outcome::ProgramErrors
    } else {
        Outcome::Success
    })
}

/// Runs a validated configuration.
pub fn run(config: &Config, streams: &mut Streams) -> io::Result<Outcome> {
    match config {
        Config::Check(check, output) => run_check(check, output, streams),
        Config::Seed(seed, output) => run_seed(seed, output, streams),
        Config::ProveTests(prove, output) => run_prove_tests(prove, output, streams),
        Config::Verify(verify, output) => run_verify(verify, output, streams),
        Config::RunTests(run, output) => run_tests(run, output, streams),
    }
}
