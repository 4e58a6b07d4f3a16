//! The differential oracle between the solver and the interpreter: generate a
//! suite for a program with `prove-tests`, in-process and through the same driver
//! function the command runs, then replay it as `run-tests` does and check what the
//! suite claims against what the runs do.
//!
//! The claims checked, each a disagreement when broken:
//! - every test, replayed alone from either form of the suite (JSON and Boogie), passes
//!   and enters exactly the goals its `covers` lists;
//! - a goal is `covered` exactly when some test covers it, and the test it names does;
//! - no goal reported `unreachable` is entered by the suite, nor by a few probe runs of
//!   each implementation on fixed small inputs (concrete executions are ground truth:
//!   one reaching a goal refutes its proof of deadness).

use super::Case;
use crate::cfg::{self, unroll::unroll_loops, Cfg};
use crate::config::{Emit, OutputConfig, ProveTestsConfig, SolverLimits, SuiteForm, SummaryFormat};
use crate::diag::MessageFormat;
use crate::driver::{self, Outcome, Streams};
use crate::interp::{self, Limits, Machine, TestInput, TraceMode};
use crate::regress::{self, Verdict};
use crate::seed::goals::{goals_counted, GoalSelection, UnrollGoals};
use crate::sema::hir;
use crate::source::SourceDb;
use crate::suite::{self, json, load::LoadedTest};
use crate::vc::{MapValue, Value};
use codespan_reporting::term::termcolor::NoColor;
use num_bigint::BigInt;
use std::collections::BTreeSet;

/// Per solver check: the generated programs are small, so a check that needs longer
/// is a finding of its own (the goal is reported "not covered", which is honest).
const TIMEOUT_MS: u32 = 2_000;
/// Probe runs per implementation with an unreachable goal.
const PROBES: i64 = 12;

/// What a case's suite established, when it agrees with its replays.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Agreement {
    pub goals: usize,
    pub covered: usize,
    pub unreachable: usize,
    pub tests: usize,
}

/// Generates the suite of `case` and checks it against its replays; the first
/// disagreement, described, otherwise what the suite established.
pub fn check(case: &Case) -> Result<Agreement, String> {
    let text = prove_tests(case, GoalSelection::Leaves)?;
    let suite: json::Suite = serde_json::from_str(&text).map_err(|error| format!("unreadable suite: {error}"))?;
    let mut db = SourceDb::new();
    let file = db.add("case.bpl", case.source.clone());
    let checked = driver::check_file(&db, file, Default::default());
    let program = checked.hir.ok_or("the program does not check")?;
    let (cfgs, errors) = cfg::lower::lower_all(&program);
    if !errors.is_empty() {
        return Err("the program does not lower".to_string());
    }
    for form in [SuiteForm::Json, SuiteForm::Bpl] {
        let text = match form {
            SuiteForm::Json => text.clone(),
            SuiteForm::Bpl => suite::to_text(&suite, &program, SuiteForm::Bpl),
        };
        let (tests, options) =
            suite::load::load_text(&program, &cfgs, &text).map_err(|error| format!("{form:?} suite: {error}"))?;
        check_tests(&program, &cfgs, &suite, &tests, &options).map_err(|error| format!("{form:?} suite: {error}"))?;
    }
    check_statuses(&suite)?;
    check_probes(&program, &cfgs, &suite)?;
    Ok(agreement(&suite))
}

