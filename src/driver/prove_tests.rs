//! `seedgen prove-tests FILE`: the suite generated (or read from the cache), written or
//! compared with a committed one (`--check`), its findings (tests that violate a
//! contract) reported at their clauses, the per-procedure summary printed; with
//! `--require-coverage`, the coverage gate CI asks for: a goal neither covered nor proved
//! unreachable fails the run (exit status 4), each such goal listed; with
//! `--fail-on-findings`, a finding fails the run (exit status 1).

use super::*;

/// `seedgen prove-tests FILE`: generate the suite, write it, print the summary.
pub fn run_prove_tests(config: &ProveTestsConfig, output: &OutputConfig, streams: &mut Streams) -> io::Result<Outcome> {
    let started = Instant::now();
    let refusal = match config.emit {
        Emit::Suite(_) => refuse_to_write(&config.suite, config.force),
        Emit::Testcomp => suite::testcomp::refusal(&config.suite, &config.file, config.force),
    };
    // `--check` writes nothing: whatever is at the path is only read.
    if let Some(refusal) = refusal.filter(|_| !config.check) {
        writeln!(streams.err, "seedgen: error: {refusal}")?;
        return Ok(Outcome::InputError);
    }
    let Lowered { db, ast, program, cfgs: all_cfgs } =
        match load_and_lower(&config.file, config.language, config.solver.deadline(started), output, streams)? {
            Ok(lowered) => lowered,
            Err(outcome) => return Ok(outcome),
        };
    if all_cfgs.is_empty() {
        writeln!(streams.err, "seedgen: error: `{}` has no procedure with a body to test", config.file.display())?;
        return Ok(Outcome::InputError);
    }
    let options = gen_options(config, started);
    let mut selected = gen::select(&all_cfgs, &options);
    if let Some(missing) = config.procedures.iter().find(|name| !selected.iter().any(|cfg| &cfg.name == *name)) {
        writeln!(streams.err, "seedgen: error: `{}` has no implementation named `{missing}`", config.file.display())?;
        return Ok(Outcome::InputError);
    }
    if let Some(shard) = config.shard {
        selected = selected.into_iter().enumerate().filter(|(at, _)| shard.contains(*at)).map(|(_, cfg)| cfg).collect();
    }
    let file = db.name(FileId(0)).to_string();
    let context = suite_context(&db, &program, &file, config);
    let carried = match &config.existing {
        None => CarriedSuite::default(),
        Some(path) => match carry_existing(path, &program, &all_cfgs, &suite::options(&context), output, streams)? {
            Ok(carried) => carried,
            Err(outcome) => return Ok(outcome),
        },
    };
    let mut timings = Timings { front_end: started.elapsed(), ..Timings::default() };
    let job = ProveJob {
        config,
        output,
        ast: &ast,
        all: &all_cfgs,
        selected: &selected,
        options: &options,
        carried: &carried,
    };
    let reports = implementation_reports(&job, &context, &mut timings, streams)?;
    emit_all(&db, output, streams, &report::goal_diagnostics(&reports))?;
    let summary = report::summarize(&reports, &carried);
    let gaps = if config.require_coverage { report::gaps(&reports) } else { Vec::new() };
    let verbose = output.verbose.then(|| timings.per_implementation(&reports));
    let written = Instant::now();
    let sections: Vec<suite::json::Procedure> = reports.into_iter().map(|report| report.suite).collect();
    let (sections, mutants) = if config.kill_mutants {
        let original = crate::mutate::kill::Original::new(&ast, db.text(FileId(0)), &program, &all_cfgs);
        let template = suite::build(&context, Vec::new());
        let (sections, results) = kill_mutants::kill_all(&original, &template, sections, (config, &options))?;
        (sections, Some(kill_mutants::summary(&results, output.verbose)))
    } else {
        (sections, None)
    };
    let suite = suite::build(&context, sections);
    let findings = report::findings::findings(&program, &all_cfgs, &suite);
    let severity = if config.fail_on_findings { Severity::Error } else { Severity::Warning };
    let diagnostics: Vec<Diagnostic> = findings.iter().map(|finding| finding.to_diagnostic(severity)).collect();
    emit_all(&db, output, streams, &diagnostics)?;
    let summary = summary.with_findings(&db, &findings);
    let gated_findings = if config.fail_on_findings { findings.len() } else { 0 };
    // Regressions, findings under their gate and a stale suite (exit 1) come before
    // undecided goals (exit 3).
    let regressions =
        if carried.regressions.is_empty() && gated_findings == 0 { Outcome::Success } else { Outcome::ProgramErrors };
    if config.check {
        let Emit::Suite(form) = config.emit else {
            writeln!(streams.err, "seedgen: error: `--check` compares a suite file, not a Test-Comp directory")?;
            return Ok(Outcome::InputError);
        };
        let text = suite::to_text(&suite, &program, form);
        let checked = check_suite(&config.suite, &suite, &text, output, streams)?;
        write_regressions(&db, &carried, streams)?;
        write_findings_gate(gated_findings, streams)?;
        return match (checked, regressions) {
            (Outcome::Success, Outcome::Success) => gate_then_incomplete(&gaps, &db, &summary, output, streams),
            (Outcome::Success, regressions) => Ok(regressions),
            (checked, _) => Ok(checked),
        };
    }
    if write_output(config, &suite, &db, &program, output, streams)? != Outcome::Success {
        return Ok(Outcome::InputError);
    }
    if let Some(path) = &config.lcov {
        if let Err(error) = suite::write_atomically(path, &suite_lcov(&db, &program, &all_cfgs, &suite)) {
            writeln!(streams.err, "seedgen: error: cannot write `{}`: {error}", path.display())?;
            return Ok(Outcome::InputError);
        }
    }
    timings.write = written.elapsed();
    match config.format {
        SummaryFormat::Human => {
            write!(streams.out, "{}", summary.to_human())?;
            if let Some(mutants) = &mutants {
                write!(streams.out, "{mutants}")?;
            }
            write_regressions(&db, &carried, streams)?;
            if !output.quiet {
                writeln!(streams.err, "wrote {}", config.suite.display())?;
            }
        }
        SummaryFormat::Json => writeln!(streams.out, "{}", summary.to_json())?,
    }
    if let Some(lines) = verbose {
        write!(streams.err, "{lines}{}", timings.total(config.jobs, started.elapsed()))?;
    }
    write_findings_gate(gated_findings, streams)?;
    if regressions != Outcome::Success {
        return Ok(regressions);
    }
    gate_then_incomplete(&gaps, &db, &summary, output, streams)
}

