//! Unit tests of the interpreter: small Boogie programs, run on given inputs and traces.

use super::*;
use crate::cfg::lower::lower_all;
use crate::vc::MapValue;
use num_bigint::BigInt;

/// A table's entries: arguments and results.
pub(super) type Entries = Vec<(Vec<Value>, Value)>;

/// A program whose tests are made from solver candidates: tables given, made to agree
/// with the functions axioms define, then run.
pub(super) struct Candidate(Fixture);

impl Candidate {
    pub(super) fn new(source: &str) -> Candidate {
        Candidate(Fixture::new(source))
    }

    /// A test of `procedure` with `params` and the tables `(function, entries, default)`.
    pub(super) fn input(&self, procedure: &str, params: Vec<Value>, tables: Vec<(&str, Entries, Value)>) -> TestInput {
        let mut input = TestInput::new(self.0.implementation(procedure));
        input.params = params;
        input.functions = tables
            .into_iter()
            .map(|(name, entries, default)| FunctionModel { function: self.0.function(name), entries, default })
            .collect();
        input
    }

    /// `input` made to agree with the definitions, run; the outcome and outputs.
    pub(super) fn run(&self, input: &mut TestInput) -> (Outcome, Vec<Value>) {
        let machine = Machine::new(&self.0.program, &self.0.cfgs, Limits::default());
        machine.agree_with_definitions(input);
        let replay = machine.run(input, TraceMode::Complete);
        (replay.outcome, replay.outputs.into_iter().map(|(_, value)| value).collect())
    }
}

/// A checked and lowered program; the one place tests build a [`Machine`].
pub(super) struct Fixture {
    pub(super) program: hir::Program,
    pub(super) cfgs: Vec<Cfg>,
}

impl Fixture {
    pub(super) fn new(source: &str) -> Fixture {
        let program = crate::sema::tests::expect_accepted(source);
        let (cfgs, errors) = lower_all(&program);
        assert!(errors.is_empty(), "the test program lowers: {errors:?}");
        Fixture { program, cfgs }
    }

    pub(super) fn implementation(&self, name: &str) -> hir::ImplId {
        let index = self.program.implementations.iter().position(|implementation| implementation.name == name);
        hir::ImplId::from_index(index.unwrap_or_else(|| panic!("no implementation `{name}`")))
    }

    fn local(&self, implementation: &str, name: &str) -> hir::LocalId {
        let locals = &self.program.implementations[self.implementation(implementation).index()].locals;
        let index = locals.iter().position(|local| local.name == name);
        hir::LocalId::from_index(index.unwrap_or_else(|| panic!("no local `{name}` in `{implementation}`")))
    }

    fn global(&self, name: &str) -> hir::GlobalId {
        let index = self.program.globals.iter().position(|global| global.name == name);
        hir::GlobalId::from_index(index.unwrap_or_else(|| panic!("no global `{name}`")))
    }

    pub(super) fn function(&self, name: &str) -> hir::FunctionId {
        let index = self.program.functions.iter().position(|function| function.name == name);
        hir::FunctionId::from_index(index.unwrap_or_else(|| panic!("no function `{name}`")))
    }

    fn cfg(&self, name: &str) -> &Cfg {
        let id = self.implementation(name);
        self.cfgs.iter().find(|cfg| cfg.implementation == id).expect("every test implementation lowers")
    }

    /// A test of `name` with these parameters and trace.
    fn test(&self, name: &str, params: Vec<Value>, trace: Vec<TraceItem>) -> TestInput {
        TestInput { params, trace, ..TestInput::new(self.implementation(name)) }
    }

    fn run(&self, input: &TestInput, mode: TraceMode) -> Replay {
        self.run_limited(input, mode, Limits::default())
    }

    fn run_limited(&self, input: &TestInput, mode: TraceMode, limits: Limits) -> Replay {
        Machine::new(&self.program, &self.cfgs, limits).run(input, mode)
    }

    /// Runs `name` strictly; the final value of its out-parameter `out`.
    fn output(&self, name: &str, params: Vec<Value>, out: &str) -> Value {
        let replay = self.run(&self.test(name, params, Vec::new()), TraceMode::Strict);
        assert_eq!(replay.outcome, Outcome::Passed);
        output(&replay, hir::Var::Local(self.local(name, out)))
    }
}

fn output(replay: &Replay, var: hir::Var) -> Value {
    replay.outputs.iter().find(|(candidate, _)| *candidate == var).expect("an output").1.clone()
}

pub(super) fn int(value: i64) -> Value {
    Value::Int(BigInt::from(value))
}

/// The set of `members` (a map to bool, default false).
pub(super) fn set(members: &[i64]) -> Value {
    let entries = members.iter().map(|&member| (int(member), Value::Bool(true))).collect();
    Value::Map(MapValue::new(entries, Value::Bool(false)))
}

/// The functions `source`'s axioms define with a definition `keep` selects, by name,
/// with their defining axioms.
pub(super) fn defined_where(source: &str, keep: fn(&define::Definition<'_>) -> bool) -> Vec<(String, Vec<usize>)> {
    let program = crate::sema::tests::expect_accepted(source);
    let found = define::definitions(&program);
    (found.iter().filter(|definition| keep(definition)))
        .map(|definition| (program.functions[definition.function.index()].name.clone(), definition.axioms.clone()))
        .collect()
}

fn havoc(var: &str, value: Value) -> TraceItem {
    TraceItem::Havoc { var: var.to_string(), value }
}

fn goto(target: &str) -> TraceItem {
    TraceItem::Goto { target: target.to_string() }
}

fn map(entries: Vec<(Value, Value)>, default: Value) -> Value {
    Value::Map(MapValue::new(entries, default))
}

// ---------------------------------------------------------------------------------------
// Expressions

#[test]
fn integers_are_unbounded() {
    let fixture = Fixture::new(
        "procedure F(n: int) returns (r: int) { var i: int; r := 1; i := 1; while (i <= n) { r := r * i; i := i + 1; } }",
    );
    let factorial: BigInt = (1..=30u32).map(BigInt::from).product();
    assert_eq!(fixture.output("F", vec![int(30)], "r"), Value::Int(factorial));
}

#[test]
fn div_and_mod_are_euclidean() {
    let fixture = Fixture::new("procedure D(a: int, b: int) returns (q: int, r: int) { q := a div b; r := a mod b; }");
    let cases = [(-7, 2, -4, 1), (-7, -2, 4, 1), (7, -2, -3, 1), (7, 2, 3, 1), (6, -3, -2, 0)];
    for (a, b, q, r) in cases {
        assert_eq!(fixture.output("D", vec![int(a), int(b)], "q"), int(q), "{a} div {b}");
        assert_eq!(fixture.output("D", vec![int(a), int(b)], "r"), int(r), "{a} mod {b}");
    }
}

#[test]
fn division_by_zero_cannot_be_evaluated() {
    let fixture = Fixture::new("procedure D(a: int, b: int) returns (q: int) { q := a div b; }");
    let replay = fixture.run(&fixture.test("D", vec![int(1), int(0)], Vec::new()), TraceMode::Strict);
    assert!(matches!(&replay.outcome, Outcome::CannotEvaluate(stop) if stop.message.contains("division by zero")));
}

#[test]
fn short_circuits_guard_undefined_operands() {
    let fixture = Fixture::new(
        "procedure S(b: int) returns (x: bool, y: int) { x := b != 0 && 10 div b > 1; y := if b == 0 then 0 else 10 mod b; }",
    );
    assert_eq!(fixture.output("S", vec![int(0)], "x"), Value::Bool(false));
    assert_eq!(fixture.output("S", vec![int(3)], "y"), int(1));
}

#[test]
fn nested_and_two_dimensional_map_updates() {
    let fixture = Fixture::new(
        "procedure M(i: int, j: int) returns (a: [int][int]int, b: [int, int]int) {
           var row: [int]int;
           a[i][j] := 5; b[i, j] := 5; b[i, j + 1] := 6; b[i, j + 1] := 0;
           assert a[i][j] == b[i, j] && a[i][j + 1] == 0 && a[i + 1][j] == 0;
           row := a[i]; row[j] := 0;
           assert row == a[i + 1];
         }",
    );
    let inner = map(vec![(int(2), int(5))], int(0));
    let expected = map(vec![(int(1), inner)], map(Vec::new(), int(0)));
    assert_eq!(fixture.output("M", vec![int(1), int(2)], "a"), expected);
    assert_eq!(fixture.output("M", vec![int(1), int(2)], "b"), expected, "curried, and canonical after the reset");
}

#[test]
fn map_equality_is_extensional() {
    let fixture = Fixture::new(
        "procedure E(m: [int]bool) returns (same: bool, differ: bool) {
           same := m[3 := true][3 := m[3]] == m;
           differ := m[3 := !m[3]] != m;
         }",
    );
    let m = map(vec![(int(3), Value::Bool(true))], Value::Bool(false));
    assert_eq!(fixture.output("E", vec![m.clone()], "same"), Value::Bool(true));
    assert_eq!(fixture.output("E", vec![m], "differ"), Value::Bool(true));
}

#[test]
fn uninterpreted_types_and_function_tables() {
    let fixture = Fixture::new(
        "type T; function f(x: T): int; function g(x: int): T;
         procedure U(t: T) returns (r: int, same: bool) { r := f(t); same := g(r) == t; }",
    );
    let t = fixture.program.types.iter().position(|ty| ty.name == "T").map(hir::TypeId::from_index).expect("T");
    let elem = |index| Value::Elem { ty: t, index };
    let table =
        FunctionModel { function: fixture.function("f"), entries: vec![(vec![elem(1)], int(7))], default: int(3) };
    let mut input = fixture.test("U", vec![elem(1)], Vec::new());
    input.functions = vec![table];
    let run = |input: &TestInput| {
        let replay = fixture.run(input, TraceMode::Strict);
        (output(&replay, hir::Var::Local(hir::LocalId(1))), output(&replay, hir::Var::Local(hir::LocalId(2))))
    };
    assert_eq!(run(&input), (int(7), Value::Bool(false)), "`g` has no table: element 0 everywhere");
    input.params = vec![elem(2)];
    assert_eq!(run(&input).0, int(3), "the table's default");
    input.functions.clear();
    input.params = vec![elem(0)];
    assert_eq!(run(&input), (int(0), Value::Bool(true)));
}

#[test]
fn a_table_for_a_function_with_a_body_is_invalid() {
    let fixture = Fixture::new("function f(x: int): int { x } procedure P() { }");
    let mut input = fixture.test("P", Vec::new(), Vec::new());
    input.functions = vec![FunctionModel { function: fixture.function("f"), entries: Vec::new(), default: int(1) }];
    assert!(matches!(fixture.run(&input, TraceMode::Strict).outcome, Outcome::Invalid(_)));
}

#[test]
fn functions_with_bodies_are_evaluated() {
    let fixture = Fixture::new(
        "function fact(n: int): int { if n <= 0 then 1 else n * fact(n - 1) }
         procedure P(n: int) returns (r: int) { r := fact(n); }",
    );
    let factorial: BigInt = (1..=25u32).map(BigInt::from).product();
    assert_eq!(fixture.output("P", vec![int(25)], "r"), Value::Int(factorial));
}

