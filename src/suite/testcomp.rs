//! The Test-Comp form of a suite (`prove-tests --emit testcomp`; `docs/suite-format.md`,
//! "The Test-Comp form"): the tests in the exchange format of the Test-Comp competition
//! (sosy-lab test-format 1.1: `test-metadata.dtd`, `testcase.dtd`), for tools that replay
//! input vectors or measure their coverage.
//!
//! Input: a [`json::Suite`] of `program`'s implementations. Output: an [`Export`], one
//! directory per implementation whose inputs are all integers and Booleans, holding
//! `metadata.xml` and one test case per test, and for every other implementation the
//! reason it is left out. A test case lists its inputs in the order the implementation
//! consumes them: its in-parameters, then the entry values of the globals, constants and
//! unset locals that some test of the implementation reads (the same list for all its
//! tests, so one harness reads them all; a test whose run does not read one gives its
//! type's default, which is what the interpreter starts it with), then its trace.
//!
//! Writing is deterministic: no time stamp (`creationtime` is [`CREATION_TIME`]), the
//! program's path as the suite records it, names in program order.

use super::json;
use crate::diag::Diagnostic;
use crate::sema::hir;
use crate::source::Span;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const XML_DECLARATION: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="no"?>"#;
const METADATA_DOCTYPE: &str = r#"<!DOCTYPE test-metadata PUBLIC "+//IDN sosy-lab.org//DTD test-format test-metadata 1.1//EN" "https://sosy-lab.org/test-format/test-metadata-1.1.dtd">"#;
const TESTCASE_DOCTYPE: &str = r#"<!DOCTYPE testcase PUBLIC "+//IDN sosy-lab.org//DTD test-format testcase 1.1//EN" "https://sosy-lab.org/test-format/testcase-1.1.dtd">"#;
const METADATA: &str = "metadata.xml";

/// `creationtime`, which the DTD requires: the Unix epoch, so that the same suite gives
/// the same bytes on every run.
pub const CREATION_TIME: &str = "1970-01-01T00:00:00Z";

/// What `--emit testcomp` writes: every file, by its path relative to the output
/// directory (`<implementation>/metadata.xml`, `<implementation>/<test>.xml`), and the
/// implementations left out.
#[derive(Debug, Default)]
pub struct Export {
    pub files: Vec<(PathBuf, String)>,
    pub skipped: Vec<Skipped>,
}

/// An implementation left out of the export, and why.
#[derive(Debug, PartialEq, Eq)]
pub struct Skipped {
    pub procedure: String,
    pub reason: String,
    /// Where the reason is: the parameter, global or function at fault, else the
    /// implementation.
    pub span: Option<Span>,
}

impl Skipped {
    pub fn to_diagnostic(&self) -> Diagnostic {
        let message = format!("procedure `{}` is left out of the Test-Comp suite: {}", self.procedure, self.reason);
        let diagnostic = Diagnostic::warning(message).with_note("Test-Comp inputs are integers and Booleans");
        match self.span {
            Some(span) => diagnostic.with_primary(span, "not an integer or Boolean input"),
            None => diagnostic,
        }
    }
}

/// Why an implementation is left out, and where.
type Reason = (String, Option<Span>);

/// One `<input>`: the variable it sets (none for the branch of a nondeterministic
/// choice) and its value as a C literal.
#[derive(Debug, PartialEq, Eq)]
struct Input {
    variable: Option<String>,
    value: String,
}

/// The Test-Comp form of `suite`, whose procedures are implementations of `program`.
pub fn export(suite: &json::Suite, program: &hir::Program) -> Export {
    let mut export = Export::default();
    let mut directories = FileNames::default();
    for procedure in &suite.procedures {
        match vectors(program, procedure) {
            Ok(vectors) => {
                let directory = PathBuf::from(directories.fresh(&procedure.name));
                export.files.push((directory.join(METADATA), metadata(suite, &procedure.name)));
                let mut names = FileNames::reserving(METADATA.trim_end_matches(".xml"));
                for (test, inputs) in procedure.tests.iter().zip(vectors) {
                    let own_id = test.id.strip_prefix(&format!("{}/", procedure.name)).unwrap_or(&test.id);
                    let name = format!("{}.xml", names.fresh(own_id));
                    export.files.push((directory.join(name), testcase(test, &inputs)));
                }
            }
            Err((reason, span)) => export.skipped.push(Skipped { procedure: procedure.name.clone(), reason, span }),
        }
    }
    export
}

