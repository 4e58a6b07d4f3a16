//! Suites: the generated tests of a run in their canonical, versioned JSON form
//! ([`json`]) or its Boogie form ([`bpl`]), and writing them safely.

pub mod bpl;
pub mod json;
pub mod load;
pub mod value;

use crate::cfg::{print::print_cfg, print::print_expr, Cfg};
use crate::config::SuiteForm;
use crate::gen::enumerate::{Candidate, GoalStatus};
use crate::gen::ImplementationRun;
use crate::interp::{Outcome, Replay, TestInput, TraceItem};
use crate::seed::goals::GoalSelection;
use crate::sema::hir;
use crate::source::{SourceDb, Span};
use crate::vc::Value;
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
    pub inline_depth: u32,
    pub unroll: u32,
    pub max_unroll: u32,
}

/// The suite of a generation run; `cfgs[i]` is the lowered graph of `runs[i]`.
pub fn build(context: &SuiteContext, runs: &[ImplementationRun], cfgs: &[&Cfg]) -> json::Suite {
    json::Suite {
        format: json::FORMAT.to_string(),
        version: json::VERSION,
        tool: format!("seedgen {}", env!("CARGO_PKG_VERSION")),
        source: json::Source { file: context.file.to_string(), digest: digest(context.source_text.as_bytes()) },
        options: json::Options {
            goals: match context.goals {
                GoalSelection::Leaves => "leaves",
                GoalSelection::All => "all",
            }
            .to_string(),
            inline_depth: context.inline_depth,
            unroll: context.unroll,
            max_unroll: if context.unroll == 0 { 0 } else { context.max_unroll },
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
                GoalStatus::Unreachable => ("unreachable", None, None),
                GoalStatus::NotCovered { reason } => ("not_covered", None, Some(reason.describe())),
            };
            json::Goal {
                id: goal.id.0.clone(),
                span: position(context.db, goal.span),
                leaf: goal.leaf,
                status: status.to_string(),
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
        .map(|(index, candidate)| test(context, run, cfg, index, candidate))
        .collect();
    json::Procedure { name: run.name.clone(), digest: implementation_digest(context.program, cfg), goals, tests }
}

pub fn position(db: &SourceDb, span: Span) -> json::Position {
    let start = db.line_col(span);
    let end = db.line_col(Span { start: span.end, ..span });
    json::Position { line: start.line, column: start.column, end_line: end.line, end_column: end.column }
}

fn test(context: &SuiteContext, run: &ImplementationRun, cfg: &Cfg, index: usize, candidate: &Candidate) -> json::Test {
    let goal_ids = |indices: &[usize]| indices.iter().map(|&goal| run.goals()[goal].id.0.clone()).collect();
    let names = Names { program: context.program, cfg };
    let replayed = &candidate.test;
    json::Test {
        id: test_id(run, index),
        targets: goal_ids(&candidate.targets),
        covers: goal_ids(&candidate.covers),
        inputs: names.inputs(&replayed.input),
        trace: replayed.input.trace.iter().map(|item| names.trace_entry(item)).collect(),
        expect: names.expect(&replayed.replay),
    }
}

/// Names variables and functions for the suite: the entry implementation's locals by
/// its graph as lowered, the rest by the program.
struct Names<'a> {
    program: &'a hir::Program,
    cfg: &'a Cfg,
}

impl Names<'_> {
    fn local(&self, id: hir::LocalId) -> String {
        self.cfg.locals[id.index()].name.clone()
    }

    fn value(&self, value: &Value) -> serde_json::Value {
        value::to_json(self.program, value)
    }

    fn named<'v>(&self, entries: impl Iterator<Item = (String, &'v Value)>) -> Vec<json::Named> {
        entries.map(|(name, value)| json::Named { name, value: self.value(value) }).collect()
    }

    fn inputs(&self, input: &TestInput) -> json::Inputs {
        let program = self.program;
        let ins = (0..input.params.len()).map(|index| self.local(hir::LocalId::from_index(index)));
        json::Inputs {
            params: self.named(ins.zip(&input.params)),
            globals: self
                .named(input.globals.iter().map(|(id, value)| (program.globals[id.index()].name.clone(), value))),
            consts: self.named(input.consts.iter().map(|(id, value)| (program.consts[id.index()].name.clone(), value))),
            uninitialized: self.named(input.uninitialized.iter().map(|(id, value)| (self.local(*id), value))),
            functions: input
                .functions
                .iter()
                .map(|table| json::FunctionTable {
                    name: program.functions[table.function.index()].name.clone(),
                    entries: table
                        .entries
                        .iter()
                        .map(|(args, result)| (args.iter().map(|arg| self.value(arg)).collect(), self.value(result)))
                        .collect(),
                    default: self.value(&table.default),
                })
                .collect(),
        }
    }

    fn trace_entry(&self, item: &TraceItem) -> json::TraceEntry {
        match item {
            TraceItem::Havoc { var, value } => json::TraceEntry::Havoc { var: var.clone(), value: self.value(value) },
            TraceItem::CallOut { callee, var, value } => {
                json::TraceEntry::CallOut { callee: callee.clone(), var: var.clone(), value: self.value(value) }
            }
            TraceItem::CallModifies { callee, global, value } => json::TraceEntry::CallModifies {
                callee: callee.clone(),
                global: global.clone(),
                value: self.value(value),
            },
            TraceItem::Goto { target } => json::TraceEntry::Goto { target: target.clone() },
        }
    }

    fn expect(&self, replay: &Replay) -> json::Expect {
        let (outcome, message) = expected_outcome(&replay.outcome);
        let mut expect =
            json::Expect { outcome: outcome.to_string(), message, outputs: Vec::new(), globals: Vec::new() };
        for (var, value) in &replay.outputs {
            match var {
                hir::Var::Local(id) => {
                    expect.outputs.push(json::Named { name: self.local(*id), value: self.value(value) })
                }
                hir::Var::Global(id) => expect.globals.push(json::Named {
                    name: self.program.globals[id.index()].name.clone(),
                    value: self.value(value),
                }),
                hir::Var::Const(_) | hir::Var::Bound(_) => {}
            }
        }
        expect
    }
}

/// The `expect.outcome` and `expect.message` of a run's outcome. Only runs that are
/// executions become tests (see `gen::enumerate`), so only these three occur.
pub fn expected_outcome(outcome: &Outcome) -> (&'static str, Option<String>) {
    match outcome {
        Outcome::Passed => ("pass", None),
        Outcome::Failed(violation) => ("fail", Some(violation.message.clone())),
        Outcome::Infeasible(stop) => ("infeasible", Some(stop.message.clone())),
        Outcome::Invalid(stop)
        | Outcome::CannotEvaluate(stop)
        | Outcome::BudgetExhausted(stop)
        | Outcome::ReplayError { stop, .. } => ("error", Some(stop.message.clone())),
    }
}

/// The text of `suite` (of `program`'s implementations) in the form `--emit` asks for.
pub fn to_text(suite: &json::Suite, program: &hir::Program, form: SuiteForm) -> String {
    match form {
        SuiteForm::Json => json::to_text(suite),
        SuiteForm::Bpl => bpl::to_text(suite, program),
    }
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
