//! Solver-free tests of passification and the encoding's shape: each renders the passive
//! form or the asserted constraints of a small hand-built `Cfg` and compares the text.

use super::expr::Translator;
use super::passify::{passify, InputKind, Passive, Step};
use super::testing::{cfg, encoding, program};
use crate::sema::hir;

/// The passive form of implementation `name`, one block per line:
/// `bbN: steps -> succ [fix-ups] …`, checks prefixed with `check`.
fn check_passive(source: &str, name: &str) -> String {
    let program = program(source);
    let cfg = cfg(&program, name);
    let relevant = crate::sema::relevance::relevant(&program, cfg.implementation);
    let mut translator = Translator::new(&program, &relevant);
    let passive = passify(&mut translator, &cfg);
    render_passive(&translator, &passive)
}

fn render_passive(translator: &Translator<'_>, passive: &Passive) -> String {
    let terms = &translator.terms;
    let mut out = String::new();
    for &id in &passive.order {
        let block = &passive.blocks[id.index()];
        out.push_str(&format!("bb{}:", id.index()));
        for step in &block.steps {
            match step {
                Step::Assume(term) => out.push_str(&format!(" {}", terms.render(*term))),
                Step::Check(term, _) => out.push_str(&format!(" check {}", terms.render(*term))),
            }
        }
        for edge in &block.edges {
            out.push_str(&format!(" -> bb{}", edge.to.index()));
            if !edge.fixups.is_empty() {
                let fixups: Vec<String> = edge.fixups.iter().map(|&fixup| terms.render(fixup)).collect();
                out.push_str(&format!(" [{}]", fixups.join(" ")));
            }
        }
        out.push('\n');
    }
    out
}

#[test]
fn assignments_get_fresh_incarnations_and_joins_get_fixups() {
    let source = r"
        var g: int;
        procedure P(a: int) returns (r: int) modifies g; {
          start: r := a; goto T, E;
          T: assume a > 0; g := g + 1; r := r + 1; goto J;
          E: assume a <= 0; goto J;
          J: assert r >= a; return;
        }";
    assert_eq!(
        check_passive(source, "P"),
        "bb0: (= r@1 a@0) -> bb1 -> bb2\n\
         bb1: (> a@0 0) (= g@1 (+ g@0 1)) (= r@2 (+ r@1 1)) -> bb3 [(= g@2 g@1) (= r@3 r@2)]\n\
         bb2: (<= a@0 0) -> bb3 [(= g@2 g@0) (= r@3 r@1)]\n\
         bb3: check (>= r@3 a@0)\n"
    );
}

#[test]
fn simultaneous_assignment_reads_the_old_state() {
    let source = r"
        procedure Swap() { var x: int; var y: int; x, y := y, x; x := x + 1; }";
    assert_eq!(check_passive(source, "Swap"), "bb0: (= x@1 y@0) (= y@1 x@0) (= x@2 (+ x@1 1))\n");
}

#[test]
fn map_updates_store_into_the_whole_map() {
    let source = r"
        procedure M(i: int) { var m: [int][int]bool; m[i][2] := true; }";
    assert_eq!(check_passive(source, "M"), "bb0: (= m@1 (store m@0 i@0 (store (select m@0 i@0) 2 true)))\n");
}

#[test]
fn calls_assume_contracts_over_pre_and_post_call_incarnations() {
    let source = r"
        var g: int;
        procedure Bump(n: int) returns (r: int); requires n > 0; free requires g >= 0;
          modifies g; ensures g == old(g) + n && r == old(g);
        procedure Caller() modifies g; { var x: int; call x := Bump(2); call x := Bump(x); }";
    assert_eq!(
        check_passive(source, "Caller"),
        // The free precondition is the callee's assumption only, as in Boogie.
        "bb0: check (> 2 0) (and (= g@1 (+ g@0 2)) (= x@1 g@0)) \
         check (> x@1 0) (and (= g@2 (+ g@1 x@1)) (= x@2 g@1))\n"
    );
}

#[test]
fn old_in_bodies_and_ensures_reads_entry_incarnations() {
    let source = r"
        var g: int;
        procedure P() modifies g; ensures g > old(g); { g := g + 1; assert g == old(g) + 1; }";
    assert_eq!(check_passive(source, "P"), "bb0: (= g@1 (+ g@0 1)) check (= g@1 (+ g@0 1)) check (> g@1 g@0)\n");
}

#[test]
fn inputs_are_entry_values_and_choices() {
    let source = r"
        const c: int;
        procedure P(a: int) { var x: int; var y: int; var z: int; havoc x; y := z + a + c; }";
    let (_, encoding) = encoding(source, "P");
    let kinds: Vec<(InputKind, bool)> =
        encoding.inputs.iter().map(|input| (input.kind.clone(), input.block.is_some())).collect();
    let local = |index| hir::LocalId::from_index(index);
    assert_eq!(
        kinds,
        vec![
            (InputKind::Const(hir::ConstId::from_index(0)), false),
            (InputKind::Param(local(0)), false),
            (InputKind::Havoc(hir::Var::Local(local(1))), true),
            (InputKind::Uninit(local(3)), false),
        ]
    );
    assert_eq!(encoding.blocks[0].inputs, vec![2]);
}

