//! The printer's round-trip law: for every source that parses without errors,
//! `parse(print(parse(s))) == parse(s)` up to spans, and printing is a fixpoint. Checked
//! on every `.bpl` file of the repository, on targeted cases for each precedence corner,
//! statement and declaration, and on random expression trees. Snapshots show the format.

use crate::support::{bpl_files, display_name};
use seedgen::source::{FileId, Span};
use seedgen::syntax::ast::{
    AttrArg, Attribute, BinaryOp, Decl, Expr, ExprKind, Ident, Quantifier, Trigger, Type, TypeKind, TypedIdents,
    UnaryOp,
};
use seedgen::syntax::printer::{print_expr, print_program, print_type};
use seedgen::syntax::{parse, parse_expr};
use std::path::PathBuf;

// ---------------------------------------------------------------------------------------
// Helpers: the only callers of the printer in this file.

/// A `Debug` rendering with every span erased, so two trees compare equal exactly when
/// they agree on everything but positions. Identifiers cannot contain `{` or `}`, and a
/// string literal that spells out a span is erased the same way on both sides.
fn without_spans(tree: &impl std::fmt::Debug) -> String {
    const SPAN: &str = "Span { file: FileId(";
    let text = format!("{tree:?}");
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(start) = rest.find(SPAN) {
        out.push_str(&rest[..start]);
        out.push_str("Span");
        let close = rest[start..].find('}').expect("a span's Debug rendering ends with `}`");
        rest = &rest[start + close + 1..];
    }
    out.push_str(rest);
    out
}

/// Asserts the round-trip law for a whole source text and returns the printed program;
/// `None` if the source itself does not parse cleanly (the law says nothing about it).
fn round_trip_program(name: &str, source: &str) -> Option<String> {
    let (program, errors) = parse(FileId(0), source);
    if !errors.is_empty() {
        return None;
    }
    let printed = print_program(&program);
    let (reparsed, errors) = parse(FileId(0), &printed);
    assert!(errors.is_empty(), "{name}: the printed program does not parse: {errors:?}\n{printed}");
    assert_eq!(without_spans(&reparsed), without_spans(&program), "{name}: printing changed the tree:\n{printed}");
    assert_eq!(print_program(&reparsed), printed, "{name}: printing is not a fixpoint");
    Some(printed)
}

/// Parses `source`, which must be clean, and returns its printed form after checking the
/// round-trip law on it.
fn check_program(source: &str) -> String {
    round_trip_program("input", source).unwrap_or_else(|| panic!("the test input does not parse:\n{source}"))
}

/// Prints the expression `source` after checking the round-trip law on it.
fn check_expr(source: &str) -> String {
    let expr = parse_expr(FileId(0), source).unwrap_or_else(|errors| panic!("`{source}` does not parse: {errors:?}"));
    let printed = print_expr(&expr);
    let reparsed =
        parse_expr(FileId(0), &printed).unwrap_or_else(|errors| panic!("`{printed}` does not parse: {errors:?}"));
    assert_eq!(without_spans(&reparsed), without_spans(&expr), "`{source}` printed as `{printed}`");
    assert_eq!(print_expr(&reparsed), printed, "`{source}`: printing is not a fixpoint");
    printed
}

/// The expression `source` prints as `expected` and round-trips.
#[track_caller]
fn prints_as(source: &str, expected: &str) {
    assert_eq!(check_expr(source), expected, "input: `{source}`");
}

/// Statements inside a procedure body print as `expected` (at the body's indentation).
#[track_caller]
fn stmts_print_as(stmts: &str, expected: &str) {
    let printed = check_program(&format!("procedure P() {{\n{stmts}\n}}"));
    let body = printed
        .strip_prefix("procedure P()\n{\n")
        .and_then(|rest| rest.strip_suffix("}\n"))
        .unwrap_or_else(|| panic!("unexpected procedure layout:\n{printed}"));
    assert_eq!(body, expected, "input: {stmts}");
}

// ---------------------------------------------------------------------------------------
// (a) Every Boogie file of the repository.