/// The inputs of each test of `procedure`, or why it has no Test-Comp form.
fn vectors(program: &hir::Program, procedure: &json::Procedure) -> Result<Vec<Vec<Input>>, Reason> {
    let Some(implementation) = program.implementations.iter().find(|found| found.name == procedure.name) else {
        return Err(("the program has no implementation of that name".to_string(), None));
    };
    let slots = slots(program, implementation, &procedure.tests)?;
    if let Some(table) = procedure.tests.iter().flat_map(|test| &test.inputs.functions).next() {
        let span = program.functions.iter().find(|function| function.name == table.name).map(|function| function.span);
        let reason = format!("its tests give the uninterpreted function `{}` a table", table.name);
        return Err((reason, span.or(Some(implementation.span))));
    }
    let vector = |test: &json::Test| {
        let mut inputs = slots.iter().map(|slot| slot.input(test)).collect::<Result<Vec<_>, _>>()?;
        for entry in &test.trace {
            inputs.push(choice(entry).map_err(|what| format!("{what} (test `{}`)", test.id))?);
        }
        Ok(inputs)
    };
    procedure
        .tests
        .iter()
        .map(vector)
        .collect::<Result<_, String>>()
        .map_err(|reason| (reason, Some(implementation.span)))
}

/// An entry value the tests of an implementation give, in the order they are read.
struct Slot<'a> {
    /// What the warnings call it: `parameter`, `global`, `constant` or `local`.
    kind: &'static str,
    name: &'a str,
    /// Where a test lists its value.
    field: fn(&json::Inputs) -> &[json::Named],
}

impl Slot<'_> {
    /// The slot's value in `test`: as listed, or the type's default when the test's run
    /// does not read it (`0`, which is also `false`).
    fn input(&self, test: &json::Test) -> Result<Input, String> {
        let listed = (self.field)(&test.inputs).iter().find(|named| named.name == self.name);
        let value = match listed {
            Some(named) => literal(&named.value)
                .map_err(|what| format!("the {} `{}` of test `{}` is {what}", self.kind, self.name, test.id))?,
            None => "0".to_string(),
        };
        Ok(Input { variable: Some(self.name.to_string()), value })
    }
}

/// The entry values of `implementation`'s tests: its in-parameters, then the globals,
/// constants and locals some test lists, each group in declaration order; or the first
/// one that is not an integer or a Boolean.
fn slots<'a>(
    program: &'a hir::Program,
    implementation: &'a hir::Implementation,
    tests: &[json::Test],
) -> Result<Vec<Slot<'a>>, Reason> {
    let listed = |field: fn(&json::Inputs) -> &[json::Named]| -> BTreeSet<&str> {
        tests.iter().flat_map(|test| field(&test.inputs)).map(|named| named.name.as_str()).collect()
    };
    let (globals, consts, locals) =
        (listed(|inputs| &inputs.globals), listed(|inputs| &inputs.consts), listed(|inputs| &inputs.uninitialized));
    let mut slots = Vec::new();
    let mut push = |kind, name: &'a str, ty, span, field| {
        if let Err(what) = scalar(program, ty) {
            return Err((format!("its {kind} `{name}` is {what}"), Some(span)));
        }
        slots.push(Slot { kind, name, field });
        Ok(())
    };
    for &id in &implementation.ins {
        let local = &implementation.locals[id.index()];
        push("parameter", &local.name, &local.ty, local.span, |inputs| &inputs.params)?;
    }
    for global in program.globals.iter().filter(|global| globals.contains(global.name.as_str())) {
        push("global", &global.name, &global.ty, global.span, |inputs| &inputs.globals)?;
    }
    for constant in program.consts.iter().filter(|constant| consts.contains(constant.name.as_str())) {
        push("constant", &constant.name, &constant.ty, constant.span, |inputs| &inputs.consts)?;
    }
    let unset = implementation.locals.iter().filter(|local| local.kind != hir::LocalKind::In);
    for local in unset.filter(|local| locals.contains(local.name.as_str())) {
        push("local", &local.name, &local.ty, local.span, |inputs| &inputs.uninitialized)?;
    }
    let declared: BTreeSet<&str> = slots.iter().map(|slot| slot.name).collect();
    let unknown = globals.iter().chain(&consts).chain(&locals).find(|name| !declared.contains(*name));
    if let Some(name) = unknown {
        return Err((format!("its tests set `{name}`, which the program does not declare"), Some(implementation.span)));
    }
    Ok(slots)
}

