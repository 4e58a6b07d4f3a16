//! End-to-end tests: Boogie snippet → hand-built acyclic `Cfg` → encoding → z3 → decoded
//! model. Solver answers are checked through decoded values and paths, never raw model
//! text; z3's seed is fixed by the session.

use super::{Reach, Session, SessionOptions};
use crate::cfg::{BlockId, Cfg};
use crate::sema::hir;
use crate::vc::testing::{block, goal_encoding};
use crate::vc::{Choice, InputKind, MapValue, Model, ObligationKind, Value};
use num_bigint::BigInt;
use std::sync::Arc;

fn session(source: &str, name: &str) -> (Cfg, Session) {
    let (cfg, encoding) = goal_encoding(source, name);
    (cfg, Session::new(Arc::new(encoding), SessionOptions::default()))
}

/// A model reaching the block labelled `label`; panics if there is none.
fn reaches(session: &mut Session, cfg: &Cfg, label: &str) -> Model {
    let goal = block(cfg, label);
    match session.check_reach(&[goal]) {
        Reach::Sat(model) => {
            assert!(model.reaches(goal), "the model's path {:?} misses {label}", model.path);
            model
        }
        other => panic!("expected `{label}` to be reachable, got {other:?}"),
    }
}

fn dead(session: &mut Session, cfg: &Cfg, label: &str) {
    assert_eq!(session.check_reach(&[block(cfg, label)]), Reach::Unsat, "`{label}` should be unreachable");
}

fn int(value: i64) -> Value {
    Value::Int(BigInt::from(value))
}

fn local(cfg: &Cfg, name: &str) -> hir::LocalId {
    let index = cfg.locals.iter().position(|local| local.name == name).expect("a local of that name");
    hir::LocalId::from_index(index)
}

/// The entry value of in-parameter `name`.
fn param(model: &Model, cfg: &Cfg, name: &str) -> Value {
    model.entry_value(&InputKind::Param(local(cfg, name))).expect("in-parameters are entry inputs").clone()
}

fn param_int(model: &Model, cfg: &Cfg, name: &str) -> BigInt {
    match param(model, cfg, name) {
        Value::Int(value) => value,
        other => panic!("`{name}` is not an integer: {other:?}"),
    }
}

/// The labels of the labelled blocks on the model's path.
fn labels(cfg: &Cfg, model: &Model) -> Vec<String> {
    let label = |id: &BlockId| cfg.block(*id).origin.path.to_string().replace("goto:", "");
    model.path.iter().map(label).filter(|label| !label.is_empty()).collect()
}

const SIMPLE: &str = r"
    var x: int;
    procedure simple(a: int) modifies x; {
      start: goto Then1, Else1;
      Then1: assume a > 0; x := 1; goto Join1;
      Else1: assume !(a > 0); x := 2; goto Join1;
      Join1: goto Then2, Else2;
      Then2: assume a * a > a; x := 3; goto End;
      Else2: assume !(a * a > a); x := 4; goto End;
      End: return;
    }";

#[test]
fn simple_reaches_each_of_its_four_goals() {
    let (cfg, mut session) = session(SIMPLE, "simple");
    let one = BigInt::from(1);
    let a = param_int(&reaches(&mut session, &cfg, "Then1"), &cfg, "a");
    assert!(a > BigInt::from(0));
    let a = param_int(&reaches(&mut session, &cfg, "Else1"), &cfg, "a");
    assert!(a <= BigInt::from(0));
    let a = param_int(&reaches(&mut session, &cfg, "Then2"), &cfg, "a");
    assert!(&a * &a > a);
    let a = param_int(&reaches(&mut session, &cfg, "Else2"), &cfg, "a");
    assert!(a == BigInt::from(0) || a == one);
}

#[test]
fn a_branch_excluded_by_earlier_assumptions_is_dead() {
    let source = r"
        procedure P(a: int) {
          start: assume a > 5; goto T, E;
          T: assume a < 3; return;
          E: assume a >= 3; return;
        }";
    let (cfg, mut session) = session(source, "P");
    dead(&mut session, &cfg, "T");
    reaches(&mut session, &cfg, "E");
    assert_eq!(session.check_reach(&[]), Reach::Unsat);
}