#[test]
fn every_repository_program_round_trips() {
    let files: Vec<PathBuf> = ["corpus", "tests/ui", "tests/roundtrip"].iter().flat_map(|dir| bpl_files(dir)).collect();
    let mut checked = 0;
    for path in &files {
        let source = std::fs::read_to_string(path).expect("repository .bpl files are UTF-8");
        let name = display_name(path);
        if round_trip_program(&name, &source).is_some() {
            checked += 1;
        }
    }
    // tests/roundtrip always holds clean programs, whatever the other directories hold.
    assert!(checked >= 2, "only {checked} of {} files parsed cleanly", files.len());
}

// ---------------------------------------------------------------------------------------
// (b) Targeted cases. Precedence and associativity, loosest level first.

#[test]
fn iff_is_left_associative() {
    prints_as("a <==> b <==> c", "a <==> b <==> c");
    prints_as("(a <==> b) <==> c", "a <==> b <==> c");
    prints_as("a <==> (b <==> c)", "a <==> (b <==> c)");
}

#[test]
fn iff_binds_loosest() {
    prints_as("(a ==> b) <==> (c <== d)", "a ==> b <==> c <== d");
    prints_as("(a <==> b) ==> c", "(a <==> b) ==> c");
    prints_as("(a <==> b) == c", "(a <==> b) == c");
}

#[test]
fn implies_is_right_associative() {
    prints_as("a ==> b ==> c", "a ==> b ==> c");
    prints_as("(a ==> b) ==> c", "(a ==> b) ==> c");
}

#[test]
fn explies_is_left_associative() {
    prints_as("a <== b <== c", "a <== b <== c");
    prints_as("a <== (b <== c)", "a <== (b <== c)");
}

#[test]
fn implies_and_explies_mix_only_one_way() {
    // `a ==> b <== c` is `a ==> (b <== c)`; a `==>` under a `<==` needs parentheses both
    // sides, and a `<==` on the left of `==>` too.
    prints_as("a ==> b <== c", "a ==> b <== c");
    prints_as("(a ==> b) <== c", "(a ==> b) <== c");
    prints_as("a <== (b ==> c)", "a <== (b ==> c)");
    prints_as("(a <== b) ==> c", "(a <== b) ==> c");
}

#[test]
fn and_and_or_do_not_mix_without_parentheses() {
    prints_as("a && b && c", "a && b && c");
    prints_as("a || (b || c)", "a || (b || c)");
    prints_as("a && (b || c)", "a && (b || c)");
    prints_as("(a && b) || c", "(a && b) || c");
    prints_as("(a || b) && (c || d)", "(a || b) && (c || d)");
}

#[test]
fn connectives_bind_tighter_than_implication() {
    prints_as("(a && b) ==> (c || d)", "a && b ==> c || d");
    prints_as("a && (b ==> c)", "a && (b ==> c)");
}

#[test]
fn comparisons_are_non_associative() {
    prints_as("(a < b) == c", "(a < b) == c");
    prints_as("a == (b != c)", "a == (b != c)");
    prints_as("x <: y", "x <: y");
    prints_as("(a == b) && (c <= d)", "a == b && c <= d");
    prints_as("a + 1 >= b * 2", "a + 1 >= b * 2");
}

#[test]
fn concat_is_left_associative_below_comparison() {
    prints_as("a ++ b ++ c", "a ++ b ++ c");
    prints_as("a ++ (b ++ c)", "a ++ (b ++ c)");
    prints_as("(a ++ b) == c ++ d", "a ++ b == c ++ d");
    prints_as("(a + b) ++ c", "a + b ++ c");
    prints_as("a + (b ++ c)", "a + (b ++ c)");
}

#[test]
fn additive_operators_are_left_associative() {
    prints_as("x - (y - z)", "x - (y - z)");
    prints_as("(x - y) - z", "x - y - z");
    prints_as("x + (y - z)", "x + (y - z)");
    prints_as("(x * y) + z * w", "x * y + z * w");
    prints_as("(x + y) * z", "(x + y) * z");
}

