//! Suites: the generated tests of a run in their canonical, versioned JSON form
//! ([`json`]), and writing them safely.

pub mod json;

use crate::cfg::{print::print_cfg, print::print_expr, BlockId, Cfg};
use crate::gen::enumerate::{Candidate, GoalStatus};
use crate::gen::ImplementationRun;
use crate::seed::goals::GoalSelection;
use crate::sema::hir;
use crate::source::{SourceDb, Span};
use crate::vc::{Choice, InputKind, Model, Value};
use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::Path;

/// `sha256:<hex>` of `bytes`.
pub fn digest(bytes: &[u8]) -> String {
    let hash = Sha256::digest(bytes);
    let hex: String = hash.iter().map(|byte| format!("{byte:02x}")).collect();
    format!("sha256:{hex}")
}

/// The digest of what one implementation's tests depend on in its own text: the
/// implementation and its procedure's contract, as seedgen reads them.
pub fn implementation_digest(program: &hir::Program, cfg: &Cfg) -> String {
    let procedure = &program.procedures[cfg.procedure.index()];
    let mut text = print_cfg(program, cfg);
    for clause in procedure.requires.iter().chain(&procedure.ensures) {
        text.push_str(&print_expr(program, &procedure.locals, &clause.expr));
        text.push('\n');
    }
    digest(text.as_bytes())
}

/// Everything [`build`] needs besides the runs.
pub struct SuiteContext<'a> {
    pub db: &'a SourceDb,
    pub program: &'a hir::Program,
    /// The source file as the user named it.
    pub file: &'a str,
    pub source_text: &'a str,
    pub goals: GoalSelection,
}

/// The suite of a generation run; `cfgs[i]` is the lowered graph of `runs[i]`.
pub fn build(context: &SuiteContext, runs: &[ImplementationRun], cfgs: &[&Cfg]) -> json::Suite {
    json::Suite {
        format: json::FORMAT,
        version: json::VERSION,
        tool: format!("seedgen {}", env!("CARGO_PKG_VERSION")),
        source: json::Source { file: context.file.to_string(), digest: digest(context.source_text.as_bytes()) },
        options: json::Options {
            goals: match context.goals {
                GoalSelection::Leaves => "leaves",
                GoalSelection::All => "all",
            },
        },
        procedures: runs.iter().zip(cfgs).map(|(run, cfg)| procedure(context, run, cfg)).collect(),
    }
}

fn test_id(run: &ImplementationRun, test: usize) -> String {
    format!("{}/t{}", run.name, test + 1)
}

fn procedure(context: &SuiteContext, run: &ImplementationRun, cfg: &Cfg) -> json::Procedure {
    let goals = run
        .goals()
        .iter()
        .zip(&run.enumeration.status)
        .map(|(goal, status)| {
            let (status, test, reason) = match status {
                GoalStatus::Covered { test } => ("covered", Some(test_id(run, *test)), None),
                GoalStatus::Candidate { test } => ("candidate", Some(test_id(run, *test)), None),
                GoalStatus::Unreachable => ("unreachable", None, None),
                GoalStatus::NotCovered { reason } => ("not_covered", None, Some(reason.describe())),
            };
            json::Goal {
                id: goal.id.0.clone(),
                span: position(context.db, goal.span),
                leaf: goal.leaf,
                status,
                test,
                reason,
            }
        })
        .collect();
    let tests = run
        .enumeration
        .candidates
        .iter()
        .enumerate()
        .map(|(index, candidate)| test(context, run, index, candidate))
        .collect();
    json::Procedure { name: run.name.clone(), digest: implementation_digest(context.program, cfg), goals, tests }
}

pub fn position(db: &SourceDb, span: Span) -> json::Position {
    let start = db.line_col(span);
    let end = db.line_col(Span { start: span.end, ..span });
    json::Position { line: start.line, column: start.column, end_line: end.line, end_column: end.column }
}

fn test(context: &SuiteContext, run: &ImplementationRun, index: usize, candidate: &Candidate) -> json::Test {
    let goal_ids = |indices: &[usize]| indices.iter().map(|&goal| run.goals()[goal].id.0.clone()).collect();
    let names = Names { program: context.program, cfg: &run.seeded.cfg };
    json::Test {
        id: test_id(run, index),
        kind: if candidate.exact { "test" } else { "candidate" },
        note: candidate.unconfirmed.as_ref().map(|reason| format!("solver answered unknown: {reason}")),
        targets: goal_ids(&candidate.targets),
        covers: goal_ids(&candidate.covers),
        inputs: names.inputs(&candidate.model),
        trace: candidate.model.choices.iter().map(|choice| names.trace_entry(choice)).collect(),
    }
}

