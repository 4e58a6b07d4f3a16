//! Reading a suite back (`seedgen run-tests`): the JSON of [`super::json`], or its Boogie
//! form ([`super::bpl`]) → [`interp::TestInput`](crate::interp::TestInput)s for the current program, with their
//! expectations. Both forms are read into the same [`json::Suite`] and loaded by
//! [`load_suite`].
//!
//! Two kinds of problems, kept apart because they mean different things:
//! - the file itself is wrong (not JSON, unknown format or version, a value that is no
//!   value, an unknown type name): a [`LoadError`] at a span of the file where one is
//!   known, and `run-tests` exits 2;
//! - the file is fine but no longer fits the program (a procedure is gone, a
//!   parameter was renamed or added): the test is loaded as [`LoadedTest::Stale`], and
//!   `run-tests` reports it as invalid.

use super::json;
use super::value::from_json;
use crate::cfg::Cfg;
use crate::config::SuiteForm;
use crate::diag::Diagnostic;
use crate::interp::{TestInput, TraceItem};
use crate::sema::hir;
use crate::source::{FileId, Span};
use crate::vc::{FunctionModel, Value};
use std::ops::Range;

/// Why a suite file cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// What is wrong.
    pub message: String,
    /// Which part of the suite it concerns (`test Simple/t2, inputs.params[0]`); empty
    /// for the file as a whole or when the span says it all.
    pub location: String,
    /// The bytes of the suite text it points at, when known.
    pub span: Option<Range<usize>>,
}

impl LoadError {
    /// The diagnostic, at the span in the suite file `file` (the file's start when the
    /// problem has no place of its own, e.g. an unsupported version). Its message names
    /// the test and field too, for the one-line formats.
    pub fn to_diagnostic(&self, file: FileId) -> Diagnostic {
        let range = self.span.clone().unwrap_or(0..0);
        Diagnostic::error(self.to_string()).with_primary(Span::new(file, range.start, range.end), "")
    }
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.location.as_str() {
            "" => write!(f, "{}", self.message),
            location => write!(f, "{location}: {}", self.message),
        }
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

/// Reads `text`, a JSON suite, for `program` (whose lowered graphs are `cfgs`).
pub fn load(program: &hir::Program, cfgs: &[Cfg], text: &str) -> Result<Vec<LoadedTest>, LoadError> {
    load_suite(program, cfgs, &parse_json(text)?, &|id| locate_test(SuiteForm::Json, text, id))
}

/// Reads `text`, a suite in either form, for `program`: JSON when its first non-blank
/// character is `{`, the Boogie form otherwise. Also returns the options the suite was
/// generated with (its goal ids depend on them).
pub fn load_text(
    program: &hir::Program,
    cfgs: &[Cfg],
    text: &str,
) -> Result<(Vec<LoadedTest>, json::Options), LoadError> {
    let (suite, tests) = read_and_load(program, cfgs, text)?;
    Ok((tests, suite.options))
}

/// Reads `text`, a suite in either form, for `program`: the parsed suite (to load again
/// for a changed program, as `mutate` does; `prove-tests --existing` writes its kept
/// tests back unchanged) and its tests.
pub fn read_and_load(
    program: &hir::Program,
    cfgs: &[Cfg],
    text: &str,
) -> Result<(json::Suite, Vec<LoadedTest>), LoadError> {
    let form = form_of(text);
    let suite = read(text)?;
    let tests = load_suite(program, cfgs, &suite, &|id| locate_test(form, text, id))?;
    Ok((suite, tests))
}

/// The form of a suite text, by its content.
pub fn form_of(text: &str) -> SuiteForm {
    if text.trim_start().starts_with('{') {
        SuiteForm::Json
    } else {
        SuiteForm::Bpl
    }
}

/// Whether `text` is a suite seedgen wrote, of any version: JSON whose `format` is
/// [`json::FORMAT`], or Boogie text with a suite header `axiom {:seedgen_suite …}`.
/// `prove-tests` overwrites nothing else without `--force`.
pub fn is_suite(text: &str) -> bool {
    match form_of(text) {
        SuiteForm::Json => {
            /// Only the `format` field: everything else is skipped, not built (a warm
            /// `prove-tests` checks its big output file this way on every run).
            #[derive(serde::Deserialize)]
            struct Format<'a> {
                #[serde(borrow)]
                format: Option<std::borrow::Cow<'a, str>>,
            }
            serde_json::from_str::<Format>(text).is_ok_and(|found| found.format.as_deref() == Some(json::FORMAT))
        }
        SuiteForm::Bpl => crate::syntax::parse(FileId(0), text).0.decls.iter().any(|decl| {
            matches!(decl, crate::syntax::ast::Decl::Axiom(axiom)
                if axiom.attrs.first().is_some_and(|attr| attr.name.name == "seedgen_suite"))
        }),
    }
}