#[test]
fn multiplicative_operators_are_left_associative() {
    prints_as("a * b div c mod d / e", "a * b div c mod d / e");
    prints_as("a div (b mod c)", "a div (b mod c)");
    prints_as("a * (b * c)", "a * (b * c)");
}

#[test]
fn unary_operators_bind_tighter_than_binary_ones() {
    prints_as("-x * y", "-x * y");
    prints_as("-(x * y)", "-(x * y)");
    prints_as("!(a && b)", "!(a && b)");
    prints_as("!a && !b", "!a && !b");
    prints_as("a - -b", "a - -b");
    prints_as("- -x", "- -x");
    prints_as("--x", "- -x");
    prints_as("!!b", "!!b");
    prints_as("-!x", "-!x");
    prints_as("-5", "-5");
    prints_as("3 - -5", "3 - -5");
}

#[test]
fn postfix_binds_tightest() {
    prints_as("-m[i]", "-m[i]");
    prints_as("(-m)[i]", "(-m)[i]");
    prints_as("(a + b)[i]", "(a + b)[i]");
    prints_as("m[i][j, k]", "m[i][j, k]");
    prints_as("m[i := v][j]", "m[i := v][j]");
    prints_as("m[i, j := if c then 1 else 2]", "m[i, j := if c then 1 else 2]");
    prints_as("m[]", "m[]");
    prints_as("x[7:0]", "x[7:0]");
    prints_as("(x[7:0])[3:1]", "x[7:0][3:1]");
    prints_as("f(x)[1]", "f(x)[1]");
    prints_as("old(m)[i]", "old(m)[i]");
    prints_as("(forall x: int :: m[x])[1]", "(forall x: int :: m[x])[1]");
}

#[test]
fn if_then_else_needs_parentheses_inside_operands() {
    prints_as("if a then b else c", "if a then b else c");
    prints_as("1 + (if a then b else c)", "1 + (if a then b else c)");
    prints_as("(if a then b else c) + 1", "(if a then b else c) + 1");
    prints_as("(if a then m else n)[1]", "(if a then m else n)[1]");
    prints_as("-(if a then 1 else 2)", "-(if a then 1 else 2)");
    prints_as("(if a then b else c) ==> d", "(if a then b else c) ==> d");
    prints_as("if a then b else (c ==> d)", "if a then b else c ==> d");
}

#[test]
fn if_then_else_parts_are_full_expressions() {
    prints_as("if (if a then b else c) then d else e", "if if a then b else c then d else e");
    prints_as("if a then (if b then c else d) else e", "if a then if b then c else d else e");
    prints_as("if a then b else (if c then d else e)", "if a then b else if c then d else e");
    prints_as("f(if a then 1 else 2, (if b then 3 else 4))", "f(if a then 1 else 2, if b then 3 else 4)");
    prints_as("old(if a then x else y)", "old(if a then x else y)");
}

#[test]
fn literals_print_as_written() {
    prints_as("true && false", "true && false");
    prints_as("123456789012345678901234567890", "123456789012345678901234567890");
    prints_as("1.5 / 2e3", "1.5 / 2e3");
    prints_as("5bv32 ++ 0bv1", "5bv32 ++ 0bv1");
    prints_as("f()", "f()");
}

#[test]
fn quantifiers_and_lambdas() {
    prints_as("(forall x: int, y: int :: x + y == y + x)", "(forall x: int, y: int :: x + y == y + x)");
    prints_as("(exists x, y: int :: x < y)", "(exists x, y: int :: x < y)");
    prints_as(
        "(forall x: int :: { f(x) } {:weight 3} { g(x), h(x) } f(x) == g(x))",
        "(forall x: int :: {:weight 3} { f(x) } { g(x), h(x) } f(x) == g(x))",
    );
    prints_as("(lambda i: int :: i + 1)", "(lambda i: int :: i + 1)");
    prints_as("(forall<T> x: T :: x == x)", "(forall<T> x: T :: x == x)");
    prints_as("(forall {:a} x: int where x > 0 :: x != 0)", "(forall {:a} x: int where x > 0 :: x != 0)");
    prints_as("(forall x: int :: if x > 0 then x else -x)", "(forall x: int :: if x > 0 then x else -x)");
    prints_as("(forall x: int :: (exists y: int :: x < y))", "(forall x: int :: (exists y: int :: x < y))");
}