#[test]
fn unbounded_function_recursion_exhausts_the_depth() {
    let fixture = Fixture::new(
        "function up(n: int): int { up(n + 1) }
         procedure P() returns (r: int) { r := 1; r := up(0); }",
    );
    let limits = Limits { max_depth: 50, ..Limits::default() };
    let replay = fixture.run_limited(&fixture.test("P", Vec::new(), Vec::new()), TraceMode::Strict, limits);
    let Outcome::BudgetExhausted(stop) = &replay.outcome else { panic!("{:?}", replay.outcome) };
    assert!(stop.message.contains("deeper than 50"), "{}", stop.message);
    let assignment = &fixture.cfg("P").blocks[0].cmds[1];
    assert_eq!(stop.span, assignment.span, "blamed on the command");
}

#[test]
fn old_reads_the_globals_at_procedure_entry() {
    let fixture = Fixture::new(
        "var g: int;
         procedure O() returns (r: int) modifies g; ensures r == old(g) && g == old(g) + 1;
         { r := g; g := g + 1; assert old(g) == g - 1; }",
    );
    let mut input = fixture.test("O", Vec::new(), Vec::new());
    input.globals = vec![(fixture.global("g"), int(5))];
    let replay = fixture.run(&input, TraceMode::Strict);
    assert_eq!(replay.outcome, Outcome::Passed);
    assert_eq!(
        replay.outputs,
        vec![(hir::Var::Local(hir::LocalId(0)), int(5)), (hir::Var::Global(hir::GlobalId(0)), int(6))]
    );
}

#[test]
fn opaque_values_cannot_be_used() {
    let fixture = Fixture::new("procedure P(a: int) returns (r: int) { r := a; r := a + 1; }");
    let input = fixture.test("P", vec![Value::Opaque("(+ x 1)".to_string())], Vec::new());
    let replay = fixture.run(&input, TraceMode::Strict);
    assert!(matches!(&replay.outcome, Outcome::CannotEvaluate(stop) if stop.message.contains("opaque")));
}

// ---------------------------------------------------------------------------------------
// Quantifiers

const SORTED: &str = "
    procedure Q(a: [int]int, n: int) returns (sorted: bool, found: bool, twice: bool) {
      sorted := (forall i, j: int :: 0 <= i && i < j && j < n ==> a[i] <= a[j]);
      found := (exists k: int :: k < n && 0 <= k && a[k] == 7);
      twice := (forall b: bool, i: int :: i >= 0 ==> i <= 2 ==> (b || !b) && a[i] != 9);
    }";

#[test]
fn bounded_quantifiers_are_enumerated() {
    let fixture = Fixture::new(SORTED);
    let array =
        |values: &[i64]| map(values.iter().enumerate().map(|(i, &v)| (int(i as i64), int(v))).collect(), int(0));
    let run = |values: &[i64]| {
        let replay = fixture
            .run(&fixture.test("Q", vec![array(values), int(values.len() as i64)], Vec::new()), TraceMode::Strict);
        assert_eq!(replay.outcome, Outcome::Passed);
        replay.outputs.iter().map(|(_, value)| value.clone()).collect::<Vec<_>>()
    };
    let [t, f] = [Value::Bool(true), Value::Bool(false)];
    assert_eq!(run(&[1, 7, 8]), [t.clone(), t.clone(), t.clone()]);
    assert_eq!(run(&[1, 9, 8]), [f.clone(), f.clone(), f.clone()]);
    assert_eq!(run(&[]), [t.clone(), f, t], "empty ranges: forall true, exists false");
}

#[test]
fn unbounded_arithmetic_on_a_variable_cannot_be_evaluated() {
    let fixture = Fixture::new(
        "procedure Q(a: [int]int) returns (r: bool) { r := (forall i: int :: i >= 0 ==> a[i + 1] >= 0); }
         procedure S() returns (r: bool) { r := (forall x: int :: x + 1 > x); }
         procedure L() returns (r: int) { r := (lambda i: int :: i + 1)[1]; }",
    );
    let cannot = |name: &str, params: Vec<Value>| match fixture
        .run(&fixture.test(name, params, Vec::new()), TraceMode::Strict)
        .outcome
    {
        Outcome::CannotEvaluate(stop) => stop.message,
        other => panic!("{other:?}"),
    };
    let message = cannot("Q", vec![map(Vec::new(), int(0))]);
    assert!(message.contains("`i` unbounded") && message.contains("arithmetic"), "{message}");
    let message = cannot("S", Vec::new());
    assert_eq!(message, "a quantifier with `x` unbounded, and `x` is used in arithmetic");
    assert_eq!(cannot("L", Vec::new()), "a lambda where `i` is used in arithmetic");
}

/// Trial division's bound `j * j <= n`: no interval, but the term grows with `j` above
/// its lower bound, so the run finds the last `j` within it on its own state, per outer
/// binding (`a[i]` read with `i` bound); terms not shown to grow stay unbounded.
#[test]
fn a_bound_that_grows_with_the_variable_is_found_at_run_time() {
    let fixture = Fixture::new(
        "function divides(d: int, n: int): bool { n mod d == 0 }
         procedure P(n: int) returns (prime: bool) {
           prime := n >= 2 && (forall j: int :: 2 <= j && j * j <= n ==> !divides(j, n));
         }
         procedure A(a: [int]int, m: int) returns (r: bool) {
           r := (forall i: int :: 1 <= i && i <= m ==>
                   (forall j: int :: 2 <= j && (j + 1) div 2 * j < a[i] + 1 ==> !divides(j, a[i])));
         }
         procedure E(n: int) returns (r: bool) { r := (exists j: int :: j >= 0 && n == j * j); }
         procedure N(n: int) returns (r: bool) { r := (forall j: int :: 2 <= j && (0 - j) * j <= n ==> j != 5); }",
    );
    let prime = |n: i64| fixture.output("P", vec![int(n)], "prime");
    let primes: Vec<i64> = (0..40).filter(|&n| prime(n) == Value::Bool(true)).collect();
    assert_eq!(primes, [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37]);
    let array =
        |values: &[i64]| map(values.iter().enumerate().map(|(i, &v)| (int(i as i64 + 1), int(v))).collect(), int(0));
    assert_eq!(fixture.output("A", vec![array(&[3, 5, 7, 11]), int(4)], "r"), Value::Bool(true));
    assert_eq!(fixture.output("A", vec![array(&[3, 5, 9, 7]), int(4)], "r"), Value::Bool(false));
    assert_eq!(fixture.output("E", vec![int(49)], "r"), Value::Bool(true), "`exists`, bounded by `n == j * j`");
    assert_eq!(fixture.output("E", vec![int(50)], "r"), Value::Bool(false));
    // `(0 - j) * j` shrinks: no bound, so no value rather than a wrong one.
    let replay = fixture.run(&fixture.test("N", vec![int(0)], Vec::new()), TraceMode::Strict);
    assert!(
        matches!(&replay.outcome, Outcome::CannotEvaluate(stop) if stop.message.contains("`j` unbounded")),
        "{:?}",
        replay.outcome
    );
}

/// A memory model's invariant `forall x :: S[x] ==> P(x)` with arithmetic on `x` (a
/// field at `x + 40`): no interval, no representative points, but the guard reads `x`
/// only as an index of `S`, and is false off `S`'s keys, so those keys are enumerated.
/// A guard true off the keys (a default of `true`, `r[m] != 1` over a default 0) bounds
/// nothing.
#[test]
fn a_guard_false_off_a_map_s_keys_confines_the_variable_to_them() {
    let fixture = Fixture::new(
        "procedure F(s: [int]bool, m: [int]int) returns (r: bool) { r := (forall x: int :: s[x] ==> m[x + 40] == x); }
         procedure R(res: [int]int, m: [int]int) returns (r: bool) {
           r := (forall x: int :: res[x] == 1 && x > 0 ==> m[x + 40] == x);
         }
         procedure E(s: [int]bool) returns (r: bool) { r := (exists x: int :: s[x] && x * x == 49); }
         procedure N(res: [int]int, m: [int]int) returns (r: bool) { r := (forall x: int :: res[x] != 1 ==> m[x + 40] == x); }",
    );
    let set = |keys: &[i64], default: bool| {
        map(keys.iter().map(|&key| (int(key), Value::Bool(!default))).collect(), Value::Bool(default))
    };
    let fields = map(vec![(int(47), int(7)), (int(50), int(10))], int(0));
    assert_eq!(fixture.output("F", vec![set(&[7, 10], false), fields.clone()], "r"), Value::Bool(true));
    assert_eq!(fixture.output("F", vec![set(&[7, 11], false), fields.clone()], "r"), Value::Bool(false));
    let resources = |keys: &[i64]| map(keys.iter().map(|&key| (int(key), int(1))).collect(), int(0));
    assert_eq!(fixture.output("R", vec![resources(&[-3, 7, 10]), fields.clone()], "r"), Value::Bool(true));
    assert_eq!(fixture.output("E", vec![set(&[-7, 3], false)], "r"), Value::Bool(true));
    assert_eq!(fixture.output("E", vec![set(&[3], false)], "r"), Value::Bool(false));
    let replay = fixture.run(&fixture.test("N", vec![resources(&[7]), fields], Vec::new()), TraceMode::Strict);
    assert!(matches!(replay.outcome, Outcome::CannotEvaluate(_)), "{:?}", replay.outcome);
}

#[test]
fn a_quantifier_over_more_values_than_steps_left_is_over_budget() {
    let fixture = Fixture::new(
        "procedure Q() returns (r: bool) { r := (forall i: int :: 0 <= i && i < 1000000000000 ==> i + 1 > i); }",
    );
    let replay = fixture.run(&fixture.test("Q", Vec::new(), Vec::new()), TraceMode::Strict);
    assert!(matches!(replay.outcome, Outcome::BudgetExhausted(_)), "{:?}", replay.outcome);
}

#[test]
fn a_huge_box_in_the_fragment_is_decided_by_points() {
    let fixture = Fixture::new(
        "procedure Q(a: [int]int) returns (r: bool) { r := (forall i: int :: 0 <= i && i < 1000000000000 ==> a[i] >= 0); }",
    );
    let verdict = |a: Value| fixture.output("Q", vec![a], "r");
    assert_eq!(verdict(map(vec![(int(-1), int(-1)), (int(999999999999), int(3))], int(0))), Value::Bool(true));
    assert_eq!(verdict(map(vec![(int(999999999999), int(-3))], int(0))), Value::Bool(false));
}

// ---------------------------------------------------------------------------------------
// Quantifiers and lambdas by representative points

/// The outcome of running `name` with these parameters and global entry values.
fn verdict(fixture: &Fixture, name: &str, params: Vec<Value>, globals: &[(&str, Value)]) -> Outcome {
    let mut input = fixture.test(name, params, Vec::new());
    input.globals = globals.iter().map(|(global, value)| (fixture.global(global), value.clone())).collect();
    fixture.run(&input, TraceMode::Strict).outcome
}

fn failed_ensures(outcome: &Outcome) -> bool {
    matches!(outcome, Outcome::Failed(Violation { kind: ViolationKind::Ensures { .. }, .. }))
}

/// `map` with `key` set to `value`, as a store would.
fn stored(map: &Value, key: Value, value: Value) -> Value {
    let Value::Map(table) = map else { panic!("a map") };
    let mut entries = table.entries.clone();
    entries.push((key, value));
    Value::Map(MapValue::new(entries, (*table.default).clone()))
}

