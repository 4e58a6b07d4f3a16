//! Language-server benchmark: `seedgen lsp` driven over JSON-RPC as an editor drives it,
//! on the generated 200-procedure file of the incremental benchmark, beside the
//! `prove-tests` runs an on-save command would make on the same file.
//!
//! `cargo bench --bench lsp` (release). Measured, wall time from the client's message to
//! what the user sees:
//! - a keystroke (in a comment) to its diagnostics, with the cache cold and warm (the
//!   server runs with `--debounce-ms 0`: the debounce is added as it is configured);
//! - a save to the complete coverage (every code lens generated): cold, warm and
//!   unchanged, warm with one procedure changed;
//! - a hover answered while a cold generation runs (the main loop never waits);
//! - cancellation: a save of a broken text during a cold generation, to the moment the
//!   solver's thread takes the next task (a suite write, answered with a message).

mod common;

use common::generated::{changed, program, CHANGED, PROCEDURES};
use common::{load_average, ms, Timings};
use seedgen::testgen::lsp_client::Client;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const KEYSTROKES: usize = 21;
const SAVES: usize = 5;

struct Session {
    client: Client,
    dir: PathBuf,
    uri: String,
    version: i64,
}

impl Session {
    fn start(seedgen: &Path, dir: &Path) -> Session {
        let mut client = Client::start(seedgen, dir, &["--debounce-ms", "0"]);
        client.initialize(dir);
        let uri = format!("file://{}", dir.join("bench200.bpl").display());
        Session { client, dir: dir.to_path_buf(), uri, version: 1 }
    }

    fn open(&mut self, text: &str) -> Duration {
        let start = Instant::now();
        let document = json!({ "uri": self.uri, "languageId": "boogie", "version": 1, "text": text });
        self.client.notify("textDocument/didOpen", json!({ "textDocument": document }));
        self.published();
        start.elapsed()
    }

    fn published(&mut self) -> Vec<Value> {
        let uri = self.uri.clone();
        self.client.diagnostics(&uri, |_| true)
    }

    fn change(&mut self, text: &str) {
        self.version += 1;
        let params = json!({ "textDocument": { "uri": self.uri, "version": self.version }, "contentChanges": [{ "text": text }] });
        self.client.notify("textDocument/didChange", params);
    }

    /// One character typed at the end of the first line (a comment), to its diagnostics.
    fn keystroke(&mut self) -> Duration {
        self.client.forget();
        self.version += 1;
        let end_of_comment = json!({ "line": 0, "character": 10_000 });
        let edit = json!({ "range": { "start": end_of_comment, "end": end_of_comment }, "text": "x" });
        let params = json!({ "textDocument": { "uri": self.uri, "version": self.version }, "contentChanges": [edit] });
        let start = Instant::now();
        self.client.notify("textDocument/didChange", params);
        self.published();
        start.elapsed()
    }

    fn lenses(&mut self) -> Vec<String> {
        let lenses = self.client.request("textDocument/codeLens", json!({ "textDocument": { "uri": self.uri } }));
        let titles = lenses.as_array().expect("a list").iter();
        titles.map(|lens| lens["command"]["title"].as_str().expect("a title").to_string()).collect()
    }

    fn complete(&mut self) -> bool {
        let lenses = self.lenses();
        lenses.len() == PROCEDURES && lenses.iter().all(|title| !title.contains("not generated"))
    }

    fn save(&mut self) {
        self.client.forget();
        self.client.notify("textDocument/didSave", json!({ "textDocument": { "uri": self.uri } }));
    }

    /// A save, to the first diagnostics after which every implementation's coverage is
    /// shown; with the warnings shown then.
    fn save_until_complete(&mut self) -> (Duration, usize) {
        let start = Instant::now();
        self.save();
        loop {
            let diagnostics = self.published();
            if self.complete() {
                return (start.elapsed(), diagnostics.len());
            }
        }
    }

    fn clear_cache(&self) {
        let cache = self.dir.join(".seedgen");
        if cache.exists() {
            std::fs::remove_dir_all(cache).expect("the cache can be removed");
        }
    }

    fn hover(&mut self) -> Duration {
        let start = Instant::now();
        let place = json!({ "textDocument": { "uri": self.uri }, "position": { "line": 10, "character": 4 } });
        self.client.request("textDocument/hover", place);
        start.elapsed()
    }
}

/// `prove-tests` on the file, writing `out`: its wall time and the warnings it printed.
fn prove_tests(seedgen: &Path, dir: &Path, out: &str) -> (Duration, usize) {
    let start = Instant::now();
    let output = Command::new(seedgen)
        .args(["prove-tests", "bench200.bpl", "-o", out, "--quiet", "--message-format", "short"])
        .current_dir(dir)
        .output()
        .expect("seedgen runs");
    let elapsed = start.elapsed();
    assert!(output.status.success(), "prove-tests failed: {}", String::from_utf8_lossy(&output.stderr));
    (elapsed, String::from_utf8_lossy(&output.stderr).lines().filter(|line| line.contains(": warning: ")).count())
}