#[test]
fn unicode_operators_come_back_as_ascii() {
    prints_as(
        "(∀ x: int • ¬(x ≠ x) ∧ x ≤ x) ⇒ (∃ y: int • y ≥ 0 ∨ false) ⇔ (λ z: int • z)[0] ⇐ true",
        "(forall x: int :: !(x != x) && x <= x) ==> (exists y: int :: y >= 0 || false) <==> (lambda z: int :: z)[0] <== true",
    );
}

#[test]
fn keywords_as_identifiers_keep_their_backslash() {
    prints_as(r"\if + \forall", r"\if + \forall");
    prints_as(r"\old(x) == old(x)", r"\old(x) == old(x)");
    prints_as(r"\int[\then]", r"\int[\then]");
    prints_as(r"\iff", "iff");
    prints_as("$Heap[this, f.g'] ++ `x ++ ?y", "$Heap[this, f.g'] ++ `x ++ ?y");
}

// Statements.

#[test]
fn simple_statements() {
    stmts_print_as(
        "assert {:msg \"no \\\"way\\\"\"} x > 0; assume {:partition} true; havoc x, y; return; yield;",
        "    assert {:msg \"no \\\"way\\\"\"} x > 0;\n    assume {:partition} true;\n    havoc x, y;\n    return;\n    yield;\n",
    );
}

#[test]
fn assignments() {
    stmts_print_as(
        "x := 1; x, y := y, x; a[i][j, k] := if b then 1 else 2; m[] := 0;",
        "    x := 1;\n    x, y := y, x;\n    a[i][j, k] := if b then 1 else 2;\n    m[] := 0;\n",
    );
}

#[test]
fn calls() {
    stmts_print_as(
        "call P(); call x, y := Q(1, 2); call {:id 3} R(); free call S(); async call {:a} x := T(x); \
         par A() | x := B(1) | {:b} C();",
        "    call P();\n    call x, y := Q(1, 2);\n    call {:id 3} R();\n    free call S();\n    \
         async call {:a} x := T(x);\n    par A() | x := B(1) | {:b} C();\n",
    );
}

#[test]
fn labels_gotos_and_breaks() {
    stmts_print_as(
        "L: x := 1; goto L, M; M: while (true) { break; break M; }",
        "  L:\n    x := 1;\n    goto L, M;\n  M:\n    while (true) {\n        break;\n        break M;\n    }\n",
    );
}

#[test]
fn if_else_chains_stay_flat() {
    stmts_print_as(
        "if (a) { x := 1; } else if (*) { x := 2; } else if (b) { } else { L: x := 3; }",
        "    if (a) {\n        x := 1;\n    } else if (*) {\n        x := 2;\n    } else if (b) {\n    } else {\n      \
         L:\n        x := 3;\n    }\n",
    );
}

#[test]
fn nested_else_block_holding_an_if_is_not_an_else_if() {
    // `else { if .. }` is a different tree from `else if ..`, and must stay so.
    stmts_print_as(
        "if (a) { } else { if (b) { } }",
        "    if (a) {\n    } else {\n        if (b) {\n        }\n    }\n",
    );
}

#[test]
fn loops_with_and_without_invariants() {
    stmts_print_as(
        "while (*) { } while (i < n) invariant i >= 0; free invariant {:x} true; { i := i + 1; }",
        "    while (*) {\n    }\n    while (i < n)\n        invariant i >= 0;\n        free invariant {:x} true;\n    \
         {\n        i := i + 1;\n    }\n",
    );
}

#[test]
fn guards_may_be_if_then_else() {
    stmts_print_as(
        "if (if a then b else c) { } while (if a then b else c) { }",
        "    if (if a then b else c) {\n    }\n    while (if a then b else c) {\n    }\n",
    );
}