#[test]
fn one_model_covers_every_goal_on_its_path() {
    let (cfg, mut session) = session(SIMPLE, "simple");
    let model = reaches(&mut session, &cfg, "Then2");
    let path = labels(&cfg, &model);
    let first = if path.contains(&"Then1".to_string()) { "Then1" } else { "Else1" };
    assert_eq!(path, vec!["start", first, "Join1", "Then2"]);
    // CBMC-style enumeration: ask for any uncovered goal, drop every goal the path covers.
    let mut open: Vec<BlockId> = ["Then1", "Else1", "Then2", "Else2"].iter().map(|label| block(&cfg, label)).collect();
    let mut checks = 0;
    while let Reach::Sat(model) = session.check_reach(&open) {
        checks += 1;
        open.retain(|&goal| !model.reaches(goal));
    }
    assert!(open.is_empty() && checks <= 4, "{checks} checks left {open:?} uncovered");
}

#[test]
fn models_are_paths_with_every_assumption_holding() {
    let source = r"
        procedure P(a: int) returns (r: int) {
          start: r := 0; goto L, R;
          L: assume a < 10; r := r + 1; goto J;
          R: assume a >= 10; r := r + 2; goto J;
          J: assume r == 2; goto Goal;
          Goal: return;
        }";
    let (cfg, mut session) = session(source, "P");
    let model = reaches(&mut session, &cfg, "Goal");
    assert_eq!(labels(&cfg, &model), vec!["start", "R", "J", "Goal"]);
    assert!(param_int(&model, &cfg, "a") >= BigInt::from(10));
    let right = cfg.successors(BlockId(0))[1];
    assert_eq!(model.choices, vec![Choice::Goto { from: BlockId(0), to: right }]);
}

#[test]
fn the_choice_trace_lists_havocs_gotos_and_bodiless_calls_in_path_order() {
    let source = r"
        procedure Oracle() returns (v: int); ensures v > 100;
        procedure P() {
          var x: int; var y: int;
          start: havoc x; goto A, B;
          A: assume x == 7; call y := Oracle(); goto C;
          B: assume x != 7; return;
          C: assume y < 103; havoc x; assume x == y; goto D;
          D: return;
        }";
    let (cfg, mut session) = session(source, "P");
    let model = reaches(&mut session, &cfg, "D");
    let values: Vec<(InputKind, Value)> = model
        .choices
        .iter()
        .filter_map(|choice| match choice {
            Choice::Value(assignment) => Some((assignment.kind.clone(), assignment.value.clone())),
            Choice::Goto { .. } => None,
        })
        .collect();
    let x = hir::Var::Local(local(&cfg, "x"));
    let y = hir::Var::Local(local(&cfg, "y"));
    assert_eq!(values[0], (InputKind::Havoc(x), int(7)));
    assert!(matches!(values[1], (InputKind::CallOut { var, .. }, _) if var == y));
    assert_eq!(values[2].0, InputKind::Havoc(x));
    assert_eq!(values[1].1, values[2].1);
    assert!(values[1].1 == int(101) || values[1].1 == int(102));
    assert!(matches!(model.choices[1], Choice::Goto { from: BlockId(0), .. }));
    assert_eq!(model.choices.len(), 4);
}

#[test]
fn maps_decode_as_tables_with_defaults() {
    let source = r"
        procedure P(m: [int]int, n: [int, int]bool) {
          var k: [int]int;
          start: assume m[3] == 9 && m[4] == -2 && m[5] == m[6];
                 assume n[1, 2] && !n[1, 3];
                 k := m; k[3] := 10; assert k[3] == 10 && k[4] == -2;
                 goto Goal;
          Goal: return;
        }";
    let (cfg, mut session) = session(source, "P");
    let model = reaches(&mut session, &cfg, "Goal");
    let Value::Map(m) = param(&model, &cfg, "m") else { panic!("`m` is a map") };
    assert_eq!((m.get(&int(3)), m.get(&int(4))), (&int(9), &int(-2)));
    assert_eq!(m.get(&int(5)), m.get(&int(6)));
    let Value::Map(n) = param(&model, &cfg, "n") else { panic!("`n` is a map: {:?}", param(&model, &cfg, "n")) };
    let Value::Map(row) = n.get(&int(1)) else { panic!("a two-index map is curried") };
    assert_eq!((row.get(&int(2)), row.get(&int(3))), (&Value::Bool(true), &Value::Bool(false)));
    assert!(session.check_failure(crate::vc::FailureId(0)) == Reach::Unsat);
}