/// Names variables, functions and branches for the suite.
struct Names<'a> {
    program: &'a hir::Program,
    cfg: &'a Cfg,
}

impl Names<'_> {
    fn var(&self, var: hir::Var) -> String {
        match var {
            hir::Var::Local(id) => self.cfg.locals[id.index()].name.clone(),
            hir::Var::Global(id) => self.program.globals[id.index()].name.clone(),
            hir::Var::Const(id) => self.program.consts[id.index()].name.clone(),
            hir::Var::Bound(id) => format!("bound#{}", id.0),
        }
    }

    fn procedure(&self, id: hir::ProcId) -> String {
        self.program.procedures[id.index()].name.clone()
    }

    fn inputs(&self, model: &Model) -> json::Inputs {
        let mut inputs = json::Inputs::default();
        for assignment in &model.entry {
            let value = self.value(&assignment.value);
            match &assignment.kind {
                InputKind::Param(id) => inputs.params.push(named(self.var(hir::Var::Local(*id)), value)),
                InputKind::Global(id) => inputs.globals.push(named(self.var(hir::Var::Global(*id)), value)),
                InputKind::Const(id) => inputs.consts.push(named(self.var(hir::Var::Const(*id)), value)),
                InputKind::Uninit(id) => inputs.uninitialized.push(named(self.var(hir::Var::Local(*id)), value)),
                InputKind::Havoc(_) | InputKind::CallOut { .. } | InputKind::CallModifies { .. } => {}
            }
        }
        inputs.functions = model
            .functions
            .iter()
            .map(|table| json::FunctionTable {
                name: self.program.functions[table.function.index()].name.clone(),
                entries: table
                    .entries
                    .iter()
                    .map(|(args, result)| (args.iter().map(|arg| self.value(arg)).collect(), self.value(result)))
                    .collect(),
                default: self.value(&table.default),
            })
            .collect();
        inputs
    }

    fn trace_entry(&self, choice: &Choice) -> json::TraceEntry {
        match choice {
            Choice::Goto { to, .. } => json::TraceEntry::Goto { target: self.branch(*to) },
            Choice::Value(assignment) => {
                let value = self.value(&assignment.value);
                match &assignment.kind {
                    InputKind::CallOut { callee, var } => {
                        json::TraceEntry::CallOut { callee: self.procedure(*callee), var: self.var(*var), value }
                    }
                    InputKind::CallModifies { callee, global } => json::TraceEntry::CallModifies {
                        callee: self.procedure(*callee),
                        global: self.var(hir::Var::Global(*global)),
                        value,
                    },
                    InputKind::Havoc(var) => json::TraceEntry::Havoc { var: self.var(*var), value },
                    other => json::TraceEntry::Havoc { var: format!("{other:?}"), value },
                }
            }
        }
    }

    fn branch(&self, block: BlockId) -> String {
        let path = &self.cfg.block(block).origin.path;
        if path.0.is_empty() {
            "top level".to_string()
        } else {
            path.to_string()
        }
    }

    fn value(&self, value: &Value) -> serde_json::Value {
        match value {
            Value::Bool(value) => serde_json::Value::Bool(*value),
            Value::Int(value) => match i64::try_from(value) {
                Ok(small) => serde_json::Value::from(small),
                // JSON readers lose precision beyond 64 bits; keep big integers exact.
                Err(_) => serde_json::Value::String(value.to_string()),
            },
            Value::Elem { ty, index } => {
                serde_json::json!({ "type": self.program.types[ty.index()].name, "elem": index })
            }
            Value::Map(map) => serde_json::json!({
                "entries": map.entries.iter().map(|(key, value)| vec![self.value(key), self.value(value)]).collect::<Vec<_>>(),
                "default": self.value(&map.default),
            }),
            Value::Opaque(text) => serde_json::json!({ "opaque": text }),
        }
    }
}

fn named(name: String, value: serde_json::Value) -> json::Named {
    json::Named { name, value }
}

/// Writes `text` to `path` atomically: to a temporary file in the same directory, then
/// renamed over `path`, so an interrupted run never leaves a half-written suite.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    file.write_all(text.as_bytes())?;
    file.as_file().sync_all()?;
    file.persist(path).map_err(|error| error.error)?;
    Ok(())
}
