//! The language server (`seedgen lsp`), on `lsp-server` and `lsp-types` as
//! rust-analyzer is.
//!
//! What an editor gets:
//! - as the user types (debounced): syntax and type errors, and the coverage of every
//!   implementation the `prove-tests` cache still holds for the text as it is;
//! - on save: every other implementation generated (and cached), so the warnings at
//!   dead branches (tagged unnecessary: shown faded) and at branches no test reaches
//!   are `prove-tests`' own; and every implementation whose key changed verified, its
//!   failing contracts `verify`'s errors (`verified`);
//! - a code lens per implementation (its goals, covered, unreachable, tests), a hover
//!   per branch (its status and the test that covers it), and a code action that writes
//!   the suite with a test for the branch at the cursor (`seedgen.writeSuite`).
//!
//! The main loop ([`serve`]) owns the documents and never waits for the solver: it
//! hands each look at a document to a worker thread (`worker`) and publishes what comes
//! back, unless a newer generation of the document was already shown. Every change and
//! save bumps the document's generation, which stops the generation under way between
//! batches of implementations.

mod analysis;
mod position;
mod uri;
mod verified;
mod worker;

use crate::config::LspConfig;
use analysis::{Analysis, Depth, Job};
use crossbeam_channel::{select, Receiver};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{self as note, Notification as _};
use lsp_types::request::{self as req, Request as _};
use lsp_types::{
    CodeAction, CodeActionOrCommand, CodeActionParams, CodeLens, CodeLensOptions, CodeLensParams, Command,
    DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams, DidSaveTextDocumentParams,
    ExecuteCommandOptions, ExecuteCommandParams, Hover, HoverContents, HoverParams, InitializeParams, MarkupContent,
    MarkupKind, MessageType, PositionEncodingKind, ProgressParams, ProgressParamsValue, ProgressToken,
    PublishDiagnosticsParams, Range, SaveOptions, ServerCapabilities, ServerInfo, ShowMessageParams,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions, TextDocumentSyncSaveOptions, Uri,
    WorkDoneProgress, WorkDoneProgressBegin, WorkDoneProgressCreateParams, WorkDoneProgressEnd, WorkDoneProgressReport,
};
use position::{Encoding, LineIndex};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;
use worker::{Done, Task, Worker};

/// The command of the code lenses and code actions: write the saved document's suite.
pub const WRITE_SUITE: &str = "seedgen.writeSuite";

/// How a session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// `exit` after `shutdown`, as the protocol asks: exit status 0.
    Exited,
    /// `exit` without `shutdown`, or the client went away: exit status 1.
    Abandoned,
}

/// Serves one client on `connection` until it exits.
pub fn serve(connection: &Connection, config: &LspConfig) -> anyhow::Result<End> {
    let (id, params) = connection.initialize_start()?;
    let params: InitializeParams = serde_json::from_value(params)?;
    let utf8_offered = params
        .capabilities
        .general
        .as_ref()
        .and_then(|general| general.position_encodings.as_ref())
        .is_some_and(|encodings| encodings.contains(&PositionEncodingKind::UTF8));
    let encoding = if utf8_offered { Encoding::Utf8 } else { Encoding::Utf16 };
    let result = serde_json::json!({
        "capabilities": capabilities(encoding),
        "serverInfo": ServerInfo { name: "seedgen".to_string(), version: Some(env!("CARGO_PKG_VERSION").to_string()) },
    });
    connection.initialize_finish(id, result)?;
    let lens_refresh = params
        .capabilities
        .workspace
        .as_ref()
        .and_then(|workspace| workspace.code_lens.as_ref())
        .and_then(|lens| lens.refresh_support)
        .unwrap_or(false);
    let work_done_progress =
        params.capabilities.window.as_ref().and_then(|window| window.work_done_progress).unwrap_or(false);
    let (done, results) = crossbeam_channel::unbounded();
    let verified = Arc::new(verified::Verified::default());
    let mut server = Server {
        connection,
        config,
        encoding,
        root: workspace_root(&params),
        lens_refresh,
        work_done_progress,
        generating: BTreeMap::new(),
        documents: BTreeMap::new(),
        front_end: Worker::spawn("front-end", config.clone(), verified.clone(), done.clone())?,
        solver: Worker::spawn("solver", config.clone(), verified, done)?,
        shutting_down: false,
        next_request: 0,
    };
    server.run(&results)
}

