//! Mutation analysis (`seedgen mutate FILE --suite SUITE`, DESIGN.md §4): how many small
//! faults planted in the program the suite notices.
//!
//! Input: the program's AST and checked HIR (no errors), its lowered graphs, and a parsed
//! suite that passes on it. Output: a [`Report`]: per mutant ([`operators`]) its
//! [`Status`], and the step budget its runs had; [`render`] prints it.
//!
//! Each mutant is checked by the same front end as the program (one that does not
//! type-check is skipped, not counted), lowered, loaded with the suite, and every test
//! replayed strictly and judged against its recording exactly as `run-tests` judges it
//! ([`crate::regress::judge`]): outcome, violated clause, return values and final
//! globals. The statuses, in this precedence:
//! - **killed**: some test fails or is invalid on the mutant (the first one in suite
//!   order is named, and the rest are not run);
//! - **timeout**: no test is killed, and some run went over the step budget: the mutant
//!   loops (or recurses) for ever, or is equivalent but slower; left out of the score;
//! - **error**: no test is killed or out of budget, and some test cannot run on the
//!   mutant (its choice trace no longer fits, or the interpreter cannot evaluate what the
//!   mutant computes, e.g. a division by zero), or the suite cannot be loaded for it.
//!   Such a mutant is *not* counted as killed: the score stays a lower bound;
//! - **survived**: every test passes.
//!
//! The score is killed / (mutants − timeouts). The step budget is ten times the steps
//! of the longest run of the suite on the original program (at least 100,000, at most
//! the interpreter's default), so a looping mutant ends quickly and a mutant that only
//! runs a few more iterations does not.

pub mod infection;
pub mod kill;
pub mod operators;
pub mod product;
pub mod rejoin;
pub mod render;

use crate::cfg::{self, Cfg};
use crate::interp::{Limits, Machine, Outcome, TraceMode};
use crate::regress::{self, Verdict};
use crate::sema::{self, hir};
use crate::suite::json;
use crate::suite::load::{load_suite, LoadedTest};
use crate::syntax::ast;
use operators::Mutant;
use rayon::prelude::*;

/// The stack of each worker running mutants: as big as `main` gives the pipeline.
const WORKER_STACK_BYTES: usize = 256 << 20;

/// What happened to one mutant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// `test` fails or is invalid on the mutant; `verdict` says how.
    Killed { test: String, verdict: Verdict },
    /// Every test passes; `tried` says what else was asked (the product program) and
    /// why that decided nothing.
    Survived { tried: String },
    /// Proved equivalent (`proof` says how): no test can kill it. Left out of the score.
    Equivalent { proof: Proof },
    /// `test` went over the step budget or the call depth (`message` says which), and no
    /// test killed the mutant.
    Timeout { test: String, message: String },
    /// A test cannot run on the mutant (`test` is `None` when the suite could not be
    /// loaded for it), and no test killed it or went over the budget.
    Error { test: Option<String>, message: String },
    /// The mutant does not type-check: skipped, counted in no total but its own.
    IllTyped { message: String },
}

/// How a mutant was proved equivalent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The product program of the original and the mutant holds on an exact encoding
    /// ([`product`]).
    Product,
    /// The original, guarded at the mutation by the check that the mutant computes the
    /// same there, verifies ([`infection`]): no run is ever infected.
    NeverInfects,
    /// A relational proof verifies ([`rejoin`]): where the mutant's run leaves the
    /// original's, it comes back to it.
    Rejoins,
}

impl Proof {
    /// How reports say it.
    pub fn message(self) -> &'static str {
        match self {
            Proof::Product => "the product program holds on an exact encoding",
            Proof::NeverInfects => {
                "the original guarded by `the mutation changes nothing` verifies (`seed --mutant ID --guarded`)"
            }
            Proof::Rejoins => {
                "the proof that the mutant's run rejoins the original's verifies (`seed --mutant ID --rejoined`)"
            }
        }
    }
}

