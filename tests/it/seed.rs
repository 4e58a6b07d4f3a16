//! `seedgen seed`: the seeded program of every corpus file is a reviewed snapshot, and
//! Boogie 2.4.1 reports exactly one error per reachable seed on it (ignored unless
//! Boogie is installed). Corpus files name their dead goals in
//! `// expect-unreachable: <goal id>` lines. The seeded program of a polymorphic program
//! (instances of types, functions and heaps) is a program too, for our front end and for
//! Boogie (ignored unless Boogie is installed).

use crate::support::{display_name, seedgen};
use std::path::Path;

fn seeded(path: &Path, goals: &str) -> String {
    let output = seedgen(&["seed", "--goals", goals, &display_name(path)]);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).expect("seedgen prints UTF-8")
}

#[test]
fn seeded_corpus() {
    insta::glob!("../../corpus", "*.bpl", |path| {
        insta::assert_snapshot!(seeded(path, "leaves"));
    });
}

#[test]
fn every_goal_seeded_on_nested_branches() {
    let path = crate::support::root().join("corpus/unreachable.bpl");
    insta::assert_snapshot!(seeded(&path, "all"));
}

#[test]
fn seed_rejects_a_program_with_errors() {
    let output = seedgen(&["seed", "tests/ui/type_assert_int.bpl"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty(), "no half-seeded program on stdout");
}

fn seed_count(text: &str) -> usize {
    text.lines().filter(|line| line.trim_start().starts_with("if (bn") && line.contains(" == ")).count()
}

fn expected_unreachable(path: &Path) -> usize {
    let text = std::fs::read_to_string(path).expect("corpus files are readable");
    text.lines().filter(|line| line.starts_with("// expect-unreachable: ")).count()
}

#[test]
#[ignore = "needs Boogie 2.4.1 (`apt-get install boogie`)"]
fn boogie_reports_one_error_per_reachable_seed() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for path in crate::support::correct_corpus_programs() {
        for goals in ["leaves", "all"] {
            let text = seeded(&path, goals);
            let file = dir.path().join(format!("{}.{goals}.bpl", path.file_stem().expect("a name").to_string_lossy()));
            std::fs::write(&file, &text).expect("the temporary file is writable");
            let expected = seed_count(&text) - expected_unreachable(&path);
            assert_eq!(crate::support::boogie_errors(&file), expected, "{} --goals {goals}", display_name(&path));
        }
    }
}

/// The polymorphic programs: AutoProof-style heaps, `Seq T`, `Set T`, polymorphic
/// functions, procedures and lambdas.
fn polymorphic_programs() -> Vec<std::path::PathBuf> {
    let mut programs = crate::support::bpl_files("corpus/autoproof");
    let mono = crate::support::bpl_files("tests/mono");
    programs.extend(mono.into_iter().filter(|path| !path.ends_with("non_terminating.bpl")));
    programs
}

#[test]
fn the_seeded_program_of_a_polymorphic_program_checks() {
    for path in polymorphic_programs() {
        let name = display_name(&path);
        let (_, checked) = crate::support::check_source(&name, &seeded(&path, "leaves"));
        assert!(!checked.has_errors(), "{name}: {:?}", checked.diagnostics);
    }
}

#[test]
#[ignore = "needs Boogie 2.4.1 (`apt-get install boogie`)"]
fn boogie_type_checks_the_seeded_program_of_every_polymorphic_program() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for path in polymorphic_programs() {
        let file = dir.path().join("seeded.bpl");
        std::fs::write(&file, seeded(&path, "leaves")).expect("the temporary file is writable");
        let boogie = std::process::Command::new("boogie").arg(&file).arg("/noVerify").output().expect("boogie");
        let stdout = String::from_utf8_lossy(&boogie.stdout);
        assert!(stdout.contains("finished with 0 verified, 0 errors"), "{}:\n{stdout}", display_name(&path));
    }
}