fn capabilities(encoding: Encoding) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(match encoding {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
        }),
        text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(TextDocumentSyncKind::INCREMENTAL),
            save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions { include_text: Some(false) })),
            ..TextDocumentSyncOptions::default()
        })),
        hover_provider: Some(lsp_types::HoverProviderCapability::Simple(true)),
        code_lens_provider: Some(CodeLensOptions { resolve_provider: Some(false) }),
        code_action_provider: Some(lsp_types::CodeActionProviderCapability::Simple(true)),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: vec![WRITE_SUITE.to_string()],
            ..ExecuteCommandOptions::default()
        }),
        ..ServerCapabilities::default()
    }
}

/// The workspace's folder: suites name their file relative to it, as a `prove-tests`
/// run from there would.
#[allow(deprecated)] // `root_uri`: clients that send no workspace folders still send it.
fn workspace_root(params: &InitializeParams) -> Option<PathBuf> {
    let folder = params.workspace_folders.as_ref().and_then(|folders| folders.first()).map(|folder| &folder.uri);
    folder.or(params.root_uri.as_ref()).and_then(uri::to_path)
}

/// One open document.
struct Document {
    uri: Uri,
    path: Option<PathBuf>,
    text: Arc<str>,
    /// Bumped by every change and save; jobs of older generations are stale.
    latest: Arc<AtomicU64>,
    /// Changed since it was opened or saved: its text is not the file's.
    dirty: bool,
    /// When the debounced look at its latest change is due.
    due: Option<Instant>,
    /// The newest analysis published.
    shown: Option<Analysis>,
}

impl Document {
    fn bump(&self) -> u64 {
        self.latest.fetch_add(1, Ordering::SeqCst) + 1
    }
}

struct Server<'a> {
    connection: &'a Connection,
    config: &'a LspConfig,
    encoding: Encoding,
    root: Option<PathBuf>,
    /// The client refreshes code lenses when asked (`workspace/codeLens/refresh`).
    lens_refresh: bool,
    /// The client shows progress the server starts (`window/workDoneProgress/create`).
    work_done_progress: bool,
    /// The progress token of each document's generation under way, by URI text.
    generating: BTreeMap<String, ProgressToken>,
    /// By URI text.
    documents: BTreeMap<String, Document>,
    /// Looks at documents as they are typed.
    front_end: Worker,
    /// Generates on save, writes suites.
    solver: Worker,
    /// `shutdown` was received: only `exit` is expected.
    shutting_down: bool,
    next_request: u64,
}