#[test]
fn multi_index_updates_keep_the_other_cells() {
    let source = r"
        procedure P(i: int, j: int) {
          var g: [int, int]int;
          start: g[i, j] := 5; g[i, j + 1] := 6; assume g[i, j] != 5 || g[i + 1, j] != g[i + 1, j]; goto Bad;
          Bad: return;
        }";
    let (cfg, mut session) = session(source, "P");
    dead(&mut session, &cfg, "Bad");
}

#[test]
fn uninterpreted_types_and_unique_constants_decode_as_elements() {
    let source = r"
        type Color;
        const unique red: Color; const unique green: Color;
        procedure P(c: Color) {
          start: goto IsRed, Other;
          IsRed: assume c == red; return;
          Other: assume c != red && c != green; return;
        }";
    let (cfg, mut session) = session(source, "P");
    let model = reaches(&mut session, &cfg, "Other");
    let Value::Elem { index: c, .. } = param(&model, &cfg, "c") else { panic!("`c` is an element") };
    let elements: Vec<u32> = model
        .entry
        .iter()
        .filter_map(|assignment| match (&assignment.kind, &assignment.value) {
            (InputKind::Const(_), Value::Elem { index, .. }) => Some(*index),
            _ => None,
        })
        .collect();
    assert_eq!(elements.len(), 2);
    assert!(elements[0] != elements[1] && !elements.contains(&c));
    let model = reaches(&mut session, &cfg, "IsRed");
    assert_eq!(model.entry_value(&InputKind::Const(hir::ConstId(0))), Some(&param(&model, &cfg, "c")));
}

#[test]
fn functions_with_bodies_are_defined_and_others_decode_as_tables() {
    let source = r"
        function inc(x: int): int { x + 1 }
        function h(int): int;
        function pick(): bool;
        procedure P(a: int) {
          start: assume inc(a) == 10 && h(3) == 7 && h(a) == 0 && pick(); goto Goal;
          Goal: return;
        }";
    let (cfg, mut session) = session(source, "P");
    let model = reaches(&mut session, &cfg, "Goal");
    assert_eq!(param(&model, &cfg, "a"), int(9));
    let h = model.functions.iter().find(|table| table.function == hir::FunctionId(1)).expect("h is interpreted");
    let lookup = |arg: Value| {
        h.entries.iter().find(|(args, _)| args == &vec![arg.clone()]).map_or(&h.default, |(_, value)| value)
    };
    assert_eq!((lookup(int(3)), lookup(int(9))), (&int(7), &int(0)));
    let pick = model.functions.iter().find(|table| table.function == hir::FunctionId(2)).expect("pick is interpreted");
    assert_eq!(pick.default, Value::Bool(true));
    assert!(model.functions.iter().all(|table| table.function != hir::FunctionId(0)), "inc has a body");
}

/// The model of an answer: `sat`'s, or the candidate of an `unknown` (an axiom such as
/// `grow(x) > x` has no model z3 4.8.12 finds; its candidate still satisfies every
/// ground constraint, instances of the axiom on ground terms included).
fn model_or_candidate(reach: Reach) -> Model {
    match reach {
        Reach::Sat(model) | Reach::Unknown { candidate: Some(model), .. } => model,
        other => panic!("expected a model, got {other:?}"),
    }
}

fn as_int(value: &Value) -> BigInt {
    match value {
        Value::Int(value) => value.clone(),
        other => panic!("not an integer: {other:?}"),
    }
}