/// The widest bit-vector a Test-Comp input holds: C's `unsigned long long`.
const MAX_INPUT_BITS: u32 = 64;

/// Whether `ty` is a Test-Comp input: `int`, `bool`, `real` (a C `double` literal) or a
/// bit-vector of at most 64 bits (an unsigned C integer); otherwise what it is.
fn scalar(program: &hir::Program, ty: &hir::Type) -> Result<(), String> {
    match ty {
        hir::Type::Int | hir::Type::Bool | hir::Type::Real => Ok(()),
        hir::Type::BitVector(width) if *width <= MAX_INPUT_BITS => Ok(()),
        hir::Type::BitVector(width) => Err(format!("a bv{width}, wider than C's widest integer")),
        hir::Type::Map(_) => Err("a map".to_string()),
        hir::Type::Named(id, _) => Err(format!("of the uninterpreted type `{}`", program.types[id.index()].name)),
        hir::Type::Param(_) => unreachable!("{}", crate::cfg::support::OUTSIDE_ENGINE),
    }
}

/// The input of one trace entry. The branch of an `if (*)` or `while (*)` is the value
/// of a `__VERIFIER_nondet_bool()` guard: 1 for `then` and `body`, 0 for `else` and
/// `exit`; a `goto` between labels has no such reading.
fn choice(entry: &json::TraceEntry) -> Result<Input, String> {
    let named = |variable: &str, value: &Value| {
        let value = literal(value).map_err(|what| format!("its trace gives `{variable}` {what}"))?;
        Ok(Input { variable: Some(variable.to_string()), value })
    };
    match entry {
        json::TraceEntry::Havoc { var, value } | json::TraceEntry::CallOut { var, value, .. } => named(var, value),
        json::TraceEntry::CallModifies { global, value, .. } => named(global, value),
        json::TraceEntry::Goto { target } => {
            let value = match target.rsplit('/').next() {
                Some("then" | "body") => "1",
                Some("else" | "exit") => "0",
                _ => return Err(format!("its trace takes `{target}`, a branch of a `goto` between labels")),
            };
            Ok(Input { variable: None, value: value.to_string() })
        }
    }
}

/// A suite value as a C literal: an integer in decimal (as long as it is: Boogie's are
/// unbounded), a Boolean as `1` or `0` (what `__VERIFIER_nondet_bool` returns, and what
/// Test-Comp's harnesses parse with `strtoll`), a bit-vector as its unsigned value in
/// decimal (`strtoull`), a real as a decimal literal when it has one (`strtod`; one
/// such as 1/3 has none, and the test is left out); otherwise what it is.
fn literal(value: &Value) -> Result<String, String> {
    let is_integer = |text: &str| {
        let digits = text.strip_prefix('-').unwrap_or(text);
        !digits.is_empty() && digits.bytes().all(|byte| byte.is_ascii_digit())
    };
    match value {
        Value::Bool(value) => Ok(if *value { "1" } else { "0" }.to_string()),
        Value::Number(number) if number.is_i64() || number.is_u64() => Ok(number.to_string()),
        Value::String(digits) if is_integer(digits) => Ok(digits.clone()),
        Value::Object(object) if object.contains_key("entries") => Err("a map".to_string()),
        Value::Object(object) if object.contains_key("bv") => match object.get("bv") {
            Some(Value::String(digits)) if is_integer(digits) => Ok(digits.clone()),
            _ => Err(format!("`{value}`, not a value")),
        },
        Value::Object(object) if object.contains_key("real") => {
            let rational = object.get("real").and_then(Value::as_str).and_then(|text| text.parse().ok());
            let rational: num_rational::BigRational = rational.ok_or_else(|| format!("`{value}`, not a value"))?;
            let text = crate::cfg::print::decimal_text(&rational);
            if text.starts_with('(') {
                return Err(format!("the real {rational}, which has no decimal literal"));
            }
            Ok(text)
        }
        Value::Object(object) if object.contains_key("opaque") => Err("a value the solver could not show".to_string()),
        Value::Object(object) => match object.get("type") {
            Some(Value::String(ty)) => Err(format!("an element of the uninterpreted type `{ty}`")),
            _ => Err(format!("`{value}`, not a value")),
        },
        _ => Err(format!("`{value}`, not a value")),
    }
}

