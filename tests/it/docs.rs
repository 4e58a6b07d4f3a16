//! The recipes of `docs/editor.md` and `docs/ci.md`, run as a user would copy them: the
//! VS Code task's command and problem matcher (and the GitHub matcher, the same regular
//! expression) on `tests/docs/on_save.bpl`; the Vim setup in `vim -Es`, and the language
//! server's Neovim setup in `nvim` in a tmux terminal, read off the screen as a user sees
//! it (each ignored unless the programs are installed); the Helix and VS Code setups read
//! for what they start; the CI script on copies of corpus programs, with each exit status
//! the document promises. Each recipe is read from its fenced block, named by the block's
//! info string (```` ```sh ci/seedgen-check.sh ````), so a change to a document is tested.

use crate::support::root;
use regex::Regex;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// The fenced blocks of `doc` (a path from the crate root): each info string with its
/// text.
fn blocks(doc: &str) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(root().join(doc)).expect("the document");
    let mut found = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in text.lines() {
        match (open.take(), line.strip_prefix("```")) {
            (None, Some(info)) => open = Some((info.to_string(), String::new())),
            (Some(block), Some("")) => found.push(block),
            (Some((info, mut body)), _) => {
                body.push_str(line);
                body.push('\n');
                open = Some((info, body));
            }
            (None, None) => {}
        }
    }
    found
}

/// The text of the block of `doc` whose info string is `info`.
fn block(doc: &str, info: &str) -> String {
    let found = blocks(doc).into_iter().find(|(name, _)| name == info);
    found.unwrap_or_else(|| panic!("{doc} has no ```{info} block")).1
}

/// `PATH` with the seedgen binary under test first.
fn path_with_seedgen() -> std::ffi::OsString {
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_seedgen"));
    let dir = binary.parent().expect("the binary is in a directory").to_path_buf();
    let rest = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(std::iter::once(dir).chain(std::env::split_paths(&rest))).expect("a valid PATH")
}

/// A fresh directory holding a copy of each `(source, name)`.
fn workspace(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (source, name) in files {
        let target = dir.path().join(name);
        std::fs::create_dir_all(target.parent().expect("a parent")).expect("creatable");
        std::fs::copy(root().join(source), target).expect("copyable");
    }
    dir
}

fn run(command: &mut Command, dir: &Path) -> Output {
    command.current_dir(dir).env("PATH", path_with_seedgen()).env("NO_COLOR", "1").env_remove("SEEDGEN_FAULT");
    command.output().expect("runs")
}

/// What a problem matcher (VS Code's, GitHub's: `pattern` with group numbers) reads off
/// `output`: each `file:line:col:severity:message`.
fn problems(pattern: &Value, output: &str) -> Vec<String> {
    let regex = Regex::new(pattern["regexp"].as_str().expect("a regexp")).expect("a regexp Rust reads too");
    let group = |captures: &regex::Captures, field: &str| {
        let index = pattern[field].as_u64().unwrap_or_else(|| panic!("`{field}` is a group number")) as usize;
        captures.get(index).map_or("", |found| found.as_str()).to_string()
    };
    let fields = ["file", "line", "column", "severity", "message"];
    let matched = output.lines().filter_map(|line| regex.captures(line));
    matched.map(|captures| fields.map(|field| group(&captures, field)).join(":")).collect()
}

const ON_SAVE_PROBLEMS: [&str; 2] = [
    "on_save.bpl:6:3:error:postcondition might not hold",
    "on_save.bpl:20:3:warning:unreachable code: goal `Abs/if#2/then` can never execute",
];

