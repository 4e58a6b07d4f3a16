//! `tests/hostile/`: malformed, unsupported and pathological inputs. Every case
//! of `tests/hostile/cases.txt` runs the binary in a fresh directory holding a copy of
//! `tests/hostile/`, must end within [`TIME_LIMIT`] with the exit status the case names
//! (never 101, never a signal), and the status and first line of stderr of every case
//! are one reviewed snapshot.

use crate::support::{pseudo_random, root};
use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Generous for a debug build on a busy machine (the endless-loop case spends the
/// interpreter's step budget on every replay: some 40 s at a load of 8 on 2 cores); a
/// case that takes longer hangs.
const TIME_LIMIT: Duration = Duration::from_secs(180);

/// Cases run this many at a time.
const WORKERS: usize = 2;

const COMMANDS: [&str; 6] = ["check", "seed", "prove-tests", "verify", "run-tests", "merge"];

/// One line of `cases.txt`.
struct Case {
    name: String,
    exit: i32,
    args: Vec<String>,
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(root().join("tests/hostile/cases.txt")).expect("tests/hostile/cases.txt");
    text.lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| {
            let mut words = line.split_whitespace().map(str::to_string);
            let name = words.next().expect("a case has a name");
            let exit = words.next().and_then(|exit| exit.parse().ok());
            let exit = exit.unwrap_or_else(|| panic!("case {name}: the second word is the exit status"));
            assert!(matches!(exit, 0..=3), "case {name}: a crash (101) is never an expected status");
            Case { name, exit, args: words.collect() }
        })
        .collect()
}

/// What one run did.
struct Ran {
    /// The exit status, or why there is none.
    status: Result<i32, String>,
    stderr: String,
    elapsed: Duration,
}

/// Runs `case` in a fresh copy of `tests/hostile/`.
fn run(case: &Case) -> Ran {
    let dir = tempfile::tempdir().expect("a temporary directory");
    copy_dir(&root().join("tests/hostile"), dir.path());
    for arg in &case.args {
        if let Some(name) = arg.strip_prefix("gen/") {
            std::fs::create_dir_all(dir.path().join("gen")).expect("writable");
            generate(name, &dir.path().join(arg));
        }
    }
    let mut args = case.args.clone();
    if COMMANDS.contains(&args.first().map_or("", String::as_str))
        && !args.iter().any(|arg| arg.starts_with("--message-format"))
    {
        args.push("--message-format=short".to_string());
    }
    let stderr_path = dir.path().join(".stderr");
    let mut child = Command::new(env!("CARGO_BIN_EXE_seedgen"))
        .args(&args)
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&stderr_path).expect("writable"))
        .spawn()
        .expect("the seedgen binary runs");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waitable") {
            break status.code().ok_or_else(|| format!("killed by a signal ({status})"));
        }
        if start.elapsed() > TIME_LIMIT {
            child.kill().expect("killable");
            child.wait().expect("waitable");
            break Err(format!("still running after {} s", TIME_LIMIT.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stderr = String::from_utf8_lossy(&std::fs::read(&stderr_path).expect("readable")).into_owned();
    let shown_dir = dir.path().display().to_string();
    Ran { status, stderr: stderr.replace(&shown_dir, "$DIR"), elapsed: start.elapsed() }
}

fn copy_dir(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).expect("tests/hostile is readable") {
        let path = entry.expect("readable").path();
        if path.is_file() {
            std::fs::copy(&path, to.join(path.file_name().expect("a file name"))).expect("copyable");
        }
    }
}

#[test]
fn hostile_inputs() {
    let cases = cases();
    assert!(cases.len() >= 60, "tests/hostile/cases.txt holds {} cases", cases.len());
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Ran>>> = Mutex::new((0..cases.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..WORKERS {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::SeqCst);
                let Some(case) = cases.get(index) else { break };
                let ran = run(case);
                results.lock().expect("no worker panics holding the lock")[index] = Some(ran);
            });
        }
    });
    let results = results.into_inner().expect("no worker panicked");
    let mut snapshot = String::new();
    let mut failures = Vec::new();
    for (case, ran) in cases.iter().zip(results) {
        let ran = ran.expect("every case ran");
        let first = ran.stderr.lines().next().unwrap_or("(nothing on stderr)");
        match &ran.status {
            Ok(code) if *code == case.exit && ran.stderr.contains("internal error") => {
                failures.push(format!("{}: internal error:\n{}", case.name, ran.stderr))
            }
            Ok(code) if *code == case.exit => {}
            Ok(code) => failures.push(format!("{}: exit {code}, expected {}:\n{}", case.name, case.exit, ran.stderr)),
            Err(why) => failures.push(format!("{}: {why}:\n{}", case.name, ran.stderr)),
        }
        if ran.elapsed > Duration::from_secs(20) {
            eprintln!("{}: slow, {:.1} s", case.name, ran.elapsed.as_secs_f64());
        }
        let status = ran.status.map_or_else(|why| why, |code| code.to_string());
        writeln!(snapshot, "{}: {}\n  exit {status}: {first}", case.name, case.args.join(" ")).expect("a String");
    }
    assert!(failures.is_empty(), "{}\n\nall cases:\n{snapshot}", failures.join("\n\n"));
    insta::assert_snapshot!(snapshot);
}

