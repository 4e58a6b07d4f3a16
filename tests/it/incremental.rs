//! The `prove-tests` cache, `--jobs`, `--shard` with `seedgen merge`, and
//! `--lcov`. Every variant must write exactly the suite (and the warnings) of one plain
//! run without a cache.

use crate::support::seedgen;
use std::path::{Path, PathBuf};
use std::process::Output;

/// Three procedures: `A` calls `B`, `C` stands alone; `D` has a dead branch (a warning).
const PROGRAM: &str = "\
var g: int;

procedure B(x: int) returns (r: int)
{
  if (x > 0) { r := x; } else { r := -x; }
}

procedure A(y: int) returns (s: int)
{
  call s := B(y);
  if (s > 10) { s := 10; }
}

procedure C(z: int) returns (t: int)
{
  if (z == 3) { t := 1; } else { t := 2; }
}

procedure D(w: int) returns (u: int)
{
  if (w > 0 && w < 0) { u := 1; }
}
";

/// A scratch directory with the program in it.
struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    fn new(program: &str) -> Scratch {
        let scratch = Scratch { dir: tempfile::tempdir().expect("a temporary directory") };
        scratch.write_program(program);
        scratch
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn arg(&self, name: &str) -> String {
        self.path(name).to_str().expect("UTF-8 temp path").to_string()
    }

    fn write_program(&self, program: &str) {
        std::fs::write(self.path("p.bpl"), program).expect("writable");
    }

    /// `prove-tests p.bpl -o OUT` with `args`; must succeed.
    fn prove(&self, out: &str, args: &[&str]) -> Output {
        let (program, suite) = (self.arg("p.bpl"), self.arg(out));
        let mut all = vec!["prove-tests", program.as_str(), "-o", suite.as_str()];
        all.extend(args);
        let output = seedgen(&all);
        assert_eq!(output.status.code(), Some(0), "{all:?}: {}", String::from_utf8_lossy(&output.stderr));
        output
    }

    fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.path(name)).expect("written")
    }

    fn cache_entries(&self) -> Vec<PathBuf> {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(self.path(".seedgen"))
            .expect("the cache directory exists")
            .map(|entry| entry.expect("readable").path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
            .collect();
        entries.sort();
        entries
    }
}

/// The implementations a `--verbose` run read from the cache, and those it generated.
fn sources(output: &Output) -> (Vec<String>, Vec<String>) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    let mut cached = Vec::new();
    let mut generated = Vec::new();
    for line in stderr.lines() {
        let Some((name, how)) = line.strip_prefix("seedgen: ").and_then(|rest| rest.split_once(": ")) else { continue };
        if name.contains(' ') {
            continue;
        }
        if how == "from the cache" { &mut cached } else { &mut generated }.push(name.to_string());
    }
    (cached, generated)
}