#[test]
fn locals_come_first_then_a_blank_line() {
    let printed = check_program("procedure P() { var x: int; var {:a} y, z: bool where y, w: [int]int; x := 1; }");
    assert_eq!(
        printed,
        "procedure P()\n{\n    var x: int;\n    var {:a} y, z: bool where y, w: [int]int;\n\n    x := 1;\n}\n"
    );
}

// Declarations.

#[test]
fn type_declarations() {
    let printed = check_program("type A, B; type {:x} finite C a b; type T = [int]int; type S a = Set (Set a);");
    assert_eq!(printed, "type A;\ntype B;\ntype {:x} finite C a b;\ntype T = [int]int;\ntype S a = Set (Set a);\n");
}

#[test]
fn types_parenthesize_only_compound_arguments() {
    let printed = check_program(
        "var a: <a>[a, int]bool, b: Set ([int]int), c: [Set int](Map int bool), d: Set (int), e: (bool), f: \\int;",
    );
    assert_eq!(
        printed,
        "var a: <a>[a, int]bool, b: Set ([int]int), c: [Set int]Map int bool, d: Set int, e: bool, f: \\int;\n"
    );
}

#[test]
fn constant_declarations() {
    let printed = check_program(
        "const N: int; const unique a, b: T; const {:x} c: T extends a, unique b complete; const d: T extends;",
    );
    assert_eq!(
        printed,
        "const N: int;\nconst unique a, b: T;\nconst {:x} c: T extends a, unique b complete;\nconst d: T extends;\n"
    );
}

#[test]
fn function_declarations() {
    let printed = check_program(
        "function f(x: int, int): int; function {:inline} g<T>(x: T) returns (r: bool) { x == x } \
         function h() returns (int) { if true then 1 else 2 }",
    );
    assert_eq!(
        printed,
        "function f(x: int, int) returns (int);\nfunction {:inline} g<T>(x: T) returns (r: bool) { x == x }\n\
         function h() returns (int) { if true then 1 else 2 }\n"
    );
}

#[test]
fn axioms_and_global_variables() {
    let printed = check_program(
        "axiom {:a \"s\", 1 + 2} N > 0; axiom true; var {:foo 1, \"s\"} M: [int]int where true, b: bool;",
    );
    assert_eq!(
        printed,
        "axiom {:a \"s\", 1 + 2} N > 0;\naxiom true;\n\nvar {:foo 1, \"s\"} M: [int]int where true, b: bool;\n"
    );
}

#[test]
fn procedures_with_specs_and_bodies() {
    let printed = check_program(
        "procedure {:entry} P<T>({:a} x: int, y: T where true) returns (r: int); \
         requires x > 0; free ensures {:b} r > 0; modifies M, N; modifies; \
         procedure Q() requires true; { } implementation {:c} P<T>(x: int, y: T) returns (r: int) { r := x; }",
    );
    assert_eq!(
        printed,
        "procedure {:entry} P<T>({:a} x: int, y: T where true) returns (r: int);\n    requires x > 0;\n    \
         free ensures {:b} r > 0;\n    modifies M, N;\n    modifies;\n\nprocedure Q()\n    requires true;\n{\n}\n\n\
         implementation {:c} P<T>(x: int, y: T) returns (r: int)\n{\n    r := x;\n}\n"
    );
}

#[test]
fn keywords_as_declared_names() {
    let printed = check_program(
        "type \\finite; const \\unique: \\finite; function \\f(\\int: int) returns (\\bool: bool); \
         procedure \\call(\\var: int) { \\goto: \\var := \\var; goto \\goto; }",
    );
    assert!(printed.contains("procedure \\call(\\var: int)"), "{printed}");
    assert!(printed.contains("  \\goto:\n    \\var := \\var;\n    goto \\goto;"), "{printed}");
}

#[test]
fn the_empty_program_prints_as_nothing() {
    assert_eq!(check_program("  // nothing here\n"), "");
}

#[test]
fn deep_expressions_print_within_the_parser_limit() {
    let chain = vec!["a"; 900].join(" + ");
    assert_eq!(check_expr(&chain), chain);
    let nots = format!("{}b", "!".repeat(900));
    assert_eq!(check_expr(&nots), nots);
}

