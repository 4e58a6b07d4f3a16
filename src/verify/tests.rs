//! `verify` on tiny programs: each kind of failure once, with its failing test checked
//! by hand; the corpus verifies; counting follows Boogie's.

use super::*;
use crate::cfg::lower::lower_all;
use crate::interp::{self, TraceMode};
use crate::vc::{InputKind, Value};
use num_bigint::BigInt;

/// The verdicts on every implementation of `source`, which must check and lower.
fn verdicts(source: &str) -> (Vec<Cfg>, Vec<ImplementationVerdict>) {
    verdicts_with(source, &SessionOptions::default())
}

fn verdicts_with(source: &str, options: &SessionOptions) -> (Vec<Cfg>, Vec<ImplementationVerdict>) {
    let program = crate::sema::tests::expect_accepted(source);
    let (cfgs, errors) = lower_all(&program);
    assert!(errors.is_empty(), "{errors:?}");
    let verdicts = verify(&program, &cfgs, options, Confirmation::Search);
    (cfgs, verdicts)
}

fn verdict<'v>(verdicts: &'v [ImplementationVerdict], name: &str) -> &'v ImplementationVerdict {
    verdicts.iter().find(|verdict| verdict.name == name).unwrap_or_else(|| panic!("no implementation `{name}`"))
}

/// The failures of implementation `name`, which must fail.
fn failures<'v>(verdicts: &'v [ImplementationVerdict], name: &str) -> &'v [VerificationFailure] {
    match &verdict(verdicts, name).outcome {
        Outcome::Failed { failures, undecided } if undecided.is_empty() => failures,
        other => panic!("expected `{name}` to fail, got {other:?}"),
    }
}

/// The one failure of implementation `name`.
fn only_failure<'v>(verdicts: &'v [ImplementationVerdict], name: &str) -> &'v VerificationFailure {
    match failures(verdicts, name) {
        [failure] => failure,
        several => panic!("expected one failure of `{name}`, got {several:#?}"),
    }
}

/// Asserts that every implementation of `source` verifies.
macro_rules! verifies {
    ($source:expr) => {{
        let (_, verdicts) = verdicts($source);
        for verdict in &verdicts {
            assert!(matches!(verdict.outcome, Outcome::Verified), "{}: {:#?}", verdict.name, verdict.outcome);
        }
    }};
}

/// The integer entry value of the local (in-parameter) called `name`.
fn entry_int(cfg: &Cfg, model: &Model, name: &str) -> BigInt {
    let index = cfg.locals.iter().position(|local| local.name == name).expect("a local of that name");
    match model.entry_value(&InputKind::Param(hir::LocalId::from_index(index))) {
        Some(Value::Int(value)) => value.clone(),
        other => panic!("`{name}` has no integer entry value: {other:?}"),
    }
}

/// The solver's counterexample of a failure it found.
fn solver_model(failure: &VerificationFailure) -> &Model {
    failure.counterexample.as_ref().expect("the solver found this failure")
}

fn cfg<'c>(cfgs: &'c [Cfg], name: &str) -> &'c Cfg {
    cfgs.iter().find(|cfg| cfg.name == name).expect("a graph of that name")
}

#[test]
fn every_corpus_program_verifies() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("the corpus directory is readable")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "bpl"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 10, "the corpus is there");
    for path in paths {
        let source = std::fs::read_to_string(&path).expect("corpus files are UTF-8");
        let (_, verdicts) = verdicts(&source);
        for verdict in &verdicts {
            assert!(
                matches!(verdict.outcome, Outcome::Verified),
                "{}: {}: {:#?}",
                path.display(),
                verdict.name,
                diagnostics(std::slice::from_ref(verdict))
            );
        }
    }
}