const BALANCE: &str = "
    var balance: [int]int;
    procedure Set(acct: int, next: [int]int) modifies balance;
      ensures (forall other: int :: other != acct ==> balance[other] == old(balance)[other]);
    { balance := next; }
    procedure Changed(acct: int, next: [int]int) returns (r: bool) modifies balance;
    { balance := next; r := (exists k: int :: k != acct && balance[k] != old(balance)[k]); }";

#[test]
fn a_frame_condition_on_a_map_is_decided_exactly() {
    let fixture = Fixture::new(BALANCE);
    let before = map(vec![(int(1), int(10)), (int(-5), int(3)), (int(1000000), int(7))], int(0));
    let run = |next: Value| verdict(&fixture, "Set", vec![int(1), next], &[("balance", before.clone())]);
    assert_eq!(run(stored(&before, int(1), int(99))), Outcome::Passed);
    assert_eq!(run(before.clone()), Outcome::Passed);
    for (key, value) in [(1000000, 8), (-5, 4), (2, 1), (0, 1), (-1000000, 1), (1000001, 1)] {
        assert!(failed_ensures(&run(stored(&before, int(key), int(value)))), "changed at {key}");
    }
    let moved_default = map(vec![(int(1), int(10)), (int(-5), int(3)), (int(1000000), int(7))], int(1));
    assert!(failed_ensures(&run(moved_default)), "every untouched key changed");
}

#[test]
fn an_existential_frame_violation_finds_its_witness() {
    let fixture = Fixture::new(BALANCE);
    let before = map(vec![(int(1), int(10)), (int(-5), int(3))], int(0));
    let changed = |next: Value| {
        let mut input = fixture.test("Changed", vec![int(1), next], Vec::new());
        input.globals = vec![(fixture.global("balance"), before.clone())];
        let replay = fixture.run(&input, TraceMode::Strict);
        assert_eq!(replay.outcome, Outcome::Passed);
        output(&replay, hir::Var::Local(fixture.local("Changed", "r")))
    };
    assert_eq!(changed(stored(&before, int(1), int(0))), Value::Bool(false));
    assert_eq!(changed(stored(&before, int(1000000), int(1))), Value::Bool(true));
    assert_eq!(changed(stored(&before, int(-5), int(0))), Value::Bool(true));
}

const MATRIX: &str = "
    var grid: [int][int]int;
    var visited: [int, int]bool;
    procedure SetCell(i: int, j: int, g: [int][int]int, w: [int, int]bool) modifies grid, visited;
      ensures (forall p, q: int :: p != i || q != j ==> grid[p][q] == old(grid)[p][q]);
      ensures (forall p, q: int :: p != i || q != j ==> visited[p, q] == old(visited)[p, q]);
    { grid := g; visited := w; }
    procedure SetRow(r: int, g: [int][int]int) modifies grid;
      ensures (forall p: int :: p != r ==> grid[p] == old(grid)[p]);
    { grid := g; }";

#[test]
fn frame_conditions_on_two_dimensional_maps() {
    let fixture = Fixture::new(MATRIX);
    let row = |entries: Vec<(i64, i64)>| map(entries.into_iter().map(|(k, v)| (int(k), int(v))).collect(), int(0));
    let grid = map(vec![(int(2), row(vec![(3, 4), (-7, 1)])), (int(1000000), row(vec![(0, 5)]))], row(Vec::new()));
    let visited = map(
        vec![(int(2), map(vec![(int(3), Value::Bool(true))], Value::Bool(false)))],
        map(Vec::new(), Value::Bool(false)),
    );
    let set_cell = |g: Value, w: Value| {
        let globals = [("grid", grid.clone()), ("visited", visited.clone())];
        verdict(&fixture, "SetCell", vec![int(2), int(3), g, w], &globals)
    };
    let grid_at = |p: i64, q: i64, v: i64| {
        let Value::Map(table) = &grid else { unreachable!() };
        stored(&grid, int(p), stored(table.get(&int(p)), int(q), int(v)))
    };
    assert_eq!(set_cell(grid_at(2, 3, 9), visited.clone()), Outcome::Passed);
    for (p, q) in [(2, 4), (2, -7), (1000000, 0), (1000000, -1000000), (-3, 3), (3, 3)] {
        assert!(failed_ensures(&set_cell(grid_at(p, q, 9), visited.clone())), "grid changed at [{p}][{q}]");
    }
    let Value::Map(rows) = &visited else { unreachable!() };
    let visited_at = |p: i64, q: i64| stored(&visited, int(p), stored(rows.get(&int(p)), int(q), Value::Bool(true)));
    assert_eq!(set_cell(grid.clone(), visited_at(2, 3)), Outcome::Passed);
    assert!(failed_ensures(&set_cell(grid.clone(), visited_at(-1, 1000000))));

    let set_row = |g: Value| verdict(&fixture, "SetRow", vec![int(2), g], &[("grid", grid.clone())]);
    assert_eq!(set_row(stored(&grid, int(2), row(Vec::new()))), Outcome::Passed);
    assert!(failed_ensures(&set_row(stored(&grid, int(1000000), row(Vec::new())))));
    assert!(failed_ensures(&set_row(stored(&grid, int(-4), row(vec![(0, 1)])))));
}

const COUNTERS: &str = "
    var counters: [int]int;
    procedure Reset(n: int);
      requires n >= 0;
      free requires counters[-1] == 0;
      modifies counters;
      ensures (forall i: int :: 0 <= i && i < n ==> counters[i] == 0);
      ensures (forall i: int :: i < 0 || n <= i ==> counters[i] == old(counters)[i]);
      free ensures counters[-1] == 0;
    implementation Reset(count: int)
    {
      counters := (lambda i: int :: if 0 <= i && i < count then 0 else counters[i]);
    }
    procedure Keep(n: int, next: [int]int) modifies counters;
      ensures (forall i: int :: i < 0 || n <= i ==> counters[i] == old(counters)[i]);
    { counters := next; }";

#[test]
fn the_corpus_reset_runs_its_lambda_and_checks_its_frame() {
    let fixture = Fixture::new(COUNTERS);
    let before = map(vec![(int(1), int(5)), (int(7), int(9)), (int(-3), int(4)), (int(-1), int(0))], int(2));
    let mut input = fixture.test("Reset", vec![int(3)], Vec::new());
    input.globals = vec![(fixture.global("counters"), before.clone())];
    let replay = fixture.run(&input, TraceMode::Strict);
    assert_eq!(replay.outcome, Outcome::Passed);
    let expected = map(
        vec![
            (int(-3), int(4)),
            (int(-1), int(0)),
            (int(0), int(0)),
            (int(1), int(0)),
            (int(2), int(0)),
            (int(7), int(9)),
        ],
        int(2),
    );
    assert_eq!(output(&replay, hir::Var::Global(fixture.global("counters"))), expected);

    let keep = |next: Value| verdict(&fixture, "Keep", vec![int(3), next], &[("counters", before.clone())]);
    assert_eq!(keep(stored(&before, int(2), int(0))), Outcome::Passed);
    for key in [-1, -3, -1000000, 3, 7, 1000000] {
        assert!(failed_ensures(&keep(stored(&before, int(key), int(100)))), "changed at {key}");
    }
}

#[test]
fn lambdas_are_canonical_tables() {
    let fixture = Fixture::new(
        "type Color; const unique Red: Color;
         procedure L(k: int, m0: [int]int, i: int, j: int, grid: [int, int]int) returns (same: bool, diagonal: [int]int, flip: bool, colors: bool, cells: bool) {
           same := (lambda x: int :: if x == k then 1 else m0[x]) == m0[k := 1];
           diagonal := (lambda x: int :: if 0 < x && x < 4 then x else 0);
           flip := (lambda b: bool :: !b) == (lambda b: bool :: false)[false := true];
           colors := (lambda c: Color :: if c == Red then 1 else 0) == (lambda c: Color :: 0)[Red := 1];
           cells := (lambda p, q: int :: if p == i && q == j then 7 else grid[p, q]) == grid[i, j := 7];
         }",
    );
    let m0 = map(vec![(int(5), int(1)), (int(-2), int(3))], int(8));
    let grid = map(vec![(int(1), map(vec![(int(2), int(3))], int(0)))], map(Vec::new(), int(4)));
    for k in [5, -2, 0, 1000000] {
        for (i, j) in [(1, 2), (1, 9), (-6, 2)] {
            let params = vec![int(k), m0.clone(), int(i), int(j), grid.clone()];
            let replay = fixture.run(&fixture.test("L", params, Vec::new()), TraceMode::Strict);
            assert_eq!(replay.outcome, Outcome::Passed);
            let [same, diagonal, flip, colors, cells] = [0, 1, 2, 3, 4].map(|index| replay.outputs[index].1.clone());
            assert_eq!(
                [same, flip, colors, cells],
                [Value::Bool(true), Value::Bool(true), Value::Bool(true), Value::Bool(true)],
                "k = {k}, [{i}][{j}]"
            );
            assert_eq!(diagonal, map(vec![(int(1), int(1)), (int(2), int(2)), (int(3), int(3))], int(0)));
        }
    }
}

#[test]
fn a_lambda_that_is_no_finite_table_cannot_be_evaluated() {
    let fixture = Fixture::new(
        "type T;
         procedure Below(k: int) returns (m: [int]bool) { m := (lambda i: int :: i < k); }
         procedure Identity() returns (r: int) { r := (lambda i: int :: i)[1]; }
         procedure Elements() returns (m: [T]T) { m := (lambda t: T :: t); }
         procedure Diagonal() returns (m: [int, int]bool) { m := (lambda i, j: int :: i == j); }
         procedure Rows() returns (m: [int, int]int) { m := (lambda i, j: int :: i); }",
    );
    let message = |name: &str, params: Vec<Value>| match fixture
        .run(&fixture.test(name, params, Vec::new()), TraceMode::Strict)
        .outcome
    {
        Outcome::CannotEvaluate(stop) => stop.message,
        other => panic!("{name}: {other:?}"),
    };
    assert!(message("Below", vec![int(3)]).contains("no finite table"));
    assert!(message("Identity", Vec::new()).contains("no finite table"));
    assert!(message("Elements", Vec::new()).contains("no finite table"));
    assert!(message("Diagonal", Vec::new()).contains("comparing its variables"));
    assert!(message("Rows", Vec::new()).contains("no finite table"));
}

const COLORS: &str = "
    type Color;
    const unique Red: Color;
    const unique Green, Blue: Color;
    function rank(c: Color): int;
    axiom (forall c: Color :: { rank(c) } c == Red || c == Green || c == Blue);
    procedure P() { var r: int; r := rank(Red); }";