impl Status {
    /// The status as reports name it.
    pub fn label(&self) -> &'static str {
        match self {
            Status::Killed { .. } => "killed",
            Status::Survived { .. } => "survived",
            Status::Equivalent { .. } => "equivalent",
            Status::Timeout { .. } => "timeout",
            Status::Error { .. } => "error",
            Status::IllTyped { .. } => "ill-typed",
        }
    }
}

/// One mutant and its status.
#[derive(Clone, Debug)]
pub struct MutantRun {
    /// `<procedure>/m<k>` ([`ids`]).
    pub id: String,
    pub mutant: Mutant,
    pub status: Status,
}

/// The whole analysis.
#[derive(Clone, Debug)]
pub struct Report {
    /// Every mutant, in source order.
    pub mutants: Vec<MutantRun>,
    /// How many tests the suite has.
    pub tests: usize,
    /// The step budget of each run on a mutant.
    pub max_steps: u64,
}

/// The counts of a report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Mutants that type-check: killed + equivalent + survived + timeout + error.
    pub mutants: usize,
    pub killed: usize,
    pub equivalent: usize,
    pub survived: usize,
    pub timeout: usize,
    pub error: usize,
    pub ill_typed: usize,
}

impl Totals {
    /// killed / (mutants − equivalent − timeouts), or `None` when no mutant counts.
    pub fn score(&self) -> Option<f64> {
        let counted = self.mutants - self.equivalent - self.timeout;
        (counted > 0).then(|| self.killed as f64 / counted as f64)
    }
}

impl Report {
    pub fn totals(&self) -> Totals {
        let mut totals = Totals::default();
        for run in &self.mutants {
            match run.status {
                Status::Killed { .. } => totals.killed += 1,
                Status::Survived { .. } => totals.survived += 1,
                Status::Equivalent { .. } => totals.equivalent += 1,
                Status::Timeout { .. } => totals.timeout += 1,
                Status::Error { .. } => totals.error += 1,
                Status::IllTyped { .. } => totals.ill_typed += 1,
            }
        }
        totals.mutants = totals.killed + totals.equivalent + totals.survived + totals.timeout + totals.error;
        totals
    }
}

/// Why the suite cannot measure mutants: a test that does not pass on the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotPassing {
    pub test: String,
    pub verdict: Verdict,
}

/// The step budget of a mutant's runs, from the original program's runs of `tests`
/// (`program`, lowered to `cfgs`); `Err` names a test that does not pass on it.
pub fn budget(program: &hir::Program, cfgs: &[Cfg], tests: &[LoadedTest]) -> Result<u64, NotPassing> {
    let machine = Machine::new(program, cfgs, Limits::default());
    let mut longest = 0;
    for test in tests {
        let (steps, verdict) = match test {
            LoadedTest::Stale { reason, .. } => (0, Verdict::Invalid { message: reason.clone(), span: None }),
            LoadedTest::Ready { input, expect, .. } => {
                let replay = machine.run(input, TraceMode::Strict);
                (replay.steps, regress::judge(program, graph_of(cfgs, input.implementation), &replay, expect))
            }
        };
        if verdict != Verdict::Pass {
            return Err(NotPassing { test: test.id().to_string(), verdict });
        }
        longest = longest.max(steps);
    }
    Ok(longest.saturating_mul(10).clamp(100_000, Limits::default().max_steps))
}