#[test]
fn the_vscode_task_and_its_problem_matcher_find_every_diagnostic() {
    let tasks: Value = serde_json::from_str(&block("docs/editor.md", "json .vscode/tasks.json")).expect("JSON");
    let task = &tasks["tasks"][0];
    assert_eq!((&task["type"], &task["options"]["cwd"]), (&Value::from("process"), &Value::from("${workspaceFolder}")));
    let args: Vec<&str> =
        task["args"].as_array().expect("args").iter().map(|arg| arg.as_str().expect("text")).collect();
    let args: Vec<&str> =
        args.into_iter().map(|arg| if arg == "${relativeFile}" { "on_save.bpl" } else { arg }).collect();
    let dir = workspace(&[("tests/docs/on_save.bpl", "on_save.bpl")]);
    let command = task["command"].as_str().expect("a command");
    let output = run(Command::new(command).args(&args), dir.path());
    let shown = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    let pattern = &task["problemMatcher"]["pattern"];
    assert_eq!(problems(pattern, &shown), ON_SAVE_PROBLEMS, "{shown}");
    assert!(dir.path().join("on_save.tests.json").is_file(), "the save regenerated the suite");

    let bindings: Value = serde_json::from_str(&block("docs/editor.md", "json keybindings.json")).expect("JSON");
    assert_eq!(bindings[0]["args"]["commands"][1]["args"], task["label"], "the key runs the task");
    let github: Value = serde_json::from_str(&block("docs/ci.md", "json .github/seedgen-matcher.json")).expect("JSON");
    assert_eq!(&github["problemMatcher"][0]["pattern"][0], pattern, "GitHub reads the lines as VS Code does");
}