/// The end of a run that wrote (or checked) its suite and found nothing worse: with
/// `--require-coverage`, [`Outcome::CoverageGap`] when `gaps` holds goals (each listed
/// on stderr, `file:line:col: id: reason`); else [`Outcome::Incomplete`] when the solver
/// left goals undecided. `gaps` is empty without the gate.
fn gate_then_incomplete(
    gaps: &[report::Gap],
    db: &SourceDb,
    summary: &report::Summary,
    output: &OutputConfig,
    streams: &mut Streams,
) -> io::Result<Outcome> {
    if gaps.is_empty() {
        return incomplete_if(summary.undecided(), "goal", output, streams);
    }
    writeln!(
        streams.err,
        "seedgen: coverage: {} neither covered nor proved unreachable (`--require-coverage`); exit status 4",
        plural(gaps.len(), "goal")
    )?;
    for gap in gaps {
        let at = db.line_col(gap.span);
        writeln!(streams.err, "  {}:{}:{}: {}: {}", db.name(gap.span.file), at.line, at.column, gap.id, gap.reason)?;
    }
    Ok(Outcome::CoverageGap)
}

/// With `--fail-on-findings`, why the run fails when `gated` tests violate a contract
/// (each already reported at its clause), as the coverage gate says its own.
fn write_findings_gate(gated: usize, streams: &mut Streams) -> io::Result<()> {
    if gated == 0 {
        return Ok(());
    }
    let verb = if gated == 1 { "violates" } else { "violate" };
    writeln!(
        streams.err,
        "seedgen: findings: {} of the suite {verb} a contract (`--fail-on-findings`); exit status 1",
        plural(gated, "test")
    )
}

/// Writes what `--emit` asks for at `config.suite`: the suite's text, or its Test-Comp
/// directory, with a warning for each implementation left out of it.
fn write_output(
    config: &ProveTestsConfig,
    suite: &suite::json::Suite,
    db: &SourceDb,
    program: &hir::Program,
    output: &OutputConfig,
    streams: &mut Streams,
) -> io::Result<Outcome> {
    let written = match config.emit {
        Emit::Suite(form) => suite::write_atomically(&config.suite, &suite::to_text(suite, program, form)),
        Emit::Testcomp => {
            let export = suite::testcomp::export(suite, program);
            let warnings: Vec<Diagnostic> = export.skipped.iter().map(|skipped| skipped.to_diagnostic()).collect();
            emit_all(db, output, streams, &warnings)?;
            suite::write_directory_atomically(&config.suite, &export.files)
        }
    };
    if let Err(error) = written {
        writeln!(streams.err, "seedgen: error: cannot write `{}`: {error}", config.suite.display())?;
        return Ok(Outcome::InputError);
    }
    Ok(Outcome::Success)
}