fn row(what: &str, timings: &Timings, runs: usize, beside: &str) {
    println!("| {what} | {} | {} | {runs} | {beside} |", ms(timings.median()), ms(timings.min()));
}

fn main() {
    let seedgen = PathBuf::from(env!("CARGO_BIN_EXE_seedgen"));
    let scratch = tempfile::tempdir().expect("a temporary directory");
    let dir = scratch.path();
    let original = program();
    let edited = changed(&original);
    std::fs::write(dir.join("bench200.bpl"), &original).expect("writable");
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let load = load_average().map(|load| format!(", load average {load}")).unwrap_or_default();
    println!("seedgen lsp on {PROCEDURES} generated procedures, {cores} cores{load}; wall time in ms");
    println!();

    let (cli_cold, cli_warnings) = prove_tests(&seedgen, dir, "cli.json");
    let cli_warm = Timings::of(SAVES, || prove_tests(&seedgen, dir, "cli.json").0);
    std::fs::write(dir.join("bench200.bpl"), &edited).expect("writable");
    let cli_changed = Timings::of(SAVES, || {
        std::fs::write(dir.join("bench200.bpl"), &original).expect("writable");
        prove_tests(&seedgen, dir, "cli.json");
        std::fs::write(dir.join("bench200.bpl"), &edited).expect("writable");
        prove_tests(&seedgen, dir, "cli.json").0
    });
    std::fs::write(dir.join("bench200.bpl"), &original).expect("writable");

    let mut session = Session::start(&seedgen, dir);
    session.clear_cache();
    let open = session.open(&original);
    let cold_keys = Timings::of(KEYSTROKES, || session.keystroke());
    let hovers_before = Instant::now();
    session.save();
    let mut hovers = Vec::new();
    while !session.complete() {
        hovers.push(session.hover());
        std::thread::sleep(Duration::from_millis(20));
    }
    let generation_seen = hovers_before.elapsed();
    session.clear_cache();
    let (cold_save, warnings) = session.save_until_complete();
    let warm_keys = Timings::of(KEYSTROKES, || session.keystroke());
    let warm_saves = Timings::of(SAVES, || session.save_until_complete().0);
    let changed_saves = Timings::of(SAVES, || {
        session.change(&original);
        session.save_until_complete();
        session.change(&edited);
        session.save_until_complete().0
    });

    // Cancellation: a cold generation, superseded by a broken text's save after 300 ms.
    session.clear_cache();
    session.change(&original);
    session.save();
    std::thread::sleep(Duration::from_millis(300));
    session.change(&edited.replace(&format!("procedure p{CHANGED}("), "procedure ("));
    session.save();
    let cancelled = Instant::now();
    let uri = session.uri.clone();
    session.client.request("workspace/executeCommand", json!({ "command": "seedgen.writeSuite", "arguments": [uri] }));
    session.client.wait_for("the suite's message", |message| message["method"] == "window/showMessage");
    let cancellation = cancelled.elapsed();
    assert_eq!(session.client.shut_down(), Some(0));
    let log = std::fs::read_to_string(dir.join("server.log")).expect("the server's log");
    assert!(log.contains("generation at version"), "the cold generation was superseded: {log}");

    assert_eq!(warnings, cli_warnings, "the editor shows the warnings prove-tests prints");
    let hovers = Timings::from_runs(hovers);
    let hover_count = hovers.len();
    println!("| what | median | min | runs | `prove-tests` (whole process, median) |");
    println!("|---|---:|---:|---:|---|");
    row("open, cache cold: diagnostics", &Timings::from_runs(vec![open]), 1, "");
    row("keystroke, cache cold: diagnostics", &cold_keys, KEYSTROKES, "");
    row("keystroke, cache warm: diagnostics and coverage", &warm_keys, KEYSTROKES, "");
    let cold = Timings::from_runs(vec![cold_save]);
    row("save, cache cold: complete coverage", &cold, 1, &format!("{} (cold)", ms(cli_cold)));
    row("save, nothing changed", &warm_saves, SAVES, &format!("{} (warm)", ms(cli_warm.median())));
    let beside = format!("{} (warm, p{CHANGED} changed)", ms(cli_changed.median()));
    row(&format!("save, p{CHANGED} changed"), &changed_saves, SAVES, &beside);
    let during = format!("max {} over {:.1} s of generation", ms(hovers.max()), generation_seen.as_secs_f64());
    row("hover during a cold generation", &hovers, hover_count, &during);
    row("cancellation: save to the solver's thread free", &Timings::from_runs(vec![cancellation]), 1, "");
    println!();
    println!("warnings shown after the cold save: {warnings}, as `prove-tests` prints ({cli_warnings})");
}
