//! Mutation-adequate suites (`prove-tests --kill-mutants`): besides its coverage goals,
//! each implementation gets a goal per mutant of its code (the mutants and ids of
//! `seedgen mutate`), and the suite a test that kills it, unless it is proved equivalent.
//!
//! Input: the program (AST, checked HIR, lowered graphs), one implementation's section
//! of the coverage suite, and [`KillOptions`]. Output: the section with the killing tests
//! added after the coverage tests and every test's `kills` filled in, and a
//! [`MutantDecision`] per mutant.
//!
//! Per mutant, in order, each step only for the mutants the previous ones left alive:
//! 1. the section's tests (and the killers found so far for earlier mutants), replayed
//!    on the mutant and judged as `run-tests` judges them;
//! 2. the neighbours of those tests (one value one step away, `gen::search`): each
//!    recorded on the original, then judged on the mutant, at most
//!    [`KillOptions::neighbours`] replays per mutant;
//! 3. the guard ([`super::infection`]): when the original, guarded at the mutation by
//!    the check that the mutant computes the same there, verifies, the mutant is
//!    equivalent, for runs of any length (asked before the costlier steps below);
//! 4. walks of several steps from the tests, at most [`KillOptions::walks`] replays;
//! 5. the product program ([`super::product`]): every check of the original and the
//!    mutant side by side; each counterexample's inputs recorded on the original and
//!    judged on the mutant. When no check fails on an exact encoding, the mutant is
//!    equivalent (or equivalent up to the unrolling bound).
//!
//! The inputs of steps 2 and 4 are judged [`JUDGED_TOGETHER`] at a time on the worker
//! threads, the first of each batch that kills kept: the same test as one by one.
//!
//! A test is kept only after its replay on the mutant failed as `run-tests` would report
//! it. The budgets: the neighbour and walk replays above, one verification of the
//! guarded implementation, and per mutant one product session with each check under
//! the run's solver limits; whatever is left is **undecided**, with what was tried.
//!
//! Reduction: the coverage tests stay as they are (the coverage suite is unchanged);
//! a killing test is dropped when every mutant it kills is killed by another kept test
//! (those that kill fewest first, then the latest), so every test that is the only
//! killer of some mutant stays. All of it depends only on the implementation and its
//! callees: an edit elsewhere leaves the section alone.

use super::infection;
use super::operators::{self, Mutant};
use super::product::{self, CheckOptions, Verdict};
use crate::cfg::cut::cut_loops;
use crate::cfg::unroll::{unroll_loops, Unrolled};
use crate::cfg::Cfg;
use crate::gen::search::{self, Shape};
use crate::interp::{Limits, Machine, Outcome, Replay, TestInput, TraceMode};
use crate::regress::{self, Verdict as Judged};
use crate::seed::goals::{goals_counted, Goal};
use crate::sema::{self, hir};
use crate::smt::SessionOptions;
use crate::suite::json;
use crate::suite::load::{load_suite, LoadedTest};
use crate::syntax::ast;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// Budgets and the encoding options of the product checks.
#[derive(Clone, Copy, Debug)]
pub struct KillOptions {
    /// The suite's `--inline-depth`: the product inlines one level more.
    pub inline_depth: u32,
    /// `--unroll N`: loops of the product unrolled `N` times, the iterations past `N`
    /// cut off when the product is asked for equivalence.
    pub unroll: u32,
    pub session: SessionOptions,
    /// Neighbour replays per mutant, one step from a test.
    pub neighbours: usize,
    /// Replays per mutant on walks of several steps from a test.
    pub walks: usize,
    /// Steps of each run.
    pub limits: Limits,
}

/// The most steps of one walk ([`Search::walks`]).
const WALK_LENGTH: usize = 12;

/// A small deterministic generator (xorshift64): walks are the same on every run.
struct Xorshift(u64);

impl Xorshift {
    /// A number below `bound` (not 0).
    fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound as u64) as usize
    }
}

impl KillOptions {
    /// Neighbour replays per mutant, one step from a test.
    pub const NEIGHBOURS: usize = 256;
    /// Replays per mutant on walks of several steps.
    pub const WALKS: usize = 1_024;
    /// Steps of each run: a mutant that loops for ever is told apart from one that only
    /// runs longer well within it (`seedgen mutate` gives at least 100,000).
    pub const MAX_STEPS: u64 = 1_000_000;
}