/// Runs `suite` against every mutant of `program` (checked from `ast`, whose text is
/// `source`, with `language`), each run within `max_steps`. Mutants run in parallel;
/// the report keeps source order.
pub fn analyze(
    ast: &ast::Program,
    source: &str,
    language: sema::CheckOptions,
    suite: &json::Suite,
    tests: usize,
    max_steps: u64,
) -> Report {
    let limits = Limits { max_steps, ..Limits::default() };
    // The interpreter recurses through applications of functions with a body, up to
    // `Limits::max_depth` levels, and a mutant may well go that deep (an argument moved
    // out of a recursive function's domain): the workers get the pipeline's big stack.
    let pool = rayon::ThreadPoolBuilder::new()
        .thread_name(|index| format!("mutate-{index}"))
        .stack_size(WORKER_STACK_BYTES)
        .build()
        .expect("the system can start worker threads");
    let all = operators::mutants(ast, source);
    let ids = ids(ast, &all);
    let original = std::sync::OnceLock::new();
    let original_verifies = || {
        *original.get_or_init(|| {
            product::front_end(source).is_ok_and(|(program, cfgs)| {
                infection::verifies(&program, &cfgs, &crate::smt::SessionOptions::default())
            })
        })
    };
    let mutants: Vec<MutantRun> = pool.install(|| {
        ids.into_par_iter()
            .zip(all)
            .map(|(id, mutant)| {
                let mutated = operators::apply(ast, &mutant);
                let status = match run_mutant(&mutated, language, suite, limits) {
                    Status::Survived { .. } => survivor(
                        (ast, source, &original_verifies),
                        (&mutated, &mutant),
                        procedure_of(&id),
                        &suite.options,
                    ),
                    status => status,
                };
                MutantRun { id, mutant, status }
            })
            .collect()
    });
    Report { mutants, tests, max_steps }
}

/// Each mutant's id: `<procedure>/m<k>`, the `k`-th mutant (from 1, in source order) of
/// the declarations of procedure `<procedure>` (its contract and its body), so an edit
/// to one procedure renumbers only its own mutants. A mutant outside every procedure
/// (none of the operators makes one) is `program/m<k>`.
pub fn ids(program: &ast::Program, mutants: &[Mutant]) -> Vec<String> {
    let mut counts: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    mutants
        .iter()
        .map(|mutant| {
            let owner = program.decls.iter().find_map(|decl| match decl {
                ast::Decl::Procedure(procedure) if procedure.span.contains(mutant.span) => Some(&procedure.name.name),
                ast::Decl::Implementation(implementation) if implementation.span.contains(mutant.span) => {
                    Some(&implementation.name.name)
                }
                _ => None,
            });
            let owner = owner.map_or("program", String::as_str);
            let count = counts.entry(owner).or_default();
            *count += 1;
            format!("{owner}/m{count}")
        })
        .collect()
}

/// The mutant `id` of `program` (whose text is `source`); `Err` says there is none.
fn mutant_of(program: &ast::Program, source: &str, id: &str) -> Result<Mutant, String> {
    let all = operators::mutants(program, source);
    let ids = ids(program, &all);
    let at = ids
        .iter()
        .position(|known| known == id)
        .ok_or_else(|| format!("no mutant `{id}` (`seedgen mutate --format json` lists the mutants and their ids)"))?;
    Ok(all.into_iter().nth(at).expect("an id per mutant"))
}

/// The original program guarded at the mutation of mutant `id` ([`infection`]); `Err`
/// says why there is none.
pub fn guarded_of(program: &ast::Program, source: &str, id: &str) -> Result<String, String> {
    let mutant = mutant_of(program, source, id)?;
    infection::guarded_text(program, source, &mutant).ok_or_else(|| infection::NO_GUARD.to_string())
}

/// The program that proves the mutant `id` of `program` (whose text is `source`) rejoins
/// the original ([`rejoin`]): the first candidate that verifies, else the first; `Err`
/// says why there is none.
pub fn rejoined_of(program: &ast::Program, source: &str, id: &str) -> Result<String, String> {
    let mutant = mutant_of(program, source, id)?;
    let mut texts = rejoin::rejoined_texts(program, source, &mutant);
    let session = crate::smt::SessionOptions::default();
    let index = rejoin::rejoins((program, source), &mutant, &session, &|| true).unwrap_or(0);
    if index < texts.len() {
        Ok(texts.swap_remove(index).text)
    } else {
        Err(rejoin::NO_REJOIN.to_string())
    }
}