/// Runs `prove-tests` on the case in a temporary directory, seeding `goals`; the suite's
/// text.
pub(super) fn prove_tests(case: &Case, goals: GoalSelection) -> Result<String, String> {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("case.bpl");
    std::fs::write(&file, &case.source).expect("a writable temporary directory");
    let config = ProveTestsConfig {
        language: Default::default(),
        suite: dir.path().join("case.tests.json"),
        file,
        force: false,
        goals,
        procedures: Vec::new(),
        solver: SolverLimits { timeout_ms: TIMEOUT_MS, time_limit: None },
        inline_depth: case.inline_depth,
        unroll: case.unroll,
        max_unroll: 2 * case.unroll,
        unroll_goals: UnrollGoals::default(),
        minimize: true,
        search: true,
        emit: Emit::Suite(SuiteForm::Json),
        format: SummaryFormat::Json,
        cache_dir: None,
        jobs: 1,
        shard: None,
        lcov: None,
        existing: None,
        check: false,
        require_coverage: false,
        fail_on_findings: false,
        kill_mutants: false,
    };
    let output = quiet_output();
    let (mut out, mut err) = (Vec::new(), NoColor::new(Vec::new()));
    let outcome = driver::run_prove_tests(&config, &output, &mut Streams { out: &mut out, err: &mut err })
        .expect("writing to memory cannot fail");
    // An incomplete run (the solver gave up on some goal) still wrote what it
    // established, which the oracle checks like any other suite.
    if !matches!(outcome, Outcome::Success | Outcome::Incomplete) {
        let stderr = String::from_utf8_lossy(err.get_ref());
        return Err(format!("prove-tests ended {outcome:?}:\n{stderr}"));
    }
    std::fs::read_to_string(&config.suite).map_err(|error| format!("no suite written: {error}"))
}

/// How the in-process runs of the testing oracles report: short, quiet, no colour.
pub(super) fn quiet_output() -> OutputConfig {
    OutputConfig { message_format: MessageFormat::Short, color: false, quiet: true, verbose: false, progress: false }
}

/// Each test replayed alone passes and enters exactly the goals it claims.
fn check_tests(
    program: &hir::Program,
    cfgs: &[Cfg],
    suite: &json::Suite,
    tests: &[LoadedTest],
    options: &json::Options,
) -> Result<(), String> {
    let recorded = suite.procedures.iter().flat_map(|procedure| &procedure.tests);
    for (loaded, recorded) in tests.iter().zip(recorded) {
        let id = loaded.id();
        let run = regress::run(program, cfgs, std::slice::from_ref(loaded), Limits::default(), options);
        let result = &run.results[0];
        if result.verdict != Verdict::Pass {
            return Err(format!("test {id} does not pass: {:?}", result.verdict));
        }
        let (_, goals) = run.goals.iter().find(|(name, _)| *name == result.procedure).expect("the test's procedure");
        let entered: BTreeSet<&str> =
            goals.iter().filter(|goal| goal.covered).map(|goal| goal.goal.id.0.as_str()).collect();
        let claimed: BTreeSet<&str> = recorded.covers.iter().map(String::as_str).collect();
        if id != recorded.id || entered != claimed {
            return Err(format!("test {id} claims to cover {claimed:?}, its replay entered {entered:?}"));
        }
    }
    if tests.len() != suite.procedures.iter().map(|procedure| procedure.tests.len()).sum::<usize>() {
        return Err(format!("{} tests loaded of a suite with more", tests.len()));
    }
    let run = regress::run(program, cfgs, tests, Limits::default(), options);
    for (name, goals) in &run.goals {
        let Some(procedure) = suite.procedures.iter().find(|procedure| procedure.name == *name) else { continue };
        for goal in goals.iter().filter(|goal| goal.covered) {
            let status = procedure.goals.iter().find(|listed| listed.id == goal.goal.id.0).map(|listed| &listed.status);
            if status.is_some_and(|status| status == "unreachable") {
                return Err(format!("goal {} is unreachable, but the suite enters it", goal.goal.id.0));
            }
        }
    }
    Ok(())
}

