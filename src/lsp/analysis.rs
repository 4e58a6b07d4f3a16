//! One look at a document, on a worker thread: the front end's diagnostics, then each
//! implementation's coverage, from the `prove-tests` cache or generated, as the editor
//! shows it (diagnostics, code lenses, hovers).
//!
//! Input: a [`Job`], the document's text at one generation. Output: an [`Analysis`]
//! whose ranges are positions in that text; `None` when a newer generation made the
//! job stale before it finished. The coverage is exactly what `prove-tests FILE` with
//! the server's options reports (the same driver functions, the same cache entries),
//! so the editor and the command line never disagree.

use super::position::{self, Encoding, LineIndex};
use super::verified::Verified;
use crate::cfg;
use crate::config::{LspConfig, OutputConfig, ProveTestsConfig, SuiteForm};
use crate::diag::Diagnostic;
use crate::driver::{self, CachedReports, ProveJob, MAX_SOURCE_BYTES};
use crate::regress::carry::CarriedSuite;
use crate::report::{self, Counts, ProcedureReport};
use crate::sema::hir;
use crate::source::{SourceDb, Span};
use crate::suite::{self, json, SuiteContext};
use crate::syntax::ast;
use crate::verify;
use lsp_types::{DiagnosticTag, Range, Uri};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// A document's text at one generation, and how to tell that it is no longer the
/// latest.
#[derive(Clone)]
pub struct Job {
    pub uri: Uri,
    /// The file the document is, for `file:` URIs.
    pub path: Option<PathBuf>,
    /// How the suite names the file: its path relative to the workspace, as a
    /// `prove-tests` run from the workspace's root would.
    pub name: String,
    pub text: Arc<str>,
    pub generation: u64,
    /// The document's latest generation, bumped by every change and save.
    pub latest: Arc<AtomicU64>,
    pub encoding: Encoding,
}

impl Job {
    /// A newer generation of the document exists: this job's result would be thrown away.
    pub fn is_stale(&self) -> bool {
        self.latest.load(Ordering::SeqCst) != self.generation
    }
}

/// How far a look goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Depth {
    /// The front end, and coverage where the cache holds it: as the user types.
    Cached,
    /// Every implementation the cache does not hold generated (and stored): on save.
    Generated,
}

/// What the editor shows of one generation of a document.
#[derive(Debug)]
pub struct Analysis {
    pub generation: u64,
    pub depth: Depth,
    pub diagnostics: Vec<lsp_types::Diagnostic>,
    pub implementations: Vec<ImplementationView>,
    pub goals: Vec<GoalView>,
}

/// One implementation, for its code lens.
#[derive(Debug)]
pub struct ImplementationView {
    pub name: String,
    /// Its whole declaration.
    pub range: Range,
    /// Its report's counts; `None` until it is generated (the file was not saved since
    /// it changed).
    pub counts: Option<Counts>,
}

/// One goal (branch), for hovers and code actions.
#[derive(Debug)]
pub struct GoalView {
    pub id: String,
    pub range: Range,
    /// `covered`, `unreachable` or `not_covered`, as the suite says.
    pub status: String,
    pub reason: Option<String>,
    /// The test whose replay first entered it, described.
    pub test: Option<String>,
}

impl GoalView {
    /// The hover's text (Markdown).
    pub fn describe(&self) -> String {
        let status = match (self.status.as_str(), &self.test) {
            ("covered", Some(test)) => format!("covered by test {test}"),
            ("unreachable", _) => "unreachable: no execution reaches it (proved by the solver)".to_string(),
            ("not_covered", _) => format!("not covered: {}", self.reason.as_deref().unwrap_or("no test reaches it")),
            (status, _) => status.replace('_', " "),
        };
        format!("branch `{}`: {status}", self.id)
    }
}

/// A program that passed the front end and lowered, with its diagnostics (warnings).
struct Loaded {
    db: SourceDb,
    ast: ast::Program,
    program: hir::Program,
    cfgs: Vec<cfg::Cfg>,
    diagnostics: Vec<Diagnostic>,
}