/// What became of one mutant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MutantDecision {
    /// `test` kills it.
    Killed {
        test: String,
    },
    Equivalent,
    /// Equivalent on every run of at most `bound` iterations of each loop.
    EquivalentUpTo {
        bound: u32,
    },
    /// A test runs over its step budget on it (and none kills it).
    Timeout {
        test: String,
    },
    /// Nothing killed it; `tried` says what was tried and why it stopped.
    Undecided {
        tried: String,
    },
    /// It does not type-check: not a mutant of the language.
    IllTyped,
}

/// One mutant of the implementation and its decision.
#[derive(Clone, Debug)]
pub struct MutantResult {
    pub id: String,
    pub mutant: Mutant,
    pub decision: MutantDecision,
}

/// The program the mutants are made of.
pub struct Original<'a> {
    pub ast: &'a ast::Program,
    pub source: &'a str,
    pub program: &'a hir::Program,
    pub cfgs: &'a [Cfg],
    /// Whether every implementation verifies, once asked ([`Original::verifies`]).
    verified: std::sync::OnceLock<bool>,
}

impl<'a> Original<'a> {
    pub fn new(ast: &'a ast::Program, source: &'a str, program: &'a hir::Program, cfgs: &'a [Cfg]) -> Original<'a> {
        Original { ast, source, program, cfgs, verified: std::sync::OnceLock::new() }
    }

    /// Whether every implementation verifies (asked once, by the first section that
    /// needs it: [`infection::never_infects`] rests on it).
    fn verifies(&self, session: &SessionOptions) -> bool {
        *self.verified.get_or_init(|| infection::verifies(self.program, self.cfgs, session))
    }
}

/// A test of the section as the kill loop holds it: its record and its input.
struct Held {
    test: json::Test,
    input: Option<TestInput>,
    /// The limits of its runs on a mutant ([`mutant_limits`]).
    limits: Limits,
    /// Found by this loop (not a coverage test).
    killer: bool,
}

/// The mutants of `section`'s implementation killed, proved equivalent or left
/// undecided (see the module header); `suite` gives the suite's options, with which
/// `section`'s tests are loaded and their goals counted.
pub fn kill_mutants(
    original: &Original,
    suite: &json::Suite,
    section: &json::Procedure,
    options: &KillOptions,
) -> (json::Procedure, Vec<MutantResult>) {
    let Some(cfg) = original.cfgs.iter().find(|cfg| cfg.name == section.name) else {
        return (section.clone(), Vec::new());
    };
    let all = operators::mutants(original.ast, original.source);
    let ids = super::ids(original.ast, &all);
    let mutants: Vec<(String, Mutant)> =
        ids.into_iter().zip(all).filter(|(id, _)| super::procedure_of(id) == section.name).collect();
    let loaded = load_section(original, suite, section);
    let mut held: Vec<Held> = section
        .tests
        .iter()
        .map(|test| {
            let input = loaded.iter().find_map(|loaded| match loaded {
                LoadedTest::Ready { id, input, .. } if *id == test.id => Some(input.clone()),
                _ => None,
            });
            let limits = input.as_ref().map_or(options.limits, |input| {
                let machine = Machine::new(original.program, original.cfgs, options.limits);
                mutant_limits(machine.run(input, TraceMode::Strict).steps, options.limits)
            });
            Held { test: test.clone(), input, limits, killer: false }
        })
        .collect();
    let meter = GoalMeter::new(original.program, cfg, &suite.options);
    let mut next_number = last_number(&section.name, &section.tests);
    let mut results = Vec::new();
    let mut mutant_fronts = Vec::new();
    let walks = std::cell::RefCell::new(None);
    for (id, mutant) in mutants {
        let front = MutantFront::of(original.ast, &mutant);
        let decision = match &front {
            None => MutantDecision::IllTyped,
            Some(front) => {
                let mut search =
                    Search { original, cfg, options, meter: &meter, front, held: &mut held, walks: &walks };
                search.decide(&mutant, &mut next_number)
            }
        };
        results.push(MutantResult { id, mutant, decision });
        mutant_fronts.push(front);
    }
    reduce(&mut held, &mut results, &mutant_fronts, cfg);
    let tests = held.into_iter().map(|held| held.test).collect();
    (json::Procedure { tests, ..section.clone() }, results)
}