#[test]
fn a_wrong_postcondition_of_max_fails_on_inputs_that_violate_it() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/max.bpl");
    let source = std::fs::read_to_string(path).expect("corpus/max.bpl is readable");
    let broken = source.replacen("ensures m >= a && m >= b;", "ensures m > a && m >= b;", 1);
    assert_ne!(broken, source, "the clause to break is in corpus/max.bpl");
    let (cfgs, verdicts) = verdicts(&broken);
    let failure = only_failure(&verdicts, "Max");
    assert!(matches!(failure.site, CheckSite::Postcondition { .. }));
    let graph = cfg(&cfgs, "Max");
    let (a, b) = (entry_int(graph, solver_model(failure), "a"), entry_int(graph, solver_model(failure), "b"));
    // Max by hand, then its broken postcondition.
    let m = if a >= b { a.clone() } else { b.clone() };
    assert!(!(m > a && m >= b), "a = {a}, b = {b} satisfy the broken postcondition");
    assert_eq!(failure.test.inputs, [("a".to_string(), a.to_string()), ("b".to_string(), b.to_string())]);
    // Max3 uses Max's (broken, stronger) contract and still verifies.
    assert!(matches!(verdict(&verdicts, "Max3").outcome, Outcome::Verified));
}

#[test]
fn a_false_assertion_fails() {
    let (cfgs, verdicts) = verdicts("procedure P(x: int) { assert x > 0; }");
    let failure = only_failure(&verdicts, "P");
    assert!(matches!(failure.site, CheckSite::Assertion { .. }));
    assert!(entry_int(cfg(&cfgs, "P"), solver_model(failure), "x") <= BigInt::from(0));
}

#[test]
fn an_assertion_after_a_failing_one_is_checked_assuming_it() {
    // As in Boogie: `x < 0` fails (for x > 0); `x == 7` cannot fail once both hold.
    let (_, verdicts) = verdicts("procedure P(x: int) { assert x > 0; assert x < 0; assert x == 7; }");
    assert_eq!(failures(&verdicts, "P").len(), 2);
}

#[test]
fn an_invariant_false_on_entry_fails_at_the_invariant() {
    let (_, verdicts) =
        verdicts("procedure P(n: int) returns (i: int) { i := 1; while (i < n) invariant i == 0; { i := i + 1; } }");
    let failure = only_failure(&verdicts, "P");
    let CheckSite::InvariantOnEntry { loop_span, .. } = failure.site else { panic!("{:?}", failure.site) };
    assert!(loop_span.is_some(), "the diagnostic points at the loop too");
}

#[test]
fn an_invariant_not_maintained_fails_from_the_loop_head_state() {
    let (cfgs, verdicts) =
        verdicts("procedure P(n: int) returns (i: int) { i := 0; while (i < n) invariant i <= 5; { i := i + 1; } }");
    let failure = only_failure(&verdicts, "P");
    assert!(matches!(failure.site, CheckSite::InvariantMaintained { loop_span: Some(_), .. }));
    // Only i = 5 at the head, with n > 5, breaks `i <= 5` after `i := i + 1`.
    assert_eq!(failure.test.choices, ["loop head: i = 5"]);
    assert!(entry_int(cfg(&cfgs, "P"), solver_model(failure), "n") > BigInt::from(5));
}

#[test]
fn a_violated_callee_precondition_fails_at_the_call() {
    let source = "procedure Q(x: int); requires x > 0; procedure P(y: int) { call Q(y - 1); }";
    let (cfgs, verdicts) = verdicts(source);
    let failure = only_failure(&verdicts, "P");
    let CheckSite::Precondition { callee, call, clause } = &failure.site else { panic!("{:?}", failure.site) };
    assert_eq!(callee, "Q");
    assert!(clause.start < call.start, "the clause is Q's, the call P's");
    assert!(entry_int(cfg(&cfgs, "P"), solver_model(failure), "y") <= BigInt::from(1));
}

#[test]
fn a_postcondition_violated_at_two_returns_is_one_failure() {
    let source = "procedure R(x: int) returns (y: int) ensures y > 0; {
                    if (x > 0) { y := 0; return; }
                    y := -1;
                  }";
    let (_, verdicts) = verdicts(source);
    let failure = only_failure(&verdicts, "R");
    assert!(matches!(failure.site, CheckSite::Postcondition { .. }));
}