/// The front end and lowering of the job's text; the diagnostics alone when the
/// program has errors.
fn load(job: &Job, config: &LspConfig) -> Result<Loaded, Vec<Diagnostic>> {
    if job.text.len() > MAX_SOURCE_BYTES {
        let message = format!("seedgen reads files of at most {} MiB", MAX_SOURCE_BYTES >> 20);
        return Err(vec![Diagnostic::error(message)]);
    }
    let mut db = SourceDb::new();
    let file = db.add(job.name.clone(), job.text.to_string());
    let checked = driver::check_file(&db, file, config.template.language);
    let Some(program) = checked.hir else { return Err(checked.diagnostics) };
    let mut diagnostics = checked.diagnostics;
    let program = match crate::mono::monomorphize(program) {
        Ok(program) => program,
        Err(error) => {
            diagnostics.push(error.to_diagnostic());
            return Err(diagnostics);
        }
    };
    let (cfgs, errors) = cfg::lower::lower_all(&program);
    if !errors.is_empty() {
        diagnostics.extend(errors.iter().map(|error| error.to_diagnostic()));
        return Err(diagnostics);
    }
    Ok(Loaded { db, ast: checked.ast, program, cfgs, diagnostics })
}

/// How a generation is followed: whether it should stop, and how far it got.
pub struct Watch<'a> {
    pub stop: &'a dyn Fn() -> bool,
    /// Called before each batch with the implementations generated and to generate.
    pub progress: &'a dyn Fn(usize, usize),
}

/// Looks at the job's text as deep as `depth` asks; `None` when the job went stale
/// before its generation finished.
pub fn analyze(
    job: &Job,
    config: &LspConfig,
    depth: Depth,
    progress: &dyn Fn(usize, usize),
    verified: &Verified,
) -> Option<Analysis> {
    let index = LineIndex::new(&job.text, job.encoding);
    let mut analysis = Analysis {
        generation: job.generation,
        depth,
        diagnostics: Vec::new(),
        implementations: Vec::new(),
        goals: Vec::new(),
    };
    let to_lsp = |found: &Diagnostic| position::diagnostic(&index, &job.uri, found);
    let loaded = match load(job, config) {
        Ok(loaded) => loaded,
        Err(diagnostics) => {
            analysis.diagnostics = diagnostics.iter().map(to_lsp).collect();
            return Some(analysis);
        }
    };
    analysis.diagnostics = loaded.diagnostics.iter().map(to_lsp).collect();
    let prove = prove_tests_config(job, config);
    let context = driver::suite_context(&loaded.db, &loaded.program, &job.name, &prove);
    let watch = Watch { stop: &|| job.is_stale(), progress };
    let collected = collect_reports(&loaded, &prove, &context, depth, &watch)?;
    let verification = verification(&loaded, &collected, &prove, depth, &watch, verified)?;
    analysis.diagnostics.extend(verification.iter().map(to_lsp));
    for (cfg, report) in loaded.cfgs.iter().zip(&collected.reports) {
        let span = implementation_span(&loaded.program, cfg);
        analysis.implementations.push(ImplementationView {
            name: cfg.name.clone(),
            range: index.range(span),
            counts: report.as_ref().map(|report| report.counts.clone()),
        });
        let Some(report) = report else { continue };
        for (goal, &span) in report.suite.goals.iter().zip(&report.goal_spans) {
            analysis.goals.push(GoalView {
                id: goal.id.clone(),
                range: index.range(span),
                status: goal.status.clone(),
                reason: goal.reason.clone(),
                test: goal.test.as_ref().map(|id| describe_test(&report.suite, id)),
            });
            analysis.diagnostics.extend(goal_diagnostic(&index, &job.uri, goal, span));
        }
    }
    Some(analysis)
}

/// `goal`'s warning (`report::goal_diagnostic`) for the editor: dead code is tagged
/// unnecessary, which editors show faded; the goal's id rides along for code actions.
fn goal_diagnostic(index: &LineIndex, uri: &Uri, goal: &json::Goal, span: Span) -> Option<lsp_types::Diagnostic> {
    let warning = report::goal_diagnostic(goal, span)?;
    let mut diagnostic = position::diagnostic(index, uri, &warning);
    if goal.status == "unreachable" {
        diagnostic.tags = Some(vec![DiagnosticTag::UNNECESSARY]);
    }
    diagnostic.data = Some(serde_json::json!({ "goal": goal.id }));
    Some(diagnostic)
}

/// `` `Abs/t2` (x = -1; returns r = 1) ``: a test by its inputs and what it expects.
fn describe_test(procedure: &json::Procedure, id: &str) -> String {
    let Some(test) = procedure.tests.iter().find(|test| test.id == id) else { return format!("`{id}`") };
    let named = |values: &[json::Named]| -> String {
        values.iter().map(|named| format!("{} = {}", named.name, named.value)).collect::<Vec<_>>().join(", ")
    };
    let inputs = [&test.inputs.params, &test.inputs.globals, &test.inputs.consts]
        .into_iter()
        .map(|values| named(values))
        .filter(|text| !text.is_empty())
        .collect::<Vec<_>>()
        .join(", ");
    let expect = match (test.expect.outcome.as_str(), &test.expect.message) {
        ("pass", _) => {
            let outputs = named(&test.expect.outputs);
            let returns =
                if outputs.is_empty() { "returns normally".to_string() } else { format!("returns {outputs}") };
            match named(&test.expect.globals) {
                globals if globals.is_empty() => returns,
                globals => format!("{returns}, leaving {globals}"),
            }
        }
        ("fail", Some(message)) => format!("fails: {message}"),
        (outcome, message) => {
            let what = outcome_meaning(outcome);
            message.as_ref().map_or(what.to_string(), |message| format!("{what}: {message}"))
        }
    };
    format!("`{id}` ({}; {expect})", if inputs.is_empty() { "no inputs" } else { &inputs })
}