#[test]
fn axioms_over_an_uninterpreted_type_range_over_the_tests_elements() {
    let fixture = Fixture::new(COLORS);
    // A test's universe of `Color` is the elements it mentions (the three unique
    // constants get 0, 1, 2), so the corpus's closed-world axiom holds.
    let outcome = fixture.run(&fixture.test("P", Vec::new(), Vec::new()), TraceMode::Strict).outcome;
    assert_eq!(outcome, Outcome::Passed);

    let fixture = Fixture::new(&COLORS.replace("c == Red || c == Green || c == Blue", "0 <= rank(c) && rank(c) <= 2"));
    let color = |index| Value::Elem { ty: hir::TypeId(0), index };
    let with_rank = |entries: Vec<(u32, i64)>, default: i64| {
        let mut input = fixture.test("P", Vec::new(), Vec::new());
        input.consts = vec![(hir::ConstId(0), color(0)), (hir::ConstId(1), color(1)), (hir::ConstId(2), color(2))];
        let entries = entries.into_iter().map(|(c, r)| (vec![color(c)], int(r))).collect();
        input.functions = vec![FunctionModel { function: fixture.function("rank"), entries, default: int(default) }];
        fixture.run(&input, TraceMode::Strict).outcome
    };
    assert_eq!(with_rank(vec![(0, 0), (1, 1)], 2), Outcome::Passed);
    assert_eq!(with_rank(vec![(0, 0), (1, 1), (2, 2)], 3), Outcome::Passed, "no fourth color to rank 3");
    assert!(matches!(with_rank(vec![(0, -1)], 2), Outcome::Invalid(_)), "Red ranks -1");
    // Where the run does not read (`rank` of color 7), a table breaking the axiom
    // leaves the run undecided: another table may agree with it on what it read.
    assert!(matches!(with_rank(vec![(7, -1)], 2), Outcome::CannotEvaluate(_)), "color 7 ranks -1");
}

#[test]
fn variables_compared_with_each_other_get_enough_points_per_gap() {
    let fixture = Fixture::new(
        "procedure E() returns (two: bool, none: bool, three: bool, sorted: bool) {
           two := (exists x, y: int :: !(x <= 5) && !(y <= x) && !(8 <= y));
           none := (exists x, y: int :: !(x <= 5) && !(y <= x) && !(7 <= y));
           three := (exists x, y, z: int :: !(x <= 5) && !(y <= x) && !(z <= y));
           sorted := (forall i, j: int :: i < j ==> (if i == 5 then 1 else 0) <= (if j == 5 then 1 else 0));
         }",
    );
    let replay = fixture.run(&fixture.test("E", Vec::new(), Vec::new()), TraceMode::Strict);
    assert_eq!(replay.outcome, Outcome::Passed);
    let values: Vec<Value> = replay.outputs.iter().map(|(_, value)| value.clone()).collect();
    assert_eq!(values, [true, false, true, false].map(Value::Bool));
}

#[test]
fn a_function_with_a_body_keeps_a_quantifier_unbounded() {
    let fixture = Fixture::new(
        "function next(x: int): int { x + 1 }
         procedure Q(a: [int]int) returns (r: bool) { r := (forall x: int :: a[next(x)] >= 0); }",
    );
    let outcome = fixture.run(&fixture.test("Q", vec![map(Vec::new(), int(0))], Vec::new()), TraceMode::Strict).outcome;
    assert!(
        matches!(&outcome, Outcome::CannotEvaluate(stop) if stop.message.contains("a function with a body")),
        "{outcome:?}"
    );
}

#[test]
fn a_closed_part_without_a_value_only_matters_where_reached() {
    let fixture = Fixture::new(
        "procedure Q(a: [int]int, n: int, b: bool) returns (r: bool) {
           r := (forall x: int, c: bool :: n != 0 && c == b ==> a[x] < 10 div n);
         }",
    );
    let a = map(vec![(int(4), int(9))], int(0));
    assert_eq!(fixture.output("Q", vec![a.clone(), int(0), Value::Bool(true)], "r"), Value::Bool(true));
    assert_eq!(fixture.output("Q", vec![a.clone(), int(1), Value::Bool(false)], "r"), Value::Bool(true));
    assert_eq!(fixture.output("Q", vec![a, int(2), Value::Bool(true)], "r"), Value::Bool(false));
}

#[test]
fn points_beyond_the_budget_exhaust_it() {
    let fixture = Fixture::new(
        "procedure Q(a: [int]int, b: [int]int) returns (r: bool) { r := (forall p, q: int :: a[p] == b[q]); }",
    );
    let big = map((0..100).map(|key| (int(key * 10), int(key))).collect(), int(0));
    let limits = Limits { max_steps: 10_000, ..Limits::default() };
    let replay = fixture.run_limited(&fixture.test("Q", vec![big.clone(), big], Vec::new()), TraceMode::Strict, limits);
    assert!(matches!(replay.outcome, Outcome::BudgetExhausted(_)), "{:?}", replay.outcome);
}

// ---------------------------------------------------------------------------------------
// Quantifiers decided by witnesses (a table with an opaque default)

const GROW: &str = "
    type Color;
    const unique Red: Color;
    const unique Blue: Color;
    function grow(x: int): int;
    function rank(c: Color): int;
    procedure Exists(x: int) returns (key: bool, neighbour: bool, color: bool) {
      key := (exists z: int :: z > x && grow(z) == 7);
      neighbour := (exists z: int :: z == x + 1 || grow(z) < z);
      color := (exists c: Color :: rank(c) == 2);
    }
    procedure Forall() returns (r: bool) { r := (forall z: int :: { grow(z) } grow(z) > z); }
    procedure Unknown(x: int) returns (r: bool) { r := (exists z: int :: grow(z) == x); }";

/// A run of `name` where `grow` (and `rank`, if given) are these tables with an opaque
/// default, as the decoder writes a function z3 gives an `else` computing with its
/// argument.
fn with_opaque_tables(
    fixture: &Fixture,
    name: &str,
    params: Vec<Value>,
    grow: Vec<(i64, i64)>,
    rank: Vec<(u32, i64)>,
) -> Replay {
    let opaque = || Value::Opaque("(+ (:var 0) 1)".to_string());
    let color = |index| Value::Elem { ty: hir::TypeId(0), index };
    let mut input = fixture.test(name, params, Vec::new());
    input.consts = vec![(hir::ConstId(0), color(0)), (hir::ConstId(1), color(1))];
    let grow = grow.into_iter().map(|(arg, result)| (vec![int(arg)], int(result))).collect();
    let rank = rank.into_iter().map(|(arg, result)| (vec![color(arg)], int(result))).collect();
    input.functions = vec![
        FunctionModel { function: fixture.function("grow"), entries: grow, default: opaque() },
        FunctionModel { function: fixture.function("rank"), entries: rank, default: opaque() },
    ];
    fixture.run(&input, TraceMode::Strict)
}

#[test]
fn an_exists_is_proved_by_a_witness_from_the_tables() {
    let fixture = Fixture::new(GROW);
    // `key`: the table key 5; `neighbour`: x + 1 = 4 (a neighbour of the input 3: `grow`
    // is opaque there, but the left disjunct holds); `color`: Blue, ranked 2.
    let replay = with_opaque_tables(&fixture, "Exists", vec![int(3)], vec![(5, 7)], vec![(1, 2)]);
    assert_eq!(replay.outcome, Outcome::Passed);
    let values: Vec<Value> = replay.outputs.iter().map(|(_, value)| value.clone()).collect();
    assert_eq!(values, [true, true, true].map(Value::Bool));
}

#[test]
fn a_forall_is_refuted_by_a_counterexample_from_the_tables() {
    let fixture = Fixture::new(GROW);
    let replay = with_opaque_tables(&fixture, "Forall", Vec::new(), vec![(0, 1), (3, 2)], Vec::new());
    assert_eq!(output(&replay, hir::Var::Local(fixture.local("Forall", "r"))), Value::Bool(false));
    // As an axiom, the counterexample makes the test invalid.
    let fixture = Fixture::new(&format!("{GROW}\naxiom (forall z: int :: {{ grow(z) }} grow(z) > z);"));
    let replay = with_opaque_tables(&fixture, "Forall", Vec::new(), vec![(0, 1), (3, 2)], Vec::new());
    assert!(matches!(replay.outcome, Outcome::Invalid(_)), "{:?}", replay.outcome);
}

#[test]
fn a_quantifier_no_candidate_decides_still_cannot_be_evaluated() {
    let fixture = Fixture::new(GROW);
    let cannot = |replay: Replay| match replay.outcome {
        Outcome::CannotEvaluate(stop) => stop.message,
        other => panic!("{other:?}"),
    };
    // Every table entry satisfies the body: a `forall` is not proved by them.
    let message = cannot(with_opaque_tables(&fixture, "Forall", Vec::new(), vec![(0, 1), (3, 4)], Vec::new()));
    assert!(message.contains("opaque"), "{message}");
    // No candidate is a witness: an `exists` is not refuted by them.
    let message = cannot(with_opaque_tables(&fixture, "Unknown", vec![int(100)], vec![(5, 7)], Vec::new()));
    assert!(message.contains("opaque"), "{message}");
    // Without a table entry there is no search at all (the same verdict, sooner).
    let message = cannot(with_opaque_tables(&fixture, "Unknown", vec![int(100)], Vec::new(), Vec::new()));
    assert!(message.contains("opaque"), "{message}");
    // As an axiom, an undecided quantifier is skipped: the test stays valid, and the run
    // goes on to the procedure's own (undecided) quantifier.
    let fixture = Fixture::new(&format!("{GROW}\naxiom (forall z: int :: {{ grow(z) }} grow(z) > z);"));
    let replay = with_opaque_tables(&fixture, "Forall", Vec::new(), vec![(0, 1), (3, 4)], Vec::new());
    assert!(matches!(replay.outcome, Outcome::CannotEvaluate(_)), "{:?}", replay.outcome);
}

// ---------------------------------------------------------------------------------------
// Checks, assumptions, loops

const LOOP: &str = "
    procedure L(n: int) returns (i: int) {
      i := 0;
      while (i < n) invariant i <= 2; invariant i >= 0; { i := i + 1; }
    }";

#[test]
fn loops_iterate_and_count_their_iterations() {
    let fixture = Fixture::new(LOOP);
    let replay = fixture.run(&fixture.test("L", vec![int(2)], Vec::new()), TraceMode::Strict);
    assert_eq!(replay.outcome, Outcome::Passed);
    let (id, found) = (fixture.implementation("L"), &fixture.cfg("L").loops[0]);
    assert_eq!(replay.coverage.loops[&(id, found.header)], [2]);
    assert_eq!(replay.coverage.edges[&(id, found.latches[0], found.header)], 2);
    assert_eq!(
        replay.coverage.edges.values().sum::<u64>(),
        7,
        "into the head 1 + 2, the body 2, the exit 1, the join 1"
    );
}

#[test]
fn an_invariant_broken_by_an_iteration_fails() {
    let fixture = Fixture::new(LOOP);
    let replay = fixture.run(&fixture.test("L", vec![int(5)], Vec::new()), TraceMode::Strict);
    let Outcome::Failed(violation) = &replay.outcome else { panic!("{:?}", replay.outcome) };
    assert_eq!(violation.kind, ViolationKind::Invariant { index: 0, iterations: 3 });
    assert_eq!(violation.message, "loop invariant `i <= 2` violated after iteration 3");
    let header = fixture.cfg("L").loops[0].header;
    assert_eq!(replay.coverage.loops[&(fixture.implementation("L"), header)], [3]);
}