#[test]
fn free_clauses_are_assumed_not_checked() {
    verifies!(
        "procedure P(n: int) returns (i: int) ensures i >= 0; {
           i := 0; while (i < n) free invariant i >= 0; { i := i - 1; }
         }
         procedure Q(x: int) returns (y: int); free requires x > 0; free ensures y < 0;
         procedure C() returns (z: int) ensures z < 0; { call z := Q(-5); }"
    );
}

#[test]
fn each_back_edge_checks_the_invariants() {
    let source = "procedure L(n: int) returns (i: int) {
                    i := 0;
                    H: assert i < 3; goto A, B, D;
                    A: i := i + 1; goto H;
                    B: i := i + 2; goto H;
                    D: return;
                  }";
    let (_, verdicts) = verdicts(source);
    let failures = failures(&verdicts, "L");
    assert_eq!(failures.len(), 2, "{failures:#?}");
    assert!(failures.iter().all(|failure| matches!(failure.site, CheckSite::InvariantMaintained { .. })));
}

#[test]
fn choices_are_part_of_the_failing_test() {
    let source = "procedure Read() returns (v: int);
                  procedure P() { var x, v: int; havoc x; assert x != 3; call v := Read(); assert v != 7; }";
    let (_, verdicts) = verdicts(source);
    let failures = failures(&verdicts, "P");
    assert_eq!(failures[0].test.choices, ["havoc x = 3"]);
    assert!(failures[0].test.inputs.is_empty(), "{:?}", failures[0].test.inputs);
    assert_eq!(failures[1].test.choices.last().map(String::as_str), Some("call Read: v = 7"));
}

#[test]
fn a_star_branch_is_a_choice_and_a_guarded_one_is_not() {
    let source = "procedure P(a: int) returns (r: int) {
                    if (*) { r := 1; } else { r := 2; }
                    if (a > 0) { assert r == 2; }
                  }";
    let (_, verdicts) = verdicts(source);
    let failure = only_failure(&verdicts, "P");
    assert_eq!(failure.test.choices, ["branch if#1/then"]);
}

#[test]
fn maps_and_elements_read_as_tables_and_names() {
    let source = "type T; procedure P(m: [int]int, x: T, y: T) { assert m[1] == m[2] || x == y; }";
    let (_, verdicts) = verdicts(source);
    let test = &only_failure(&verdicts, "P").test;
    let value = |name: &str| test.inputs.iter().find(|(input, _)| input == name).map(|(_, value)| value.as_str());
    let map = value("m").expect("m is an input");
    assert!(map.starts_with("[") && map.contains(" := ") && map.contains(", default "), "{map}");
    assert_eq!((value("x"), value("y")), (Some("T#0"), Some("T#1")));
}

#[test]
fn only_the_globals_and_constants_read_are_inputs() {
    let source = "var g: int; var unused: int; const K: int; const L: int;
                  procedure P() { assert g != K; }";
    let (_, verdicts) = verdicts(source);
    let names: Vec<&str> = only_failure(&verdicts, "P").test.inputs.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["g", "K"]);
}

#[test]
fn a_check_the_solver_gives_up_on_is_a_warning() {
    let options = SessionOptions { rlimit: Some(1), ..SessionOptions::default() };
    // It holds, so no run fails it either.
    let (_, verdicts) = verdicts_with("procedure P(x: int, y: int) { assert x * x + y * y != -1; }", &options);
    let Outcome::Inconclusive(undecided) = &verdict(&verdicts, "P").outcome else {
        panic!("{:?}", verdict(&verdicts, "P").outcome)
    };
    assert_eq!(undecided.len(), 1);
    let diagnostics = diagnostics(&verdicts);
    assert_eq!(diagnostics[0].severity, crate::diag::Severity::Warning);
    assert!(diagnostics[0].message.starts_with("could not decide whether this assertion holds: "));
}