/// The LCOV of a suite just made: its tests replayed as `run-tests` would, so
/// `prove-tests --lcov` and `run-tests --lcov` agree on the same suite.
fn suite_lcov(db: &SourceDb, program: &hir::Program, cfgs: &[cfg::Cfg], suite: &suite::json::Suite) -> String {
    let tests = suite::load::load_suite(program, cfgs, suite, &|_| None).expect("a suite made for this program loads");
    let run = regress::run(program, cfgs, &tests, interp::Limits::default(), &suite.options);
    regress::render::lcov(db, &run, cfgs)
}

/// What `implementation_reports` works from.
pub(crate) struct ProveJob<'a> {
    pub(crate) config: &'a ProveTestsConfig,
    pub(crate) output: &'a OutputConfig,
    pub(crate) ast: &'a ast::Program,
    /// Every implementation's graph; calls reach into any of them.
    pub(crate) all: &'a [cfg::Cfg],
    /// The graphs to report on, in program order.
    pub(crate) selected: &'a [&'a cfg::Cfg],
    pub(crate) options: &'a GenOptions,
    /// `--existing`: the existing suite run on the program (empty otherwise); its kept
    /// tests' goals are not generated for, and its tests are written first.
    pub(crate) carried: &'a CarriedSuite,
}

/// Where a `prove-tests` run spent its time, for `--verbose`.
#[derive(Default)]
struct Timings {
    front_end: Duration,
    cache_read: Duration,
    generation: Duration,
    write: Duration,
    cached: usize,
    implementations: usize,
}

impl Timings {
    /// One line per implementation: its time, or that it came from the cache.
    fn per_implementation(&mut self, reports: &[ProcedureReport]) -> String {
        self.cached = reports.iter().filter(|report| report.cached).count();
        self.implementations = reports.len();
        let mut lines = String::new();
        for report in reports {
            let how =
                if report.cached { "from the cache".to_string() } else { format!("{} ms", report.counts.time_ms) };
            lines.push_str(&format!("seedgen: {}: {how}\n", report.suite.name));
        }
        lines
    }

    /// One line for the run.
    fn total(&self, jobs: usize, total: Duration) -> String {
        let ms = |duration: Duration| duration.as_secs_f64() * 1000.0;
        format!(
            "seedgen: {:.1} ms: front end {:.1} ms, cache {:.1} ms ({} of {} cached), generation {:.1} ms \
             ({jobs} jobs), suite {:.1} ms\n",
            ms(total),
            ms(self.front_end),
            ms(self.cache_read),
            self.cached,
            self.implementations,
            ms(self.generation),
            ms(self.write)
        )
    }
}

/// Each selected implementation's report, in program order: read from the cache where
/// an entry for its key is there, generated otherwise (`--jobs` at a time, each in its
/// own solver session) and stored back.
fn implementation_reports(
    job: &ProveJob,
    context: &SuiteContext,
    timings: &mut Timings,
    streams: &mut Streams,
) -> io::Result<Vec<ProcedureReport>> {
    let read = Instant::now();
    let mut reports = CachedReports::read(job, context);
    timings.cache_read = read.elapsed();
    let generated = Instant::now();
    let unwritable = reports.generate(job, context, &reports.missing())?;
    timings.generation = generated.elapsed();
    // The cache only saves time: a run that cannot keep it still succeeds.
    if let (Some(error), Some(dir), false) = (unwritable, &job.config.cache_dir, job.output.quiet) {
        writeln!(streams.err, "seedgen: warning: cannot write the cache in `{}`: {error}", dir.display())?;
    }
    Ok(reports.into_reports())
}

/// The selected implementations' reports while a run collects them: those the cache
/// holds, then those generated (the language server generates a few at a time, so a
/// newer edit can stop it in between).
pub(crate) struct CachedReports {
    cache: Option<Cache>,
    /// Each selected implementation's cache entry and the key it must hold.
    pub(crate) slots: Vec<Option<(cache::Slot, cache::Key)>>,
    /// Each selected implementation's report, once read or generated.
    pub(crate) reports: Vec<Option<ProcedureReport>>,
}

