//! `seedgen lsp` driven over JSON-RPC on its stdin and stdout, as an editor drives it:
//! diagnostics as the document changes, coverage on save (dead code tagged
//! unnecessary), hovers, code lenses, the code action that writes the suite (the same
//! bytes `prove-tests` writes), a generation superseded by a newer save, a goal the
//! solver gives up on (requests answered meanwhile, nothing written), and the exit
//! statuses.

use seedgen::testgen::lsp_client::Client;
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

fn start(dir: &Path, args: &[&str]) -> Client {
    Client::start(Path::new(env!("CARGO_BIN_EXE_seedgen")), dir, args)
}

/// A server started with `args` in a fresh directory holding `name` with `text`,
/// initialized, with the document open; the directory and the document's URI.
fn open(name: &str, text: &str, args: &[&str]) -> (tempfile::TempDir, String, Client) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join(name);
    std::fs::write(&file, text).expect("writable");
    let uri = format!("file://{}", file.display());
    let mut client = start(dir.path(), args);
    client.initialize_with(dir.path(), json!({ "window": { "workDoneProgress": true } }));
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "boogie", "version": 1, "text": text } }),
    );
    (dir, uri, client)
}

const ABS: &str = "\
procedure Abs(x: int) returns (y: int)
  ensures y >= 0;
{
  if (x < 0) {
    y := -x;
  } else {
    y := x;
  }
  if (y < 0) {
    y := 0;
  }
}
";

/// Runs a code action's command, as an editor does when it is chosen; what the server
/// says of it.
fn take_action(client: &mut Client, action: &Value) -> String {
    let command = &action["command"];
    client.request(
        "workspace/executeCommand",
        json!({ "command": command["command"], "arguments": command["arguments"] }),
    );
    let told = client.wait_for("the command's message", |message| message["method"] == "window/showMessage");
    told["params"]["message"].as_str().expect("a message").to_string()
}

fn code_action_at(uri: &str, line: u32, character: u32) -> Value {
    let at = json!({ "line": line, "character": character });
    json!({ "textDocument": { "uri": uri }, "range": { "start": at, "end": at }, "context": { "diagnostics": [] } })
}

/// The first line of each diagnostic's message (the notes follow it).
fn messages(diagnostics: &[Value]) -> Vec<String> {
    let first_line =
        |diagnostic: &Value| diagnostic["message"].as_str().expect("a message").lines().next().map(str::to_string);
    diagnostics.iter().filter_map(first_line).collect()
}

fn dead_code(diagnostics: &[Value]) -> bool {
    diagnostics.iter().any(|diagnostic| diagnostic["tags"] == json!([1]))
}

#[test]
fn a_session_checks_as_the_user_types_and_covers_on_save() {
    let broken = ABS.replace("y := x;", "y := x == 0;");
    let (dir, uri, mut client) = open("abs.bpl", &broken, &["--jobs", "1", "--debounce-ms", "20"]);
    let file = dir.path().join("abs.bpl");
    let errors = client.diagnostics(&uri, |diagnostics| !diagnostics.is_empty());
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(errors[0]["severity"], 1);
    assert_eq!(errors[0]["range"]["start"], json!({ "line": 6, "character": 9 }), "{errors:#?}");

    // An edit in UTF-16 ranges: `x == 0` becomes `x` again.
    let fix = json!({ "range": { "start": { "line": 6, "character": 10 }, "end": { "line": 6, "character": 15 } }, "text": "" });
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [fix] }),
    );
    assert_eq!(client.diagnostics(&uri, |diagnostics| diagnostics.is_empty()), Vec::<Value>::new());
    let lenses = client.request("textDocument/codeLens", json!({ "textDocument": { "uri": uri } }));
    assert_eq!(lenses[0]["command"]["title"], "coverage not generated: save to generate");
    let actions = client.request("textDocument/codeAction", code_action_at(&uri, 4, 6));
    assert_eq!(actions[0]["title"], "Generate tests for `Abs` (write the suite)");
    // The suite is the saved file's: an unsaved document's is not written.
    let told = take_action(&mut client, &actions[0]);
    assert_eq!(told, "save the file first: its suite is generated from the saved file");

    std::fs::write(&file, ABS).expect("writable");
    client.notify("textDocument/didSave", json!({ "textDocument": { "uri": uri } }));
    let warnings = client.diagnostics(&uri, dead_code);
    assert_eq!(messages(&warnings), ["unreachable code: goal `Abs/if#2/then` can never execute"]);
    assert_eq!(warnings[0]["severity"], 2);
    assert_eq!(warnings[0]["range"]["start"], json!({ "line": 8, "character": 2 }));
    assert_eq!(warnings[0]["data"], json!({ "goal": "Abs/if#2/then" }));
    // The generation's progress, begun after the save and ended.
    let progress = |kind: &'static str| move |message: &Value| message["params"]["value"]["kind"] == kind;
    let begun = client.wait_for("the progress' beginning", progress("begin"));
    assert_eq!(begun["params"]["value"]["title"], "seedgen: generating tests");
    let ended = client.wait_for("the progress' end", progress("end"));
    assert_eq!(ended["params"]["token"], begun["params"]["token"]);

    let lenses = client.request("textDocument/codeLens", json!({ "textDocument": { "uri": uri } }));
    assert_eq!(lenses[0]["command"]["title"], "3 of 4 branches covered, 1 unreachable, 0 not covered; 2 tests");
    assert_eq!(lenses[0]["range"]["start"], json!({ "line": 0, "character": 0 }));

    let at_then = json!({ "textDocument": { "uri": uri }, "position": { "line": 4, "character": 6 } });
    let hover = client.request("textDocument/hover", at_then);
    let text = hover["contents"]["value"].as_str().expect("Markdown");
    assert!(text.starts_with("branch `Abs/if#1/then`: covered by test `Abs/t"), "{text}");
    assert!(text.contains("x = -"), "the hover shows the test's input: {text}");
    let at_dead = json!({ "textDocument": { "uri": uri }, "position": { "line": 9, "character": 6 } });
    let hover = client.request("textDocument/hover", at_dead);
    assert_eq!(
        hover["contents"]["value"],
        "branch `Abs/if#2/then`: unreachable: no execution reaches it (proved by the solver)"
    );

    let actions = client.request("textDocument/codeAction", code_action_at(&uri, 4, 6));
    assert_eq!(actions[0]["title"], "Generate a test for branch `Abs/if#1/then` (write the suite)");
    let said = take_action(&mut client, &actions[0]);
    assert!(said.starts_with("wrote `") && said.contains("covers branch `Abs/if#1/then`"), "{said}");

    // What the editor wrote is what `prove-tests` writes for the same file.
    let written = std::fs::read_to_string(dir.path().join("abs.tests.json")).expect("the suite was written");
    let output = Command::new(env!("CARGO_BIN_EXE_seedgen"))
        .args(["prove-tests", "abs.bpl", "-o", "cli.tests.json", "--quiet"])
        .current_dir(dir.path())
        .output()
        .expect("seedgen runs");
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(written, std::fs::read_to_string(dir.path().join("cli.tests.json")).expect("written"));

    assert_eq!(client.shut_down(), Some(0));
}

