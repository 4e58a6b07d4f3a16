//! Reading a suite back (`seedgen run-tests`): the JSON of [`super::json`] →
//! [`interp::TestInput`]s for the current program, with their expectations.
//!
//! Two kinds of problems, kept apart because they mean different things:
//! - the file itself is wrong (not JSON, unknown format or version, a value that is no
//!   value, an unknown type name): a [`LoadError`], and `run-tests` exits 2;
//! - the file is fine but no longer fits the program (a procedure is gone, a
//!   parameter was renamed or added): the test is loaded as [`LoadedTest::Stale`], and
//!   `run-tests` reports it as invalid.

use super::json;
use super::value::from_json;
use crate::cfg::Cfg;
use crate::interp::{TestInput, TraceItem};
use crate::sema::hir;
use crate::vc::{FunctionModel, Value};

/// Why a suite file cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// Where in the file: `test Simple/t2, inputs.params[0]`, or a line and column.
    pub location: String,
    pub message: String,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.location, self.message)
    }
}

/// One test of the file, ready to run or known not to fit.
#[derive(Clone, Debug)]
pub enum LoadedTest {
    Ready {
        id: String,
        input: TestInput,
        expect: json::Expect,
    },
    /// The program changed under the test: why it cannot run.
    Stale {
        id: String,
        procedure: String,
        reason: String,
    },
}

impl LoadedTest {
    pub fn id(&self) -> &str {
        match self {
            LoadedTest::Ready { id, .. } | LoadedTest::Stale { id, .. } => id,
        }
    }
}

/// Reads `text` as a suite for `program` (whose lowered graphs are `cfgs`).
pub fn load(program: &hir::Program, cfgs: &[Cfg], text: &str) -> Result<Vec<LoadedTest>, LoadError> {
    let suite: json::Suite = serde_json::from_str(text).map_err(|error| LoadError {
        location: format!("line {}, column {}", error.line(), error.column()),
        message: format!("not a suite file: {error}"),
    })?;
    let top = |message: String| LoadError { location: "suite".to_string(), message };
    if suite.format != json::FORMAT {
        return Err(top(format!("format is `{}`, expected `{}`", suite.format, json::FORMAT)));
    }
    if suite.version != json::VERSION {
        return Err(top(format!(
            "suite format version {} is not supported (this seedgen reads version {}); regenerate it with `seedgen prove-tests`",
            suite.version,
            json::VERSION
        )));
    }
    let mut tests = Vec::new();
    for procedure in &suite.procedures {
        let cfg = cfgs.iter().find(|cfg| cfg.name == procedure.name);
        for test in &procedure.tests {
            let stale =
                |reason: String| LoadedTest::Stale { id: test.id.clone(), procedure: procedure.name.clone(), reason };
            let loaded = match cfg {
                None => stale(format!("the program has no implementation `{}` any more", procedure.name)),
                Some(cfg) => match (Reader { program, cfg, test: &test.id }).input(test)? {
                    Ok(input) => LoadedTest::Ready { id: test.id.clone(), input, expect: test.expect.clone() },
                    Err(reason) => stale(reason),
                },
            };
            tests.push(loaded);
        }
    }
    Ok(tests)
}

/// Reads the inputs of one test: `Err` for a broken file, `Ok(Err)` for a test that
/// no longer fits the program.
struct Reader<'a> {
    program: &'a hir::Program,
    cfg: &'a Cfg,
    test: &'a str,
}

type Fit<T> = Result<Result<T, String>, LoadError>;