/// The statuses agree with the tests: a goal is covered exactly when some test of its
/// procedure covers it, and the test named for it does.
fn check_statuses(suite: &json::Suite) -> Result<(), String> {
    for procedure in &suite.procedures {
        for goal in &procedure.goals {
            let covering: Vec<&str> = procedure
                .tests
                .iter()
                .filter(|test| test.covers.contains(&goal.id))
                .map(|test| test.id.as_str())
                .collect();
            let named = goal.test.as_deref();
            let named_covers = named.is_some_and(|named| covering.contains(&named));
            match (goal.status.as_str(), !covering.is_empty()) {
                ("covered", _) if !named_covers => {
                    return Err(format!("goal {} is covered by {named:?}, which does not cover it", goal.id));
                }
                ("covered", _) => {}
                (status, true) => return Err(format!("goal {} is {status}, but a test covers it", goal.id)),
                (_, false) => {}
            }
        }
    }
    Ok(())
}

/// No probe run enters a goal the suite calls unreachable.
fn check_probes(program: &hir::Program, cfgs: &[Cfg], suite: &json::Suite) -> Result<(), String> {
    let machine = Machine::new(program, cfgs, Limits { max_steps: 100_000, ..Limits::default() });
    for (cfg, procedure) in cfgs.iter().filter_map(|cfg| Some((cfg, suite_procedure(suite, &cfg.name)?))) {
        let dead: BTreeSet<&str> =
            procedure.goals.iter().filter(|goal| goal.status == "unreachable").map(|goal| goal.id.as_str()).collect();
        if dead.is_empty() {
            continue;
        }
        let unrolled = unroll_loops(program, cfg, suite.options.unroll);
        let goals = goals_counted(&cfg::cut::cut_loops(program, &unrolled.cfg), suite.options.unroll_goals());
        for probe in 0..PROBES {
            let input = probe_input(program, cfg, probe);
            let replay = machine.run(&input, TraceMode::Complete);
            let passed = replay.passed(&unrolled);
            if let Some(goal) = goals.iter().find(|goal| goal.entered_by(&passed) && dead.contains(goal.id.0.as_str()))
            {
                return Err(format!("goal {} is unreachable, but probe {probe} ({input:?}) enters it", goal.id.0));
            }
        }
    }
    Ok(())
}

fn suite_procedure<'a>(suite: &'a json::Suite, name: &str) -> Option<&'a json::Procedure> {
    suite.procedures.iter().find(|procedure| procedure.name == name)
}

/// Probe `probe`'s entry values: small integers, both Booleans and small maps, varied
/// by position so that different parameters differ; choices are the interpreter's own
/// (`TraceMode::Complete`).
fn probe_input(program: &hir::Program, cfg: &Cfg, probe: i64) -> TestInput {
    let implementation = &program.implementations[cfg.implementation.index()];
    let mut input = TestInput::new(cfg.implementation);
    let mut position = 0;
    let mut next = |ty: &hir::Type| {
        position += 1;
        probe_value(ty, probe * 7 + position)
    };
    input.params = implementation.ins.iter().map(|local| next(&implementation.locals[local.index()].ty)).collect();
    input.globals = program
        .globals
        .iter()
        .enumerate()
        .map(|(index, global)| (hir::GlobalId::from_index(index), next(&global.ty)))
        .collect();
    input
}

fn probe_value(ty: &hir::Type, seed: i64) -> Value {
    let small = |modulus: i64, shift: i64| Value::Int(BigInt::from(seed.rem_euclid(modulus) - shift));
    match ty {
        hir::Type::Int => small(9, 4),
        hir::Type::Bool => Value::Bool(seed % 2 == 1),
        hir::Type::Map(map) if map.domain == [hir::Type::Int] && map.range == hir::Type::Int => {
            Value::Map(MapValue::new(vec![(small(3, 1), small(5, 2))], small(3, 1)))
        }
        _ => interp::default_value(ty),
    }
}

fn agreement(suite: &json::Suite) -> Agreement {
    let goals = suite.procedures.iter().flat_map(|procedure| &procedure.goals);
    let count = |status: &str| goals.clone().filter(|goal| goal.status == status).count();
    Agreement {
        goals: goals.clone().count(),
        covered: count("covered"),
        unreachable: count("unreachable"),
        tests: suite.procedures.iter().map(|procedure| procedure.tests.len()).sum(),
    }
}