#[test]
fn an_unchecked_run_goes_on_past_every_check_but_stops_at_assumptions() {
    let fixture = Fixture::new(
        "procedure Callee(x: int) requires x > 0; ensures false; { }
         procedure U(n: int) returns (i: int)
           requires n >= 0;
           ensures i == 0;
         {
           i := 0;
           assert n < 0;
           call Callee(0);
           while (i < n) invariant i <= 2; { i := i + 1; }
           assume i != 3;
         }",
    );
    let machine = Machine::new(&fixture.program, &fixture.cfgs, Limits::default());
    let (id, header) = (fixture.implementation("U"), fixture.cfg("U").loops[0].header);
    let checked = machine.run(&fixture.test("U", vec![int(5)], Vec::new()), TraceMode::Complete);
    assert!(matches!(&checked.outcome, Outcome::Failed(violation) if violation.kind == ViolationKind::Assert));
    let unchecked = machine.run_unchecked(&fixture.test("U", vec![int(5)], Vec::new()), u64::MAX);
    assert_eq!(unchecked.outcome, Outcome::Passed, "the assertion, the callee's contract, the invariant and `ensures`");
    assert_eq!(unchecked.coverage.loops[&(id, header)], [5]);
    assert!(checked.path.len() < unchecked.path.len() && unchecked.path.starts_with(&checked.path));
    let assumed = machine.run_unchecked(&fixture.test("U", vec![int(3)], Vec::new()), u64::MAX);
    assert!(matches!(&assumed.outcome, Outcome::Infeasible(stop) if stop.message.contains("i != 3")));
    let invalid = machine.run_unchecked(&fixture.test("U", vec![int(-1)], Vec::new()), u64::MAX);
    assert!(matches!(invalid.outcome, Outcome::Invalid(_)), "the entry's `requires` are the test's precondition");
    let short = machine.run_unchecked(&fixture.test("U", vec![int(5)], Vec::new()), 10);
    assert!(matches!(short.outcome, Outcome::BudgetExhausted(_)), "its own step budget: {:?}", short.outcome);
}

#[test]
fn nested_loops_count_each_entry() {
    let fixture = Fixture::new(
        "procedure N(n: int) returns (s: int) {
           var i, j: int;
           i := 0; s := 0;
           while (i < n) { j := 0; while (j < i) { j := j + 1; s := s + 1; } i := i + 1; }
         }",
    );
    let replay = fixture.run(&fixture.test("N", vec![int(3)], Vec::new()), TraceMode::Strict);
    assert_eq!(replay.outcome, Outcome::Passed);
    let cfg = fixture.cfg("N");
    let counts = |index: usize| replay.coverage.loops[&(cfg.implementation, cfg.loops[index].header)].clone();
    assert_eq!((counts(0), counts(1)), (vec![3], vec![0, 1, 2]));
}

#[test]
fn an_infinite_loop_exhausts_the_steps() {
    let fixture = Fixture::new("procedure I() returns (x: int) { while (true) { x := x + 1; } }");
    let limits = Limits { max_steps: 1000, ..Limits::default() };
    let replay = fixture.run_limited(&fixture.test("I", Vec::new(), Vec::new()), TraceMode::Strict, limits);
    assert!(matches!(replay.outcome, Outcome::BudgetExhausted(_)), "{:?}", replay.outcome);
    assert!(replay.steps > 1000);
}

#[test]
fn assertions_fail_and_assumptions_make_a_path_infeasible() {
    let fixture = Fixture::new(
        "procedure A(x: int) { assert x > 0; }
         procedure B(x: int) { assume x > 0; assert false; }",
    );
    let replay = fixture.run(&fixture.test("A", vec![int(0)], Vec::new()), TraceMode::Strict);
    let Outcome::Failed(violation) = &replay.outcome else { panic!("{:?}", replay.outcome) };
    assert_eq!((&violation.kind, violation.message.as_str()), (&ViolationKind::Assert, "assertion `x > 0` violated"));
    let replay = fixture.run(&fixture.test("B", vec![int(0)], Vec::new()), TraceMode::Strict);
    assert!(matches!(&replay.outcome, Outcome::Infeasible(stop) if stop.message == "assumption `x > 0` does not hold"));
}

#[test]
fn a_false_free_invariant_is_an_assumption() {
    let fixture =
        Fixture::new("procedure C(x: int) { var y: int; y := x; while (y > 0) free invariant y < 1; { y := y - 1; } }");
    let replay = fixture.run(&fixture.test("C", vec![int(0)], Vec::new()), TraceMode::Strict);
    assert_eq!(replay.outcome, Outcome::Passed);
    let replay = fixture.run(&fixture.test("C", vec![int(2)], Vec::new()), TraceMode::Strict);
    assert!(matches!(&replay.outcome, Outcome::Infeasible(stop) if stop.message.contains("free loop invariant")));
}

#[test]
fn outcomes_render_with_their_position() {
    let source = "procedure A(x: int) {\n  assert x > 0;\n}";
    let fixture = Fixture::new(source);
    let replay = fixture.run(&fixture.test("A", vec![int(0)], Vec::new()), TraceMode::Strict);
    let mut db = crate::source::SourceDb::new();
    db.add("t.bpl", source);
    assert_eq!(replay.outcome.describe(&db), "assertion `x > 0` violated at t.bpl:2:3");
}

#[test]
fn the_entry_precondition_and_axioms_judge_the_test() {
    let fixture = Fixture::new(
        "const N: int; axiom N > 0;
         procedure P(x: int) requires x > 0; free requires x < 10; { var n: int; n := N; }",
    );
    let n = (hir::ConstId(0), int(1));
    let verdict = |x: i64, consts: Vec<(hir::ConstId, Value)>| {
        let mut input = fixture.test("P", vec![int(x)], Vec::new());
        input.consts = consts;
        fixture.run(&input, TraceMode::Strict).outcome
    };
    assert_eq!(verdict(5, vec![n.clone()]), Outcome::Passed);
    assert!(matches!(verdict(0, vec![n.clone()]), Outcome::Invalid(stop) if stop.message.contains("`x > 0`")));
    assert!(matches!(verdict(10, vec![n]), Outcome::Invalid(_)), "free preconditions too");
    assert!(matches!(verdict(5, Vec::new()), Outcome::Invalid(stop) if stop.message.contains("axiom")));
}

#[test]
fn inputs_of_the_wrong_type_are_invalid() {
    let fixture = Fixture::new("procedure P(x: int) { }");
    let outcome = fixture.run(&fixture.test("P", vec![Value::Bool(true)], Vec::new()), TraceMode::Strict).outcome;
    assert!(matches!(outcome, Outcome::Invalid(_)));
    let outcome = fixture.run(&fixture.test("P", Vec::new(), Vec::new()), TraceMode::Strict).outcome;
    assert!(matches!(outcome, Outcome::Invalid(stop) if stop.message.contains("takes 1 parameters")));
}

#[test]
fn missing_unique_constants_get_distinct_values() {
    let fixture = Fixture::new(
        "type T; const unique a: T; const unique b: T; const unique c: int; const unique d: int;
         procedure P() { assert a != b && c != d; }",
    );
    let mut input = fixture.test("P", Vec::new(), Vec::new());
    input.consts = vec![(hir::ConstId(2), int(0))];
    assert_eq!(fixture.run(&input, TraceMode::Strict).outcome, Outcome::Passed);
    input.consts.push((hir::ConstId(3), int(0)));
    assert!(
        matches!(fixture.run(&input, TraceMode::Strict).outcome, Outcome::Invalid(stop) if stop.message.contains("unique"))
    );
}

// ---------------------------------------------------------------------------------------
// The trace

#[test]
fn havoc_takes_its_value_from_the_trace() {
    let fixture = Fixture::new("procedure H() returns (x: int) { havoc x; assert x > 0; }");
    let replay = fixture.run(&fixture.test("H", Vec::new(), vec![havoc("x", int(3))]), TraceMode::Strict);
    assert_eq!((replay.outcome, replay.outputs[0].1.clone()), (Outcome::Passed, int(3)));
    let replay = fixture.run(&fixture.test("H", Vec::new(), vec![havoc("x", int(-1))]), TraceMode::Strict);
    assert!(matches!(replay.outcome, Outcome::Failed(_)));
    let replay = fixture.run(&fixture.test("H", Vec::new(), vec![havoc("y", int(3))]), TraceMode::Strict);
    assert!(matches!(&replay.outcome, Outcome::ReplayError { index: 0, stop } if stop.message.contains("havoc `y`")));
    let replay = fixture.run(&fixture.test("H", Vec::new(), vec![havoc("x", Value::Bool(true))]), TraceMode::Strict);
    assert!(matches!(&replay.outcome, Outcome::ReplayError { index: 0, stop } if stop.message.contains("wrong type")));
}

#[test]
fn a_star_branch_takes_the_goto_entry() {
    let fixture = Fixture::new("procedure S() returns (x: int) { if (*) { x := 1; } else { x := 2; } }");
    let replay = fixture.run(&fixture.test("S", Vec::new(), vec![goto("if#1/else")]), TraceMode::Strict);
    assert_eq!((replay.outcome, replay.outputs[0].1.clone()), (Outcome::Passed, int(2)));
    let replay = fixture.run(&fixture.test("S", Vec::new(), vec![goto("if#2/else")]), TraceMode::Strict);
    assert!(
        matches!(&replay.outcome, Outcome::ReplayError { stop, .. } if stop.message.contains("if#1/then, if#1/else"))
    );
}

#[test]
fn guarded_gotos_need_no_trace_entry() {
    let fixture = Fixture::new(
        "procedure G(a: int) returns (x: int) {
           goto A, B;
           A: assume a > 0; x := 1; return;
           B: assume a <= 0; x := 2; return;
         }",
    );
    let replay = fixture.run(&fixture.test("G", vec![int(-1)], Vec::new()), TraceMode::Strict);
    assert_eq!((replay.outcome, replay.outputs[0].1.clone(), replay.trace), (Outcome::Passed, int(2), Vec::new()));
}

#[test]
fn strict_mode_needs_every_entry_and_uses_all() {
    let fixture = Fixture::new("procedure S() returns (x: int) { havoc x; if (*) { x := 1; } }");
    let replay = fixture.run(&fixture.test("S", Vec::new(), Vec::new()), TraceMode::Strict);
    assert!(matches!(&replay.outcome, Outcome::ReplayError { index: 0, stop } if stop.message.contains("no entry")));
    let trace = vec![havoc("x", int(4))];
    let replay = fixture.run(&fixture.test("S", Vec::new(), trace), TraceMode::Strict);
    assert!(matches!(&replay.outcome, Outcome::ReplayError { index: 1, stop } if stop.message.contains("goto entry")));
    let trace = vec![havoc("x", int(4)), goto("if#1/else"), goto("if#1/else")];
    let replay = fixture.run(&fixture.test("S", Vec::new(), trace), TraceMode::Strict);
    assert!(matches!(&replay.outcome, Outcome::ReplayError { index: 2, stop } if stop.message.contains("1 unused")));
}

const CHOICES: &str = "
    var g: int;
    procedure Q(a: int) returns (r: int, s: int); modifies g; ensures r > a;
    procedure C() returns (x: int, y: int, z: int) modifies g; {
      havoc z;
      if (*) { call x, y := Q(-1); }
    }";

