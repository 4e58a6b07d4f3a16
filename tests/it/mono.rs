//! Polymorphic programs through the engine (`crate::mono` before lowering): each small
//! program of `tests/mono/` generates a suite with every goal covered that replays green
//! in both forms, the heap's fields of three types and a heap parameter included; an
//! instantiation that does not terminate is a diagnostic at its span, exit 1;
//! type-quantified lambdas are one monomorphic lambda per instance of their map type.

use crate::support::{covered_goals, goals, replayed_goals, seedgen, status};
use serde_json::Value;

/// `prove-tests` in both forms, every goal decided (covered or proved unreachable)
/// except those of `open` (ids), and `run-tests` of each form green with the coverage
/// the suite reports.
fn generates_and_replays(program: &str, open: &[&str]) -> Value {
    let mut written = Value::Null;
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (emit, file) in [("json", "suite.json"), ("bpl", "suite.bpl")] {
        let suite = dir.path().join(file);
        let suite = suite.to_str().expect("UTF-8 temp path");
        let output = seedgen(&["prove-tests", "--quiet", "--no-cache", program, "--emit", emit, "-o", suite]);
        assert_eq!(output.status.code(), Some(0), "{program}: {}", String::from_utf8_lossy(&output.stderr));
        let output = seedgen(&["run-tests", "--quiet", program, suite, "--format", "json"]);
        assert_eq!(output.status.code(), Some(0), "{program} ({emit}): {}", String::from_utf8_lossy(&output.stdout));
        let report: Value = serde_json::from_slice(&output.stdout).expect("JSON report");
        if emit == "json" {
            written = serde_json::from_str(&std::fs::read_to_string(suite).expect("suite")).expect("JSON");
            let undecided: Vec<&str> = goals(&written)
                .into_iter()
                .filter(|goal| !matches!(status(goal), "covered" | "unreachable"))
                .map(|goal| goal["id"].as_str().expect("a goal id"))
                .collect();
            assert_eq!(undecided, open, "{program}: the goals left open");
            assert_eq!(replayed_goals(&report), covered_goals(&written), "{program}: replay covers what was reported");
        }
    }
    written
}

#[test]
fn a_polymorphic_function_and_its_axiom_at_two_types() {
    generates_and_replays("tests/mono/poly_function.bpl", &[]);
}

#[test]
fn a_type_quantified_axiom_without_bound_variables() {
    generates_and_replays("tests/mono/type_quantified.bpl", &[]);
}

#[test]
fn a_heap_with_fields_of_three_types() {
    let suite = generates_and_replays("tests/mono/heap.bpl", &[]);
    let heap: Vec<&str> = suite["procedures"][0]["tests"][0]["inputs"]["globals"]
        .as_array()
        .expect("globals")
        .iter()
        .map(|global| global["name"].as_str().expect("a name"))
        .collect();
    assert_eq!(heap, ["H<bool>", "H<ref>", "H<int>"], "one map per field type, in the order the program uses them");
}

#[test]
fn a_heap_passed_in_and_returned() {
    generates_and_replays("tests/mono/heap_param.bpl", &[]);
}

#[test]
fn a_polymorphic_procedure_generic_and_called() {
    // The generic instance's goals compare two elements of the fresh type `T`: the
    // function tables over elements are tabulated on the model's whole universe, so
    // replay reads every comparison.
    generates_and_replays("tests/mono/poly_procedure.bpl", &[]);
}

#[test]
fn type_quantified_lambdas_one_map_per_field_type() {
    // Dafny's frames: a lambda assigned to, passed as and captured by polymorphic maps.
    let suite = generates_and_replays("tests/mono/poly_lambda.bpl", &[]);
    let tests = suite["procedures"][0]["tests"].as_array().expect("tests");
    assert!(tests.iter().all(|test| test["expect"]["outcome"] == "pass"), "every run is checked: {tests:?}");
}

#[test]
fn verify_agrees_with_boogie_on_polymorphic_programs() {
    for program in ["poly_function", "type_quantified", "heap", "poly_procedure", "poly_lambda"] {
        let path = format!("tests/mono/{program}.bpl");
        let output = seedgen(&["verify", &path]);
        assert_eq!(output.status.code(), Some(0), "{path}: {}", String::from_utf8_lossy(&output.stderr));
    }
}

#[test]
fn an_instantiation_that_does_not_terminate_is_a_diagnostic() {
    let output = seedgen(&["prove-tests", "tests/mono/non_terminating.bpl", "-o", "/dev/null"]);
    assert_eq!(output.status.code(), Some(1));
    insta::assert_snapshot!(String::from_utf8_lossy(&output.stderr));
}

/// A quantifier over a whole heap whose trigger selects one field type: after the heap
/// is split per field type the trigger mentions one component only, and the encoding
/// drops it (z3 rejects such a pattern, which had made every command panic).
#[test]
fn a_trigger_on_one_component_of_a_split_heap_is_dropped() {
    let path = "tests/mono/heap_trigger.bpl";
    let dir = tempfile::tempdir().expect("a temporary directory");
    let suite = dir.path().join("suite.json");
    let output = seedgen(&["prove-tests", "--quiet", "--no-cache", path, "-o", suite.to_str().expect("UTF-8")]);
    // z3 gives up on the quantifier over maps ("incomplete (theory array)"): undecided,
    // reported as such.
    assert!(matches!(output.status.code(), Some(0 | 3)), "{}", String::from_utf8_lossy(&output.stderr));
    let output = seedgen(&["verify", path]);
    assert_eq!(output.status.code(), Some(0), "Boogie 2.4.1 verifies it: {}", String::from_utf8_lossy(&output.stderr));
}

/// An ambiguous type argument is `int` (Boogie's rule, with a warning) before the
/// expression is settled, so no error type reaches the engine.
#[test]
fn an_ambiguous_type_argument_is_int_through_the_engine() {
    generates_and_replays("tests/mono/ambiguous_type_argument.bpl", &[]);
}

/// Maps with no index are encoded as their one value: `verify` proves the program
/// (the interpreter does not run them yet: `prove-tests` leaves its goals open).
#[test]
fn a_nullary_map_verifies() {
    let output = seedgen(&["verify", "tests/mono/nullary_map.bpl"]);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
}