// ---------------------------------------------------------------------------------------
// (c) Snapshots: what the format looks like.

#[test]
fn snapshot_showcase() {
    let source = std::fs::read_to_string(crate::support::root().join("tests/roundtrip/showcase.bpl"))
        .expect("tests/roundtrip/showcase.bpl exists");
    insta::assert_snapshot!(check_program(&source));
}

#[test]
fn snapshot_minimal_parentheses() {
    let source = "axiom (a <==> b) <==> c;\n\
                  axiom ((a ==> b) ==> c) <== (d <== (e <== f));\n\
                  axiom (a && (b || c) && !(d ==> e)) || f;\n\
                  axiom (x - (y - z)) * -(-w) div (if p then 1 else 2) == (m[i := v])[j] ++ k;\n\
                  axiom (forall i: int :: {f(i)} (f(i) < g(i)) == (g(i) <= f(i + 1)));\n";
    insta::assert_snapshot!(check_program(source));
}

// ---------------------------------------------------------------------------------------
// (d) Random expression trees: printed, parsed back, compared.

/// xorshift64: deterministic, dependency-free and good enough to pick tree shapes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

const BINARY_OPS: [BinaryOp; 19] = [
    BinaryOp::Iff,
    BinaryOp::Implies,
    BinaryOp::Explies,
    BinaryOp::And,
    BinaryOp::Or,
    BinaryOp::Eq,
    BinaryOp::Neq,
    BinaryOp::Lt,
    BinaryOp::Le,
    BinaryOp::Gt,
    BinaryOp::Ge,
    BinaryOp::Subtype,
    BinaryOp::Concat,
    BinaryOp::Add,
    BinaryOp::Sub,
    BinaryOp::Mul,
    BinaryOp::RealDiv,
    BinaryOp::Div,
    BinaryOp::Mod,
];

/// Names, some of which are keywords and print with a backslash.
const NAMES: [&str; 8] = ["x", "y", "$h", "a.b'", "if", "old", "int", "iff"];

fn ident(rng: &mut Rng) -> Ident {
    Ident { name: rng.pick(&NAMES).to_string(), span: Span::default() }
}

fn node(kind: ExprKind) -> Expr {
    Expr { kind, span: Span::default() }
}

fn leaf(rng: &mut Rng) -> Expr {
    node(match rng.below(6) {
        0 => ExprKind::Bool(rng.below(2) == 0),
        1 => ExprKind::Int(rng.below(1000).into()),
        2 => ExprKind::Real(rng.pick(&["1.5", "2e3", "0.25e-1"]).to_string()),
        3 => ExprKind::BitVector { value: rng.below(16).into(), width: 32 },
        _ => ExprKind::Var(ident(rng)),
    })
}

fn random_type(rng: &mut Rng, depth: usize) -> Type {
    let kind = match rng.below(if depth == 0 { 3 } else { 5 }) {
        0 => TypeKind::Int,
        1 => TypeKind::Bool,
        2 => TypeKind::Named { name: ident(rng), args: Vec::new() },
        3 => TypeKind::Named { name: ident(rng), args: vec![random_type(rng, depth - 1), random_type(rng, depth - 1)] },
        _ => TypeKind::Map {
            type_params: if rng.below(3) == 0 { vec![ident(rng)] } else { Vec::new() },
            domain: (0..rng.below(3)).map(|_| random_type(rng, depth - 1)).collect(),
            range: Box::new(random_type(rng, depth - 1)),
        },
    };
    Type { kind, span: Span::default() }
}

fn attributes(rng: &mut Rng, depth: usize) -> Vec<Attribute> {
    (0..rng.below(2))
        .map(|_| Attribute {
            name: ident(rng),
            args: (0..rng.below(3))
                .map(|_| match rng.below(2) {
                    0 => AttrArg::Str { value: "s \\\" t".to_string(), span: Span::default() },
                    _ => AttrArg::Expr(random_expr(rng, depth)),
                })
                .collect(),
            span: Span::default(),
        })
        .collect()
}

