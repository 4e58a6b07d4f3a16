//! The conformance harness's own logic (`benches/conformance/`): its lexical scan and its
//! reading of Boogie's expectations. The harness is a bench with `harness = false`, whose
//! `#[test]`s would never run, so its two self-contained modules are compiled here too;
//! the harness itself needs Boogie's suite and stays out of `cargo test`.

// Only part of each module is exercised here; the rest serves the harness.
#[allow(dead_code)]
#[path = "../../benches/conformance/expectation.rs"]
mod expectation;
#[allow(dead_code)]
#[path = "../../benches/conformance/features.rs"]
mod features;

use features::{scan, Dialect, Feature};

fn features_of(text: &str) -> Vec<Feature> {
    scan("Test/x/file.bpl", text).features.into_iter().collect()
}

#[test]
fn polymorphism_is_found_in_each_of_its_forms() {
    use Feature::*;
    assert_eq!(features_of("type Field _;"), [Polymorphism, TypeConstructors]);
    assert_eq!(features_of("type {:datatype} Seq T;")[..2], [Polymorphism, TypeConstructors]);
    assert_eq!(features_of("function f<T>(x: T): int;"), [Polymorphism, TypeParameters]);
    assert_eq!(features_of("type H = <a>[ref, F a]a;"), [Polymorphism, PolymorphicMaps, TypeSynonyms]);
    assert!(features_of("axiom (forall<T> x: T :: true);").contains(&TypeParameters));
    assert_eq!(features_of("type X = int; const a: [int]bool;"), [TypeSynonyms]);
}

#[test]
fn other_features_are_found_by_their_first_tokens() {
    use Feature::*;
    assert_eq!(features_of("var x: bv32;"), [BitVectors]);
    assert_eq!(features_of("axiom 7bv8 == 7bv8;"), [BitVectors]);
    assert_eq!(features_of("axiom 1.5 > 0.0;"), [Reals]);
    assert_eq!(features_of("axiom (var x := 1; x > 0);"), [LetExpressions]);
    assert_eq!(features_of("axiom |{ A: return true; }|;"), [CodeExpressions]);
    assert_eq!(features_of("function f(): int uses { axiom f() == 1; }"), [UsesClauses]);
    assert_eq!(features_of("const c: int; axiom c <: c;"), [PartialOrder]);
    assert_eq!(features_of("free call P();"), [FreeCall]);
    assert_eq!(features_of("function {:inline} f(): int { 1 }"), [Inline]);
    assert_eq!(features_of("axiom (forall x: int :: { f(x) } f(x) > 0);"), [Triggers]);
}

#[test]
fn comments_and_strings_hide_features() {
    assert_eq!(features_of("// forall<T> x: bv32\n/* |{ /* nested */ (var x := 1; x) */"), []);
    assert_eq!(features_of(r#"procedure {:msg "forall<T> bv8"} P();"#), []);
    assert_eq!(features::blank("a /* b */ c // d\ne"), "a         c     \ne");
}

#[test]
fn dialects_are_found_by_marker_or_directory() {
    assert!(scan("Test/x/f.bpl", "procedure {:yields} {:layer 1} P();").dialects.contains(&Dialect::Civl));
    assert!(scan("Test/x/f.bpl", "var x: float24e8;").dialects.contains(&Dialect::FloatingPoint));
    assert!(scan("Test/civl/f.bpl", "procedure P();").dialects.contains(&Dialect::Civl));
    assert!(scan("Test/x/f.bpl", "procedure P(); // yield").dialects.is_empty());
}

#[test]
fn summary_lines_give_boogies_counts() {
    let counts = |line| expectation::parse_summary(line).map(|counts| (counts.verified, counts.errors));
    assert_eq!(counts("Boogie program verifier finished with 3 verified, 1 error"), Some((3, 1)));
    assert_eq!(counts("Boogie program verifier finished with 0 verified, 12 errors\r"), Some((0, 12)));
    assert_eq!(counts("Boogie program verifier finished with 1 verified, 0 errors, 1 time out"), None);
}

#[test]
fn expected_results_are_read_only_under_neutral_options() {
    let repo = tempfile::tempdir().expect("a temporary directory");
    let expect = "x.bpl(3,1): Error: ...\n\nBoogie program verifier finished with 2 verified, 1 error\n";
    std::fs::write(repo.path().join("a.bpl.expect"), expect).expect("the expectation is written");
    let expected = |run: &str| {
        let text = format!("// RUN: {run} \"%s\" > \"%t\"\n// RUN: %diff \"%s.expect\" \"%t\"\n");
        expectation::expected_verification(repo.path(), "a.bpl", &text).map(|counts| (counts.verified, counts.errors))
    };
    assert_eq!(expected("%parallel-boogie"), Some((2, 1)));
    assert_eq!(expected("%parallel-boogie -typeEncoding:a -logPrefix:0a"), Some((2, 1)));
    assert_eq!(expected("%parallel-boogie -inline:spec"), None);
    assert_eq!(expected("%parallel-boogie -noVerify"), None);
    assert_eq!(expectation::current_boogie_rejects(repo.path(), "a.bpl", ""), Some(false));
    assert_eq!(expectation::current_boogie_rejects(repo.path(), "b.bpl", ""), None);
    let checks = "// CHECK-L: 1 type checking errors detected in";
    assert_eq!(expectation::current_boogie_rejects(repo.path(), "b.bpl", checks), Some(true));
}

#[test]
fn files_the_suite_runs_with_inferred_modifies_are_found_by_their_run_line() {
    assert!(expectation::infers_modifies("// RUN: %parallel-boogie -inferModifies -timeLimit:1200 \"%s\" > \"%t\"\n"));
    assert!(expectation::infers_modifies("// RUN: %boogie /inferModifies \"%s\"\n"));
    assert!(!expectation::infers_modifies("// RUN: %boogie \"%s\"\n// -inferModifies in a comment\n"));
}