/// Writes the generated input `name` to `path`.
fn generate(name: &str, path: &Path) {
    let digits = "7".repeat(10_000);
    let text = match name {
        "garbage.bin" => {
            let bytes: Vec<u8> = pseudo_random(0x2545_f491_4f6c_dd1d, 4096).map(|number| (number >> 24) as u8).collect();
            std::fs::write(path, bytes).expect("writable");
            return;
        }
        "garbage.bpl" => {
            pseudo_random(0x9e37_79b9_7f4a_7c15, 200_000).map(|number| char::from(b' ' + (number % 95) as u8)).collect()
        }
        "symlink_loop.bpl" => {
            std::os::unix::fs::symlink(path.file_name().expect("a name"), path).expect("a symlink");
            return;
        }
        "deep_parens.bpl" => format!("axiom {}true{};", "(".repeat(100_000), ")".repeat(100_000)),
        "deep_ifs.bpl" => {
            format!("procedure P(x: int) {{ {}{} }}", "if (x > 0) { ".repeat(100_000), "}".repeat(100_000))
        }
        "deep_else_if.bpl" => {
            let arms: String = (1..100_000).map(|i| format!(" else if (x == {i}) {{ y := {i}; }}")).collect();
            format!("procedure P(x: int) returns (y: int) {{\n  if (x == 0) {{ y := 0; }}{arms}\n}}\n")
        }
        "deep_comments.bpl" => format!("{}{}\nprocedure P() {{ }}\n", "/*".repeat(100_000), "*/".repeat(100_000)),
        "deep_map_type.bpl" => format!("var m: {}int;\n", "[int]".repeat(100_000)),
        "deep_synonym.bpl" => format!("type T = {}int;\n", "[int]".repeat(1_000_000)),
        "synonym_chain.bpl" => {
            let chain: String = (1..100_000).map(|i| format!("type T{i} = T{};\n", i - 1)).collect();
            format!("type T0 = int;\n{chain}var x: T99999;\nprocedure P() {{ assert x == true; }}\n")
        }
        "and_chain.bpl" => format!("procedure P(x: int) {{ assert x > 0{}; }}\n", " && x > 0".repeat(100_000)),
        "implies_chain.bpl" => format!("axiom true{};\n", " ==> true".repeat(100_000)),
        "minus_chain.bpl" => format!("axiom 0 == {}1;\n", "- ".repeat(100_000)),
        "literal_int.bpl" => format!(
            "procedure P(x: int) returns (y: int) {{\n  if (x == {digits}) {{ y := x - {digits}; }} else {{ y := 1; }}\n}}\n"
        ),
        "literal_index.bpl" => format!(
            "procedure P(m: [int]int) returns (y: int) {{\n  if (m[{digits}] == {digits}) {{ y := 0; }} else {{ y := 1; }}\n}}\n"
        ),
        "literal_division.bpl" => format!(
            "procedure P(x: int) returns (y: int) {{\n  if (x div {digits} == 3 && x mod {digits} == 1) {{ y := 0; }} else {{ y := 1; }}\n}}\n"
        ),
        "literal_verify.bpl" => {
            format!("procedure P(x: int) {{\n  assert x * {digits} != {digits}{digits};\n}}\n")
        }
        "literal_too_long.bpl" => format!("procedure P(x: int) {{\n  assert x != {};\n}}\n", "9".repeat(100_001)),
        "huge_file.bpl" => (0..50_000)
            .map(|i| format!("procedure P{i}(x: int) returns (y: int)\n  ensures y >= x;\n{{\n  if (x > {i}) {{ y := x; }} else {{ y := {i}; }}\n}}\n\n"))
            .collect(),
        "many_errors.bpl" => {
            format!("procedure P() {{\n{}}}\n", (0..100_000).map(|i| format!("  x{i} := y{i};\n")).collect::<String>())
        }
        "long_identifier.bpl" => format!("procedure P() {{\n  assert {};\n}}\n", "x".repeat(1_000_000)),
        "many_parameters.bpl" => {
            let params: Vec<String> = (0..2_000).map(|i| format!("p{i}: int")).collect();
            format!("procedure P({}) returns (y: int) {{\n  if (p0 < p1999) {{ y := 0; }} else {{ y := 1; }}\n}}\n", params.join(", "))
        }
        _ if name.starts_with("sequential_ifs_") => {
            let count = number_in(name);
            let ifs: String =
                (0..count).map(|i| format!("  if (x{} > {i}) {{ y := y + 1; }} else {{ y := y - 1; }}\n", i % 10)).collect();
            let params: Vec<String> = (0..10).map(|i| format!("x{i}: int")).collect();
            format!("procedure P({}) returns (y: int) {{\n  y := 0;\n{ifs}}}\n", params.join(", "))
        }
        _ if name.starts_with("goto_chain_") => {
            let count = number_in(name);
            let labels: String = (0..count).map(|i| format!("  L{i}: y := y + 1; goto L{};\n", i + 1)).collect();
            format!("procedure P(x: int) returns (y: int) {{\n  y := x;\n  goto L0;\n{labels}  L{count}: return;\n}}\n")
        }
        _ if name.starts_with("long_body_") => {
            let body: String = (0..number_in(name)).map(|i| format!("  y := y + {};\n", i % 7)).collect();
            format!("procedure P(x: int) returns (y: int) {{\n  y := x;\n{body}  if (y > 0) {{ y := 0; }}\n}}\n")
        }
        "huge_integer.tests.json" => {
            let dir = path.parent().and_then(Path::parent).expect("gen/ is in the case's directory");
            let suite = std::fs::read_to_string(dir.join("max.tests.json")).expect("the max suite");
            suite.replacen("\"value\": 0", &format!("\"value\": \"{}\"", "9".repeat(1_000_000)), 1)
        }
        "deep.tests.json" => format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)),
        other => panic!("no generator for gen/{other}"),
    };
    std::fs::write(path, text).expect("writable");
}