#[test]
fn every_ground_application_is_tabulated_with_its_model_value() {
    // z3 writes `grow` with an `else` that computes with its argument (opaque to the
    // decoder), so only the tabulated points are readable. The goal is the start of the
    // only block: no query constrains its `trans`, but (A7) states its equations, so the
    // axiom holds at every point the block applies `grow` to.
    let source = r"
        function grow(x: int): int;
        axiom (forall x: int :: { grow(x) } grow(x) > x);
        procedure P(x: int) returns (y: int) {
          var z: int;
          start: y := grow(grow(x)); z := y + 1; y := grow(z); return;
        }";
    let (cfg, mut session) = session(source, "P");
    let model = model_or_candidate(session.check_reach(&[cfg.entry]));
    let grow = model.functions.iter().find(|table| table.function == hir::FunctionId(0)).expect("grow is interpreted");
    assert!(grow.entries.windows(2).all(|pair| pair[0].0 < pair[1].0), "sorted by arguments: {:?}", grow.entries);
    let at = |arg: BigInt| {
        let entry = grow.entries.iter().find(|(args, _)| args == &vec![Value::Int(arg.clone())]);
        as_int(&entry.unwrap_or_else(|| panic!("no entry at {arg} in {:?}", grow.entries)).1)
    };
    let x = param_int(&model, &cfg, "x");
    let once = at(x.clone());
    let twice = at(once.clone());
    let last = at(&twice + 1);
    assert!(x < once && once < twice && &twice + 1 < last, "{x} {once} {twice} {last}");
}

#[test]
fn quantified_axioms_constrain_every_path() {
    let source = r"
        function g(int): int;
        axiom (forall x: int :: {g(x)} g(x) >= 0);
        procedure P(a: int) {
          start: goto Bad, Fine;
          Bad: assume g(a) < 0; return;
          Fine: assume g(a) == a + 5; return;
        }";
    let (cfg, mut session) = session(source, "P");
    dead(&mut session, &cfg, "Bad");
    reaches(&mut session, &cfg, "Fine");
}

#[test]
fn lambdas_are_maps() {
    let source = r"
        procedure P(a: int) {
          var m: [int]int;
          start: m := (lambda i: int :: i * 2 + 1); assume m[a] == 9; goto Goal;
          Goal: return;
        }";
    let (cfg, mut session) = session(source, "P");
    let model = reaches(&mut session, &cfg, "Goal");
    assert_eq!(param(&model, &cfg, "a"), int(4));
}

#[test]
fn div_and_mod_are_euclidean() {
    let source = r"
        procedure P(a: int, b: int) {
          start: goto Euclid, Truncating, Negative;
          Euclid: assume a == -7 && b == 2; assert a div b == -4 && a mod b == 1; return;
          Truncating: assume a == -7 && b == 2 && (a div b == -3 || a mod b == -1); return;
          Negative: assume a == 7 && b == -2; assert a div b == -3 && a mod b == 1; return;
        }";
    let (cfg, mut session) = session(source, "P");
    reaches(&mut session, &cfg, "Euclid");
    dead(&mut session, &cfg, "Truncating");
    reaches(&mut session, &cfg, "Negative");
    for failure in session.encoding().failure_ids().collect::<Vec<_>>() {
        assert_eq!(session.check_failure(failure), Reach::Unsat);
    }
}

#[test]
fn calls_are_modelled_by_their_contracts() {
    let source = r"
        var count: int;
        procedure Inc(n: int) returns (r: int); requires n >= 0; modifies count;
          ensures r == n + 1 && count == old(count) + 1;
        procedure P(a: int) modifies count; {
          var y: int;
          start: call y := Inc(a); goto Five, Negative;
          Five: assume y == 5; return;
          Negative: assume a < 0; return;
        }";
    let (cfg, mut session) = session(source, "P");
    let model = reaches(&mut session, &cfg, "Five");
    assert_eq!(param(&model, &cfg, "a"), int(4));
    // The callee's requires is assumed on the way to goals, so `a < 0` cannot go on.
    dead(&mut session, &cfg, "Negative");
    // ... but `verify` finds the call that violates it.
    let failures = &session.encoding().failures;
    assert_eq!(failures.len(), 1);
    assert!(matches!(failures[0].obligation.kind, ObligationKind::Requires { clause: 0, .. }));
    let Reach::Sat(model) = session.check_failure(crate::vc::FailureId(0)) else { panic!("the requires can fail") };
    assert!(param_int(&model, &cfg, "a") < BigInt::from(0));
    let count = model.choices.iter().find_map(|choice| match choice {
        Choice::Value(assignment) if matches!(assignment.kind, InputKind::CallModifies { .. }) => Some(assignment),
        _ => None,
    });
    assert!(count.is_none(), "the failing call stops before its effects");
}