#[test]
fn complete_mode_fills_the_trace_and_strict_mode_replays_it() {
    let fixture = Fixture::new(CHOICES);
    let replay = fixture.run(&fixture.test("C", Vec::new(), Vec::new()), TraceMode::Complete);
    assert_eq!(replay.outcome, Outcome::Passed);
    let call = |var: &str| TraceItem::CallOut { callee: "Q".to_string(), var: var.to_string(), value: int(0) };
    let modified = TraceItem::CallModifies { callee: "Q".to_string(), global: "g".to_string(), value: int(0) };
    let expected = vec![havoc("z", int(0)), goto("if#1/then"), modified, call("x"), call("y")];
    assert_eq!(replay.trace, expected);
    let again = fixture.run(&fixture.test("C", Vec::new(), replay.trace.clone()), TraceMode::Strict);
    assert_eq!((again.outcome, again.trace), (Outcome::Passed, expected));
}

#[test]
fn a_bodiless_callee_takes_modifies_then_outs_and_assumes_its_ensures() {
    let fixture = Fixture::new(CHOICES);
    let entry = |kind: &str, name: &str, value: i64| match kind {
        "out" => TraceItem::CallOut { callee: "Q".to_string(), var: name.to_string(), value: int(value) },
        _ => TraceItem::CallModifies { callee: "Q".to_string(), global: name.to_string(), value: int(value) },
    };
    let trace = |x: i64| {
        vec![havoc("z", int(0)), goto("if#1/then"), entry("g", "g", 9), entry("out", "x", x), entry("out", "y", 6)]
    };
    let replay = fixture.run(&fixture.test("C", Vec::new(), trace(5)), TraceMode::Strict);
    assert_eq!(replay.outcome, Outcome::Passed);
    let values: Vec<Value> = replay.outputs.iter().map(|(_, value)| value.clone()).collect();
    assert_eq!(values, [int(5), int(6), int(0), int(9)]);
    let replay = fixture.run(&fixture.test("C", Vec::new(), trace(-1)), TraceMode::Strict);
    assert!(matches!(&replay.outcome, Outcome::Infeasible(stop) if stop.message.contains("`r > a`")));
    let mut swapped = trace(5);
    swapped.swap(2, 3);
    let replay = fixture.run(&fixture.test("C", Vec::new(), swapped), TraceMode::Strict);
    assert!(matches!(replay.outcome, Outcome::ReplayError { index: 2, .. }), "{:?}", replay.outcome);
}

/// A candidate's run that left its trace's path: the trace's globals for a frame-keeping
/// callee, or its choice of a branch whose `assume` is false here, are replaced (in
/// complete mode only) by the unchanged globals and a feasible branch; past the trace a
/// modified global keeps its value. The trace recorded is the run's.
#[test]
fn complete_mode_keeps_a_callee_s_frame_and_takes_a_feasible_branch_off_the_trace() {
    let fixture = Fixture::new(
        "var g: int;
         procedure Keep(); modifies g; ensures g == old(g);
         procedure P(a: int) returns (r: int) modifies g; {
           g := a; call Keep(); call Keep();
           goto Big, Small;
           Big: assume g > 5; r := 1; return;
           Small: assume g <= 5; r := 2;
         }",
    );
    let kept =
        |value: i64| TraceItem::CallModifies { callee: "Keep".to_string(), global: "g".to_string(), value: int(value) };
    let input = fixture.test("P", vec![int(3)], vec![kept(9), kept(9), goto("goto:Big")]);
    let replay = fixture.run(&input, TraceMode::Complete);
    assert_eq!(replay.outcome, Outcome::Passed);
    assert_eq!(output(&replay, hir::Var::Local(fixture.local("P", "r"))), int(2));
    assert_eq!(replay.trace, [kept(3), kept(3)], "one branch is feasible: no choice to record");
    let again = fixture.run(&fixture.test("P", vec![int(3)], replay.trace.clone()), TraceMode::Strict);
    assert_eq!(again.outcome, Outcome::Passed, "the recorded trace replays strictly");
    let strict = fixture.run(&input, TraceMode::Strict);
    assert!(matches!(&strict.outcome, Outcome::Infeasible(stop) if stop.message.contains("`g == old(g)`")));
}

/// A candidate's map after a body-less call is known only at the keys its model read;
/// where the trace's map breaks the callee's frame elsewhere, complete mode lays it over
/// the map before the call (the trace's keys kept, every other key unchanged), and
/// records that value; strict mode checks the trace as it is.
#[test]
fn complete_mode_lays_a_callee_s_new_map_over_the_old_one_to_keep_its_frame() {
    let fixture = Fixture::new(
        "var alloc: [int]int;
         procedure Malloc() returns (p: int); modifies alloc;
           ensures old(alloc)[p] == 0 && alloc[p] == 1;
           ensures (forall x: int :: x == p || alloc[x] == old(alloc)[x]);
         procedure P() returns (r: int) modifies alloc; { alloc := alloc[7 := 1]; call r := Malloc(); }",
    );
    let after = map(vec![(int(3), int(1))], int(0));
    let trace = vec![
        TraceItem::CallModifies { callee: "Malloc".to_string(), global: "alloc".to_string(), value: after },
        TraceItem::CallOut { callee: "Malloc".to_string(), var: "r".to_string(), value: int(3) },
    ];
    let input = fixture.test("P", Vec::new(), trace.clone());
    let strict = fixture.run(&input, TraceMode::Strict);
    assert!(matches!(&strict.outcome, Outcome::Infeasible(stop) if stop.message.contains("forall")), "{strict:?}");
    let replay = fixture.run(&input, TraceMode::Complete);
    assert_eq!(replay.outcome, Outcome::Passed);
    let overlaid = map(vec![(int(3), int(1)), (int(7), int(1))], int(0));
    assert!(
        matches!(&replay.trace[0], TraceItem::CallModifies { value, .. } if value == &overlaid),
        "{:?}",
        replay.trace
    );
    let again = fixture.run(&fixture.test("P", Vec::new(), replay.trace.clone()), TraceMode::Strict);
    assert_eq!(again.outcome, Outcome::Passed, "the recorded trace replays strictly");
}

/// A predicate no axiom defines is open where the test's table has no default, one
/// whose definition reads itself through a set's members (the between predicate and
/// its set) whatever its table says: the solver decides it there. One whose definition
/// a run evaluates is not, nor a set, nor an undefined predicate whose table has a
/// default.
#[test]
fn predicates_defined_in_a_circle_or_not_at_all_are_open_off_their_tables() {
    let fixture = Fixture::new(
        "function R(x: int, y: int): bool; function S(x: int): [int]bool;
         function Free(x: int): bool; function Pos(x: int): bool; function Known(x: int): bool;
         axiom (forall x: int, y: int :: { S(x)[y] } S(x)[y] <==> R(x, y));
         axiom (forall x: int :: { Pos(x) } Pos(x) <==> x > 0);
         procedure P() { }",
    );
    let machine = Machine::new(&fixture.program, &fixture.cfgs, Limits::default());
    let mut input = TestInput::new(fixture.implementation("P"));
    for name in ["R", "S", "Free", "Pos", "Known"] {
        let default = if matches!(name, "Known" | "R") { Value::Bool(false) } else { Value::unspecified() };
        input.functions.push(FunctionModel { function: fixture.function(name), entries: Vec::new(), default });
    }
    let open = machine.open_predicates(&input);
    assert_eq!(open, BTreeSet::from([fixture.function("R"), fixture.function("Free")]));
}

// ---------------------------------------------------------------------------------------
// Calls of procedures with a body

const CALLS: &str = "
    var g: int;
    procedure Inc(a: int) returns (b: int) requires a >= 0; ensures b == a + 1; modifies g;
    { var t: int; if (t > 0) { g := g + t; } b := a + 1; if (a == 7) { b := 0; } }
    procedure Main(a: int) returns (r: int) modifies g; { call r := Inc(a); r := r * 2; }
    procedure Down(n: int) { call Down(n + 1); }";

#[test]
fn a_callee_with_a_body_really_runs() {
    let fixture = Fixture::new(CALLS);
    let replay = fixture.run(&fixture.test("Main", vec![int(2)], vec![havoc("t", int(5))]), TraceMode::Strict);
    assert_eq!(replay.outcome, Outcome::Passed);
    assert_eq!(replay.outputs.iter().map(|(_, value)| value.clone()).collect::<Vec<_>>(), [int(6), int(5)]);
    let inc = fixture.implementation("Inc");
    assert!(replay.coverage.blocks[&inc].contains(&fixture.cfg("Inc").entry));
}

#[test]
fn callee_contracts_are_checked() {
    let fixture = Fixture::new(CALLS);
    let replay = fixture.run(&fixture.test("Main", vec![int(7)], vec![havoc("t", int(0))]), TraceMode::Strict);
    let Outcome::Failed(violation) = &replay.outcome else { panic!("{:?}", replay.outcome) };
    assert!(matches!(violation.kind, ViolationKind::Ensures { clause: 0, .. }) && violation.call.is_some());
    assert_eq!(violation.message, "postcondition `b == a + 1` of `Inc` violated");
    let replay = fixture.run(&fixture.test("Main", vec![int(-1)], vec![havoc("t", int(0))]), TraceMode::Strict);
    let Outcome::Failed(violation) = &replay.outcome else { panic!("{:?}", replay.outcome) };
    assert!(matches!(violation.kind, ViolationKind::Requires { clause: 0, .. }) && violation.call.is_some());
}

#[test]
fn infinite_recursion_exhausts_the_depth() {
    let fixture = Fixture::new(CALLS);
    let replay = fixture.run(&fixture.test("Down", vec![int(0)], Vec::new()), TraceMode::Strict);
    assert!(matches!(&replay.outcome, Outcome::BudgetExhausted(stop) if stop.message.contains("deeper than 1000")));
}

// ---------------------------------------------------------------------------------------
// Coverage

#[test]
fn coverage_reports_the_goals_entered() {
    let fixture = Fixture::new(
        "procedure T(a: int, b: int) returns (x: int) { if (a > 0) { x := 1; } if (b > 0) { x := x + 1; } }",
    );
    let replay = fixture.run(&fixture.test("T", vec![int(1), int(0)], Vec::new()), TraceMode::Strict);
    let goals: Vec<String> = replay.coverage.goals(fixture.cfg("T")).iter().map(ToString::to_string).collect();
    assert_eq!(goals, ["T/if#1/then", "T/if#2/else"]);
}

/// A goal's seed lies after its block's leading `assume`s: a run those stop has not
/// reached the goal, whether a trace entry chose the branch or the block is the entry.
/// (Found by the `pipeline` fuzz target: a test claimed a goal its run never reached.)
#[test]
fn a_run_stopped_by_leading_assumes_does_not_enter_the_block() {
    let fixture =
        Fixture::new("procedure S(a: int) returns (x: int) { if (*) { assume a > 9; x := 1; } else { x := 2; } }");
    let replay = fixture.run(&fixture.test("S", vec![int(0)], vec![goto("if#1/then")]), TraceMode::Strict);
    assert!(matches!(replay.outcome, Outcome::Infeasible(_)), "{:?}", replay.outcome);
    assert!(replay.coverage.goals(fixture.cfg("S")).is_empty());
    let replay = fixture.run(&fixture.test("S", vec![int(10)], vec![goto("if#1/then")]), TraceMode::Strict);
    let goals: Vec<String> = replay.coverage.goals(fixture.cfg("S")).iter().map(ToString::to_string).collect();
    assert_eq!((replay.outcome, goals), (Outcome::Passed, vec!["S/if#1/then".to_string()]));

    let fixture = Fixture::new("procedure E(a: int) returns (x: int) { assume a > 0; x := a; }");
    let replay = fixture.run(&fixture.test("E", vec![int(0)], Vec::new()), TraceMode::Strict);
    assert!(matches!(replay.outcome, Outcome::Infeasible(_)) && replay.coverage.goals(fixture.cfg("E")).is_empty());
    assert!(replay.path.is_empty());
}