/// The number in a generated input's name: `long_body_3000.bpl` → 3000.
fn number_in(name: &str) -> usize {
    let digits: String = name.chars().filter(char::is_ascii_digit).collect();
    digits.parse().unwrap_or_else(|_| panic!("gen/{name} names a size"))
}

/// `seedgen ARGS` in `dir`, uncolored.
fn seedgen_in(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_seedgen"));
    command.args(args).current_dir(dir).env("NO_COLOR", "1").env_remove("SEEDGEN_FAULT");
    command
}

/// A directory holding `max.bpl` and its suite `max.tests.<form>`, and the suite's bytes.
fn proved(form: &str) -> (tempfile::TempDir, Vec<u8>) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::copy(root().join("tests/hostile/max.bpl"), dir.path().join("max.bpl")).expect("copyable");
    let output = seedgen_in(dir.path(), &["prove-tests", "-q", "max.bpl", "--emit", form]).output().expect("runs");
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let suite = std::fs::read(dir.path().join(format!("max.tests.{form}"))).expect("the suite is written");
    // The next run sees a changed program, so its suite would differ.
    let program = std::fs::read_to_string(dir.path().join("max.bpl")).expect("readable");
    std::fs::write(dir.path().join("max.bpl"), program.replace("m := a;", "m := a + 0;")).expect("writable");
    (dir, suite)
}

/// The names in `dir` besides the program, its suite and the cache directory: at most
/// the temporary file of an interrupted write, named after the suite.
fn leftovers(dir: &Path, form: &str) -> Vec<String> {
    let names = std::fs::read_dir(dir)
        .expect("readable")
        .map(|entry| entry.expect("readable").file_name().into_string().expect("UTF-8 names"));
    let kept = ["max.bpl".to_string(), format!("max.tests.{form}"), ".seedgen".to_string()];
    let others: Vec<String> = names.filter(|name| !kept.contains(name)).collect();
    for name in &others {
        let temporary = name.starts_with(&format!(".max.tests.{form}.")) && name.ends_with(".tmp");
        assert!(temporary, "an unexpected file `{name}`");
    }
    others
}