impl Server<'_> {
    fn run(&mut self, results: &Receiver<Done>) -> anyhow::Result<End> {
        loop {
            let due = self.documents.values().filter_map(|document| document.due).min();
            let timer = due.map_or_else(crossbeam_channel::never, crossbeam_channel::at);
            select! {
                recv(self.connection.receiver) -> message => match message {
                    Ok(Message::Notification(notification)) if notification.method == note::Exit::METHOD => {
                        return Ok(if self.shutting_down { End::Exited } else { End::Abandoned });
                    }
                    Ok(message) => self.handle(message)?,
                    Err(_) => return Ok(End::Abandoned),
                },
                recv(results) -> done => self.finished(done.expect("the server holds a sender to its workers"))?,
                recv(timer) -> _ => self.look_at_due(),
            }
        }
    }

    fn handle(&mut self, message: Message) -> anyhow::Result<()> {
        match message {
            Message::Request(request) => {
                let response = self.respond(request);
                self.connection.sender.send(response.into())?;
            }
            Message::Notification(notification) => self.notified(notification)?,
            // Answers to our refresh requests: nothing to do.
            Message::Response(_) => {}
        }
        Ok(())
    }

    fn respond(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        if self.shutting_down {
            return Response::new_err(id, ErrorCode::InvalidRequest as i32, "the server is shutting down".to_string());
        }
        let answer = match request.method.as_str() {
            req::Shutdown::METHOD => {
                self.shutting_down = true;
                // Whatever is under way is no longer wanted.
                self.documents.values().for_each(|document| {
                    document.bump();
                });
                Ok(serde_json::Value::Null)
            }
            req::HoverRequest::METHOD => parse(request).map(|params| to_value(self.hover(params))),
            req::CodeLensRequest::METHOD => parse(request).map(|params| to_value(self.code_lenses(params))),
            req::CodeActionRequest::METHOD => parse(request).map(|params| to_value(self.code_actions(params))),
            req::ExecuteCommand::METHOD => parse(request).and_then(|params| self.execute(params)),
            method => Err((ErrorCode::MethodNotFound, format!("seedgen does not answer `{method}`"))),
        };
        match answer {
            Ok(value) => Response::new_ok(id, value),
            Err((code, message)) => Response::new_err(id, code as i32, message),
        }
    }

    /// A notification; one whose parameters cannot be read is logged and ignored (a
    /// notification has no answer to carry the error).
    fn notified(&mut self, notification: Notification) -> anyhow::Result<()> {
        let method = notification.method.clone();
        let params = notification.params;
        match method.as_str() {
            note::DidOpenTextDocument::METHOD => {
                if let Some(params) = read::<DidOpenTextDocumentParams>(&method, params) {
                    self.open(params.text_document.uri, params.text_document.text);
                }
            }
            note::DidChangeTextDocument::METHOD => {
                if let Some(params) = read::<DidChangeTextDocumentParams>(&method, params) {
                    self.change(params);
                }
            }
            note::DidSaveTextDocument::METHOD => {
                if let Some(params) = read::<DidSaveTextDocumentParams>(&method, params) {
                    self.save(&params.text_document.uri);
                }
            }
            note::DidCloseTextDocument::METHOD => {
                let params = read::<DidCloseTextDocumentParams>(&method, params);
                if let Some(document) =
                    params.and_then(|params| self.documents.remove(params.text_document.uri.as_str()))
                {
                    document.bump();
                    self.publish(&document.uri, Vec::new())?;
                }
            }
            // `initialized`, `$/cancelRequest` (every request is answered at once),
            // settings: nothing to do.
            _ => {}
        }
        Ok(())
    }

    fn open(&mut self, uri: Uri, text: String) {
        let document = Document {
            path: uri::to_path(&uri),
            uri,
            text: text.into(),
            latest: Arc::new(AtomicU64::new(0)),
            dirty: false,
            due: None,
            shown: None,
        };
        document.bump();
        let job = self.job(&document);
        self.documents.insert(document.uri.as_str().to_string(), document);
        self.front_end.send(Task::Look(job, Depth::Cached));
    }

    /// Applies the changes and schedules a look once the typing pauses; a generation
    /// under way is stopped at once.
    fn change(&mut self, params: DidChangeTextDocumentParams) {
        let (encoding, debounce) = (self.encoding, self.config.debounce);
        let Some(document) = self.documents.get_mut(params.text_document.uri.as_str()) else { return };
        let mut text = document.text.to_string();
        for change in params.content_changes {
            match change.range {
                Some(range) => {
                    let index = LineIndex::new(&text, encoding);
                    let (start, end) = (index.offset(range.start), index.offset(range.end));
                    text.replace_range(start..end.max(start), &change.text);
                }
                None => text = change.text,
            }
        }
        document.text = text.into();
        document.dirty = true;
        document.bump();
        document.due = Some(Instant::now() + debounce);
    }

    /// The saved text looked at twice: at once by the front end, and in full by the
    /// solver.
    fn save(&mut self, uri: &Uri) {
        let Some(document) = self.documents.get_mut(uri.as_str()) else { return };
        document.dirty = false;
        document.due = None;
        document.bump();
        let document = &self.documents[uri.as_str()];
        let job = self.job(document);
        self.front_end.send(Task::Look(job.clone(), Depth::Cached));
        self.solver.send(Task::Look(job, Depth::Generated));
    }

    fn look_at_due(&mut self) {
        let now = Instant::now();
        let due: Vec<String> = self
            .documents
            .iter()
            .filter(|(_, document)| document.due.is_some_and(|due| due <= now))
            .map(|(key, _)| key.clone())
            .collect();
        for key in due {
            let document = self.documents.get_mut(&key).expect("a due document is open");
            document.due = None;
            let job = self.job(&self.documents[&key]);
            self.front_end.send(Task::Look(job, Depth::Cached));
        }
    }

    fn job(&self, document: &Document) -> Job {
        let name = match &document.path {
            Some(path) => {
                let relative = self.root.as_ref().and_then(|root| path.strip_prefix(root).ok());
                relative.unwrap_or(path).display().to_string()
            }
            None => document.uri.as_str().to_string(),
        };
        Job {
            uri: document.uri.clone(),
            path: document.path.clone(),
            name,
            text: document.text.clone(),
            generation: document.latest.load(Ordering::SeqCst),
            latest: document.latest.clone(),
            encoding: self.encoding,
        }
    }

    /// A worker's result: an analysis is shown unless the document shows a newer
    /// generation, or the same one looked at as deep.
    fn finished(&mut self, done: Done) -> anyhow::Result<()> {
        match done {
            Done::Message { kind, text } => self.show_message(kind, text),
            Done::Generating { uri, progress } => self.generating(&uri, progress),
            Done::Analysis { uri, analysis } => {
                let Some(document) = self.documents.get_mut(uri.as_str()) else { return Ok(()) };
                let newer = document
                    .shown
                    .as_ref()
                    .is_none_or(|shown| (analysis.generation, analysis.depth) > (shown.generation, shown.depth));
                if !newer {
                    return Ok(());
                }
                let diagnostics = analysis.diagnostics.clone();
                document.shown = Some(analysis);
                self.publish(&uri, diagnostics)?;
                if self.lens_refresh {
                    self.request(req::CodeLensRefresh::METHOD, serde_json::Value::Null)?;
                }
                Ok(())
            }
        }
    }

    /// A request to the client, whose answer is not waited for.
    fn request(&mut self, method: &str, params: impl serde::Serialize) -> anyhow::Result<()> {
        self.next_request += 1;
        let id = RequestId::from(format!("seedgen-{}", self.next_request));
        self.connection.sender.send(Request::new(id, method.to_string(), params).into())?;
        Ok(())
    }

    /// A generation's progress, shown by clients that show progress: begun at its
    /// first batch, reported at each, ended when it finishes or stops.
    fn generating(&mut self, uri: &Uri, progress: Option<(usize, usize)>) -> anyhow::Result<()> {
        if !self.work_done_progress {
            return Ok(());
        }
        let key = uri.as_str().to_string();
        let value = match (progress, self.generating.get(&key)) {
            (Some((generated, total)), None) => {
                let token = ProgressToken::String(format!("seedgen-generation-{}", self.next_request + 1));
                self.request(
                    req::WorkDoneProgressCreate::METHOD,
                    WorkDoneProgressCreateParams { token: token.clone() },
                )?;
                self.generating.insert(key.clone(), token);
                WorkDoneProgress::Begin(WorkDoneProgressBegin {
                    title: "seedgen: generating tests".to_string(),
                    message: Some(progress_message(generated, total)),
                    percentage: Some(percentage(generated, total)),
                    cancellable: Some(false),
                })
            }
            (Some((generated, total)), Some(_)) => WorkDoneProgress::Report(WorkDoneProgressReport {
                message: Some(progress_message(generated, total)),
                percentage: Some(percentage(generated, total)),
                cancellable: Some(false),
            }),
            (None, Some(_)) => WorkDoneProgress::End(WorkDoneProgressEnd { message: None }),
            (None, None) => return Ok(()),
        };
        let token = self.generating[&key].clone();
        if matches!(value, WorkDoneProgress::End(_)) {
            self.generating.remove(&key);
        }
        let params = ProgressParams { token, value: ProgressParamsValue::WorkDone(value) };
        let notification = Notification::new(note::Progress::METHOD.to_string(), params);
        self.connection.sender.send(notification.into())?;
        Ok(())
    }

    fn publish(&self, uri: &Uri, diagnostics: Vec<lsp_types::Diagnostic>) -> anyhow::Result<()> {
        let params = PublishDiagnosticsParams { uri: uri.clone(), diagnostics, version: None };
        let notification = Notification::new(note::PublishDiagnostics::METHOD.to_string(), params);
        self.connection.sender.send(notification.into())?;
        Ok(())
    }

    fn show_message(&self, kind: MessageType, text: String) -> anyhow::Result<()> {
        let notification =
            Notification::new(note::ShowMessage::METHOD.to_string(), ShowMessageParams { typ: kind, message: text });
        self.connection.sender.send(notification.into())?;
        Ok(())
    }

    fn shown(&self, uri: &Uri) -> Option<&Analysis> {
        self.documents.get(uri.as_str())?.shown.as_ref()
    }

    /// The innermost branch at the cursor: its status and the test that covers it.
    fn hover(&self, params: HoverParams) -> Option<Hover> {
        let place = params.text_document_position_params;
        let analysis = self.shown(&place.text_document.uri)?;
        let goal = analysis
            .goals
            .iter()
            .filter(|goal| contains(goal.range, place.position))
            .min_by_key(|goal| (goal.range.end.line - goal.range.start.line, goal.range.end.character))?;
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: goal.describe() }),
            range: Some(goal.range),
        })
    }

    /// Above each implementation: its coverage, or that it was not generated since it
    /// changed. Each writes the suite when clicked.
    fn code_lenses(&self, params: CodeLensParams) -> Vec<CodeLens> {
        let uri = params.text_document.uri;
        let Some(analysis) = self.shown(&uri) else { return Vec::new() };
        analysis
            .implementations
            .iter()
            .map(|implementation| {
                let title = match &implementation.counts {
                    Some(counts) => format!(
                        "{} of {} {} covered, {} unreachable, {} not covered; {} {}",
                        counts.covered,
                        counts.goals,
                        if counts.goals == 1 { "branch" } else { "branches" },
                        counts.unreachable,
                        counts.not_covered,
                        counts.tests,
                        if counts.tests == 1 { "test" } else { "tests" }
                    ),
                    None => "coverage not generated: save to generate".to_string(),
                };
                CodeLens {
                    range: Range { start: implementation.range.start, end: implementation.range.start },
                    command: Some(write_suite_command(title, &uri, None)),
                    data: None,
                }
            })
            .collect()
    }

    /// At a branch that can be covered: write the suite with a test for it.
    fn code_actions(&self, params: CodeActionParams) -> Vec<CodeActionOrCommand> {
        let uri = params.text_document.uri;
        let Some(analysis) = self.shown(&uri) else { return Vec::new() };
        let at = params.range.start;
        let mut goals: Vec<&analysis::GoalView> =
            analysis.goals.iter().filter(|goal| contains(goal.range, at) && goal.status != "unreachable").collect();
        goals.sort_by_key(|goal| (goal.range.end.line - goal.range.start.line, goal.range.end.character));
        let mut actions: Vec<CodeActionOrCommand> = goals
            .iter()
            .take(1)
            .map(|goal| {
                let title = format!("Generate a test for branch `{}` (write the suite)", goal.id);
                action(write_suite_command(title, &uri, Some(&goal.id)))
            })
            .collect();
        if actions.is_empty() {
            let not_generated = analysis
                .implementations
                .iter()
                .find(|implementation| contains(implementation.range, at) && implementation.counts.is_none());
            actions.extend(not_generated.map(|implementation| {
                let title = format!("Generate tests for `{}` (write the suite)", implementation.name);
                action(write_suite_command(title, &uri, None))
            }));
        }
        actions
    }

    /// `seedgen.writeSuite URI [GOAL]`, on the solver's thread; what it did comes as a
    /// message.
    fn execute(&mut self, params: ExecuteCommandParams) -> Result<serde_json::Value, (ErrorCode, String)> {
        if params.command != WRITE_SUITE {
            return Err((ErrorCode::InvalidParams, format!("seedgen has no command `{}`", params.command)));
        }
        let invalid = || (ErrorCode::InvalidParams, format!("`{WRITE_SUITE}` takes a document URI and a goal id"));
        let uri: Uri = params
            .arguments
            .first()
            .and_then(|value| serde_json::from_value(value.clone()).ok())
            .ok_or_else(invalid)?;
        let goal = params.arguments.get(1).and_then(|value| value.as_str()).map(str::to_string);
        let Some(document) = self.documents.get(uri.as_str()) else {
            return Err((ErrorCode::InvalidParams, format!("`{}` is not open", uri.as_str())));
        };
        if document.dirty {
            let text = "save the file first: its suite is generated from the saved file".to_string();
            self.show_message(MessageType::WARNING, text)
                .map_err(|error| (ErrorCode::InternalError, error.to_string()))?;
            return Ok(serde_json::Value::Null);
        }
        let job = self.job(document);
        self.solver.send(Task::WriteSuite { job, goal });
        Ok(serde_json::Value::Null)
    }
}

