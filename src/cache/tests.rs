//! What enters a key, and which entries `load` refuses.

use super::*;
use crate::cfg::lower::lower_all;
use crate::driver::check_file;
use crate::gen::GenOptions;
use crate::source::FileId;

/// The key of every implementation of `text`, by name, under `options`.
fn keys_with(text: &str, options: &GenOptions) -> Vec<(String, Slot, Key)> {
    let mut db = SourceDb::new();
    let file = db.add("p.bpl", text);
    let checked = check_file(&db, file, Default::default());
    let program = checked.hir.expect("the test program checks");
    let (cfgs, errors) = lower_all(&program);
    assert!(errors.is_empty());
    let keys = Keys::new(Path::new("p.bpl"), &checked.ast, &program, &db, &cfgs, options);
    cfgs.iter()
        .map(|cfg| {
            let (slot, key) = keys.of(cfg);
            (cfg.name.clone(), slot, key)
        })
        .collect()
}

fn keys(text: &str) -> Vec<(String, Slot, Key)> {
    keys_with(text, &GenOptions::default())
}

fn key(keys: &[(String, Slot, Key)], name: &str) -> Key {
    keys.iter().find(|(found, ..)| found == name).expect("an implementation of that name").2.clone()
}

const PROGRAM: &str = "
procedure Leaf(x: int) returns (r: int) { r := x; }
procedure Middle(x: int) returns (r: int) { call r := Leaf(x); }
procedure Top(x: int) returns (r: int) { call r := Middle(x); }
procedure Alone(x: int) returns (r: int) { if (x > 0) { r := 1; } }
";

#[test]
fn moving_or_editing_another_procedure_keeps_a_key() {
    let before = keys(PROGRAM);
    let moved = keys(&format!("// moved\n\n{PROGRAM}"));
    let edited = keys(&PROGRAM.replace("r := 1;", "r := 2;"));
    for name in ["Leaf", "Middle", "Top"] {
        assert_eq!(key(&before, name), key(&moved, name), "{name}");
        assert_eq!(key(&before, name), key(&edited, name), "{name}");
    }
    assert_ne!(key(&before, "Alone"), key(&edited, "Alone"));
    assert_eq!(
        before.iter().map(|entry| &entry.1).collect::<Vec<_>>(),
        edited.iter().map(|entry| &entry.1).collect::<Vec<_>>(),
        "slots stay"
    );
}

#[test]
fn a_callee_changes_its_callers_keys_transitively() {
    let before = keys(PROGRAM);
    let after = keys(&PROGRAM.replace("r := x; }", "r := x + 1; }"));
    for name in ["Leaf", "Middle", "Top"] {
        assert_ne!(key(&before, name), key(&after, name), "{name}");
    }
    assert_eq!(key(&before, "Alone"), key(&after, "Alone"));
}

#[test]
fn global_declarations_and_procedure_names_change_every_key() {
    let before = keys(PROGRAM);
    for edit in ["axiom true;\n", "var g: int;\n", "const c: int;\n", "function f(int): int;\n", "procedure Other();\n"]
    {
        let after = keys(&format!("{edit}{PROGRAM}"));
        assert_ne!(key(&before, "Alone"), key(&after, "Alone"), "{edit}");
    }
}

#[test]
fn options_change_keys_and_slots_but_proc_does_not() {
    let plain = keys(PROGRAM);
    let unrolled = keys_with(PROGRAM, &GenOptions { unroll: 2, ..GenOptions::default() });
    let selected = keys_with(PROGRAM, &GenOptions { procedures: vec!["Top".to_string()], ..GenOptions::default() });
    assert_ne!(plain[0].1, unrolled[0].1);
    assert_ne!(plain[0].2, unrolled[0].2);
    assert_eq!(plain, selected);
}

fn report(spans: &[(u32, u32)]) -> ProcedureReport {
    let goal = |index: usize| json::Goal {
        id: format!("P/g{index}"),
        span: json::Position { line: 0, column: 0, end_line: 0, end_column: 0 },
        leaf: true,
        status: "covered".to_string(),
        test: None,
        reason: None,
    };
    ProcedureReport {
        suite: json::Procedure {
            name: "P".to_string(),
            digest: "sha256:0".to_string(),
            goals: (0..spans.len()).map(goal).collect(),
            tests: Vec::new(),
        },
        goal_spans: spans.iter().map(|&(start, end)| Span { file: FileId(0), start, end }).collect(),
        counts: Counts { goals: spans.len(), checks: 3, time_ms: 99, ..Counts::default() },
        cached: false,
        timed_out: false,
    }
}

#[test]
fn entries_come_back_only_for_their_key_and_fitting_text() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let cache = Cache::new(&dir.path().join("cache"));
    let mut db = SourceDb::new();
    let file = db.add("p.bpl", "\n\nprocedure P() { }\nprocedure Q() { }\n");
    let (slot, key) = (Slot("s".to_string()), Key("sha256:k".to_string()));
    let implementation = Span { file, start: 2, end: 19 };
    cache.store(&slot, &key, implementation, &report(&[(4, 10), (2, 19)])).expect("stored");
    // The same text further down: goals move with it.
    let moved = Span { file, start: 20, end: 37 };
    let loaded = cache.load(&db, &slot, &key, moved).expect("the entry of this key");
    assert!(loaded.cached);
    assert_eq!(loaded.counts, Counts { goals: 2, checks: 3, time_ms: 0, ..Counts::default() });
    assert_eq!(loaded.goal_spans, [Span { file, start: 22, end: 28 }, Span { file, start: 20, end: 37 }]);
    // Suite format 3: positions in the implementation's text, the same wherever it is.
    assert_eq!(loaded.suite.goals[0].span, json::Position { line: 1, column: 3, end_line: 1, end_column: 9 });
    assert!(cache.load(&db, &slot, &Key("sha256:other".to_string()), moved).is_none(), "another key");
    assert!(cache.load(&db, &Slot("t".to_string()), &key, moved).is_none(), "no entry");
    assert!(cache.load(&db, &slot, &key, Span { file, start: 20, end: 30 }).is_none(), "goals past the text");
}

#[test]
fn goals_outside_the_implementation_or_timed_out_runs_are_not_stored() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let cache = Cache::new(dir.path());
    let (slot, key) = (Slot("s".to_string()), Key("sha256:k".to_string()));
    let implementation = Span { file: FileId(0), start: 10, end: 20 };
    cache.store(&slot, &key, implementation, &report(&[(5, 12)])).expect("nothing to write");
    let timed_out = ProcedureReport { timed_out: true, ..report(&[(12, 14)]) };
    cache.store(&slot, &key, implementation, &timed_out).expect("nothing to write");
    assert!(!dir.path().join("s.json").exists());
}
