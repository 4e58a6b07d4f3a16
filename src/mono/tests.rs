use super::*;
use crate::sema::hir;

fn mono(source: &str) -> hir::Program {
    let program = crate::sema::tests::expect_accepted(source);
    let mono = monomorphize(program).expect("monomorphizes");
    assert!(!is_polymorphic(&mono), "still polymorphic: {mono:#?}");
    mono
}

fn names<T>(items: &[T], name: impl Fn(&T) -> &str) -> Vec<String> {
    items.iter().map(|item| name(item).to_string()).collect()
}

#[test]
fn a_monomorphic_program_is_unchanged() {
    let source = "type T; const c: T; procedure P(x: int) returns (y: bool) { y := x > 0; }";
    let program = crate::sema::tests::expect_accepted(source);
    assert!(!is_polymorphic(&program));
    assert_eq!(format!("{:?}", monomorphize(program.clone()).expect("runs")), format!("{program:?}"));
}

#[test]
fn functions_and_axioms_are_instantiated_at_the_types_used() {
    let program = mono(
        r"
        type Seq T;
        function Len<T>(s: Seq T): int;
        axiom (forall<T> s: Seq T :: Len(s) >= 0);
        procedure P(a: Seq int, b: Seq bool) returns (n: int) { n := Len(a) + Len(b); }
        ",
    );
    assert_eq!(names(&program.functions, |f| &f.name), ["Len<int>", "Len<bool>"]);
    assert_eq!(program.axioms.len(), 2);
    assert!(names(&program.types, |t| &t.name).contains(&"Seq int".to_string()));
}

#[test]
fn a_heap_is_split_per_field_type() {
    let program = mono(
        r"
        type ref; type Field _;
        type HeapType = <a>[ref, Field a]a;
        var Heap: HeapType;
        const f: Field int; const g: Field bool; const h: Field ref;
        procedure P(o: ref) modifies Heap; {
          Heap[o, f] := 1; Heap[o, g] := Heap[o, f] > 0; Heap[o, h] := o;
          assert Heap[o, g] == (Heap == old(Heap)[o, f := 1]);
        }
        ",
    );
    assert_eq!(names(&program.globals, |g| &g.name), ["Heap<int>", "Heap<bool>", "Heap<ref>"]);
    assert_eq!(program.procedures[0].modifies.len(), 3);
}

#[test]
fn polymorphic_procedures_get_a_generic_instance_and_one_per_call() {
    let program = mono(
        r"
        procedure Id<T>(x: T) returns (y: T) ensures y == x; { y := x; }
        procedure Main() { var n: int; call n := Id(3); }
        ",
    );
    assert_eq!(names(&program.procedures, |p| &p.name), ["Main", "Id<T>", "Id<int>"]);
    assert_eq!(names(&program.implementations, |i| &i.name), ["Main", "Id<T>", "Id<int>"]);
}

#[test]
fn an_instantiation_that_grows_forever_is_an_error() {
    let program = crate::sema::tests::expect_accepted(
        r"
        type Seq T;
        function Wrap<T>(x: T): Seq T;
        axiom (forall<T> x: T :: Wrap(Wrap(x)) != Wrap(Wrap(x)));
        procedure P(s: Seq int) { assert Wrap(s) == Wrap(s); }
        ",
    );
    match monomorphize(program.clone()) {
        Err(MonoError::NonTerminating { .. }) => {}
        other => panic!("expected non-termination, got {other:?}"),
    }
}

#[test]
fn a_polymorphic_map_stored_in_an_instance_of_its_own_type_is_refused() {
    let program = crate::sema::tests::expect_accepted(
        r"
        var p: <a>[int]a;
        procedure P() modifies p; { assert p == p[28 := p]; }
        ",
    );
    match monomorphize(program) {
        Err(MonoError::Unsupported { what, .. }) => assert!(what.contains("its own type"), "{what}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn equality_across_different_instances_is_false() {
    let program = mono(
        r"
        type Field _;
        function Same<a, b>(f: Field a, g: Field b): bool { f == g }
        const x: Field int; const y: Field bool;
        procedure P() returns (r: bool, s: bool) { r := Same(x, y); s := Same(x, x); }
        ",
    );
    let bodies: Vec<String> =
        program.functions.iter().map(|f| format!("{:?}", f.body.as_ref().expect("a body").kind)).collect();
    assert!(bodies[0].starts_with("Bool(false)"), "{bodies:?}");
    assert!(bodies[1].starts_with("Binary"), "{bodies:?}");
}

/// A prelude whose axioms, matched function by function with the parameters' types
/// combined every way, build pairs of pairs without end (AutoProof's maps to bags):
/// matched by their triggers as a whole, as E-matching matches them, they stop.
#[test]
fn type_quantified_axioms_are_instantiated_by_their_triggers() {
    let program = mono(
        r"
        type Pair U V;
        type Map U V;
        type Bag T;
        function Map#Pairs<U, V>(m: Map U V): Bag (Pair U V);
        function Map#ToBag<U, V>(m: Map U V): Bag V;
        function Bag#Card<T>(b: Bag T): int;
        function Map#Swap<U, V>(m: Map U V): Map (Pair U V) (Pair V U);
        axiom (forall<U, V> m: Map U V :: { Map#ToBag(m) } Bag#Card(Map#ToBag(m)) >= 0);
        axiom (forall<U, V> m: Map U V :: { Map#Pairs(m) } Map#ToBag(Map#Swap(m)) == Map#ToBag(Map#Swap(m)));
        procedure P(m: Map int bool) returns (n: int) { n := Bag#Card(Map#ToBag(m)); }
        ",
    );
    let functions = names(&program.functions, |f| &f.name);
    assert!(!functions.iter().any(|name| name.starts_with("Map#Swap")), "{functions:?}");
    assert_eq!(program.axioms.len(), 1);
}

#[test]
fn instantiation_stops_at_the_deadline_with_the_declaration_it_was_at() {
    let source = r"
        type Seq T;
        function Len<T>(s: Seq T): int;
        axiom (forall<T> s: Seq T :: Len(s) >= 0);
        procedure P(a: Seq int) returns (n: int) { n := Len(a); }
    ";
    let program = crate::sema::tests::expect_accepted(source);
    let passed = Some(Instant::now());
    let Err(MonoError::TimeLimit { span }) = monomorphize_until(program.clone(), passed) else {
        panic!("a run whose deadline has passed stops");
    };
    assert!(span.end > span.start, "the declaration it was at");
    let far = Some(Instant::now() + std::time::Duration::from_secs(3600));
    assert!(monomorphize_until(program, far).is_ok());
}