impl CachedReports {
    /// The reports the cache holds for the selected implementations' keys now.
    pub(crate) fn read(job: &ProveJob, context: &SuiteContext) -> CachedReports {
        let (config, program, db) = (job.config, context.program, context.db);
        let cache = config.cache_dir.as_deref().map(Cache::new);
        let keys = cache.as_ref().map(|_| cache::Keys::new(&config.file, job.ast, program, db, job.all, job.options));
        let slots: Vec<Option<(cache::Slot, cache::Key)>> =
            job.selected.iter().map(|cfg| keys.as_ref().map(|keys| keys.of(cfg))).collect();
        let reports = job
            .selected
            .iter()
            .zip(&slots)
            .map(|(cfg, slot)| match (&cache, slot) {
                (Some(cache), Some((slot, key))) => cache.load(db, slot, key, implementation_span(program, cfg)),
                _ => None,
            })
            .collect();
        CachedReports { cache, slots, reports }
    }

    /// The indices of the selected implementations without a report yet.
    pub(crate) fn missing(&self) -> Vec<usize> {
        (0..self.reports.len()).filter(|&index| self.reports[index].is_none()).collect()
    }

    /// Generates the reports of the selected implementations at `indices` and stores
    /// each in the cache; the first error writing the cache, if any.
    pub(crate) fn generate(
        &mut self,
        job: &ProveJob,
        context: &SuiteContext,
        indices: &[usize],
    ) -> io::Result<Option<io::Error>> {
        let fresh = generate_reports(job, context, indices)?;
        let mut unwritable = None;
        for (&index, report) in indices.iter().zip(fresh) {
            if let (Some(cache), Some((slot, key))) = (&self.cache, &self.slots[index]) {
                let span = implementation_span(context.program, job.selected[index]);
                if let Err(error) = cache.store(slot, key, span, &report) {
                    unwritable.get_or_insert(error);
                }
            }
            self.reports[index] = Some(report);
        }
        Ok(unwritable)
    }

    pub(crate) fn into_reports(self) -> Vec<ProcedureReport> {
        self.reports.into_iter().map(|report| report.expect("every report is read or generated")).collect()
    }
}

fn implementation_span(program: &hir::Program, cfg: &cfg::Cfg) -> crate::source::Span {
    program.implementations[cfg.implementation.index()].span
}

/// Generates the reports of `job.selected[i]` for each `i` in `indices`, `--jobs` at a
/// time: implementations are independent (each has its own solver session and z3
/// context), and rayon keeps the results in order, so `--jobs` never changes them.
fn generate_reports(job: &ProveJob, context: &SuiteContext, indices: &[usize]) -> io::Result<Vec<ProcedureReport>> {
    if indices.is_empty() {
        // Nothing to solve: no interpreter, no thread pool, no z3 context.
        return Ok(Vec::new());
    }
    let program = context.program;
    let cfgs: Vec<cfg::Cfg> = indices.iter().map(|&index| job.selected[index].clone()).collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(job.config.jobs)
        .stack_size(crate::verify::WORKER_STACK_BYTES)
        .thread_name(|index| format!("seedgen-job-{index}"))
        .build()
        .map_err(io::Error::other)?;
    let progress = Progress::start(job.selected.len(), "implementations", job.output.progress);
    (0..job.selected.len() - indices.len()).for_each(|_| progress.advance());
    let limits = interp::Limits { deadline: job.options.session.deadline, ..interp::Limits::default() };
    let machine = interp::Machine::new(program, job.all, limits);
    let none = suite::Carried::default();
    let shares = TimeShares::new(job.options.session.deadline, cfgs.len(), job.config.jobs);
    let reports = pool.install(|| {
        let mut runs: Vec<gen::ImplementationRun> = cfgs
            .par_iter()
            .map(|original| {
                let kept = job.carried.kept_goals(&original.name);
                let options = shares.next(job.options);
                let run = gen::generate_open(program, &machine, original, &options, &kept);
                progress.advance();
                run
            })
            .collect();
        prove_unreachable(program, job.all, &cfgs, &mut runs, &job.options.session);
        runs.par_iter()
            .zip(&cfgs)
            .map(|(run, cfg)| {
                let carried = job.carried.carried.get(&run.name).unwrap_or(&none);
                let section = suite::procedure(context, run, cfg, carried);
                ProcedureReport::of(run, section).carrying(job.carried.counts(&run.name))
            })
            .collect()
    });
    progress.finish();
    Ok(reports)
}