/// The product program ([`product`]) of the mutant `id` of `program` (whose text is
/// `source`), its calls inlined `inline` levels; `Err` says why there is none.
pub fn product_of(program: &ast::Program, source: &str, id: &str, inline: u32) -> Result<String, String> {
    let mutated = operators::apply(program, &mutant_of(program, source, id)?);
    product::product_text(program, &mutated, procedure_of(id), inline)
        .map(|layout| layout.text)
        .ok_or_else(|| format!("procedure `{}` has type parameters: no product program", procedure_of(id)))
}

/// The procedure a mutant id names.
pub fn procedure_of(id: &str) -> &str {
    id.rsplit_once('/').map_or(id, |(procedure, _)| procedure)
}

/// A survivor of the suite asked once more: equivalent when the original guarded at
/// the mutation verifies ([`infection`]), a proof that its run rejoins the original's
/// verifies ([`rejoin`]), or its product program ([`product`]) holds on an exact
/// encoding; otherwise survived, with what was tried.
fn survivor(
    (ast, source, original_verifies): (&ast::Program, &str, &dyn Fn() -> bool),
    (mutated, mutant): (&ast::Program, &Mutant),
    procedure: &str,
    options: &json::Options,
) -> Status {
    let session = crate::smt::SessionOptions::default();
    let infection = match infection::never_infects((ast, source), (mutant, procedure), &session, original_verifies) {
        Ok(()) => return Status::Equivalent { proof: Proof::NeverInfects },
        Err(reason) => reason,
    };
    let infection = match rejoin::rejoins((ast, source), mutant, &session, original_verifies) {
        Ok(_) => return Status::Equivalent { proof: Proof::Rejoins },
        Err(reason) => format!("{infection}; {reason}"),
    };
    let inline = (options.inline_depth + 1).min(cfg::inline::MAX_DEPTH);
    let Some(layout) = product::product_text(ast, mutated, procedure, inline) else {
        return Status::Survived { tried: "no product program (type parameters)".to_string() };
    };
    let (program, cfgs) = match product::front_end(&layout.text) {
        Ok(front) => front,
        Err(message) => return Status::Survived { tried: format!("the product program does not check: {message}") },
    };
    let check = product::CheckOptions {
        inline,
        unroll: options.unroll.max(product::MIN_UNROLL),
        truncate: true,
        session: crate::smt::SessionOptions::default(),
        divides: product::divides(mutant),
    };
    // The suite is what is measured: the first counterexample only shows the mutant
    // could be killed, and ends the session.
    let tried = match product::check((&program, &cfgs, &layout), procedure, &check, &mut |_, _| true) {
        product::Verdict::Equivalent => return Status::Equivalent { proof: Proof::Product },
        product::Verdict::EquivalentUpTo { bound } => {
            format!("the product program: equivalent up to {bound} iterations of each loop, not beyond")
        }
        product::Verdict::Killed | product::Verdict::Differs { .. } => {
            "the product program: a check fails, so some input tells it apart, but no test of the suite".to_string()
        }
        product::Verdict::Undecided { reason } => format!("the product program: {reason}"),
    };
    Status::Survived { tried: format!("{infection}; {tried}") }
}

fn graph_of(cfgs: &[Cfg], implementation: hir::ImplId) -> &Cfg {
    cfgs.iter().find(|cfg| cfg.implementation == implementation).expect("a loaded test is for a lowered graph")
}