/// The limits of a test's runs on mutants, from the steps of its run on the original:
/// ten times as many (at least 10,000), as `seedgen mutate` budgets a suite's runs, so
/// a mutant that loops for ever costs each test little.
fn mutant_limits(steps: u64, limits: Limits) -> Limits {
    Limits { max_steps: steps.saturating_mul(10).clamp(10_000, limits.max_steps), ..limits }
}

/// `section`'s tests loaded for the original program.
fn load_section(original: &Original, suite: &json::Suite, section: &json::Procedure) -> Vec<LoadedTest> {
    let alone = json::Suite { procedures: vec![section.clone()], ..suite.clone() };
    load_suite(original.program, original.cfgs, &alone, &|_| None).unwrap_or_default()
}

/// The number after `<name>/t` of the highest-numbered test.
fn last_number(name: &str, tests: &[json::Test]) -> usize {
    let prefix = format!("{name}/t");
    tests.iter().filter_map(|test| test.id.strip_prefix(&prefix)?.parse().ok()).max().unwrap_or(0)
}

/// A mutant's program, checked and lowered.
pub struct MutantFront {
    pub program: hir::Program,
    pub cfgs: Vec<Cfg>,
    pub mutated: ast::Program,
}

impl MutantFront {
    /// `None` when the mutant does not type-check or lower.
    pub fn of(ast: &ast::Program, mutant: &Mutant) -> Option<MutantFront> {
        let mutated = operators::apply(ast, mutant);
        let program = sema::check(&mutated).0?;
        let (cfgs, errors) = crate::cfg::lower::lower_all(&program);
        errors.is_empty().then_some(MutantFront { program, cfgs, mutated })
    }

    /// What `input`'s run on the mutant says against `expect`, the original's record;
    /// `None` when the run goes over its step budget.
    fn judge(&self, input: &TestInput, expect: &json::Expect, limits: Limits) -> Option<Judged> {
        let machine = Machine::new(&self.program, &self.cfgs, limits);
        let replay = machine.run(input, TraceMode::Strict);
        if let Outcome::BudgetExhausted(_) = &replay.outcome {
            return None;
        }
        let graph = self.cfgs.iter().find(|cfg| cfg.implementation == input.implementation)?;
        Some(regress::judge(&self.program, graph, &replay, expect))
    }

    fn kills(&self, input: &TestInput, expect: &json::Expect, limits: Limits) -> bool {
        matches!(self.judge(input, expect, limits), Some(Judged::Fail { .. } | Judged::Invalid { .. }))
    }
}

/// The goals of an implementation, to record which ones a new test enters.
struct GoalMeter {
    unrolled: Unrolled,
    goals: Vec<Goal>,
}

impl GoalMeter {
    fn new(program: &hir::Program, cfg: &Cfg, options: &json::Options) -> GoalMeter {
        let unrolled = unroll_loops(program, cfg, options.unroll);
        let goals = goals_counted(&cut_loops(program, &unrolled.cfg), options.unroll_goals());
        GoalMeter { unrolled, goals }
    }

    fn covers(&self, replay: &Replay) -> Vec<String> {
        let passed = replay.passed(&self.unrolled);
        self.goals.iter().filter(|goal| goal.entered_by(&passed)).map(|goal| goal.id.0.clone()).collect()
    }
}

/// The search for one mutant's killer.
struct Search<'a, 'b> {
    original: &'a Original<'a>,
    cfg: &'a Cfg,
    options: &'a KillOptions,
    meter: &'a GoalMeter,
    front: &'a MutantFront,
    held: &'b mut Vec<Held>,
    walks: &'a std::cell::RefCell<Option<Walks>>,
}

/// How many inputs are judged on a mutant at a time, in parallel: the first of them
/// that kills is the one kept, as if they were judged one by one.
const JUDGED_TOGETHER: usize = 32;

/// The original and one mutant, to run inputs on: what [`Search`] judges with, shared
/// by the threads that judge a batch of inputs.
struct Judge<'a> {
    program: &'a hir::Program,
    cfgs: &'a [Cfg],
    cfg: &'a Cfg,
    front: &'a MutantFront,
    limits: Limits,
}