/// Procedures `P0`..`P{count}`, each with a loop and branches for the solver to cover;
/// `dead` has a branch no input reaches.
fn many_procedures(count: usize, dead: usize) -> String {
    (0..count)
        .map(|index| {
            let guard = if index == dead { "x < 0 && x > 0" } else { "x > 3" };
            format!(
                "procedure P{index}(x: int, n: int) returns (s: int)\n{{\n  var i: int;\n  i := 0; s := 0;\n  \
                 while (i < n) {{\n    if (x > i + {m}) {{ s := s + x; }} else {{ s := s - 1; }}\n    i := i + 1;\n  \
                 }}\n  if ({guard}) {{ s := 0; }}\n}}\n",
                m = index % 3 + 2
            )
        })
        .collect()
}

#[test]
fn a_newer_save_supersedes_the_generation_under_way() {
    let first = many_procedures(12, 0);
    let second = many_procedures(12, 11);
    let (dir, uri, mut client) = open("many.bpl", &first, &["--jobs", "1", "--unroll", "2"]);
    let file = dir.path().join("many.bpl");
    client.notify("textDocument/didSave", json!({ "textDocument": { "uri": uri } }));
    std::fs::write(&file, &second).expect("writable");
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [{ "text": second }] }),
    );
    client.notify("textDocument/didSave", json!({ "textDocument": { "uri": uri } }));
    let warnings = client.diagnostics(&uri, dead_code);
    assert_eq!(messages(&warnings), ["unreachable code: goal `P11/if#1/then` can never execute"]);
    // Nothing of the first save's generation comes after: it was stopped, or its
    // result was dropped as older.
    let lenses = client.request("textDocument/codeLens", json!({ "textDocument": { "uri": uri } }));
    assert_eq!(lenses.as_array().expect("a list").len(), 12);
    std::thread::sleep(Duration::from_millis(500));
    let late = client.incoming.try_iter().chain(client.backlog.drain(..)).filter(|message| {
        message["method"] == "textDocument/publishDiagnostics"
            && messages(message["params"]["diagnostics"].as_array().expect("a list"))
                .iter()
                .any(|text| text.contains("P0/"))
    });
    assert_eq!(late.count(), 0);
    assert_eq!(client.shut_down(), Some(0));
    let log = std::fs::read_to_string(dir.path().join("server.log")).expect("the log");
    assert!(log.contains("many.bpl: generation at version 2 superseded by a newer change or save"), "{log}");
}