impl Reader<'_> {
    fn error(&self, field: &str, message: String) -> LoadError {
        LoadError { location: format!("test {}, {field}", self.test), message }
    }

    fn value(&self, field: &str, json: &serde_json::Value) -> Result<Value, LoadError> {
        from_json(self.program, json).map_err(|message| self.error(field, message))
    }

    fn input(&self, test: &json::Test) -> Fit<TestInput> {
        let mut input = TestInput::new(self.cfg.implementation);
        let ins = &self.program.implementations[self.cfg.implementation.index()].ins;
        let given: Vec<&str> = test.inputs.params.iter().map(|named| named.name.as_str()).collect();
        let declared: Vec<&str> = ins.iter().map(|id| self.cfg.locals[id.index()].name.as_str()).collect();
        if given != declared {
            return Ok(Err(format!(
                "the signature changed: the test gives ({}), `{}` takes ({})",
                given.join(", "),
                self.cfg.name,
                declared.join(", ")
            )));
        }
        for (index, named) in test.inputs.params.iter().enumerate() {
            input.params.push(self.value(&format!("inputs.params[{index}]"), &named.value)?);
        }
        match self.named_inputs(test, &mut input)? {
            Ok(()) => {}
            Err(reason) => return Ok(Err(reason)),
        }
        input.functions = self.functions(&test.inputs.functions)?;
        input.trace = self.trace(&test.trace)?;
        Ok(Ok(input))
    }

    /// Globals, constants and unset locals, by name.
    fn named_inputs(&self, test: &json::Test, input: &mut TestInput) -> Fit<()> {
        let program = self.program;
        let globals = self.lookup(&test.inputs.globals, "inputs.globals", |name| {
            let found = program.globals.iter().position(|global| global.name == name);
            found.ok_or_else(|| format!("the program has no global `{name}` any more"))
        })?;
        let consts = self.lookup(&test.inputs.consts, "inputs.consts", |name| {
            let found = program.consts.iter().position(|constant| constant.name == name);
            found.ok_or_else(|| format!("the program has no constant `{name}` any more"))
        })?;
        let uninitialized = self.lookup(&test.inputs.uninitialized, "inputs.uninitialized", |name| {
            let found = self.cfg.locals.iter().position(|local| local.name == name);
            found.ok_or_else(|| format!("`{}` has no variable `{name}` any more", self.cfg.name))
        })?;
        let (globals, consts, uninitialized) = match (globals, consts, uninitialized) {
            (Ok(globals), Ok(consts), Ok(uninitialized)) => (globals, consts, uninitialized),
            (Err(reason), _, _) | (_, Err(reason), _) | (_, _, Err(reason)) => return Ok(Err(reason)),
        };
        input.globals = globals.into_iter().map(|(id, value)| (hir::GlobalId::from_index(id), value)).collect();
        input.consts = consts.into_iter().map(|(id, value)| (hir::ConstId::from_index(id), value)).collect();
        input.uninitialized =
            uninitialized.into_iter().map(|(id, value)| (hir::LocalId::from_index(id), value)).collect();
        Ok(Ok(()))
    }

    /// Each named value of `field`, with the index `find` gives its name (or why the
    /// program no longer has it).
    fn lookup(
        &self,
        named: &[json::Named],
        field: &str,
        find: impl Fn(&str) -> Result<usize, String>,
    ) -> Fit<Vec<(usize, Value)>> {
        let mut found = Vec::with_capacity(named.len());
        for (index, entry) in named.iter().enumerate() {
            let id = match find(&entry.name) {
                Ok(id) => id,
                Err(reason) => return Ok(Err(reason)),
            };
            found.push((id, self.value(&format!("{field}[{index}]"), &entry.value)?));
        }
        Ok(Ok(found))
    }

    fn functions(&self, tables: &[json::FunctionTable]) -> Result<Vec<FunctionModel>, LoadError> {
        let mut models = Vec::new();
        for (index, table) in tables.iter().enumerate() {
            let field = format!("inputs.functions[{index}]");
            let function = self
                .program
                .functions
                .iter()
                .position(|function| function.name == table.name)
                .ok_or_else(|| self.error(&field, format!("the program has no function `{}`", table.name)))?;
            let mut entries = Vec::new();
            for (args, result) in &table.entries {
                let args = args.iter().map(|arg| self.value(&field, arg)).collect::<Result<Vec<_>, _>>()?;
                entries.push((args, self.value(&field, result)?));
            }
            let default = self.value(&field, &table.default)?;
            models.push(FunctionModel { function: hir::FunctionId::from_index(function), entries, default });
        }
        Ok(models)
    }

    fn trace(&self, entries: &[json::TraceEntry]) -> Result<Vec<TraceItem>, LoadError> {
        entries
            .iter()
            .enumerate()
            .map(|(index, entry)| {
                let value = |json: &serde_json::Value| self.value(&format!("trace[{index}]"), json);
                Ok(match entry {
                    json::TraceEntry::Havoc { var, value: json } => {
                        TraceItem::Havoc { var: var.clone(), value: value(json)? }
                    }
                    json::TraceEntry::CallOut { callee, var, value: json } => {
                        TraceItem::CallOut { callee: callee.clone(), var: var.clone(), value: value(json)? }
                    }
                    json::TraceEntry::CallModifies { callee, global, value: json } => {
                        TraceItem::CallModifies { callee: callee.clone(), global: global.clone(), value: value(json)? }
                    }
                    json::TraceEntry::Goto { target } => TraceItem::Goto { target: target.clone() },
                })
            })
            .collect()
    }
}