/// `metadata.xml` of one implementation: the elements in the DTD's order.
fn metadata(suite: &json::Suite, implementation: &str) -> String {
    let hash = suite.source.digest.strip_prefix("sha256:").unwrap_or(&suite.source.digest);
    let fields = [
        ("sourcecodelang", "Boogie"),
        ("producer", &suite.tool),
        // Test-Comp's branch coverage, which is what seedgen's goals are.
        ("specification", &format!("COVER( init({implementation}()), FQL(COVER EDGES(@DECISIONEDGE)) )")),
        ("programfile", &suite.source.file),
        ("programhash", hash),
        ("entryfunction", implementation),
        // The nearest C data model: Boogie's integers are unbounded, and C's 64-bit
        // `long long` is what harnesses read inputs as.
        ("architecture", "64bit"),
        ("creationtime", CREATION_TIME),
    ];
    let mut text = format!("{XML_DECLARATION}\n{METADATA_DOCTYPE}\n<test-metadata>\n");
    for (element, value) in fields {
        text.push_str(&format!("  <{element}>{}</{element}>\n", escape(value)));
    }
    text.push_str("</test-metadata>\n");
    text
}

/// One test case: a test whose run fails a check covers the error.
fn testcase(test: &json::Test, inputs: &[Input]) -> String {
    let covers_error = if test.expect.outcome == "fail" { r#" coversError="true""# } else { "" };
    let mut text = format!("{XML_DECLARATION}\n{TESTCASE_DOCTYPE}\n<testcase{covers_error}>\n");
    for input in inputs {
        match &input.variable {
            Some(variable) => {
                text.push_str(&format!("  <input variable=\"{}\">{}</input>\n", escape(variable), input.value))
            }
            None => text.push_str(&format!("  <input>{}</input>\n", input.value)),
        }
    }
    text.push_str("</testcase>\n");
    text
}

fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for character in text.chars() {
        match character {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&apos;"),
            other => escaped.push(other),
        }
    }
    escaped
}

/// File and directory names made from Boogie names, distinct even on a file system
/// that ignores case: every character but ASCII letters, digits, `_`, `-` and `.` (and
/// a leading `.`) becomes `_`, and a name taken gets `-2`, `-3`, … .
#[derive(Default)]
struct FileNames {
    taken: BTreeSet<String>,
}

impl FileNames {
    fn reserving(name: &str) -> FileNames {
        FileNames { taken: BTreeSet::from([name.to_lowercase()]) }
    }

    fn fresh(&mut self, wanted: &str) -> String {
        let safe = |(at, character): (usize, char)| match character {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '_' | '-' => character,
            '.' if at > 0 => character,
            _ => '_',
        };
        let base: String = wanted.chars().enumerate().map(safe).collect();
        let base = if base.is_empty() { "_".to_string() } else { base };
        let name = (1..)
            .map(|count| if count == 1 { base.clone() } else { format!("{base}-{count}") })
            .find(|name| !self.taken.contains(&name.to_lowercase()))
            .expect("some suffix is free");
        self.taken.insert(name.to_lowercase());
        name
    }
}