#[test]
fn a_bad_notification_is_ignored_and_an_exit_without_shutdown_is_exit_status_1() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut client = start(dir.path(), &[]);
    client.initialize(dir.path());
    // A notification whose parameters cannot be read is ignored; the server goes on.
    client.notify("textDocument/didOpen", json!({ "textDocument": 7 }));
    let nothing = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": "file:///nowhere.bpl" }, "position": { "line": 0, "character": 0 } }),
    );
    assert_eq!(nothing, Value::Null);
    client.notify("exit", Value::Null);
    assert_eq!(client.exit_status(), Some(1));
}

#[test]
fn unreadable_messages_are_an_input_error_not_a_crash() {
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#;
    let cases = [
        ("garbage".to_string(), "malformed header"),
        ("Content-Length: 5\r\n\r\n{bad}".to_string(), "malformed LSP payload"),
        (format!("Content-Length: {}\r\n\r\n{initialize}", initialize.len()), "missing field `capabilities`"),
    ];
    for (input, reason) in cases {
        let mut child = Command::new(env!("CARGO_BIN_EXE_seedgen"))
            .arg("lsp")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("seedgen starts");
        std::io::Write::write_all(&mut child.stdin.take().expect("piped"), input.as_bytes()).expect("written");
        let output = child.wait_with_output().expect("seedgen ends");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{input:?}: {stderr}");
        assert!(stderr.starts_with("seedgen: error: language server: ") && stderr.contains(reason), "{stderr}");
    }
}

#[test]
fn failing_contracts_are_errors_from_the_save_on_and_as_the_user_types() {
    let half = "procedure Half(x: int) returns (h: int)\n  ensures h + h == x;\n{\n  h := x div 2;\n}\n";
    let text = format!("{ABS}{half}");
    let (_dir, uri, mut client) = open("half.bpl", &text, &["--jobs", "1", "--debounce-ms", "20"]);
    let errors = |diagnostics: &[Value]| diagnostics.iter().any(|diagnostic| diagnostic["severity"] == 1);
    client.notify("textDocument/didSave", json!({ "textDocument": { "uri": uri } }));
    let shown = client.diagnostics(&uri, errors);
    assert_eq!(
        messages(&shown),
        ["postcondition might not hold", "unreachable code: goal `Abs/if#2/then` can never execute"]
    );
    assert_eq!(shown[0]["range"]["start"], json!({ "line": 13, "character": 2 }), "{shown:#?}");
    let message = shown[0]["message"].as_str().expect("a message");
    assert!(message.contains("failing test: x = "), "{message}");

    // Typing elsewhere keeps what the save established for the implementations it left
    // alone.
    let end = json!({ "line": 17, "character": 0 });
    let comment = json!({ "range": { "start": end, "end": end }, "text": "// typed\n" });
    client.forget();
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [comment] }),
    );
    let after = client.diagnostics(&uri, |_| true);
    assert_eq!(messages(&after), messages(&shown));
    assert_eq!(client.shut_down(), Some(0));
}

/// A goal the solver cannot decide (non-linear integer arithmetic, where z3 gives up).
const HARD: &str = "\
procedure Hard(x: int, y: int, z: int) returns (r: int)
{
  if (x > 1000 && y > 1000 && z > 1000 && x * x * x + y * y * y == z * z * z + 33) {
    r := 1;
  } else {
    r := 0;
  }
}
";

#[test]
fn a_goal_the_solver_gives_up_on_is_reported_and_the_server_answers_meanwhile() {
    let (dir, uri, mut client) = open("hard.bpl", HARD, &["--jobs", "1", "--timeout-ms", "2000"]);
    // The document checked first (no diagnostic), so that it has a lens to show.
    client.diagnostics(&uri, |diagnostics| diagnostics.is_empty());
    client.notify("textDocument/didSave", json!({ "textDocument": { "uri": uri } }));
    client.wait_for("the generation's beginning", |message| message["params"]["value"]["kind"] == "begin");
    // Requests are answered while the solver works (the generation runs on a worker).
    let at_then = json!({ "textDocument": { "uri": uri }, "position": { "line": 3, "character": 4 } });
    client.request("textDocument/hover", at_then.clone());
    let lenses = client.request("textDocument/codeLens", json!({ "textDocument": { "uri": uri } }));
    assert_eq!(lenses.as_array().expect("a list").len(), 1);
    let not_covered = |diagnostics: &[Value]| messages(diagnostics).iter().any(|text| text.contains("is not covered"));
    let warnings = client.diagnostics(&uri, not_covered);
    assert_eq!(messages(&warnings), ["goal `Hard/if#1/then` is not covered"]);
    let message = warnings[0]["message"].as_str().expect("a message");
    assert!(message.contains("solver gave up"), "{message}");
    let hover = client.request("textDocument/hover", at_then);
    let text = hover["contents"]["value"].as_str().expect("Markdown");
    assert!(text.starts_with("branch `Hard/if#1/then`: not covered"), "{text}");
    assert_eq!(client.shut_down(), Some(0));
    // A save generates into the cache; only a code action writes the suite.
    assert!(!dir.path().join("hard.tests.json").exists());
}