fn progress_message(generated: usize, total: usize) -> String {
    format!("{generated} of {total} implementations")
}

fn percentage(generated: usize, total: usize) -> u32 {
    u32::try_from(generated * 100 / total.max(1)).unwrap_or(100)
}

fn write_suite_command(title: String, uri: &Uri, goal: Option<&str>) -> Command {
    let mut arguments = vec![serde_json::Value::String(uri.as_str().to_string())];
    arguments.extend(goal.map(|goal| serde_json::Value::String(goal.to_string())));
    Command { title, command: WRITE_SUITE.to_string(), arguments: Some(arguments) }
}

fn action(command: Command) -> CodeActionOrCommand {
    CodeActionOrCommand::CodeAction(CodeAction {
        title: command.title.clone(),
        command: Some(command),
        ..CodeAction::default()
    })
}

fn contains(range: Range, position: lsp_types::Position) -> bool {
    range.start <= position && position <= range.end
}

/// A notification's parameters; `None`, said in the log, when they cannot be read.
fn read<P: serde::de::DeserializeOwned>(method: &str, params: serde_json::Value) -> Option<P> {
    serde_json::from_value(params)
        .map_err(|error| eprintln!("seedgen lsp: `{method}` ignored: its parameters cannot be read: {error}"))
        .ok()
}

fn parse<P: serde::de::DeserializeOwned>(request: Request) -> Result<P, (ErrorCode, String)> {
    serde_json::from_value(request.params).map_err(|error| (ErrorCode::InvalidParams, error.to_string()))
}

fn to_value(value: impl serde::Serialize) -> serde_json::Value {
    serde_json::to_value(value).expect("LSP types serialize to JSON")
}