/// Whether `dir` holds only what `--emit testcomp` writes: directories each with a
/// `metadata.xml` seedgen produced and test cases. Such a directory is replaced without
/// `--force`, as a suite file is.
pub fn is_export(dir: &Path) -> bool {
    let entries =
        |dir: &Path| -> Option<Vec<std::fs::DirEntry>> { std::fs::read_dir(dir).ok()?.collect::<Result<_, _>>().ok() };
    let is_procedure = |entry: &std::fs::DirEntry| {
        let path = entry.path();
        let produced =
            std::fs::read_to_string(path.join(METADATA)).is_ok_and(|text| text.contains("<producer>seedgen "));
        produced
            && entries(&path).is_some_and(|files| {
                files.iter().all(|file| {
                    file.file_type().is_ok_and(|ty| ty.is_file())
                        && file.path().extension().is_some_and(|ext| ext == "xml")
                })
            })
    };
    entries(dir).is_some_and(|procedures| {
        procedures.iter().all(|entry| entry.file_type().is_ok_and(|ty| ty.is_dir()) && is_procedure(entry))
    })
}

/// Why `prove-tests --emit testcomp` may not write its directory at `path`, checked
/// before any work: it names no directory of its own (`.`), it holds `program`, it is
/// neither a directory nor a regular file (`/dev/null`: replacing a device is never
/// meant), or it is a file, or a directory neither empty nor an export, and `--force`
/// is not given.
pub fn refusal(path: &Path, program: &Path, force: bool) -> Option<String> {
    let shown = path.display();
    if path.file_name().is_none() {
        return Some(format!("cannot write the Test-Comp suite to `{shown}`: name a directory of its own"));
    }
    let holds_program = match (std::fs::canonicalize(path), std::fs::canonicalize(program)) {
        (Ok(dir), Ok(program)) => program.starts_with(dir),
        _ => false,
    };
    if holds_program {
        return Some(format!("cannot replace `{shown}`: it holds the program `{}`", program.display()));
    }
    let reason = match std::fs::metadata(path) {
        Err(_) => return None,
        Ok(metadata) if !metadata.is_dir() && !metadata.is_file() => {
            return Some(format!("cannot replace `{shown}`: it is neither a directory nor a regular file"));
        }
        Ok(metadata) if metadata.is_file() => "is not a directory",
        Ok(_) if is_export(path) => return None,
        Ok(_) => "is not a Test-Comp suite seedgen wrote",
    };
    (!force).then(|| format!("`{shown}` exists and {reason}; pass `--force` to replace it"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const PROGRAM: &str = r#"
        type T;
        const K: int;
        var g: int;
        var flags: [int]bool;
        function f(int): int;
        procedure P(x: int, b: bool) returns (r: int)
          modifies g;
        {
          var t: int;
          havoc r;
          g := x;
        }
        procedure M(m: [int]int) { }
        procedure U(e: T) { }
        procedure F(x: int) { }
    "#;

    fn suite(procedures: serde_json::Value) -> json::Suite {
        serde_json::from_value(json!({
            "format": "seedgen-suite", "version": 2, "tool": "seedgen 0.1.0",
            "source": {"file": "dir/p.bpl", "digest": "sha256:ab12"},
            "options": {"goals": "leaves", "inline_depth": 1},
            "procedures": procedures,
        }))
        .expect("a well-formed suite")
    }

    fn procedure(name: &str, tests: serde_json::Value) -> serde_json::Value {
        json!({"name": name, "digest": "sha256:01", "goals": [], "tests": tests})
    }

    fn test(id: &str, inputs: serde_json::Value, trace: serde_json::Value, outcome: &str) -> serde_json::Value {
        json!({"id": id, "inputs": inputs, "trace": trace, "expect": {"outcome": outcome}})
    }

    fn exported(procedures: serde_json::Value) -> Export {
        export(&suite(procedures), &crate::vc::testing::program(PROGRAM))
    }

    fn file<'a>(export: &'a Export, path: &str) -> &'a str {
        let found = export.files.iter().find(|(name, _)| name == Path::new(path));
        &found.unwrap_or_else(|| panic!("no {path} in {:?}", export.files)).1
    }

    fn inputs_of(text: &str) -> Vec<&str> {
        text.lines().filter(|line| line.trim_start().starts_with("<input")).map(str::trim).collect()
    }

    #[test]
    fn inputs_are_parameters_then_entry_values_then_the_trace() {
        let export = exported(json!([procedure(
            "P",
            json!([
                test(
                    "P/t1",
                    json!({"params": [{"name": "x", "value": -3}, {"name": "b", "value": true}],
                                "globals": [{"name": "g", "value": 7}], "uninitialized": [{"name": "t", "value": 2}]}),
                    json!([{"havoc": {"var": "r", "value": "123456789012345678901234567890"}},
                        {"goto": {"target": "while#1/body"}}, {"goto": {"target": "if#1/else"}}]),
                    "pass"
                ),
                test(
                    "P/t2",
                    json!({"params": [{"name": "x", "value": 0}, {"name": "b", "value": false}]}),
                    json!([{"call_out": {"callee": "Q", "var": "r", "value": 1}}]),
                    "fail"
                ),
            ])
        )]));
        assert_eq!(export.skipped, []);
        assert_eq!(
            inputs_of(file(&export, "P/t1.xml")),
            [
                r#"<input variable="x">-3</input>"#,
                r#"<input variable="b">1</input>"#,
                r#"<input variable="g">7</input>"#,
                r#"<input variable="t">2</input>"#,
                r#"<input variable="r">123456789012345678901234567890</input>"#,
                "<input>1</input>",
                "<input>0</input>",
            ]
        );
        let second = file(&export, "P/t2.xml");
        assert!(second.contains(r#"<testcase coversError="true">"#), "a failing test covers the error:\n{second}");
        // Entry values some other test reads are the type's default here: one harness fits all.
        assert_eq!(inputs_of(second)[2..4], [r#"<input variable="g">0</input>"#, r#"<input variable="t">0</input>"#]);
    }

    #[test]
    fn metadata_follows_the_dtd_and_holds_no_time_or_absolute_path() {
        let export = exported(json!([procedure("P", json!([]))]));
        let text = file(&export, "P/metadata.xml");
        let order = ["sourcecodelang", "producer", "specification", "programfile", "programhash"].into_iter().chain([
            "entryfunction",
            "architecture",
            "creationtime",
        ]);
        let positions: Vec<usize> =
            order.map(|element| text.find(&format!("<{element}>")).expect("every element")).collect();
        assert!(positions.windows(2).all(|pair| pair[0] < pair[1]), "{text}");
        for expected in ["<programfile>dir/p.bpl</programfile>", "<programhash>ab12</programhash>"] {
            assert!(text.contains(expected), "{text}");
        }
        assert!(text.contains("<entryfunction>P</entryfunction>") && text.contains(CREATION_TIME), "{text}");
    }

    #[test]
    fn implementations_with_other_inputs_are_left_out_with_the_reason() {
        let table = json!({"name": "f", "entries": [[[1], 2]], "default": 0});
        let export = exported(json!([
            procedure("M", json!([])),
            procedure("U", json!([])),
            procedure(
                "F",
                json!([test(
                    "F/t1",
                    json!({"params": [{"name": "x", "value": 0}], "functions": [table]}),
                    json!([]),
                    "pass"
                )])
            ),
            procedure(
                "P",
                json!([test(
                    "P/t1",
                    json!({"params": [{"name": "x", "value": 0}, {"name": "b", "value": true}],
                "globals": [{"name": "flags", "value": {"entries": [], "default": false}}]}),
                    json!([]),
                    "pass"
                )])
            ),
            procedure("Q", json!([])),
        ]));
        let reasons: Vec<(&str, &str)> =
            export.skipped.iter().map(|skipped| (skipped.procedure.as_str(), skipped.reason.as_str())).collect();
        assert_eq!(
            reasons,
            [
                ("M", "its parameter `m` is a map"),
                ("U", "its parameter `e` is of the uninterpreted type `T`"),
                ("F", "its tests give the uninterpreted function `f` a table"),
                ("P", "its global `flags` is a map"),
                ("Q", "the program has no implementation of that name"),
            ]
        );
        assert!(export.files.is_empty());
        assert!(export.skipped.iter().take(4).all(|skipped| skipped.span.is_some()), "the warnings point at the cause");
    }

    #[test]
    fn trace_values_and_goto_labels_without_a_reading_leave_the_implementation_out() {
        let params = json!({"params": [{"name": "x", "value": 0}, {"name": "b", "value": true}]});
        for (trace, reason) in [
            (
                json!([{"havoc": {"var": "m", "value": {"entries": [], "default": 0}}}]),
                "its trace gives `m` a map (test `P/t1`)",
            ),
            (
                json!([{"goto": {"target": "goto:body"}}]),
                "its trace takes `goto:body`, a branch of a `goto` between labels (test `P/t1`)",
            ),
            (
                json!([{"havoc": {"var": "o", "value": {"opaque": "(f 1)"}}}]),
                "its trace gives `o` a value the solver could not show (test `P/t1`)",
            ),
        ] {
            let export = exported(json!([procedure("P", json!([test("P/t1", params.clone(), trace, "pass")]))]));
            assert_eq!(export.skipped.iter().map(|skipped| skipped.reason.as_str()).collect::<Vec<_>>(), [reason]);
        }
    }

    #[test]
    fn bit_vectors_are_unsigned_and_reals_decimal_when_they_can_be() {
        assert_eq!(literal(&json!({"bv": "255", "width": 8})), Ok("255".to_string()));
        assert_eq!(literal(&json!({"real": "-7/2"})), Ok("-3.5".to_string()));
        assert!(literal(&json!({"real": "1/3"})).unwrap_err().contains("no decimal literal"));
        assert!(scalar(&crate::vc::testing::program(""), &hir::Type::BitVector(65)).is_err());
        assert!(scalar(&crate::vc::testing::program(""), &hir::Type::BitVector(64)).is_ok());
    }

    #[test]
    fn names_become_distinct_safe_file_names() {
        let mut names = FileNames::reserving("metadata");
        let made: Vec<String> =
            ["t1", "T1", "../x", ".hidden", "a b", "", "Metadata", "t1"].map(|name| names.fresh(name)).into();
        assert_eq!(made, ["t1", "T1-2", "_._x", "_hidden", "a_b", "_", "Metadata-2", "t1-3"]);
    }

    #[test]
    fn names_and_paths_are_escaped() {
        assert_eq!(escape(r#"a<b>&"c'"#), "a&lt;b&gt;&amp;&quot;c&apos;");
        let export = exported(json!([procedure(
            "P",
            json!([test(
                "P/t1",
                json!({"params": [{"name": "x", "value": 0}, {"name": "b", "value": false}]}),
                json!([{"havoc": {"var": "x'", "value": 1}}]),
                "infeasible"
            )])
        )]));
        assert!(file(&export, "P/t1.xml").contains(r#"<input variable="x&apos;">1</input>"#));
    }

    #[test]
    fn a_directory_is_replaced_only_when_seedgen_wrote_it_or_with_force() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let program = dir.path().join("p.bpl");
        std::fs::write(&program, "").expect("writable");
        let out = dir.path().join("out");
        assert_eq!(refusal(&out, &program, false), None, "a new directory");
        std::fs::create_dir_all(out.join("P")).expect("creatable");
        std::fs::write(out.join("P").join(METADATA), metadata(&suite(json!([])), "P")).expect("writable");
        std::fs::write(out.join("P/t1.xml"), "<testcase/>").expect("writable");
        assert_eq!(refusal(&out, &program, false), None, "an export of seedgen's");
        std::fs::write(out.join("notes.txt"), "mine").expect("writable");
        assert!(refusal(&out, &program, false).is_some_and(|refusal| refusal.contains("--force")));
        assert_eq!(refusal(&out, &program, true), None);
        assert!(refusal(dir.path(), &program, true).is_some_and(|refusal| refusal.contains("holds the program")));
        assert!(refusal(Path::new("."), &program, true).is_some());
        assert!(refusal(&program, &dir.path().join("q.bpl"), false)
            .is_some_and(|refusal| refusal.contains("not a directory")));
        #[cfg(unix)]
        assert!(refusal(Path::new("/dev/null"), &program, true).is_some_and(|refusal| refusal.contains("neither")));
    }
}