/// The run's `--time-limit` shared among its implementations: each starts with a
/// deadline of its own, the time left divided by the implementations not started yet,
/// `--jobs` at a time (never past the run's deadline). Without shares, the first
/// implementations of a front end's file, whose checks z3 gives up on only at the
/// limit, took the whole run (`Test/dafny/Seq.bpl`: two of 72 implementations 54 s
/// each, the other 70 cut off unasked). Time one implementation leaves unused goes to
/// those after it.
struct TimeShares {
    deadline: Option<Instant>,
    implementations: usize,
    jobs: usize,
    started: std::sync::atomic::AtomicUsize,
}

impl TimeShares {
    fn new(deadline: Option<Instant>, implementations: usize, jobs: usize) -> TimeShares {
        TimeShares { deadline, implementations, jobs: jobs.max(1), started: std::sync::atomic::AtomicUsize::new(0) }
    }

    /// The options of the next implementation to start: `options` with its deadline.
    fn next(&self, options: &GenOptions) -> GenOptions {
        let started = self.started.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let Some(deadline) = self.deadline else { return options.clone() };
        let now = Instant::now();
        let waiting = self.implementations.saturating_sub(started);
        let share = share(deadline.saturating_duration_since(now), waiting, self.jobs);
        let session = crate::smt::SessionOptions { deadline: Some((now + share).min(deadline)), ..options.session };
        GenOptions { session, ..options.clone() }
    }
}

/// The time an implementation gets when `left` remains for `waiting` implementations
/// (itself included), `jobs` at a time: all of it when no more than `jobs` wait.
fn share(left: Duration, waiting: usize, jobs: usize) -> Duration {
    left.mul_f64((jobs.max(1) as f64 / waiting.max(1) as f64).min(1.0))
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
    let read = read_suite(path, output, streams, |text| suite::load::read_and_load(program, cfgs, text))?;
    let (_, (suite, tests)) = match read {
        Ok(read) => read,
        Err(outcome) => return Ok(Err(outcome)),
    };
    if suite.options.resolved() != options.resolved() {
        writeln!(
            streams.err,
            "seedgen: error: `{}` was generated with other options than this run's; pass the options it records \
             (`options` in the suite) or regenerate it without `--existing`",
            path.display()
        )?;
        return Ok(Err(Outcome::InputError));
    }
    Ok(Ok(regress::carry::carry(program, cfgs, &suite, &tests)))
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

/// The generation options of a `prove-tests` run started at `started`.
pub(crate) fn gen_options(config: &ProveTestsConfig, started: Instant) -> GenOptions {
    GenOptions {
        goals: config.goals,
        procedures: config.procedures.clone(),
        session: config.solver.session_options(started),
        inline_depth: config.inline_depth,
        unroll: config.unroll,
        max_unroll: config.max_unroll,
        unroll_goals: config.unroll_goals,
        minimize: config.minimize,
        search: config.search,
    }
}

/// What the suite of a `prove-tests` run of `file` (the first file of `db`) records.
pub(crate) fn suite_context<'a>(
    db: &'a SourceDb,
    program: &'a hir::Program,
    file: &'a str,
    config: &ProveTestsConfig,
) -> SuiteContext<'a> {
    SuiteContext {
        db,
        program,
        file,
        source_text: db.text(FileId(0)),
        goals: config.goals,
        inline_depth: config.inline_depth,
        unroll: config.unroll,
        max_unroll: config.max_unroll,
        unroll_goals: config.unroll_goals,
        shard: config.shard,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_implementation_gets_the_time_left_divided_among_those_waiting() {
        let minute = Duration::from_secs(60);
        assert_eq!(share(minute, 6, 2), Duration::from_secs(20));
        assert_eq!(share(minute, 2, 2), minute);
        assert_eq!(share(minute, 1, 4), minute);
        assert_eq!(share(minute, 0, 0), minute);
        assert_eq!(share(Duration::ZERO, 5, 2), Duration::ZERO);
    }

    #[test]
    fn shares_never_pass_the_run_deadline_and_none_without_one() {
        let options = GenOptions::default();
        assert_eq!(TimeShares::new(None, 3, 2).next(&options).session.deadline, None);
        let deadline = Instant::now() + Duration::from_secs(60);
        let shares = TimeShares::new(Some(deadline), 3, 1);
        let first = shares.next(&options).session.deadline.expect("a share of a deadline");
        assert!(first <= deadline && first < deadline - Duration::from_secs(30));
        shares.next(&options);
        let last = shares.next(&options).session.deadline.expect("a share of a deadline");
        assert!(last <= deadline && last > deadline - Duration::from_secs(1));
    }
}