impl Judge<'_> {
    /// `input` run on the original, its trace completed: `None` unless the run is an
    /// execution (it passes, fails a check, or an `assume` stops it).
    fn run_original(&self, input: TestInput) -> Option<(TestInput, Replay)> {
        let machine = Machine::new(self.program, self.cfgs, self.limits);
        let replay = machine.run(&input, TraceMode::Complete);
        if !matches!(replay.outcome, Outcome::Passed | Outcome::Failed(_) | Outcome::Infeasible(_)) {
            return None;
        }
        Some((TestInput { trace: replay.trace.clone(), ..input }, replay))
    }

    /// Whether the mutant's run of a recorded input fails as `run-tests` would report it.
    fn kills_with(&self, (input, replay): &(TestInput, Replay)) -> bool {
        let test = crate::suite::replayed_test(self.program, self.cfg, String::new(), (input, replay), Vec::new());
        self.front.kills(input, &test.expect, mutant_limits(replay.steps, self.limits))
    }

    /// `input` recorded on the original and judged on the mutant: the run when the
    /// mutant is killed.
    fn record(&self, input: TestInput) -> Option<(TestInput, Replay)> {
        self.run_original(input).filter(|run| self.kills_with(run))
    }
}

/// What one replay of the walks' budget was on the original.
enum WalkStep {
    /// The input had no step to take: the walk ends, the next starts.
    End,
    /// The step gave no input, or no execution of the original.
    Skipped,
    /// An execution of the original: its input (trace completed) and run.
    Ran(Box<(TestInput, Replay)>),
}

/// The walks from `starts` held tests, step by step as far as some mutant went.
struct Walks {
    starts: usize,
    steps: Vec<WalkStep>,
    random: Xorshift,
    /// How many walks have started.
    walk: usize,
    /// Where the current walk is and how many steps it took, if one is under way.
    at: Option<(TestInput, usize)>,
}

impl Walks {
    fn new(starts: usize) -> Walks {
        Walks { starts, steps: Vec::new(), random: Xorshift(0x9e37_79b9_7f4a_7c15), walk: 0, at: None }
    }

    /// The next step of the walks: a new walk starts from the next held test when the
    /// last ended or took [`WALK_LENGTH`] steps.
    fn next(&mut self, starts: &[&TestInput], step_from: impl Fn((&TestInput, &mut Xorshift)) -> WalkStep) -> WalkStep {
        let (input, taken) = match self.at.take() {
            Some((input, taken)) if taken < WALK_LENGTH => (input, taken),
            _ => {
                self.walk += 1;
                (starts[(self.walk - 1) % starts.len()].clone(), 0)
            }
        };
        let step = step_from((&input, &mut self.random));
        self.at = match &step {
            WalkStep::End => None,
            WalkStep::Skipped => Some((input, taken + 1)),
            WalkStep::Ran(run) => Some((run.0.clone(), taken + 1)),
        };
        step
    }
}

impl Search<'_, '_> {
    fn decide(&mut self, mutant: &Mutant, next_number: &mut usize) -> MutantDecision {
        let mut timeout = None;
        for held in self.held.iter() {
            let Some(input) = &held.input else { continue };
            match self.front.judge(input, &held.test.expect, held.limits) {
                Some(Judged::Fail { .. } | Judged::Invalid { .. }) => {
                    return MutantDecision::Killed { test: held.test.id.clone() };
                }
                None => {
                    timeout.get_or_insert(held.test.id.clone());
                }
                Some(Judged::Pass | Judged::Error { .. }) => {}
            }
        }
        if let Some(test) = timeout {
            return MutantDecision::Timeout { test };
        }
        let tested = self.held.len();
        if let Some(found) = self.neighbours() {
            return self.keep(found, next_number);
        }
        let original = self.original;
        let session = &self.options.session;
        let proof =
            infection::never_infects((original.ast, original.source), (mutant, &self.cfg.name), session, &|| {
                original.verifies(session)
            });
        let proof = proof.or_else(|reason| {
            let rejoin = super::rejoin::rejoins((original.ast, original.source), mutant, session, &|| {
                original.verifies(session)
            });
            rejoin.map(|_| ()).map_err(|rejoin| format!("{reason}; {rejoin}"))
        });
        let infection = match proof {
            Ok(()) => return MutantDecision::Equivalent,
            Err(reason) => reason,
        };
        if let Some(found) = self.walks() {
            return self.keep(found, next_number);
        }
        let (verdict, found) = self.product(mutant);
        if let Some(found) = found {
            return self.keep(found, next_number);
        }
        let neighbours = self.options.neighbours;
        let walks = self.options.walks;
        let tried = format!(
            "{tested} tests of the suite, {neighbours} of their neighbours, the guard ({infection}), \
             {walks} inputs on walks from them, the product"
        );
        match verdict {
            Verdict::Equivalent => MutantDecision::Equivalent,
            Verdict::EquivalentUpTo { bound } => MutantDecision::EquivalentUpTo { bound },
            Verdict::Killed => unreachable!("a product that killed returned its test"),
            Verdict::Differs { failing } => MutantDecision::Undecided {
                tried: format!(
                    "{tried}: {failing} of its checks fail, but no counterexample's run tells the mutant apart"
                ),
            },
            Verdict::Undecided { reason } => MutantDecision::Undecided { tried: format!("{tried}: {reason}") },
        }
    }