#[test]
fn verify_finds_false_assertions_and_ensures_only() {
    let source = r"
        procedure Abs(a: int) returns (r: int) ensures r >= 0; ensures r == a; {
          start: goto Pos, Neg;
          Pos: assume a >= 0; r := a; goto Done;
          Neg: assume a < 0; r := -a; goto Done;
          Done: assert r >= 0; assert r > 0; return;
        }";
    let (cfg, mut session) = session(source, "Abs");
    let failures: Vec<(crate::vc::FailureId, ObligationKind)> = session
        .encoding()
        .failure_ids()
        .map(|id| (id, session.encoding().failure(id).obligation.kind.clone()))
        .collect();
    let verdicts: Vec<(ObligationKind, Option<Model>)> = failures
        .into_iter()
        .map(|(id, kind)| match session.check_failure(id) {
            Reach::Sat(model) => (kind, Some(model)),
            Reach::Unsat => (kind, None),
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    let user = ObligationKind::Assert(crate::cfg::AssertReason::User);
    assert_eq!(verdicts.len(), 4);
    assert_eq!((&verdicts[0].0, verdicts[0].1.is_none()), (&user, true), "r >= 0 holds");
    assert_eq!((&verdicts[1].0, verdicts[1].1.is_some()), (&user, true), "r > 0 fails for a == 0");
    let model = verdicts[1].1.as_ref().expect("a failing execution");
    assert_eq!(param(model, &cfg, "a"), int(0));
    assert_eq!((&verdicts[2].0, verdicts[2].1.is_none()), (&ObligationKind::Ensures { clause: 0 }, true));
    let model = verdicts[3].1.as_ref().expect("r == a fails for negative a");
    assert!(param_int(model, &cfg, "a") < BigInt::from(0));
    assert!(labels(&cfg, model).contains(&"Neg".to_string()));
}

#[test]
fn sessions_are_deterministic() {
    let (cfg, mut first) = session(SIMPLE, "simple");
    let (_, mut second) = session(SIMPLE, "simple");
    // Unrelated solver work on this thread must not matter either.
    let (other_cfg, mut other) = session(SIMPLE, "simple");
    reaches(&mut other, &other_cfg, "Else2");
    for label in ["Else2", "Then1"] {
        assert_eq!(reaches(&mut first, &cfg, label), reaches(&mut second, &cfg, label));
    }
}

#[test]
fn a_first_look_answers_as_a_full_check_when_z3_models_the_axioms_in_time() {
    // A closed-world axiom over a finite type takes z3 a round or two: the first look's
    // model is the full check's, in a session of its own.
    let source = r"
        type Color;
        const unique Red: Color;
        const unique Green: Color;
        axiom (forall c: Color :: c == Red || c == Green);
        procedure P(c: Color) {
          start: goto Warm, Cold;
          Warm: assume c == Red; return;
          Cold: assume c != Red; return;
        }";
    for label in ["Warm", "Cold"] {
        let (cfg, mut looked) = session(source, "P");
        let (_, mut checked) = session(source, "P");
        let goal = [block(&cfg, label)];
        let first = looked.first_look(&goal);
        assert!(matches!(first, Reach::Sat(_)), "{label}: {first:?}");
        assert_eq!(first, checked.check_reach(&goal), "{label}");
    }
}

#[test]
fn a_first_look_gives_up_and_looking_again_takes_every_round_with_a_candidate_each_time() {
    // z3 cannot model `grow(x) > x`: each round of model-based instantiation adds one
    // more point to the table it tries, in `grow`'s `else`, which the candidate leaves
    // unspecified: its table holds the tuples the encoding applies `grow` to.
    let source = r"
        function grow(x: int): int;
        axiom (forall x: int :: { grow(x) } grow(x) > x);
        procedure P(x: int) returns (y: int) {
          start: y := grow(grow(x)); return;
        }";
    let table = |reach: Reach| {
        let function = model_or_candidate(reach).functions[0].clone();
        assert_eq!(function.default, Value::unspecified(), "z3 modelled `grow` after all: {function:?}");
        function.entries.len()
    };
    let (cfg, mut session) = session(source, "P");
    assert!(matches!(session.look_again(), Reach::Unknown { candidate: None, .. }), "nothing to look at again yet");
    let first = session.first_look(&[cfg.entry]);
    assert!(matches!(first, Reach::Unknown { .. }), "{first:?}");
    assert_eq!(table(first), 2, "`grow(x)` and `grow(grow(x))`");
    assert_eq!(table(session.look_again()), 2);
}

#[test]
fn resource_limits_give_unknown() {
    let source = r"
        procedure P(x: int, y: int, z: int) {
          start: assume x > 1000 && x * x * x + y * y * y == z * z * z + 33; goto Goal;
          Goal: return;
        }";
    let (cfg, encoding) = goal_encoding(source, "P");
    let options = SessionOptions { rlimit: Some(20_000), ..SessionOptions::default() };
    let mut session = Session::new(Arc::new(encoding), options);
    assert!(
        matches!(session.check_reach(&[block(&cfg, "Goal")]), Reach::Unknown { reason, .. } if reason == "resource limit")
    );
}

#[test]
fn map_values_are_canonical_tables() {
    let map = MapValue::new(vec![(int(2), int(0)), (int(1), int(5))], int(0));
    assert_eq!(map.entries, vec![(int(1), int(5))]);
}

/// The real pipeline on every corpus program: lower, cut loops, encode, then ask for
/// every block and every check. Each model's path must be a path of the graph from the
/// entry through the block asked for; `unknown` only for quantifiers, with a candidate.
/// (The one test above 100 ms: the whole corpus, about 1 s.)
#[test]
fn corpus_programs_encode_and_solve_through_the_real_lowering() {
    let directory = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus");
    let mut files: Vec<_> = std::fs::read_dir(directory)
        .expect("the corpus exists")
        .map(|entry| entry.expect("a readable entry").path())
        .collect();
    files.sort();
    for file in files.iter().filter(|path| path.extension().is_some_and(|extension| extension == "bpl")) {
        let source = std::fs::read_to_string(file).expect("a readable corpus file");
        let program = crate::vc::testing::program(&source);
        for index in 0..program.implementations.len() {
            let lowered =
                crate::cfg::lower::lower(&program, hir::ImplId::from_index(index)).expect("corpus programs lower");
            let cfg = crate::cfg::cut::cut_loops(&program, &lowered);
            let encoding = Arc::new(crate::vc::encode(&program, &cfg));
            let mut session = Session::new(Arc::clone(&encoding), SessionOptions::default());
            for goal in cfg.block_ids() {
                match session.check_reach(&[goal]) {
                    Reach::Sat(model) => {
                        assert!(model.path[0] == cfg.entry && model.reaches(goal), "{file:?}");
                        assert!(model.path.windows(2).all(|step| cfg.successors(step[0]).contains(&step[1])));
                    }
                    Reach::Unsat => {}
                    // An axiom z3 cannot model (`grow(x) > x` in types_axioms.bpl): the
                    // candidate still satisfies every ground constraint.
                    Reach::Unknown { reason, candidate } => {
                        let candidate = candidate.unwrap_or_else(|| panic!("{file:?}: {reason} without a candidate"));
                        assert!(reason.contains("incomplete quantifiers") && candidate.reaches(goal), "{file:?}");
                    }
                }
            }
            for failure in encoding.failure_ids() {
                let answer = session.check_failure(failure);
                if let Reach::Unknown { reason, candidate } = answer {
                    assert!(reason.contains("incomplete quantifiers") && candidate.is_some(), "{file:?}: {reason}");
                }
            }
        }
    }
}

/// Axioms written for triggers that contradict each other as first-order formulas: no
/// term `below(x)` ever exists, so E-matching (Boogie's instantiation) never refutes
/// them, while model-based instantiation does. Its refutation is no proof.
const TRIGGER_PRELUDE: &str = r"
    function above(x: int): int;
    function below(x: int): int;
    axiom (forall x: int :: {above(x)} above(x) > 0);
    axiom (forall x: int :: {below(x)} below(x) == above(x) - 1 && below(x) < 0);
";

#[test]
fn a_refutation_by_model_based_instantiation_alone_is_no_proof() {
    let source = format!("{TRIGGER_PRELUDE} procedure P(a: int) {{ start: goto Goal; Goal: return; }}");
    let (cfg, mut session) = session(&source, "P");
    match session.check_reach(&[block(&cfg, "Goal")]) {
        Reach::Sat(_) | Reach::Unknown { .. } => {}
        Reach::Unsat => panic!("the goal is reachable by Boogie's reading of the axioms"),
    }
    assert!(!matches!(session.footing(), Some(super::Footing::Contradictory(_))));
}

#[test]
fn axioms_that_refute_themselves_prove_nothing() {
    let source = r"
        function f(x: int): int;
        axiom (forall x: int :: {f(x)} f(x) > 0);
        axiom f(2) < 0;
        procedure P(a: int) { start: assume f(a) != 7; goto Goal; Goal: return; }";
    let (cfg, mut session) = session(source, "P");
    match session.check_reach(&[block(&cfg, "Goal")]) {
        Reach::Unknown { reason, candidate: None } => assert_eq!(reason, super::footing::CONTRADICTORY),
        other => panic!("expected no proof from contradictory axioms, got {other:?}"),
    }
    match session.footing() {
        Some(super::Footing::Contradictory(contradiction)) => {
            assert_eq!(contradiction.axioms, [0, 1]);
            assert!(contradiction.by_triggers && !contradiction.precondition);
        }
        other => panic!("expected the contradiction, got {other:?}"),
    }
}

#[test]
fn a_precondition_contradicting_the_axioms_is_in_the_core() {
    let source = r"
        function f(x: int): int;
        axiom (forall x: int :: {f(x)} f(x) > 0);
        axiom (forall x: int :: {f(x)} f(x) < 100);
        procedure P(a: int) requires f(a) < 0; { start: goto Goal; Goal: return; }";
    let (cfg, mut session) = session(source, "P");
    assert!(matches!(session.check_reach(&[block(&cfg, "Goal")]), Reach::Unknown { .. }));
    match session.footing() {
        Some(super::Footing::Contradictory(contradiction)) => {
            assert_eq!(contradiction.axioms, [0]);
            assert!(contradiction.precondition);
        }
        other => panic!("expected the contradiction, got {other:?}"),
    }
}

#[test]
fn consistent_axioms_keep_model_based_proofs() {
    let source = r"
        function g(int): int;
        axiom (forall x: int :: g(x) >= 0);
        procedure P(a: int) { start: goto Bad; Bad: assume g(a) < 0; goto Goal; Goal: return; }";
    let (cfg, mut session) = session(source, "P");
    dead(&mut session, &cfg, "Goal");
    assert_eq!(session.footing(), Some(super::Footing::Modelled));
}

#[test]
fn a_definition_without_a_model_proves_nothing_on_the_terms_it_meets() {
    let source = r"
        function f(x: int): int { f(x) + 1 }
        function g(x: int): int;
        procedure P(a: int) { var b: int; start: b := g(f(a)); goto Bad, Goal; Bad: assume b != b; return; Goal: return; }";
    let (cfg, mut session) = session(source, "P");
    match session.check_reach(&[block(&cfg, "Bad")]) {
        Reach::Unknown { reason, .. } => assert_eq!(reason, super::footing::CONTRADICTORY),
        other => panic!("expected no proof from a definition without a model, got {other:?}"),
    }
    assert!(matches!(session.footing(), Some(super::Footing::Contradictory(_))));
}