/// What a recorded outcome other than `pass` means to a reader of a hover (the suite
/// format's words, `docs/suite-format.md`).
fn outcome_meaning(outcome: &str) -> &str {
    match outcome {
        "fail" => "fails",
        "infeasible" => "stops at an `assume` after its goals (infeasible)",
        "unchecked" => "stops after its goals at a check replay cannot decide (unchecked)",
        other => other,
    }
}

/// The `prove-tests` run of the job's file with the server's options; a document that
/// is no file has no cache.
fn prove_tests_config(job: &Job, config: &LspConfig) -> ProveTestsConfig {
    match &job.path {
        Some(path) => config.prove_tests(path),
        None => ProveTestsConfig { cache_dir: None, ..config.prove_tests(&PathBuf::from(&job.name)) },
    }
}

fn implementation_span(program: &hir::Program, cfg: &cfg::Cfg) -> Span {
    program.implementations[cfg.implementation.index()].span
}

/// How many implementations per `--jobs` one batch of a generation holds: a newer
/// generation stops it between batches. Each batch starts a thread pool and an
/// interpreter and waits for its slowest implementation, so batches of one per job made
/// a cold save of the 200-procedure benchmark 2.6 times slower than `prove-tests`;
/// with 8 it is as fast, and a superseded generation still ends within about 80 ms
/// there (`benches/lsp.rs`, docs/benchmarks.md).
const BATCH_PER_JOB: usize = 8;

/// Each implementation's report in program order: from the cache, and with
/// [`Depth::Generated`] generated where the cache has none, `--jobs` implementations at
/// a time; `None` as soon as `watch` says the result is no longer wanted (what was
/// generated by then is in the cache).
fn collect_reports(
    loaded: &Loaded,
    prove: &ProveTestsConfig,
    context: &SuiteContext,
    depth: Depth,
    watch: &Watch,
) -> Option<CachedReports> {
    let options = driver::gen_options(prove, Instant::now());
    let output = OutputConfig::silent();
    let carried = CarriedSuite::default();
    let selected: Vec<&cfg::Cfg> = loaded.cfgs.iter().collect();
    let job = ProveJob {
        config: prove,
        output: &output,
        ast: &loaded.ast,
        all: &loaded.cfgs,
        selected: &selected,
        options: &options,
        carried: &carried,
    };
    let mut reports = CachedReports::read(&job, context);
    let missing = if depth == Depth::Generated { reports.missing() } else { Vec::new() };
    let batch = prove.jobs.max(1) * BATCH_PER_JOB;
    for (at, indices) in missing.chunks(batch).enumerate() {
        if (watch.stop)() {
            return None;
        }
        (watch.progress)(at * batch, missing.len());
        // The cache only saves time: one that cannot be written fails nothing here
        // either. A thread pool that cannot be started leaves the rest ungenerated.
        if reports.generate(&job, context, indices).is_err() {
            break;
        }
    }
    Some(reports)
}

/// Each implementation's `seedgen verify` diagnostics, in program order: remembered
/// ([`Verified`]), and with [`Depth::Generated`] verified where not, in batches as the
/// generation is; `None` as soon as `watch` says the result is no longer wanted.
fn verification(
    loaded: &Loaded,
    collected: &CachedReports,
    prove: &ProveTestsConfig,
    depth: Depth,
    watch: &Watch,
    verified: &Verified,
) -> Option<Vec<Diagnostic>> {
    let span = |index: usize| implementation_span(&loaded.program, &loaded.cfgs[index]);
    let mut found: Vec<Option<Vec<Diagnostic>>> = (0..loaded.cfgs.len())
        .map(|index| collected.slots[index].as_ref().and_then(|slot| verified.recall(slot, span(index))))
        .collect();
    let missing: Vec<usize> = match depth {
        Depth::Generated => (0..found.len()).filter(|&index| found[index].is_none()).collect(),
        Depth::Cached => Vec::new(),
    };
    let session = prove.solver.session_options(Instant::now());
    for indices in missing.chunks(prove.jobs.max(1) * BATCH_PER_JOB) {
        if (watch.stop)() {
            return None;
        }
        let cfgs: Vec<cfg::Cfg> = indices.iter().map(|&index| loaded.cfgs[index].clone()).collect();
        for (&index, verdict) in
            indices.iter().zip(verify::verify(&loaded.program, &cfgs, &session, verify::Confirmation::Search))
        {
            found[index] = Some(match &collected.slots[index] {
                Some(slot) => verified.remember(slot, span(index), &verdict),
                None => verify::diagnostics(std::slice::from_ref(&verdict)),
            });
        }
    }
    Some(found.into_iter().flatten().flatten().collect())
}