fn random_exprs(rng: &mut Rng, depth: usize, min: usize) -> Vec<Expr> {
    (0..min + rng.below(2)).map(|_| random_expr(rng, depth)).collect()
}

/// A random tree of at most `depth` levels below this one, over every expression form.
fn random_expr(rng: &mut Rng, depth: usize) -> Expr {
    if depth == 0 || rng.below(8) == 0 {
        return leaf(rng);
    }
    let depth = depth - 1;
    let kind = match rng.below(16) {
        0..=5 => ExprKind::Binary {
            op: rng.pick(&BINARY_OPS),
            lhs: Box::new(random_expr(rng, depth)),
            rhs: Box::new(random_expr(rng, depth)),
        },
        6 | 7 => {
            ExprKind::Unary { op: rng.pick(&[UnaryOp::Not, UnaryOp::Neg]), operand: Box::new(random_expr(rng, depth)) }
        }
        8 => ExprKind::IfThenElse {
            cond: Box::new(random_expr(rng, depth)),
            then_expr: Box::new(random_expr(rng, depth)),
            else_expr: Box::new(random_expr(rng, depth)),
        },
        9 => ExprKind::Select { map: Box::new(random_expr(rng, depth)), indices: random_exprs(rng, depth, 0) },
        10 => ExprKind::Store {
            map: Box::new(random_expr(rng, depth)),
            indices: random_exprs(rng, depth, 1),
            value: Box::new(random_expr(rng, depth)),
        },
        11 => ExprKind::Extract { operand: Box::new(random_expr(rng, depth)), high: 7u32.into(), low: 0u32.into() },
        12 => ExprKind::Old(Box::new(random_expr(rng, depth))),
        13 => ExprKind::Apply { func: ident(rng), args: random_exprs(rng, depth, 0) },
        _ => random_quantifier(rng, depth),
    };
    node(kind)
}

fn random_quantifier(rng: &mut Rng, depth: usize) -> ExprKind {
    let vars = (0..1 + rng.below(2))
        .map(|_| TypedIdents {
            attrs: attributes(rng, depth),
            names: (0..1 + rng.below(2)).map(|_| ident(rng)).collect(),
            ty: random_type(rng, 2),
            where_clause: (rng.below(3) == 0).then(|| random_expr(rng, depth)),
            span: Span::default(),
        })
        .collect();
    ExprKind::Quant {
        quantifier: rng.pick(&[Quantifier::Forall, Quantifier::Exists, Quantifier::Lambda]),
        type_params: if rng.below(3) == 0 { vec![ident(rng)] } else { Vec::new() },
        vars,
        attrs: attributes(rng, depth),
        triggers: (0..rng.below(2))
            .map(|_| Trigger { exprs: random_exprs(rng, depth, 1), span: Span::default() })
            .collect(),
        body: Box::new(random_expr(rng, depth)),
    }
}

#[test]
fn random_expressions_round_trip() {
    let mut rng = Rng(0x5eed_0fb0_061e);
    for case in 0..2_000 {
        let expr = random_expr(&mut rng, 6);
        let printed = print_expr(&expr);
        let reparsed = parse_expr(FileId(0), &printed)
            .unwrap_or_else(|errors| panic!("case {case}: `{printed}` does not parse: {errors:?}"));
        assert_eq!(without_spans(&reparsed), without_spans(&expr), "case {case}: `{printed}`");
    }
}

#[test]
fn random_types_round_trip() {
    let mut rng = Rng(0xdead_beef);
    for case in 0..500 {
        let ty = random_type(&mut rng, 4);
        let printed = print_type(&ty);
        let source = format!("var v: {printed};");
        let (program, errors) = parse(FileId(0), &source);
        assert!(errors.is_empty(), "case {case}: `{source}`: {errors:?}");
        let [Decl::Var(decl)] = program.decls.as_slice() else { panic!("case {case}: `{source}` is one variable") };
        assert_eq!(without_spans(&decl.groups[0].ty), without_spans(&ty), "case {case}: `{printed}`");
    }
}