    /// The held tests' inputs of this implementation, where neighbours and walks start.
    fn starts(&self) -> Vec<&TestInput> {
        self.held
            .iter()
            .filter_map(|held| held.input.as_ref())
            .filter(|input| input.implementation == self.cfg.implementation)
            .collect()
    }

    /// The first neighbour of a held test that kills the mutant, recorded: every test's
    /// neighbours one step away, in order, judged [`JUDGED_TOGETHER`] at a time.
    fn neighbours(&self) -> Option<(TestInput, Replay)> {
        let branches = BTreeMap::new();
        let starts = self.starts();
        let shape_of = |input: &TestInput| crate::gen::replay::value_types(self.original.program, self.cfg, input);
        let mut neighbours = Vec::new();
        for input in &starts {
            let shape = Shape { types: shape_of(input), branches: &branches };
            let steps = search::steps_from(input, &shape);
            let room = self.options.neighbours - neighbours.len();
            neighbours.extend(steps.iter().take(room).map(|step| search::take(input, step, &shape)));
        }
        let judge = self.judge();
        neighbours
            .chunks(JUDGED_TOGETHER)
            .find_map(|chunk| chunk.par_iter().find_map_first(|neighbour| judge.record(neighbour.clone()?)))
    }

    /// Walks of up to [`WALK_LENGTH`] random steps (a fixed seed: the same suite every
    /// run) from the held tests in turn, each input on the way that is an execution of
    /// the original judged on the mutant, within [`KillOptions::walks`] replays. A walk
    /// reaches what one step does not: longer arrays, a value many steps away (a loop
    /// that must run more often for a changed statement to matter). The walks depend on
    /// the held tests and the original only, so their runs on the original are made
    /// once and shared by the mutants until a test is added ([`Walks`]).
    fn walks(&self) -> Option<(TestInput, Replay)> {
        let starts = self.starts();
        if starts.is_empty() {
            return None;
        }
        let mut walks = self.walks.borrow_mut();
        if walks.as_ref().is_none_or(|walks| walks.starts != starts.len()) {
            *walks = Some(Walks::new(starts.len()));
        }
        let walks = walks.as_mut().expect("set above");
        let judge = self.judge();
        let mut at = 0;
        while at < self.options.walks {
            let end = (at + JUDGED_TOGETHER).min(self.options.walks);
            while walks.steps.len() < end {
                let step = walks.next(&starts, |input| self.step_from(input));
                walks.steps.push(step);
            }
            let killing = walks.steps[at..end].par_iter().find_map_first(|step| match step {
                WalkStep::Ran(run) if judge.kills_with(run) => Some((**run).clone()),
                _ => None,
            });
            if killing.is_some() {
                return killing;
            }
            at = end;
        }
        None
    }

    /// One random step from `input` (see [`Search::walks`]), run on the original;
    /// `random` draws the step.
    fn step_from(&self, (input, random): (&TestInput, &mut Xorshift)) -> WalkStep {
        let branches = &BTreeMap::new();
        let shape = Shape { types: crate::gen::replay::value_types(self.original.program, self.cfg, input), branches };
        let steps = search::steps_from(input, &shape);
        if steps.is_empty() {
            return WalkStep::End;
        }
        let step = &steps[random.below(steps.len())];
        let Some(next) = search::take(input, step, &shape) else { return WalkStep::Skipped };
        match self.run_original(next) {
            Some(run) => WalkStep::Ran(Box::new(run)),
            None => WalkStep::Skipped,
        }
    }