/// An editor's recipe of `docs/editor.md` run as documented: the setup block `setup`
/// saved as `saved_as` beside a copy of `on_save.bpl`, then the documented command (the
/// block starting with `command_start`); what it wrote to `written`, and what the
/// document says it writes (the block after the command).
fn run_editor_recipe(setup: &str, saved_as: &str, command_start: &str, written: &str) -> (String, String) {
    let all = blocks("docs/editor.md");
    let snippet = block("docs/editor.md", setup);
    let at = all.iter().position(|(_, body)| body.starts_with(command_start)).expect("the documented command");
    let (command, expected) = (&all[at].1, &all[at + 1].1);
    let dir = workspace(&[("tests/docs/on_save.bpl", "on_save.bpl")]);
    std::fs::write(dir.path().join(saved_as), snippet).expect("writable");
    let output = run(Command::new("sh").arg("-c").arg(command), dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let shown = std::fs::read_to_string(dir.path().join(written)).expect("the editor wrote its list");
    (shown, expected.clone())
}

#[test]
#[ignore = "needs Vim (`apt-get install vim`)"]
fn the_vim_setup_fills_the_quickfix_list() {
    let (quickfix, expected) = run_editor_recipe("vim ~/.vimrc", "snippet.vim", "vim -Es", "qf.txt");
    assert_eq!(quickfix, expected);
    let typed = ON_SAVE_PROBLEMS.map(|problem| problem.replace(":error:", ":e:").replace(":warning:", ":w:"));
    assert_eq!(quickfix.lines().collect::<Vec<_>>(), typed);
}

/// The info string of `docs/editor.md`'s Neovim setup.
const NEOVIM_SETUP: &str = "lua ~/.config/nvim/init.lua";

/// The lens of an implementation the cache does not hold.
const NOT_GENERATED: &str = "coverage not generated: save to generate";

/// How long the screen is waited for to show a step's text: a save generates and
/// verifies on a machine that may be busy.
const SCREEN_WAIT: Duration = Duration::from_secs(60);

/// What Neovim says when the setup goes wrong: a lens asked for before the server is
/// attached, an error in one of the setup's callbacks.
const NEOVIM_ERRORS: [&str; 2] = ["is not supported by any of the servers", "Error executing"];

/// A 200×50 terminal running a command, on a tmux server of its own (its socket in
/// the workspace, so no user's tmux is touched), killed when dropped.
struct Terminal {
    socket: PathBuf,
}

impl Terminal {
    /// `command` run by the shell in `dir`, as a user would: the seedgen under test on
    /// `PATH`, and `home` as `HOME` (Neovim's state and logs in it).
    fn start(dir: &Path, home: &Path, command: &str) -> Terminal {
        let terminal = Terminal { socket: dir.join("tmux.sock") };
        let mut start = terminal.tmux(&["new-session", "-d", "-s", "editor", "-x", "200", "-y", "50", command]);
        start.current_dir(dir).env("PATH", path_with_seedgen()).env("HOME", home);
        for inherited in
            ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "TMUX", "SEEDGEN_FAULT"]
        {
            start.env_remove(inherited);
        }
        let output = start.output().expect("tmux runs");
        assert!(output.status.success(), "tmux new-session: {}", String::from_utf8_lossy(&output.stderr));
        terminal
    }

    fn tmux(&self, args: &[&str]) -> Command {
        let mut command = Command::new("tmux");
        command.arg("-S").arg(&self.socket).args(args);
        command
    }

    /// `keys` typed as they are (`literal`), or pressed by their tmux names (`Enter`).
    fn send(&self, keys: &str, literal: bool) {
        let flag = if literal { "-l" } else { "--" };
        let output = self.tmux(&["send-keys", "-t", "editor", flag, keys]).output().expect("tmux runs");
        assert!(output.status.success(), "tmux send-keys: {}", String::from_utf8_lossy(&output.stderr));
    }

    fn screen(&self) -> String {
        let output = self.tmux(&["capture-pane", "-p", "-t", "editor"]).output().expect("tmux runs");
        assert!(output.status.success(), "tmux capture-pane: {}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// Polls the screen until `shows` holds of its rows; fails with the last screen
    /// after `SCREEN_WAIT`, or as soon as Neovim reports an error.
    fn wait_for(&self, what: &str, shows: impl Fn(&[&str]) -> bool) {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            for error in NEOVIM_ERRORS {
                assert!(!screen.contains(error), "Neovim reported an error while waiting for {what}:\n{screen}");
            }
            if shows(&screen.lines().collect::<Vec<_>>()) {
                return;
            }
            assert!(start.elapsed() < SCREEN_WAIT, "no {what} after {SCREEN_WAIT:?}; the screen:\n{screen}");
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        // Ending the server ends Neovim, and with its input closed, the language server.
        let _ = self.tmux(&["kill-server"]).output();
    }
}

/// What `docs/editor.md` says the screen shows (the block after the setup): the text
/// on each line after a save (`6: postcondition might not hold`), and the hover `K`
/// shows on a line (`K on 16: branch …`).
fn neovim_screen(listed: &str) -> (Vec<(usize, String)>, (usize, String)) {
    let entry = |line: &str| {
        let (number, text) = line.split_once(": ").unwrap_or_else(|| panic!("`LINE: text`, not {line}"));
        (number.parse::<usize>().unwrap_or_else(|_| panic!("a line number, not {number}")), text.to_string())
    };
    let (hovers, rows): (Vec<&str>, Vec<&str>) = listed.lines().partition(|line| line.starts_with("K on "));
    let [hover] = hovers[..] else { panic!("one `K on LINE: hover` in {listed}") };
    (rows.into_iter().map(entry).collect(), entry(&hover["K on ".len()..]))
}

#[test]
#[ignore = "needs Neovim and tmux (`apt-get install neovim tmux`)"]
fn nvim_in_a_terminal_shows_the_diagnostics_lenses_and_hovers() {
    let all = blocks("docs/editor.md");
    let at = all.iter().position(|(info, _)| info == NEOVIM_SETUP).expect("the Neovim setup");
    let (rows, (hover_line, hover)) = neovim_screen(&all[at + 1].1);
    let dir = workspace(&[("tests/docs/on_save.bpl", "on_save.bpl")]);
    std::fs::write(dir.path().join("init.lua"), &all[at].1).expect("writable");
    let home = dir.path().join("home");
    std::fs::create_dir(&home).expect("creatable");
    let nvim = Terminal::start(dir.path(), &home, "nvim -u init.lua on_save.bpl");

    // The file as opened: nothing is cached, and each implementation's lens says so.
    nvim.wait_for("lens on both implementations", |screen| {
        screen.iter().filter(|row| row.contains(NOT_GENERATED)).count() == 2
    });
    nvim.send(":w", true);
    nvim.send("Enter", false);
    // Without line numbers or wrapped lines, the file's line `n` is the screen's row `n`.
    for (line, text) in &rows {
        nvim.wait_for(&format!("`{text}` on line {line}"), |screen| {
            screen.get(line - 1).is_some_and(|row| row.contains(text.as_str()))
        });
    }
    nvim.send(&format!("{hover_line}G^K"), true);
    nvim.wait_for(&format!("hover `{hover}`"), |screen| screen.iter().any(|row| row.contains(hover.as_str())));
}

/// Helix and VS Code are not run here: their setups are checked to be what they
/// claim to be.
#[test]
fn the_helix_and_vscode_setups_start_the_language_server() {
    let helix = block("docs/editor.md", "toml languages.toml");
    for line in
        ["command = \"seedgen\"", "args = [\"lsp\"]", "file-types = [\"bpl\"]", "language-servers = [\"seedgen\"]"]
    {
        assert!(helix.lines().any(|found| found == line), "{line} in {helix}");
    }
    let package: Value = serde_json::from_str(&block("docs/editor.md", "json seedgen-lsp/package.json")).expect("JSON");
    assert_eq!(package["main"], "extension.js");
    assert_eq!(package["activationEvents"][0], "onLanguage:boogie");
    assert_eq!(package["contributes"]["languages"][0]["extensions"][0], ".bpl");
    let extension = block("docs/editor.md", "js seedgen-lsp/extension.js");
    assert!(extension.contains("{ command: 'seedgen', args: ['lsp'] }"), "{extension}");
    assert!(extension.contains("language: 'boogie'"), "{extension}");
}

#[test]
fn the_ci_script_exits_as_documented() {
    let script = block("docs/ci.md", "sh ci/seedgen-check.sh");
    let dir = workspace(&[("corpus/max.bpl", "progs/max.bpl"), ("corpus/simple.bpl", "progs/simple.bpl")]);
    std::fs::create_dir_all(dir.path().join("ci")).expect("creatable");
    std::fs::write(dir.path().join("ci/seedgen-check.sh"), script).expect("writable");
    for program in ["progs/max.bpl", "progs/simple.bpl"] {
        assert_eq!(
            run(Command::new("seedgen").args(["prove-tests", "-q", program]), dir.path()).status.code(),
            Some(0)
        );
    }
    let check = || {
        let output =
            run(Command::new("sh").args(["ci/seedgen-check.sh", "progs/max.bpl", "progs/simple.bpl"]), dir.path());
        (output.status.code(), String::from_utf8_lossy(&output.stdout).into_owned())
    };
    let (status, stdout) = check();
    assert_eq!(status, Some(0), "{stdout}");
    for report in ["progs_max", "progs_simple"] {
        let junit = std::fs::read_to_string(dir.path().join(format!("reports/{report}.junit.xml"))).expect("JUnit");
        assert!(junit.contains("<testsuite") && !junit.contains("<failure"), "{junit}");
        let lcov = std::fs::read_to_string(dir.path().join(format!("reports/{report}.lcov"))).expect("LCOV");
        assert!(lcov.contains("SF:progs/") && lcov.contains("end_of_record"), "{lcov}");
    }

    let edit = |name: &str, change: &dyn Fn(&str) -> String| {
        let path = dir.path().join(name);
        let text = std::fs::read_to_string(&path).expect("readable");
        std::fs::write(&path, change(&text)).expect("writable");
        text
    };
    let simple = edit("progs/simple.bpl", &|text| format!("{text}// a comment\n"));
    let (status, stdout) = check();
    assert_eq!(status, Some(1), "a stale suite: {stdout}");
    assert!(stdout.contains("`progs/simple.tests.json` is stale"), "{stdout}");
    edit("progs/simple.bpl", &|_| simple.clone());

    let max = edit("progs/max.bpl", &|text| text.replace("m := a;", "m := a + 1;"));
    let (status, _) = check();
    assert_eq!(status, Some(1), "a failing test");
    let junit = std::fs::read_to_string(dir.path().join("reports/progs_max.junit.xml")).expect("JUnit");
    assert!(junit.contains("<failure"), "the failure is in the JUnit report: {junit}");
    edit("progs/max.bpl", &|_| max.clone());

    edit("progs/max.tests.json", &|_| "not a suite\n".to_string());
    assert_eq!(check().0, Some(2), "a suite that cannot be read");
}