/// Parses a suite text of either form, without looking at the program.
pub fn read(text: &str) -> Result<json::Suite, LoadError> {
    match form_of(text) {
        SuiteForm::Json => parse_json(text),
        SuiteForm::Bpl => super::bpl::from_text(text),
    }
}

fn parse_json(text: &str) -> Result<json::Suite, LoadError> {
    serde_json::from_str(text).map_err(|error| LoadError {
        message: format!("not a suite file: {}", without_position(&error)),
        location: String::new(),
        span: Some(json_error_span(text, &error)),
    })
}

/// serde_json's message without its ` at line L column C`, which a span replaces.
pub(super) fn without_position(error: &serde_json::Error) -> String {
    let text = error.to_string();
    match text.rfind(" at line ") {
        Some(cut) if error.line() > 0 => text[..cut].to_string(),
        _ => text,
    }
}

/// The character serde_json stopped at (at end of file, the last one it read): it
/// counts lines from 1 and columns, in bytes, from 1 (0 just after a line break).
fn json_error_span(text: &str, error: &serde_json::Error) -> Range<usize> {
    let line_start: usize = text.split_inclusive('\n').take(error.line().saturating_sub(1)).map(str::len).sum();
    let mut start = (line_start + error.column().saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let end = text[start..].chars().next().map_or(start, |c| start + c.len_utf8());
    start..end
}

/// Where the test `id` is declared: the string of its `"id": "<id>"` in JSON, of its
/// `{:seedgen_test "<id>"}` in the Boogie form.
fn locate_test(form: SuiteForm, text: &str, id: &str) -> Option<Range<usize>> {
    let (quoted, key): (String, &[&str]) = match form {
        SuiteForm::Json => (serde_json::to_string(id).expect("strings serialize to JSON"), &["\"id\"", ":"]),
        SuiteForm::Bpl => (super::bpl::quote(id), &["{:seedgen_test"]),
    };
    text.match_indices(&quoted)
        .map(|(start, _)| start..start + quoted.len())
        .find(|found| preceded_by(&text[..found.start], key))
}

/// Whether `before` ends with the tokens of `key`, blanks between them ignored.
fn preceded_by(before: &str, key: &[&str]) -> bool {
    let mut rest = before;
    for token in key.iter().rev() {
        match rest.trim_end().strip_suffix(token) {
            Some(shorter) => rest = shorter,
            None => return false,
        }
    }
    true
}

/// Loads a parsed suite for `program`; `locate` finds a test's place in the suite text
/// for the errors in that test.
pub fn load_suite(
    program: &hir::Program,
    cfgs: &[Cfg],
    suite: &json::Suite,
    locate: &dyn Fn(&str) -> Option<Range<usize>>,
) -> Result<Vec<LoadedTest>, LoadError> {
    let top = |message: String| LoadError { message, location: String::new(), span: None };
    if suite.format != json::FORMAT {
        return Err(top(format!("format is `{}`, expected `{}`", suite.format, json::FORMAT)));
    }
    if !json::READABLE.contains(&suite.version) {
        return Err(top(format!(
            "suite format version {} is not supported (this seedgen reads versions {}); regenerate it with `seedgen prove-tests`",
            suite.version,
            readable_versions()
        )));
    }
    let names: Vec<&str> = suite.procedures.iter().map(|procedure| procedure.name.as_str()).collect();
    if !names.is_empty() && !cfgs.iter().any(|cfg| names.contains(&cfg.name.as_str())) {
        return Err(top(format!(
            "the suite is for another program: it was generated from `{}`, and this program implements none of \
             its procedures ({})",
            suite.source.file,
            names.iter().map(|name| format!("`{name}`")).collect::<Vec<_>>().join(", ")
        )));
    }
    let mut seen = std::collections::BTreeSet::new();
    let mut tests = Vec::new();
    for procedure in &suite.procedures {
        let cfg = cfgs.iter().find(|cfg| cfg.name == procedure.name);
        for test in &procedure.tests {
            let error = |field: &str, message: String| LoadError {
                message,
                location: format!("test {}, {field}", test.id),
                span: locate(&test.id),
            };
            if !seen.insert(test.id.as_str()) {
                return Err(error("id", "more than one test has this id".to_string()));
            }
            if !json::OUTCOMES.contains(&test.expect.outcome.as_str()) {
                let expected: Vec<String> = json::OUTCOMES.iter().map(|outcome| format!("`{outcome}`")).collect();
                let message =
                    format!("unknown outcome `{}`: expected one of {}", test.expect.outcome, expected.join(", "));
                return Err(error("expect.outcome", message));
            }
            let stale =
                |reason: String| LoadedTest::Stale { id: test.id.clone(), procedure: procedure.name.clone(), reason };
            let loaded = match cfg {
                None => stale(format!("the program has no implementation `{}` any more", procedure.name)),
                Some(cfg) => match (Reader { program, cfg, test: &test.id, locate }).input(test)? {
                    Ok(input) => LoadedTest::Ready { id: test.id.clone(), input, expect: test.expect.clone() },
                    Err(reason) => stale(reason),
                },
            };
            tests.push(loaded);
        }
    }
    Ok(tests)
}

/// `2 and 3`: the versions of [`json::READABLE`], for messages.
pub fn readable_versions() -> String {
    let versions: Vec<String> = json::READABLE.iter().map(u32::to_string).collect();
    match versions.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Reads the inputs of one test: `Err` for a broken file, `Ok(Err)` for a test that
/// no longer fits the program.
struct Reader<'a> {
    program: &'a hir::Program,
    cfg: &'a Cfg,
    test: &'a str,
    /// Finds the test in the suite text, only when there is an error to place.
    locate: &'a dyn Fn(&str) -> Option<Range<usize>>,
}

type Fit<T> = Result<Result<T, String>, LoadError>;

impl Reader<'_> {
    fn error(&self, field: &str, message: String) -> LoadError {
        LoadError { message, location: format!("test {}, {field}", self.test), span: (self.locate)(self.test) }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The text at the span of the error `read` gives for `text`.
    fn error_at(text: &str) -> (String, &str) {
        let error = read(text).expect_err("not a suite");
        let span = error.span.clone().expect("a syntax error has a span");
        (error.message, &text[span])
    }

    #[test]
    fn the_form_is_decided_by_the_first_character() {
        assert_eq!(form_of("  \n{\"format\": 1}"), SuiteForm::Json);
        assert_eq!(form_of("// a comment\n{"), SuiteForm::Bpl);
        assert_eq!(form_of(""), SuiteForm::Bpl);
    }

    #[test]
    fn json_errors_point_at_the_character_serde_stopped_at() {
        let (message, at) = error_at("{\n  \"format\": \"x\",\n  \"version\" 2\n}");
        assert!(message.starts_with("not a suite file: expected `:`") && !message.contains(" at line "), "{message}");
        assert_eq!(at, "2");
        let (message, at) = error_at("{ \"format\": \"é");
        assert!(message.contains("EOF"), "{message}");
        assert_eq!(at, "é", "the last character read, whole although serde counts bytes");
    }

    #[test]
    fn suites_of_either_form_are_recognised() {
        assert!(is_suite("{\"format\": \"seedgen-suite\", \"version\": 1}"));
        assert!(is_suite("// a suite\naxiom {:seedgen_suite \"seedgen-suite\", 7} true;\n"));
        assert!(!is_suite("{\"format\": \"other\"}"));
        assert!(!is_suite("{\"format\": \"seedgen-suite\""));
        assert!(!is_suite("procedure P() { }"));
        assert!(!is_suite(""));
        assert!(!is_suite("not Boogie at all"));
    }

    #[test]
    fn a_test_is_found_by_its_id_in_either_form() {
        let json = "{\"goals\": [{\"test\": \"P/t1\"}], \"tests\": [{\"id\" :\n \"P/t1\"}]}";
        let found = locate_test(SuiteForm::Json, json, "P/t1").expect("found");
        assert_eq!((&json[found.clone()], found.start), ("\"P/t1\"", json.rfind("\"P/t1\"").expect("present")));
        let bpl = "axiom {:seedgen_goal \"g\"} {:test \"P/t1\"} true;\nprocedure {:seedgen_test  \"P/t1\"} t() {}";
        let found = locate_test(SuiteForm::Bpl, bpl, "P/t1").expect("found");
        assert_eq!(found.start, bpl.rfind("\"P/t1\"").expect("present"));
        assert_eq!(locate_test(SuiteForm::Json, json, "P/t2"), None);
    }

    #[test]
    fn a_load_error_becomes_a_diagnostic_at_its_span() {
        let error = LoadError { message: "bad".to_string(), location: "test P/t1".to_string(), span: Some(3..5) };
        let diagnostic = error.to_diagnostic(FileId(7));
        assert_eq!(diagnostic.primary_span(), Some(Span::new(FileId(7), 3, 5)));
        assert_eq!(diagnostic.message, "test P/t1: bad");
        assert_eq!(error.to_string(), "test P/t1: bad");
        let placeless = LoadError { span: None, location: String::new(), ..error };
        assert_eq!(placeless.to_diagnostic(FileId(0)).primary_span(), Some(Span::new(FileId(0), 0, 0)));
        assert_eq!(placeless.to_string(), "bad");
    }
}