    /// What judges inputs against this mutant, shareable between threads.
    fn judge(&self) -> Judge<'_> {
        Judge {
            program: self.original.program,
            cfgs: self.original.cfgs,
            cfg: self.cfg,
            front: self.front,
            limits: self.options.limits,
        }
    }

    fn run_original(&self, input: TestInput) -> Option<(TestInput, Replay)> {
        self.judge().run_original(input)
    }

    fn record(&self, input: TestInput) -> Option<(TestInput, Replay)> {
        self.judge().record(input)
    }

    /// Adds a killing test to the section.
    fn keep(&mut self, (input, replay): (TestInput, Replay), next_number: &mut usize) -> MutantDecision {
        *next_number += 1;
        let id = format!("{}/t{}", self.cfg.name, next_number);
        let covers = self.meter.covers(&replay);
        let test = crate::suite::replayed_test(self.original.program, self.cfg, id.clone(), (&input, &replay), covers);
        let limits = mutant_limits(replay.steps, self.options.limits);
        self.held.push(Held { test, input: Some(input), limits, killer: true });
        MutantDecision::Killed { test: id }
    }

    /// The product's verdict, and the run of the counterexample that kills the mutant.
    fn product(&self, mutant: &Mutant) -> (Verdict, Option<(TestInput, Replay)>) {
        let inline = (self.options.inline_depth + 1).min(crate::cfg::inline::MAX_DEPTH);
        let Some(layout) = product::product_text(self.original.ast, &self.front.mutated, &self.cfg.name, inline) else {
            let reason = "the implementation has type parameters: no product program".to_string();
            return (Verdict::Undecided { reason }, None);
        };
        let (program, cfgs) = match product::front_end(&layout.text) {
            Ok(front) => front,
            Err(message) => {
                return (Verdict::Undecided { reason: format!("the product program does not check: {message}") }, None)
            }
        };
        let options = CheckOptions {
            inline,
            unroll: self.options.unroll.max(product::MIN_UNROLL),
            truncate: true,
            session: self.options.session,
            divides: product::divides(mutant),
        };
        let mut found = None;
        let mut kills = |model: &crate::vc::Model, product_cfg: &Cfg| {
            let input =
                product::test_input(&program, product_cfg, self.original.program, self.cfg.implementation, model);
            found = self.record(input);
            found.is_some()
        };
        let verdict = product::check((&program, &cfgs, &layout), &self.cfg.name, &options, &mut kills);
        (verdict, found)
    }
}

/// Drops the killing tests whose mutants other kept tests kill too (those that kill
/// fewest first, then the latest), then
/// fills in every test's `kills` and each killed mutant's deciding test (the first kept
/// test, in suite order, that kills it).
fn reduce(held: &mut Vec<Held>, results: &mut [MutantResult], fronts: &[Option<MutantFront>], cfg: &Cfg) {
    let killed: Vec<BTreeSet<usize>> = held
        .iter()
        .map(|held| {
            let Some(input) = &held.input else { return BTreeSet::new() };
            let kills = |(index, front): (usize, &Option<MutantFront>)| {
                let front = front.as_ref()?;
                (input.implementation == cfg.implementation && front.kills(input, &held.test.expect, held.limits))
                    .then_some(index)
            };
            fronts.iter().enumerate().filter_map(kills).collect()
        })
        .collect();
    let mut keep: Vec<bool> = vec![true; held.len()];
    // The killers that kill fewest first (the latest first among equals): a test that
    // kills many is kept, the few it covers dropped, rather than the other way round.
    let mut killers: Vec<usize> = (0..held.len()).filter(|&at| held[at].killer).collect();
    killers.sort_by_key(|&at| (killed[at].len(), std::cmp::Reverse(at)));
    for at in killers {
        let others: BTreeSet<usize> = (0..held.len())
            .filter(|&other| other != at && keep[other])
            .flat_map(|other| killed[other].clone())
            .collect();
        if killed[at].is_subset(&others) {
            keep[at] = false;
        }
    }
    let mut kept = Vec::new();
    let mut kept_kills = Vec::new();
    for ((held, keep), kills) in std::mem::take(held).into_iter().zip(keep).zip(killed) {
        if keep {
            kept.push(held);
            kept_kills.push(kills);
        }
    }
    for (held, kills) in kept.iter_mut().zip(&kept_kills) {
        held.test.kills = kills.iter().map(|&index| results[index].id.clone()).collect();
    }
    for (index, result) in results.iter_mut().enumerate() {
        if let MutantDecision::Killed { test } = &mut result.decision {
            if let Some(first) = kept.iter().zip(&kept_kills).find(|(_, kills)| kills.contains(&index)) {
                *test = first.0.test.id.clone();
            }
        }
    }
    *held = kept;
}
