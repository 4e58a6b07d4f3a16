//! An editor's side of the language server's protocol, for the tests and the benchmark
//! of `seedgen lsp` (`tests/it/lsp.rs`, `benches/lsp.rs`): the server started as a
//! child process, messages framed with `Content-Length` on its stdin and stdout.

use serde_json::{json, Value};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// Long enough for a debug build's generation on a loaded machine.
pub const PATIENCE: Duration = Duration::from_secs(120);

/// An editor's side of the protocol: messages framed with `Content-Length`.
pub struct Client {
    child: Child,
    stdin: ChildStdin,
    pub incoming: Receiver<Value>,
    /// Messages received while waiting for something else.
    pub backlog: VecDeque<Value>,
    next_id: i64,
}

impl Client {
    /// `seedgen lsp ARGS` started in `dir`; its log (stderr) is kept in
    /// `dir/server.log`.
    pub fn start(seedgen: &Path, dir: &Path, args: &[&str]) -> Client {
        let log = std::fs::File::create(dir.join("server.log")).expect("writable");
        let mut child = Command::new(seedgen)
            .arg("lsp")
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .expect("seedgen starts");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, incoming) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if sender.send(message).is_err() {
                    return;
                }
            }
        });
        Client { child, stdin, incoming, backlog: VecDeque::new(), next_id: 0 }
    }

    pub fn send(&mut self, message: &Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("the server reads its stdin");
        self.stdin.flush().expect("the server reads its stdin");
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Sends a request and waits for its response's `result` (panics on an error).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        let response = self.wait_for(&format!("the response to {method}"), |message| message["id"] == id);
        assert!(response.get("error").is_none(), "{method} failed: {response}");
        response["result"].clone()
    }

    /// The first message (from the backlog, then as they come) that `wanted` accepts;
    /// the others stay in the backlog.
    pub fn wait_for(&mut self, what: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        if let Some(at) = self.backlog.iter().position(&wanted) {
            return self.backlog.remove(at).expect("the position is in the backlog");
        }
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.incoming.recv_timeout(left) {
                Ok(message) if wanted(&message) => return message,
                Ok(message) => self.backlog.push_back(message),
                Err(_) => panic!("no {what} within {PATIENCE:?}; received: {:#?}", self.backlog),
            }
        }
    }

    /// Drops the messages received so far: what comes next answers what is sent next.
    pub fn forget(&mut self) {
        self.backlog.clear();
        while self.incoming.try_recv().is_ok() {}
    }

    /// The next diagnostics published for `uri` that `wanted` accepts.
    pub fn diagnostics(&mut self, uri: &str, wanted: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let published = self.wait_for("diagnostics", |message| {
            message["method"] == "textDocument/publishDiagnostics"
                && message["params"]["uri"] == uri
                && wanted(message["params"]["diagnostics"].as_array().expect("a list"))
        });
        published["params"]["diagnostics"].as_array().expect("a list").clone()
    }

    pub fn initialize(&mut self, root: &Path) {
        self.initialize_with(root, json!({}));
    }

    /// `initialize` with the client's `capabilities`, then `initialized`.
    pub fn initialize_with(&mut self, root: &Path, capabilities: Value) {
        let root = format!("file://{}", root.display());
        let result =
            self.request("initialize", json!({ "processId": null, "rootUri": root, "capabilities": capabilities }));
        assert_eq!(result["capabilities"]["positionEncoding"], "utf-16");
        self.notify("initialized", json!({}));
    }

    /// `shutdown`, `exit`, and the exit status.
    pub fn shut_down(mut self) -> Option<i32> {
        assert_eq!(self.request("shutdown", Value::Null), Value::Null);
        self.notify("exit", Value::Null);
        self.exit_status()
    }

    pub fn exit_status(mut self) -> Option<i32> {
        drop(self.stdin);
        self.child.wait().expect("the server exits").code()
    }
}

fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length: ") {
            length = value.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}