/// Checks, lowers and runs one mutant's program.
fn run_mutant(mutated: &ast::Program, language: sema::CheckOptions, suite: &json::Suite, limits: Limits) -> Status {
    let (program, errors) = sema::check_with(mutated, language);
    let Some(program) = program else {
        let message = errors.first().map(|error| error.to_diagnostic().message).unwrap_or_default();
        return Status::IllTyped { message };
    };
    let program = match crate::mono::monomorphize(program) {
        Ok(program) => program,
        Err(error) => return Status::IllTyped { message: error.to_diagnostic().message },
    };
    let (cfgs, errors) = cfg::lower::lower_all(&program);
    if let Some(error) = errors.first() {
        return Status::IllTyped { message: error.to_diagnostic().message };
    }
    // The spans of a mutant are those of the original text, which is all `locate` is
    // for: a load error is reported by its message alone.
    let tests = match load_suite(&program, &cfgs, suite, &|_| None) {
        Ok(tests) => tests,
        Err(error) => {
            return Status::Error { test: None, message: format!("the suite cannot be loaded for it: {error}") }
        }
    };
    judge_all(&program, &cfgs, &tests, limits)
}

/// Runs `tests` on a mutant until one kills it.
fn judge_all(program: &hir::Program, cfgs: &[Cfg], tests: &[LoadedTest], limits: Limits) -> Status {
    let machine = Machine::new(program, cfgs, limits);
    let mut timeout = None;
    let mut error = None;
    for test in tests {
        let id = test.id().to_string();
        let (input, expect) = match test {
            LoadedTest::Ready { input, expect, .. } => (input, expect),
            LoadedTest::Stale { reason, .. } => {
                return Status::Killed { test: id, verdict: Verdict::Invalid { message: reason.clone(), span: None } }
            }
        };
        let replay = machine.run(input, TraceMode::Strict);
        if let Outcome::BudgetExhausted(stop) = &replay.outcome {
            timeout.get_or_insert((id, stop.message.clone()));
            continue;
        }
        match regress::judge(program, graph_of(cfgs, input.implementation), &replay, expect) {
            Verdict::Pass => {}
            Verdict::Error { message, .. } => {
                error.get_or_insert((id, message));
            }
            verdict @ (Verdict::Fail { .. } | Verdict::Invalid { .. }) => return Status::Killed { test: id, verdict },
        }
    }
    match (timeout, error) {
        (Some((test, message)), _) => Status::Timeout { test, message },
        (None, Some((test, message))) => Status::Error { test: Some(test), message },
        (None, None) => Status::Survived { tried: String::new() },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::TestInput;
    use crate::source::FileId;
    use crate::vc::Value;
    use serde_json::json;

    /// Parses, checks and lowers `source`.
    fn front(source: &str) -> (ast::Program, hir::Program, Vec<Cfg>) {
        let (ast, errors) = crate::syntax::parse(FileId(0), source);
        assert!(errors.is_empty(), "{errors:?}");
        let (program, errors) = sema::check(&ast);
        let program = program.unwrap_or_else(|| panic!("{errors:?}"));
        let (cfgs, errors) = cfg::lower::lower_all(&program);
        assert!(errors.is_empty());
        (ast, program, cfgs)
    }

    /// A test `id` of the first implementation with integer parameters `params`, whose
    /// recording says it passes with the outputs `outputs` (name, JSON value).
    fn test(id: &str, params: &[i64], outputs: &[(&str, serde_json::Value)]) -> LoadedTest {
        let mut input = TestInput::new(hir::ImplId(0));
        input.params = params.iter().map(|&value| Value::Int(value.into())).collect();
        let outputs = outputs.iter().map(|(name, value)| json::Named { name: name.to_string(), value: value.clone() });
        let expect = json::Expect {
            outcome: "pass".to_string(),
            message: None,
            outputs: outputs.collect(),
            globals: Vec::new(),
        };
        LoadedTest::Ready { id: id.to_string(), input, expect }
    }

    /// `operator original → replacement: status` per mutant of `source`, in order, run
    /// against `tests`.
    fn check_statuses(source: &str, tests: &[LoadedTest]) -> Vec<String> {
        let (ast, program, cfgs) = front(source);
        let max_steps = budget(&program, &cfgs, tests).expect("the tests pass on the program");
        let limits = Limits { max_steps, ..Limits::default() };
        operators::mutants(&ast, source)
            .iter()
            .map(|mutant| {
                let mutated = operators::apply(&ast, mutant);
                let status = match sema::check(&mutated).0 {
                    None => "ill-typed",
                    Some(program) => judge_all(&program, &cfg::lower::lower_all(&program).0, tests, limits).label(),
                };
                format!("{} {} → {}: {status}", mutant.operator.key(), mutant.original, mutant.replacement)
            })
            .collect()
    }

    fn has(statuses: &[String], line: &str) -> bool {
        statuses.iter().any(|status| status == line)
    }

    #[test]
    fn a_changed_output_kills_and_an_unobserved_change_survives() {
        let source = "procedure P(a: int) returns (r: int) { if (a > 0) { r := 1; } else { r := 0; } }";
        let statuses =
            check_statuses(source, &[test("t1", &[1], &[("r", json!(1))]), test("t2", &[0], &[("r", json!(0))])]);
        assert!(has(&statuses, "ror a > 0 → a >= 0: killed"), "{statuses:?}");
        // Only a = 0 and a = 1 are tested: `a > 0` and `a != 0` agree on both.
        assert!(has(&statuses, "ror a > 0 → a != 0: survived"), "{statuses:?}");
        assert!(has(&statuses, "delete r := 1; → (deleted): killed"), "{statuses:?}");
    }

    #[test]
    fn a_looping_mutant_times_out() {
        let source = "procedure P(n: int) returns (i: int) requires n >= 0; { i := 0; while (i < n) { i := i + 1; } }";
        let statuses = check_statuses(source, &[test("t1", &[2], &[("i", json!(2))])]);
        assert!(has(&statuses, "aor i + 1 → i * 1: timeout"), "{statuses:?}");
        assert!(has(&statuses, "negate i < n → !(i < n): killed"), "{statuses:?}");
    }

    #[test]
    fn ill_typed_mutants_are_skipped_and_divisions_by_zero_are_errors() {
        let source = "procedure P(a: int) returns (r: bool, q: int) { r := (a == 1) == true; q := a - 1; }";
        let statuses = check_statuses(source, &[test("t1", &[1], &[("r", json!(true)), ("q", json!(0))])]);
        assert!(has(&statuses, "ror (a == 1) == true → (a == 1) < true: ill-typed"), "{statuses:?}");
        assert!(has(&statuses, "aor a - 1 → a mod 1: survived"), "{statuses:?}");
        assert!(has(&statuses, "constant 1 → 0: killed"), "{statuses:?}");
        let source = "procedure P(a: int) returns (q: int) { q := a + 2 - a; }";
        let statuses = check_statuses(source, &[test("t1", &[0], &[("q", json!(2))])]);
        assert!(has(&statuses, "aor a + 2 - a → (a + 2) div a: error"), "{statuses:?}");
    }

    #[test]
    fn a_failing_test_is_not_a_baseline() {
        let (_, program, cfgs) = front("procedure P(a: int) returns (r: int) { r := a; }");
        let not_passing = budget(&program, &cfgs, &[test("t1", &[1], &[("r", json!(2))])]).expect_err("r is 1");
        assert_eq!(not_passing.test, "t1");
        assert!(matches!(not_passing.verdict, Verdict::Fail { .. }), "{not_passing:?}");
    }

    #[test]
    fn the_score_leaves_timeouts_out() {
        let totals = Totals { mutants: 10, killed: 6, equivalent: 0, survived: 2, timeout: 2, error: 0, ill_typed: 3 };
        assert_eq!(totals.score(), Some(0.75));
        let totals = Totals { equivalent: 2, survived: 0, ..totals };
        assert_eq!(totals.score(), Some(1.0));
        assert_eq!(Totals::default().score(), None);
    }
}