#[test]
fn a_run_killed_before_the_rename_leaves_the_previous_suite_byte_identical() {
    for form in ["json", "bpl"] {
        let (dir, before) = proved(form);
        let output = seedgen_in(dir.path(), &["prove-tests", "-q", "max.bpl", "--emit", form])
            .env("SEEDGEN_FAULT", "abort-before-rename")
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), None, "the hook aborts the process: {}", output.status);
        let after = std::fs::read(dir.path().join(format!("max.tests.{form}"))).expect("still there");
        assert!(before == after, "{form}: the previous suite changed");
        assert_eq!(leftovers(dir.path(), form).len(), 1, "the aborted write left its temporary file");
        // Without the fault the same run replaces the suite.
        let output = seedgen_in(dir.path(), &["prove-tests", "-q", "max.bpl", "--emit", form]).output().expect("runs");
        assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
        assert!(std::fs::read(dir.path().join(format!("max.tests.{form}"))).expect("written") != before);
    }
}

#[test]
fn a_signal_during_the_write_leaves_the_previous_suite_byte_identical() {
    for signal in ["TERM", "INT"] {
        let (dir, before) = proved("json");
        let mut child = seedgen_in(dir.path(), &["prove-tests", "-q", "max.bpl"])
            .env("SEEDGEN_FAULT", "wait-before-rename")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("runs");
        // The temporary file is complete once it appears; the hook then waits.
        let start = Instant::now();
        while leftovers(dir.path(), "json").is_empty() {
            assert!(start.elapsed() < TIME_LIMIT, "no temporary file after {} s", TIME_LIMIT.as_secs());
            std::thread::sleep(Duration::from_millis(20));
        }
        let kill = Command::new("kill").args([format!("-{signal}"), child.id().to_string()]).status().expect("kill");
        assert!(kill.success());
        let status = child.wait().expect("waitable");
        assert_eq!(status.code(), None, "SIG{signal} ends the run: {status}");
        let after = std::fs::read(dir.path().join("max.tests.json")).expect("still there");
        assert!(before == after, "SIG{signal}: the previous suite changed");
    }
}

#[test]
fn a_suite_behind_a_link_is_replaced_and_the_link_kept() {
    let (dir, before) = proved("json");
    std::fs::rename(dir.path().join("max.tests.json"), dir.path().join("real.json")).expect("renamable");
    std::os::unix::fs::symlink("real.json", dir.path().join("max.tests.json")).expect("a link");
    let output = seedgen_in(dir.path(), &["prove-tests", "-q", "max.bpl"]).output().expect("runs");
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(dir.path().join("max.tests.json").is_symlink(), "the link stays a link");
    assert!(std::fs::read(dir.path().join("real.json")).expect("readable") != before, "its target is replaced");
}

#[test]
fn force_overwrites_a_file_that_is_not_a_suite() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::copy(root().join("tests/hostile/max.bpl"), dir.path().join("max.bpl")).expect("copyable");
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "my notes\n").expect("writable");
    let refused = seedgen_in(dir.path(), &["prove-tests", "max.bpl", "-o", "notes.txt"]).output().expect("runs");
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--force"));
    assert_eq!(std::fs::read_to_string(&notes).expect("readable"), "my notes\n", "refused means untouched");
    let forced = seedgen_in(dir.path(), &["prove-tests", "max.bpl", "-o", "notes.txt", "--force"]).output();
    assert_eq!(forced.expect("runs").status.code(), Some(0));
    let suite = std::fs::read_to_string(&notes).expect("readable");
    assert!(seedgen::suite::load::is_suite(&suite), "{suite}");
    // A suite, of either form, is replaced without `--force`.
    for form in ["json", "bpl"] {
        let args = ["prove-tests", "max.bpl", "-o", "notes.txt", "--emit", form];
        assert_eq!(seedgen_in(dir.path(), &args).output().expect("runs").status.code(), Some(0), "{form}");
    }
}

#[test]
fn an_unreadable_program_is_an_input_error() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let program = dir.path().join("secret.bpl");
    std::fs::write(&program, "procedure P() { }\n").expect("writable");
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    if std::fs::read(&program).is_ok() {
        // Running as root: permissions do not stop reads.
        return;
    }
    let output = seedgen_in(dir.path(), &["check", "secret.bpl"]).output().expect("runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.starts_with("seedgen: error: cannot read `secret.bpl`: Permission denied"), "{stderr}");
}