/// The diagnostics of a run: stderr without `--verbose`'s lines and `wrote …`.
fn warnings(output: &Output) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr);
    stderr
        .lines()
        .filter(|line| !line.starts_with("seedgen: ") && !line.starts_with("wrote "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The suite and warnings of a cold run (no cache) of the program as it is now.
fn cold(scratch: &Scratch) -> (String, String) {
    let output = scratch.prove("cold.json", &["--no-cache"]);
    (scratch.read("cold.json"), warnings(&output))
}

fn assert_like_cold(scratch: &Scratch, output: &Output, suite: &str, why: &str) {
    let (cold_suite, cold_warnings) = cold(scratch);
    assert_eq!(scratch.read(suite), cold_suite, "{why}: the suite is byte-identical to a cold run's");
    assert_eq!(warnings(output), cold_warnings, "{why}: the warnings are a cold run's");
}

#[test]
fn a_warm_run_reads_every_implementation_from_the_cache_and_writes_the_same_suite() {
    let scratch = Scratch::new(PROGRAM);
    let first = scratch.prove("first.json", &["--verbose"]);
    assert_eq!(sources(&first), (vec![], ["B", "A", "C", "D"].map(String::from).to_vec()));
    assert_like_cold(&scratch, &first, "first.json", "a cold run with the cache");
    assert_eq!(scratch.cache_entries().len(), 4, "one entry per implementation");
    assert_eq!(scratch.read(".seedgen/.gitignore").lines().last(), Some("*"), "the cache stays out of git");
    let warm = scratch.prove("warm.json", &["--verbose"]);
    assert_eq!(sources(&warm), (["B", "A", "C", "D"].map(String::from).to_vec(), vec![]));
    assert_like_cold(&scratch, &warm, "warm.json", "a warm run");
    assert!(String::from_utf8_lossy(&warm.stdout).contains("(cached)"), "the summary says so");
    // An unchanged suite is not rewritten: tools watching it see no change.
    let modified = || std::fs::metadata(scratch.path("warm.json")).and_then(|meta| meta.modified()).expect("a time");
    let before = modified();
    std::thread::sleep(std::time::Duration::from_millis(20));
    scratch.prove("warm.json", &[]);
    assert_eq!(modified(), before);
    let json = scratch.prove("json.json", &["--format", "json"]);
    let summary: serde_json::Value = serde_json::from_slice(&json.stdout).expect("a JSON summary");
    assert_eq!(summary["procedures"][0]["cached"], true);
}

#[test]
fn an_edit_re_solves_what_depends_on_it_and_nothing_else() {
    let scratch = Scratch::new(PROGRAM);
    scratch.prove("first.json", &[]);
    let cases = [
        // Lines added above every procedure move their goals, but change none of them.
        ("// A comment.\n\n\n", "", vec![]),
        ("", "t := 0;", vec!["C"]),
        // `A` calls `B`: both depend on `B`'s body.
        ("", "r := -x; } else { r := x + 1;", vec!["B", "A"]),
        // Axioms are global: everything depends on them.
        ("axiom 1 > 0;\n", "", vec!["B", "A", "C", "D"]),
    ];
    let mut program = PROGRAM.to_string();
    for (prefix, edit, expected) in cases {
        program = format!("{prefix}{program}");
        match edit {
            "" => {}
            "t := 0;" => program = program.replace("if (z == 3)", "t := 0;\n  if (z == 3)"),
            _ => program = program.replace("r := x; } else { r := -x;", edit),
        }
        scratch.write_program(&program);
        let output = scratch.prove("edited.json", &["--verbose"]);
        assert_eq!(sources(&output).1, expected, "after {prefix:?} {edit:?}");
        assert_like_cold(&scratch, &output, "edited.json", &format!("after {prefix:?} {edit:?}"));
    }
}

#[test]
fn corrupt_truncated_and_foreign_entries_are_rebuilt_not_trusted() {
    let scratch = Scratch::new(PROGRAM);
    scratch.prove("first.json", &[]);
    let entries = scratch.cache_entries();
    let [b, a, c, d] = entries.as_slice() else { panic!("four entries: {entries:?}") };
    let text = |path: &Path| std::fs::read_to_string(path).expect("an entry");
    let (b_text, a_text, c_text) = (text(b), text(a), text(c));
    // Which file holds which implementation does not matter: each case breaks one.
    std::fs::write(b, &b_text[..b_text.len() / 2]).expect("truncated");
    std::fs::write(a, &c_text).expect("another implementation's entry");
    std::fs::write(c, a_text.replace("\"key\":\"sha256:", "\"key\":\"sha256:0")).expect("another key");
    std::fs::write(d, [0xff, 0x00, 0x17]).expect("garbage");
    let output = scratch.prove("rebuilt.json", &["--verbose"]);
    assert_eq!(sources(&output).0, Vec::<String>::new(), "no broken entry is used");
    assert_like_cold(&scratch, &output, "rebuilt.json", "after broken entries");
    let again = scratch.prove("again.json", &["--verbose"]);
    assert_eq!(sources(&again).1, Vec::<String>::new(), "the entries were rebuilt");
    assert_eq!(scratch.read("again.json"), scratch.read("rebuilt.json"));
}

#[test]
fn no_cache_writes_nothing_and_cache_dir_moves_it() {
    let scratch = Scratch::new(PROGRAM);
    scratch.prove("suite.json", &["--no-cache"]);
    assert!(!scratch.path(".seedgen").exists());
    let elsewhere = scratch.arg("elsewhere");
    scratch.prove("suite.json", &["--cache-dir", &elsewhere]);
    assert!(!scratch.path(".seedgen").exists());
    assert_eq!(std::fs::read_dir(scratch.path("elsewhere")).expect("made").count(), 5, "4 entries and .gitignore");
    let output = scratch.prove("suite.json", &["--cache-dir", &elsewhere, "--verbose"]);
    assert_eq!(sources(&output).1, Vec::<String>::new());
}

#[cfg(unix)] // The unwritable cache is a path through a regular file.
#[test]
fn an_unwritable_cache_warns_and_the_run_succeeds() {
    let scratch = Scratch::new(PROGRAM);
    std::fs::write(scratch.path("file"), "").expect("writable");
    let not_a_dir = scratch.arg("file/cache");
    let output = scratch.prove("suite.json", &["--cache-dir", &not_a_dir]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("warning: cannot write the cache"), "{stderr}");
    assert_like_cold(&scratch, &output, "suite.json", "without a usable cache");
}

#[test]
fn jobs_do_not_change_the_suite() {
    for program in ["corpus/control_flow.bpl", "corpus/recursive.bpl", "corpus/unreachable.bpl"] {
        let scratch = Scratch::new(&std::fs::read_to_string(program).expect("corpus"));
        let one = scratch.prove("one.json", &["--no-cache", "--jobs", "1"]);
        let two = scratch.prove("two.json", &["--no-cache", "--jobs", "2"]);
        assert_eq!(scratch.read("one.json"), scratch.read("two.json"), "{program}");
        assert_eq!(warnings(&one), warnings(&two), "{program}");
    }
}

#[test]
fn shards_merge_into_the_suite_of_one_run() {
    let scratch = Scratch::new(PROGRAM);
    let (whole, _) = cold(&scratch);
    let mut shards = Vec::new();
    for index in 1..=3 {
        let name = format!("shard{index}.json");
        scratch.prove(&name, &["--shard", &format!("{index}/3")]);
        shards.push(scratch.arg(&name));
    }
    // In any order.
    shards.reverse();
    let merged = scratch.arg("merged.json");
    let mut args = vec!["merge", "-o", merged.as_str()];
    args.extend(shards.iter().map(String::as_str));
    let output = seedgen(&args);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(scratch.read("merged.json"), whole, "byte-identical to one run");
    let stdout =
        seedgen(&["merge", &scratch.arg("shard1.json"), &scratch.arg("shard2.json"), &scratch.arg("shard3.json")]);
    assert_eq!(String::from_utf8_lossy(&stdout.stdout), whole, "to stdout without -o");
}

#[test]
fn merge_refuses_shards_of_different_runs() {
    let scratch = Scratch::new(PROGRAM);
    scratch.prove("a1.json", &["--shard", "1/2"]);
    scratch.prove("b2.json", &["--shard", "2/2", "--unroll", "2"]);
    scratch.prove("a2.json", &["--shard", "2/2"]);
    let merge = |names: &[&str]| {
        let mut args = vec!["merge".to_string()];
        args.extend(names.iter().map(|name| scratch.arg(name)));
        let output = seedgen(&args.iter().map(String::as_str).collect::<Vec<_>>());
        let stderr = String::from_utf8_lossy(&output.stderr).replace(&scratch.arg(""), "");
        (output.status.code(), stderr)
    };
    insta::assert_snapshot!(format!(
        "{:?}\n{:?}\n{:?}",
        merge(&["a1.json", "b2.json"]),
        merge(&["a1.json"]),
        merge(&["a2.json", "a2.json"])
    ));
    std::fs::write(scratch.path("bad.json"), "{\"format\": 3}").expect("writable");
    let (status, stderr) = merge(&["a1.json", "bad.json"]);
    assert_eq!(status, Some(2), "{stderr}");
}

#[test]
fn prove_tests_lcov_is_run_tests_lcov_of_the_suite() {
    let scratch = Scratch::new(PROGRAM);
    let lcov = scratch.arg("prove.info");
    scratch.prove("suite.json", &["--lcov", &lcov]);
    let (program, suite, replayed) = (scratch.arg("p.bpl"), scratch.arg("suite.json"), scratch.arg("run.info"));
    let output = seedgen(&["run-tests", "--quiet", &program, &suite, "--lcov", &replayed]);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let text = scratch.read("prove.info");
    assert_eq!(text, scratch.read("run.info"));
    assert!(text.contains("BRDA:") && text.contains("end_of_record"), "{text}");
}

#[test]
fn no_progress_bar_when_stderr_is_not_a_terminal() {
    let scratch = Scratch::new(PROGRAM);
    let output = scratch.prove("suite.json", &["--no-cache"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("implementations") && !stderr.contains('\r'), "{stderr}");
}