#[test]
fn shadowing_locals_get_distinct_incarnation_names() {
    let source = r"
        var x: int;
        procedure P() modifies x; { var x: int; x := 1; }";
    assert_eq!(check_passive(source, "P"), "bb0: (= x%0@1 1)\n");
}

#[test]
fn encoding_asserts_the_documented_constraints() {
    let source = r"
        procedure P(a: int) requires a != 3; {
          start: goto T, E;
          T: assume a > 0; assert a != 5; return;
          E: assume a <= 0; return;
        }";
    let (_, encoding) = encoding(source, "P");
    let rendered: Vec<String> = encoding.assertions.iter().map(|&term| encoding.terms.render(term)).collect();
    assert_eq!(
        rendered,
        vec![
            "(not (= a@0 3))",
            "%exec@0",
            "(=> %exec@1 (and %exec@0 %take@0@1))",
            "(=> %exec@2 (and %exec@0 %take@0@2))",
            "(=> %take@0@1 %exec@0)",
            "(=> %take@0@2 %exec@0)",
            "(not (and %take@0@1 %take@0@2))",
        ]
    );
    assert_eq!(encoding.failures.len(), 1);
    assert_eq!(encoding.terms.render(encoding.failures[0].condition), "(and %exec@1 (> a@0 0) (= a@0 5))");
}

#[test]
fn prelude_declares_the_relevant_unique_constants_definitions_and_axioms() {
    let source = r"
        type T;
        const unique a: T; const unique b: T; const unique n: int;
        function f(x: int): int { x + 1 }
        axiom (forall y: int :: {f(y)} f(y) > y);
        function g(x: int): int;
        axiom (forall y: int :: {g(y)} g(y) > y);
        procedure P() { var t: T; var k: int; t := a; t := b; k := f(n); }";
    let (_, encoding) = encoding(source, "P");
    let rendered: Vec<String> = encoding.assertions.iter().map(|&term| encoding.terms.render(term)).collect();
    assert_eq!(
        rendered,
        vec!["(distinct a b)", "(forall ((y!1 Int)) (! (> (f y!1) y!1) :pattern ((f y!1))))", "%exec@0"]
    );
    let definition = &encoding.definitions[0];
    assert_eq!(encoding.terms.symbol(definition.symbol).name, "f");
    assert_eq!(encoding.terms.render(definition.body), "(+ x!0 1)");
}

#[test]
fn bodies_that_quantify_are_expanded_when_inline_and_axioms_otherwise() {
    // z3 cannot unfold a recursive definition whose body quantifies: Boogie's encodings.
    let source = r"
        function {:inline} all(m: [int]bool): bool { (forall i: int :: m[i]) }
        function some(m: [int]bool): bool { (exists i: int :: m[i]) }
        procedure P(m: [int]bool) requires all(m) && some(m); { }";
    let (_, encoding) = encoding(source, "P");
    assert!(encoding.definitions.is_empty());
    let rendered: Vec<String> = encoding.assertions.iter().map(|&term| encoding.terms.render(term)).collect();
    assert_eq!(rendered[0], "(forall ((m!0 (Array Int Bool))) (! (= (some m!0) (exists ((i!1 Int)) (select m!0 i!1))) :pattern ((some m!0))))");
    assert_eq!(rendered[1], "(and (forall ((i!2 Int)) (select m@0 i!2)) (some m@0))");
}

#[test]
fn assignments_applying_bodyless_functions_are_also_asserted_unguarded() {
    let source = r"
        function g(x: int): int;
        function h(x: int): int { x }
        procedure P(a: int) returns (r: int) {
          var t: int; var u: int;
          start: r := g(a) + 1; goto Last;
          Last: u := a * 2; r := h(r); t := r + 1; r := g(g(t)); return;
        }";
    let (_, encoding) = encoding(source, "P");
    let rendered: Vec<String> = encoding.assertions.iter().map(|&term| encoding.terms.render(term)).collect();
    // (A7) after (A3)–(A6), in passification order: the equations applying `g` (which has
    // no body) and those of the incarnations their right sides read (`t@1`, then `r@2`,
    // then `r@1`), not `u@1`'s.
    let (control, definitions) = rendered.split_at(rendered.len() - 4);
    assert_eq!(definitions, ["(= r@1 (+ (g a@0) 1))", "(= r@2 (h r@1))", "(= t@1 (+ r@2 1))", "(= r@3 (g (g t@1)))"]);
    assert!(control.iter().all(|assertion| !assertion.starts_with("(= ")), "{control:?}");
}

#[test]
fn an_encoding_has_a_universal_quantifier_from_an_assumption_not_from_an_existential() {
    let with_forall = r"
        procedure P(a: [int]int, n: int) {
          start: assume (forall p: int :: 0 <= p && p < n ==> a[p] >= 0); return;
        }";
    let with_exists = r"
        procedure P(a: [int]int, n: int) returns (b: bool)
          ensures b ==> (exists p: int :: a[p] == n);
        { start: b := false; return; }";
    assert!(encoding(with_forall, "P").1.terms.has_forall());
    assert!(!encoding(with_exists, "P").1.terms.has_forall());
}