// ---------------------------------------------------------------------------------------
// Reals and bit-vectors

fn real(numerator: i64, denominator: i64) -> Value {
    Value::Real(num_rational::BigRational::new(numerator.into(), denominator.into()))
}

fn bits(value: u64, width: u32) -> Value {
    Value::BitVec { value: value.into(), width }
}

#[test]
fn reals_are_exact_and_bit_vectors_wrap() {
    let fixture = Fixture::new(
        r#"function {:bvbuiltin "bvadd"} add(x: bv8, y: bv8): bv8;
        procedure Third(x: real) returns (r: real) { r := x / 3.0 - real(int(x)); }
        procedure Wrap(x: bv8) returns (r: bv12) { r := add(x, 200bv8)[8:0] ++ x[4:0]; }"#,
    );
    assert_eq!(fixture.output("Third", vec![real(7, 2)], "r"), real(-11, 6));
    assert_eq!(fixture.output("Wrap", vec![bits(100, 8)], "r"), bits(44 << 4 | 4, 12));
}

/// Quantifiers over reals take representatives in the gaps of a dense order, over
/// bit-vectors the points of their width and fresh values; both decide exactly.
#[test]
fn quantifiers_over_reals_and_bit_vectors_are_decided() {
    let fixture = Fixture::new(
        "procedure Between(s: real, t: real) returns (r: bool) { r := (exists x: real :: s < x && x < t); }
         procedure Others(m: [bv32]int, k: bv32) returns (r: bool) {
           r := (forall b, c: bv32 :: b != c && b != k && c != k ==> m[b] == m[c]);
         }",
    );
    assert_eq!(fixture.output("Between", vec![real(1, 3), real(1, 2)], "r"), Value::Bool(true));
    assert_eq!(fixture.output("Between", vec![real(1, 2), real(1, 2)], "r"), Value::Bool(false));
    let table = |entries: Vec<(u64, i64)>| {
        map(entries.into_iter().map(|(key, value)| (bits(key, 32), int(value))).collect(), int(1))
    };
    assert_eq!(fixture.output("Others", vec![table(vec![(7, 0)]), bits(7, 32)], "r"), Value::Bool(true));
    assert_eq!(fixture.output("Others", vec![table(vec![(8, 0)]), bits(7, 32)], "r"), Value::Bool(false));
}

// ---------------------------------------------------------------------------------------
// Axioms no finite table satisfies; functions axioms define; the deadline

/// `AtLeast(x)` is the set of every `y >= x`: infinite, so no finite table (entries and
/// a default) satisfies both axioms.
const SETS: &str = "
    function AtLeast(x: int): [int]bool;
    axiom (forall x: int, y: int :: { AtLeast(x)[y] } AtLeast(x)[y] ==> x <= y);
    axiom (forall x: int, y: int :: { AtLeast(x)[y] } x <= y ==> AtLeast(x)[y]);
    procedure Member(x: int, y: int) returns (r: bool) { r := AtLeast(x)[y]; }";

/// A run of `Member(x, y)` where `AtLeast(0)` is the set `members` (and every other
/// `AtLeast(x)` empty).
fn member(fixture: &Fixture, (x, y): (i64, i64), members: &[i64]) -> Replay {
    let set = |members: &[i64]| {
        Value::Map(MapValue::new(
            members.iter().map(|&key| (int(key), Value::Bool(true))).collect(),
            Value::Bool(false),
        ))
    };
    let mut input = fixture.test("Member", vec![int(x), int(y)], Vec::new());
    let entries = vec![(vec![int(0)], set(members))];
    input.functions = vec![FunctionModel { function: fixture.function("AtLeast"), entries, default: set(&[]) }];
    fixture.run(&input, TraceMode::Strict)
}

#[test]
fn an_axiom_the_tables_break_only_where_the_run_does_not_read_leaves_the_run_unchecked() {
    let fixture = Fixture::new(SETS);
    // The tables break the second axiom (at `AtLeast(0)[3]`, and at every `x` but 0),
    // where `Member(0, 1)` does not read: an execution only if some infinite set
    // extends them, which replay does not decide.
    let replay = member(&fixture, (0, 1), &[0, 1, 2]);
    let Outcome::CannotEvaluate(stop) = &replay.outcome else { panic!("{:?}", replay.outcome) };
    assert!(replay.beyond_reads);
    assert!(stop.message.contains("points its run does not read"), "{}", stop.message);
    assert!(stop.message.contains("x <= y ==> AtLeast(x)[y]"), "{}", stop.message);
    // The run's own outputs are still recorded: it passed on what it read.
    assert_eq!(output(&replay, hir::Var::Local(fixture.local("Member", "r"))), Value::Bool(true));
}

#[test]
fn an_axiom_false_on_the_points_the_run_reads_makes_the_test_invalid() {
    let fixture = Fixture::new(SETS);
    // The run reads `AtLeast(0)`, which holds -1: the first axiom is false there,
    // however the rest of the tables is extended.
    let replay = member(&fixture, (0, 1), &[-1, 0, 1]);
    let Outcome::Invalid(stop) = &replay.outcome else { panic!("{:?}", replay.outcome) };
    assert!(!replay.beyond_reads);
    assert!(stop.message.contains("points of the test's functions its run reads"), "{}", stop.message);
    // Where: `x = 0, y = -1`, the binding counterexample-guided instantiation asserts.
    let refutation = Refutation { check: RefutedCheck::Axiom(0), conjunct: 0, bindings: vec![vec![int(0), int(-1)]] };
    assert_eq!(replay.refutation, Some(refutation));
}

#[test]
fn a_run_that_passes_beside_an_axiom_it_cannot_evaluate_is_unchecked_with_the_reason() {
    // A quantifier over maps is beyond enumeration: the run goes on, and its pass
    // holds only if the axiom does.
    let fixture = Fixture::new(
        "const N: int;
        axiom (forall m: [int]int :: m[N] == m[N + 1] || m[N] != m[N + 1]);
        procedure P(x: int) returns (r: bool) { r := x > N; }",
    );
    let replay = fixture.run(&fixture.test("P", vec![int(1)], Vec::new()), TraceMode::Strict);
    let Outcome::CannotEvaluate(stop) = &replay.outcome else { panic!("{:?}", replay.outcome) };
    assert!(stop.message.contains("which replay cannot decide"), "{}", stop.message);
    assert_eq!(replay.refutation, None);
    assert!(!replay.stopped_unconfirmed, "it did not stop");
}

/// An assumption that stops a run beside an axiom replay cannot evaluate stops an
/// execution only if the axiom holds: the run is unchecked, with both reasons, and
/// what it entered before still counts (its coverage is kept).
#[test]
fn a_run_an_assumption_stops_beside_an_axiom_it_cannot_evaluate_is_unchecked_with_the_reason() {
    let fixture = Fixture::new(
        "const N: int;
        axiom (forall m: [int]int :: m[N] == m[N + 1] || m[N] != m[N + 1]);
        procedure P(x: int) returns (r: bool) { r := x > N; assume x < N; }",
    );
    let replay = fixture.run(&fixture.test("P", vec![int(1)], Vec::new()), TraceMode::Strict);
    let Outcome::CannotEvaluate(stop) = &replay.outcome else { panic!("{:?}", replay.outcome) };
    assert!(stop.message.contains(" only if axiom"), "{}", stop.message);
    assert!(stop.message.contains("which replay cannot decide"), "{}", stop.message);
    assert!(!replay.path.is_empty(), "the blocks it entered are kept");
    assert!(replay.stopped_unconfirmed, "a stop all the same, which a more exact graph may lead past");
}

const OFFSETS: &str = "
    function Offset(p: int): int;
    axiom (forall p: int :: { Offset(p) } Offset(p) == p + 40);
    procedure Field(p: int) returns (r: int) { r := Offset(p) + Offset(p + 1); }";

#[test]
fn a_function_an_axiom_defines_agrees_with_it_and_is_evaluated_by_it_off_its_table() {
    let fixture = Fixture::new(OFFSETS);
    let machine = Machine::new(&fixture.program, &fixture.cfgs, Limits::default());
    // A candidate's table: a wrong entry, and a default the axiom breaks everywhere.
    let mut input = fixture.test("Field", vec![int(1)], Vec::new());
    let entries = vec![(vec![int(1)], int(7))];
    input.functions = vec![FunctionModel { function: fixture.function("Offset"), entries, default: int(5) }];
    let broken = machine.run(&input, TraceMode::Strict);
    assert!(matches!(broken.outcome, Outcome::Invalid(_)), "{:?}", broken.outcome);
    machine.agree_with_definitions(&mut input);
    assert_eq!(input.functions[0].entries, vec![(vec![int(1)], int(41))]);
    assert_eq!(input.functions[0].default, Value::unspecified());
    // `Offset(2)` is off the table: the definition gives 42.
    let replay = machine.run(&input, TraceMode::Strict);
    assert_eq!(replay.outcome, Outcome::Passed);
    assert_eq!(output(&replay, hir::Var::Local(fixture.local("Field", "r"))), int(83));
    // A table breaking the definition at an entry is still judged by the axiom.
    input.functions[0].entries = vec![(vec![int(1)], int(40))];
    assert!(matches!(machine.run(&input, TraceMode::Strict).outcome, Outcome::Invalid(_)));
}

/// A function axioms define that a test gives no table (a candidate's model leaves out
/// the functions E-matching never applied) is its definition, not its type's default.
#[test]
fn a_defined_function_without_a_table_is_its_definition() {
    let fixture = Fixture::new(OFFSETS);
    let machine = Machine::new(&fixture.program, &fixture.cfgs, Limits::default());
    let mut input = fixture.test("Field", vec![int(1)], Vec::new());
    machine.agree_with_definitions(&mut input);
    assert!(input.functions.is_empty(), "agreement adds no table");
    let replay = machine.run(&input, TraceMode::Strict);
    assert_eq!(replay.outcome, Outcome::Passed);
    assert_eq!(output(&replay, hir::Var::Local(fixture.local("Field", "r"))), int(83));
}

#[test]
fn a_run_past_its_deadline_stops_as_over_budget() {
    let fixture = Fixture::new("procedure Spin(n: int) returns (i: int) { i := 0; while (i < n) { i := i + 1; } }");
    let limits = Limits { deadline: Some(std::time::Instant::now()), ..Limits::default() };
    let replay =
        fixture.run_limited(&fixture.test("Spin", vec![int(1_000_000)], Vec::new()), TraceMode::Strict, limits);
    let Outcome::BudgetExhausted(stop) = &replay.outcome else { panic!("{:?}", replay.outcome) };
    assert!(stop.message.contains("time limit"), "{}", stop.message);
    assert!(replay.steps < 10_000, "stopped within a few thousand steps: {}", replay.steps);
}