/// `seedgen.writeSuite`: the suite of the saved file written as `prove-tests FILE`
/// writes it (every implementation from the cache or generated, then an atomic write);
/// what to tell the user, or why nothing was written. With `goal`, the message says
/// which test covers it.
pub fn write_suite(job: &Job, config: &LspConfig, goal: Option<&str>) -> Result<String, String> {
    let path = job.path.as_ref().ok_or("only a file has a suite: save the document as a file first")?;
    let loaded =
        load(job, config).map_err(|_| "the program has errors: fix them before writing its suite".to_string())?;
    let prove = config.prove_tests(path);
    if let Some(refusal) = driver::refuse_to_write(&prove.suite, prove.force) {
        return Err(refusal);
    }
    let context = driver::suite_context(&loaded.db, &loaded.program, &job.name, &prove);
    let watch = Watch { stop: &|| false, progress: &|_, _| {} };
    let collected =
        collect_reports(&loaded, &prove, &context, Depth::Generated, &watch).expect("a run that never stops finishes");
    let Some(reports): Option<Vec<ProcedureReport>> = collected.reports.into_iter().collect() else {
        return Err("the solver could not be started: no suite written".to_string());
    };
    let written = prove.suite.display();
    let covering = goal.map(|goal| goal_outcome(&reports, goal));
    let suite = suite::build(&context, reports.into_iter().map(|report| report.suite).collect());
    suite::write_atomically(&prove.suite, &suite::to_text(&suite, &loaded.program, SuiteForm::Json))
        .map_err(|error| format!("cannot write `{written}`: {error}"))?;
    Ok(match covering {
        Some(outcome) => format!("wrote `{written}`: {outcome}"),
        None => format!("wrote `{written}`"),
    })
}

/// What the suite says of `goal`: the test that covers it, or why none does.
fn goal_outcome(reports: &[ProcedureReport], goal: &str) -> String {
    let found = reports.iter().find_map(|report| report.suite.goals.iter().find(|candidate| candidate.id == goal));
    match found {
        Some(json::Goal { status, test: Some(test), .. }) if status == "covered" => {
            format!("test `{test}` covers branch `{goal}`")
        }
        Some(json::Goal { status, reason, .. }) if status == "not_covered" => {
            format!("no test covers branch `{goal}`: {}", reason.as_deref().unwrap_or("not covered"))
        }
        Some(json::Goal { status, .. }) if status == "unreachable" => {
            format!("branch `{goal}` is unreachable: no test can cover it")
        }
        _ => format!("branch `{goal}` is no longer in the program"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn procedure(tests: serde_json::Value) -> json::Procedure {
        let procedure = serde_json::json!({ "name": "P", "digest": "sha256:0", "goals": [], "tests": tests });
        serde_json::from_value(procedure).expect("a suite's procedure")
    }

    #[test]
    fn a_test_is_described_by_what_it_returns_leaves_or_why_it_stops() {
        let procedure = procedure(serde_json::json!([
            { "id": "P/t1", "inputs": {}, "expect": { "outcome": "pass" } },
            { "id": "P/t2", "inputs": { "params": [{ "name": "x", "value": 1 }] },
              "expect": { "outcome": "pass", "globals": [{ "name": "g", "value": 2 }] } },
            { "id": "P/t3", "inputs": {}, "expect": { "outcome": "unchecked", "message": "axiom `A` at `f(3)`" } },
        ]));
        assert_eq!(describe_test(&procedure, "P/t1"), "`P/t1` (no inputs; returns normally)");
        assert_eq!(describe_test(&procedure, "P/t2"), "`P/t2` (x = 1; returns normally, leaving g = 2)");
        assert_eq!(
            describe_test(&procedure, "P/t3"),
            "`P/t3` (no inputs; stops after its goals at a check replay cannot decide (unchecked): axiom `A` at `f(3)`)"
        );
    }
}