/// z3 gives up (a resource limit), its candidate's test passes, and a search around it
/// finds `x = 1, y = 10` (or another root of `x * (y - 7) == 3`): a failure, with the
/// run that confirms it, which replays strictly to the assertion.
/// `x * y != 7 * x + 3`, which z3 gives up on within a resource limit of 1, verified
/// with `confirmation`.
fn nonlinear_given_up(confirmation: Confirmation) -> (hir::Program, Vec<Cfg>, Vec<ImplementationVerdict>) {
    let options = SessionOptions { rlimit: Some(1), ..SessionOptions::default() };
    let source = "procedure P(x: int, y: int) { assert x * y != 7 * x + 3; }";
    let program = crate::sema::tests::expect_accepted(source);
    let (cfgs, _) = lower_all(&program);
    let verdicts = verify(&program, &cfgs, &options, confirmation);
    (program, cfgs, verdicts)
}

#[test]
fn a_check_the_solver_gives_up_on_fails_when_a_run_near_its_candidate_fails() {
    let (program, cfgs, verdicts) = nonlinear_given_up(Confirmation::Search);
    let failure = only_failure(&verdicts, "P");
    assert!(failure.counterexample.is_none(), "z3 gave up: the search found the run");
    let run = failure.run.as_ref().expect("a run confirms the failure");
    let [Value::Int(x), Value::Int(y)] = run.params.as_slice() else { panic!("{run:?}") };
    assert_eq!(x * y, BigInt::from(7) * x + 3);
    let machine = Machine::new(&program, &cfgs, Limits::default());
    let replay = machine.run(run, TraceMode::Strict);
    assert!(matches!(replay.outcome, interp::Outcome::Failed(_)), "{:?}", replay.outcome);
    assert!(failure.test.caveats[0].starts_with("the solver gave up (resource limit)"), "{:?}", failure.test);
}

/// A caller that asks only whether an implementation verifies skips the confirmation:
/// the same check z3 gives up on stays undecided, without a candidate's test, and the
/// implementation is not verified either way.
#[test]
fn a_check_the_solver_gives_up_on_stays_undecided_when_confirmation_is_skipped() {
    let (_, _, verdicts) = nonlinear_given_up(Confirmation::Skip);
    let Outcome::Inconclusive(undecided) = &verdict(&verdicts, "P").outcome else {
        panic!("{:?}", verdict(&verdicts, "P").outcome)
    };
    assert!(matches!(undecided.as_slice(), [check] if check.candidate.is_none()), "{undecided:?}");
    assert!(!verdicts[0].is_verified());
}

#[test]
fn verdicts_are_deterministic() {
    let source = "var g: int;
                  procedure P(a: int, b: [int]bool) modifies g; { havoc g; assert b[a] ==> g > a; }
                  procedure Q(n: int) returns (i: int) { while (i < n) invariant i < 10; { i := i + 1; } }";
    let render = || {
        let (_, verdicts) = verdicts(source);
        format!("{:?}", diagnostics(&verdicts))
    };
    assert_eq!(render(), render());
}

#[test]
fn an_implementation_not_started_before_the_deadline_is_said_never_verified() {
    let source = "procedure P(x: int) { assert x == x; }\nprocedure Q() { assert false; }";
    let options = SessionOptions { deadline: Some(Instant::now()), ..SessionOptions::default() };
    let (_, verdicts) = verdicts_with(source, &options);
    for verdict in &verdicts {
        assert!(verdict.not_started() && !verdict.is_verified(), "{}: {:?}", verdict.name, verdict.outcome);
        assert_eq!((verdict.failures(), verdict.undecided()), (0, 0));
    }
    let messages: Vec<String> = diagnostics(&verdicts).iter().map(|diagnostic| diagnostic.message.clone()).collect();
    assert_eq!(messages.len(), 2);
    assert!(messages.iter().all(|message| message.contains("time limit was reached before this implementation")));
}