/// A driver model's branch on a cell of a global map that a body-less callee keeps
/// (`ensures Mem == old(Mem)`), read off the map's entries: the run records the cell and
/// the value its guard wants, and the test with that cell set in the entry value and in
/// the value the trace gives the callee's `modifies` enters the branch.
#[test]
fn a_branch_on_a_cell_the_test_sets_only_through_a_default_is_entered_by_its_flip() {
    let fixture = Fixture::new(
        "var Mem: [int][int]int;
procedure Touch();
  modifies Mem;
  ensures Mem == old(Mem);
procedure P(p: int) returns (r: int)
  modifies Mem;
{
  call Touch();
  goto A, B;
  A: assume Mem[1][p + 8] != 0; r := 1; return;
  B: assume Mem[1][p + 8] == 0; r := 0; return;
}
",
    );
    let empty = map(Vec::new(), map(Vec::new(), int(0)));
    let modified = TraceItem::CallModifies { callee: "Touch".to_string(), global: "Mem".to_string(), value: empty };
    let input = fixture.test("P", vec![int(5)], vec![modified, goto("goto:B")]);
    let machine = Machine::new(&fixture.program, &fixture.cfgs, Limits::default());
    let replay = machine.run(&input, TraceMode::Complete);
    assert_eq!(output(&replay, hir::Var::Local(fixture.local("P", "r"))), int(0));
    let flips: Vec<&CellFlip> = replay.cell_flips.values().flatten().collect();
    let wanted = CellFlip {
        var: hir::Var::Global(fixture.global("Mem")),
        keys: vec![int(1), int(13)],
        read: int(0),
        wanted: int(1),
    };
    assert_eq!(flips, vec![&wanted]);
    let flipped = machine.flipped(&input, &wanted).expect("the cell is set");
    let set = map(vec![(int(1), map(vec![(int(13), int(1))], int(0)))], map(Vec::new(), int(0)));
    assert_eq!(flipped.globals, vec![(fixture.global("Mem"), set.clone())]);
    assert!(matches!(&flipped.trace[0], TraceItem::CallModifies { value, .. } if *value == set), "{:?}", flipped.trace);
    let replay = machine.run(&flipped, TraceMode::Complete);
    assert_eq!(replay.outcome, Outcome::Passed);
    assert_eq!(output(&replay, hir::Var::Local(fixture.local("P", "r"))), int(1));
    // The flipped test replays strictly with the trace the run completed.
    let strict = TestInput { trace: replay.trace.clone(), ..flipped };
    assert_eq!(machine.run(&strict, TraceMode::Strict).outcome, Outcome::Passed);
}

/// A guard on a local a body-less callee's result set: the flip sets the trace's value.
#[test]
fn a_branch_on_a_callee_s_result_is_entered_by_flipping_the_trace_s_value() {
    let fixture = Fixture::new(
        "procedure Alloc() returns (q: int);
  ensures q >= 0;
procedure P() returns (r: int)
{
  var q: int;
  call q := Alloc();
  if (q != 0) { r := 1; } else { r := 0; }
}
",
    );
    let out = TraceItem::CallOut { callee: "Alloc".to_string(), var: "q".to_string(), value: int(0) };
    let input = fixture.test("P", Vec::new(), vec![out]);
    let machine = Machine::new(&fixture.program, &fixture.cfgs, Limits::default());
    let replay = machine.run(&input, TraceMode::Complete);
    let flip = replay.cell_flips.values().flatten().next().expect("the guard `q != 0` wants a flip").clone();
    assert_eq!(
        (flip.var, flip.keys.is_empty(), &flip.wanted),
        (hir::Var::Local(fixture.local("P", "q")), true, &int(1))
    );
    let flipped = machine.flipped(&input, &flip).expect("the trace's value changes");
    let replay = machine.run(&flipped, TraceMode::Complete);
    assert_eq!(output(&replay, hir::Var::Local(fixture.local("P", "r"))), int(1));
}

/// A trace made for another path: in complete mode the run takes the next entry for
/// each choice it makes, past those for choices it does not, and leaves a `goto` entry
/// naming no branch here for a later `goto`; in strict mode each is a replay error.
#[test]
fn a_completing_run_follows_a_trace_made_for_another_path_where_it_fits() {
    let fixture = Fixture::new(
        "procedure Other() returns (x: int);
procedure Alloc() returns (q: int);
procedure P() returns (r: int)
{
  var q: int;
  goto A, B;
  A: r := 1; goto C;
  B: r := 2; goto C;
  C: call q := Alloc();
  r := r + q;
}
",
    );
    let other = TraceItem::CallOut { callee: "Other".to_string(), var: "x".to_string(), value: int(3) };
    let alloc = TraceItem::CallOut { callee: "Alloc".to_string(), var: "q".to_string(), value: int(10) };
    let input = fixture.test("P", Vec::new(), vec![goto("goto:Z"), other, goto("goto:B"), alloc]);
    let replay = fixture.run(&input, TraceMode::Complete);
    assert_eq!(replay.outcome, Outcome::Passed);
    let r = output(&replay, hir::Var::Local(fixture.local("P", "r")));
    assert_eq!(r, int(11), "the entry for `goto:Z` names no branch here: the first feasible, A; then `q` = 10");
    let left = replay.left_trace.expect("the run left its trace");
    assert!(left.message.starts_with("trace entry 0 is the goto `goto:Z`, but the branches here are"), "{left:?}");
    assert!(matches!(fixture.run(&input, TraceMode::Strict).outcome, Outcome::ReplayError { .. }));
}

/// An allocator's postcondition over its cells (`forall x :: new <= x && x < new + 8
/// ==> Base(x) == new`) on a table of `Base` that names two of them: the run stops at
/// the call and records the entries of the six others; with them the run passes. A
/// cell the table gives another value makes no write (the call is no execution of it).
#[test]
fn a_range_postcondition_false_off_a_table_asks_for_the_entries_that_make_it_hold() {
    let fixture = Fixture::new(
        "function Base(x: int): int;
procedure Malloc(size: int) returns (new: int);
  ensures (forall x: int :: { Base(x) } new <= x && x < new + size ==> Base(x) == new);
procedure P() returns (r: int)
{
  var p: int;
  call p := Malloc(8);
  r := Base(p + 7);
}
",
    );
    let machine = Machine::new(&fixture.program, &fixture.cfgs, Limits::default());
    let base = fixture.function("Base");
    let out = TraceItem::CallOut { callee: "Malloc".to_string(), var: "p".to_string(), value: int(100) };
    let mut input = fixture.test("P", Vec::new(), vec![out]);
    let table = |entries| FunctionModel { function: base, entries, default: int(0) };
    input.functions = vec![table(vec![(vec![int(100)], int(100)), (vec![int(101)], int(100))])];
    let replay = machine.run(&input, TraceMode::Complete);
    assert!(matches!(replay.outcome, Outcome::Infeasible(_)), "{:?}", replay.outcome);
    let written: Vec<TableWrite> = (102..108).map(|cell| (base, vec![int(cell)], int(100))).collect();
    assert_eq!(replay.table_writes, written);
    let mut entries = input.functions[0].entries.clone();
    entries.extend(written.into_iter().map(|(_, args, value)| (args, value)));
    input.functions = vec![table(entries)];
    let replay = machine.run(&input, TraceMode::Complete);
    assert_eq!(replay.outcome, Outcome::Passed);
    assert_eq!(output(&replay, hir::Var::Local(fixture.local("P", "r"))), int(100));
    input.functions = vec![table(vec![(vec![int(103)], int(5))])];
    assert!(machine.run(&input, TraceMode::Complete).table_writes.is_empty(), "Base(103) = 5 disagrees");
}

#[test]
fn a_function_whose_body_is_in_the_fragment_is_unfolded() {
    let fixture = Fixture::new(
        "function read(m: [int]int, i: int): int { m[i] }
         procedure Q(a: [int]int) returns (all: bool, big: [int]bool) {
           all := (forall x: int :: read(a, x) >= 0);
           big := (lambda x: int :: read(a, x) > 1);
           assert big[3] && !big[0];
         }",
    );
    let a = map(vec![(int(3), int(5))], int(0));
    let replay = fixture.run(&fixture.test("Q", vec![a], Vec::new()), TraceMode::Strict);
    assert_eq!(replay.outcome, Outcome::Passed, "{:?}", replay.outcome);
    assert_eq!(replay.outputs[0].1, Value::Bool(true));
}

#[test]
fn a_refuted_precondition_names_the_quantifier_inside_an_inline_function_it_applies() {
    // The encoding expands `{:inline}` functions whose bodies quantify, so the refuted
    // conjunct is counted through the application: `m[0] == 0` is 0, the `forall` 1.
    let fixture = Fixture::new(
        "function {:inline} natural(m: [int]int): bool { m[0] == 0 && (forall x: int :: m[x] >= 0) }
        procedure P(m: [int]int) returns (r: int) requires natural(m); { r := m[1]; }",
    );
    let m = map(vec![(int(3), int(-1))], int(0));
    let replay = fixture.run(&fixture.test("P", vec![m], Vec::new()), TraceMode::Strict);
    assert!(matches!(replay.outcome, Outcome::Invalid(_)), "{:?}", replay.outcome);
    let refutation = Refutation { check: RefutedCheck::Requires(0), conjunct: 1, bindings: vec![vec![int(3)]] };
    assert_eq!(replay.refutation, Some(refutation));
}

#[test]
fn a_refuted_type_quantified_precondition_names_the_instance_its_binding_fits() {
    // Monomorphized, `forall <a> f: Field a` is one `forall` per type, all with the
    // body's span: the binding (a `Field bool`) is the second instance's, not the first.
    let program = crate::sema::tests::expect_accepted(
        "type Field a; const fi: Field int; const fb: Field bool;
        procedure P(m: <a>[Field a]bool) returns (r: bool) requires (forall<a> f: Field a :: m[f]); { r := m[fi]; }",
    );
    let program = crate::mono::monomorphize(program).expect("a finite program");
    let (cfgs, errors) = lower_all(&program);
    assert!(errors.is_empty(), "{errors:?}");
    let fixture = Fixture { program, cfgs };
    let field = |name: &str| {
        let index = fixture.program.consts.iter().position(|constant| constant.name == name).expect("a field");
        fixture.program.consts[index].ty.clone()
    };
    let element = |ty: hir::Type| match ty {
        hir::Type::Named(ty, _) => Value::Elem { ty, index: 0 },
        other => panic!("a field type: {other:?}"),
    };
    let bool_field = element(field("fb"));
    // `m` as the monomorphic program passes it: one map per instance, the `bool`
    // fields' false at the field, the `int` fields' true everywhere.
    let params = vec![
        map(Vec::new(), Value::Bool(true)),
        map(vec![(bool_field.clone(), Value::Bool(false))], Value::Bool(true)),
    ];
    let replay = fixture.run(&fixture.test("P", params, Vec::new()), TraceMode::Strict);
    assert!(matches!(replay.outcome, Outcome::Invalid(_)), "{:?}", replay.outcome);
    let refutation = replay.refutation.expect("a refutation");
    assert_eq!(refutation.bindings, vec![vec![bool_field]]);
    assert_eq!(refutation.conjunct, 1, "the `bool` instance");
}
