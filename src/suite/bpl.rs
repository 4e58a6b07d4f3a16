//! The Boogie form of a suite (`prove-tests --emit bpl`; `docs/suite-format.md`, "The
//! Boogie form"): the same [`json::Suite`] as a Boogie program fragment a person can read.
//!
//! Each test is a procedure that sets the inputs, calls the procedure under test and
//! asserts the recorded outcome. What has no Boogie statement (the header, goals,
//! values that are no literal, function tables, the trace, an outcome other than
//! `pass`) is carried by attributes, whose arguments are literals or strings holding
//! JSON. Appended to the program it was generated from, the fragment type-checks as
//! Boogie.
//!
//! Invariant (the round-trip law): `from_text(&to_text(suite, program)) == Ok(suite)`
//! for every suite of `program`'s implementations; the writer chooses a statement only
//! where reading it gives back exactly the field it came from, and an attribute
//! otherwise. Writing is deterministic: the text depends on the suite and the program's
//! signatures only.
//!
//! Reading goes through the front end ([`syntax::parse`]) and then walks the AST, so a
//! malformed file gives a [`LoadError`] at a span, never a panic; the reader needs no
//! program (variables' types are for Boogie, not for it).

use super::json;
use super::load::{without_position, LoadError};
use crate::sema::hir;
use crate::source::{FileId, Span};
use crate::syntax::{self, ast, printer};
use num_bigint::{BigInt, BigUint};
use serde_json::Value;
use std::collections::BTreeSet;

/// One level of indentation, as the front end's printer writes it.
const INDENT: &str = "    ";

// ---------------------------------------------------------------------------------------
// Writing

/// Renders `suite`, whose procedures are implementations of `program`, in the Boogie form.
pub fn to_text(suite: &json::Suite, program: &hir::Program) -> String {
    let procedures = program.procedures.iter().map(|procedure| procedure.name.clone());
    let taken = procedures.chain(program.functions.iter().map(|function| function.name.clone())).collect();
    let mut writer = Writer { program, out: String::new(), taken };
    writer.header(suite);
    for procedure in &suite.procedures {
        writer.procedure(procedure);
    }
    writer.out
}

struct Writer<'a> {
    program: &'a hir::Program,
    out: String,
    /// Procedure and function names in use (the program's, and the tests' so far): a
    /// test procedure gets a name of its own.
    taken: BTreeSet<String>,
}

/// What the test procedures of one implementation declare and call.
struct Signature {
    /// In-parameters, then out-parameters: each a name and its type, printed.
    ins: Vec<(String, String)>,
    outs: Vec<(String, String)>,
    /// The globals its procedure may modify, which the test procedure must declare too.
    modifies: Vec<String>,
}

impl Signature {
    fn is_local(&self, name: &str) -> bool {
        self.ins.iter().chain(&self.outs).any(|(local, _)| local == name)
    }
}

impl Writer<'_> {
    fn line(&mut self, indent: usize, text: &str) {
        if !text.is_empty() {
            self.out.push_str(&INDENT.repeat(indent));
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn header(&mut self, suite: &json::Suite) {
        self.line(0, "// A seedgen test suite in its Boogie form (docs/suite-format.md, \"The Boogie form\"):");
        self.line(0, "// each test procedure sets the inputs, calls the procedure under test and asserts the");
        self.line(0, "// recorded outcome. `seedgen run-tests PROGRAM THIS-FILE` replays it; appended to the");
        self.line(0, "// program, it type-checks as Boogie.");
        self.line(0, "");
        self.line(0, &format!("axiom {}", attr("seedgen_suite", &[quote(&suite.format), suite.version.to_string()])));
        self.line(1, &attr("tool", &[quote(&suite.tool)]));
        self.line(1, &attr("source", &[quote(&suite.source.file), quote(&suite.source.digest)]));
        let options = &suite.options;
        // As in JSON, the unrolling depths are left out when they are 0.
        let mut args = vec![quote(&options.goals), options.inline_depth.to_string()];
        if options.unroll != 0 || options.max_unroll != 0 {
            args.extend([options.unroll, options.max_unroll].map(|depth| depth.to_string()));
        }
        self.line(1, &attr("options", &args));
        if let Some(mode) = options.unroll_goals {
            self.line(1, &attr("unroll_goals", &[quote(json::unroll_goals_name(mode))]));
        }
        if let Some(shard) = options.shard {
            self.line(1, &attr("shard", &[shard.index.to_string(), shard.count.to_string()]));
        }
        self.line(1, "true;");
    }

    fn procedure(&mut self, procedure: &json::Procedure) {
        self.line(0, "");
        let counts = format!("{}, {}", plural(procedure.goals.len(), "goal"), plural(procedure.tests.len(), "test"));
        self.line(0, &format!("// {}: {counts}", one_line(&procedure.name)));
        let header = attr("seedgen_procedure", &[quote(&procedure.name), quote(&procedure.digest)]);
        self.line(0, &format!("axiom {header} true;"));
        for goal in &procedure.goals {
            self.goal(goal);
        }
        let signature = signature(self.program, &procedure.name);
        for test in &procedure.tests {
            self.test(&procedure.name, &signature, test);
        }
    }

    fn goal(&mut self, goal: &json::Goal) {
        let span = &goal.span;
        let mut attrs = vec![
            attr("seedgen_goal", &[quote(&goal.id)]),
            attr("span", &[span.line, span.column, span.end_line, span.end_column].map(|n| n.to_string())),
            attr("leaf", &[goal.leaf.to_string()]),
            attr("status", &[quote(&goal.status)]),
        ];
        attrs.extend(goal.test.iter().map(|test| attr("test", &[quote(test)])));
        attrs.extend(goal.reason.iter().map(|reason| attr("reason", &[quote(reason)])));
        self.line(0, &format!("axiom {} true;", attrs.join(" ")));
    }

    fn test(&mut self, under_test: &str, signature: &Signature, test: &json::Test) {
        self.line(0, "");
        self.line(0, &format!("procedure {}", attr("seedgen_test", &[quote(&test.id)])));
        self.line(1, &attr("targets", &test.targets.iter().map(|id| quote(id)).collect::<Vec<_>>()));
        self.line(1, &attr("covers", &test.covers.iter().map(|id| quote(id)).collect::<Vec<_>>()));
        let name = self.fresh_name(&test.id);
        self.line(1, &format!("{}()", identifier(&name)));
        if !signature.modifies.is_empty() {
            let modifies: Vec<String> = signature.modifies.iter().map(|global| identifier(global)).collect();
            self.line(1, &format!("modifies {};", modifies.join(", ")));
        }
        self.line(0, "{");
        for (local, ty) in signature.ins.iter().chain(&signature.outs) {
            self.line(1, &format!("var {}: {ty};", identifier(local)));
        }
        if !signature.ins.is_empty() || !signature.outs.is_empty() {
            self.line(0, "");
        }
        for statement in inputs(signature, &test.inputs) {
            self.line(1, &statement);
        }
        self.call(under_test, signature, test);
        for statement in expectations(signature, &test.expect) {
            self.line(1, &statement);
        }
        self.line(0, "}");
    }

    /// `call {:trace_…} … outs := P(ins);`: the attributes carry the choices of the run
    /// (and the callee's unset locals), which no statement of the caller can make.
    fn call(&mut self, under_test: &str, signature: &Signature, test: &json::Test) {
        let mut attrs: Vec<String> = test
            .inputs
            .uninitialized
            .iter()
            .map(|named| attr("uninitialized", &[quote(&named.name), value_arg(&named.value)]))
            .collect();
        attrs.extend(test.trace.iter().map(trace_attr));
        let expect = &test.expect;
        if expect.outcome != "pass" || expect.message.is_some() {
            let mut args = vec![quote(&expect.outcome)];
            args.extend(expect.message.iter().map(|message| quote(message)));
            attrs.push(attr("expect", &args));
        }
        let names = |locals: &[(String, String)]| -> Vec<String> {
            locals.iter().map(|(local, _)| identifier(local)).collect()
        };
        let outs = names(&signature.outs);
        let assigned = if outs.is_empty() { String::new() } else { format!("{} := ", outs.join(", ")) };
        let call = format!("{assigned}{}({});", identifier(under_test), names(&signature.ins).join(", "));
        match attrs.split_first() {
            None => self.line(1, &format!("call {call}")),
            Some((first, rest)) => {
                self.line(1, &format!("call {first}"));
                for attr in rest {
                    self.line(2, attr);
                }
                self.line(2, &call);
            }
        }
    }

    /// `test_<id>`, with every character an identifier cannot hold made `_`, suffixed
    /// when the name is taken.
    fn fresh_name(&mut self, id: &str) -> String {
        let base: String =
            format!("test_{id}").chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
        let name = (0..)
            .map(|n| if n == 0 { base.clone() } else { format!("{base}_{n}") })
            .find(|name| !self.taken.contains(name))
            .expect("some suffix is free");
        self.taken.insert(name.clone());
        name
    }
}

/// The declared parameters and results of the implementation `name`, with the modifies
/// clause of its procedure; empty when the program has no such implementation.
fn signature(program: &hir::Program, name: &str) -> Signature {
    let Some(implementation) = program.implementations.iter().find(|implementation| implementation.name == name) else {
        return Signature { ins: Vec::new(), outs: Vec::new(), modifies: Vec::new() };
    };
    let typed = |ids: &[hir::LocalId]| -> Vec<(String, String)> {
        ids.iter()
            .map(|id| {
                let local = &implementation.locals[id.index()];
                (local.name.clone(), type_text(program, &local.ty))
            })
            .collect()
    };
    let procedure = &program.procedures[implementation.proc.index()];
    Signature {
        ins: typed(&implementation.ins),
        outs: typed(&implementation.outs),
        modifies: procedure.modifies.iter().map(|id| program.globals[id.index()].name.clone()).collect(),
    }
}

/// The statements that set a test's inputs: parameters by assignment, globals' entry
/// values and constants by `assume`, each in the natural form `x := 1;` /
/// `assume g == 1;` when the value is a literal, tagged with its JSON otherwise.
fn inputs(signature: &Signature, inputs: &json::Inputs) -> Vec<String> {
    let mut statements: Vec<String> = inputs
        .params
        .iter()
        .map(|named| match natural(signature, Kind::Param, named) {
            Some(value) => format!("{} := {value};", identifier(&named.name)),
            None => tagged("assume", Kind::Param, named),
        })
        .collect();
    statements.extend(inputs.globals.iter().map(|named| fact("assume", signature, Kind::Global, named)));
    statements.extend(inputs.consts.iter().map(|named| fact("assume", signature, Kind::Constant, named)));
    statements.extend(inputs.functions.iter().map(|table| {
        let entries = serde_json::to_string(&table.entries).expect("function tables serialize to JSON");
        let args = [quote(&table.name), quote(&entries), value_arg(&table.default)];
        format!("assume {} true;", attr(FUNCTION_TABLE, &args))
    }));
    statements
}

/// The asserts of a test's recorded outputs and modified globals.
fn expectations(signature: &Signature, expect: &json::Expect) -> Vec<String> {
    let outputs = expect.outputs.iter().map(|named| fact("assert", signature, Kind::Output, named));
    outputs.chain(expect.globals.iter().map(|named| fact("assert", signature, Kind::Global, named))).collect()
}

/// `assume g == 1;` or `assert r == 2;` when that reads back as `named` of `kind`, the
/// tagged form otherwise.
fn fact(keyword: &str, signature: &Signature, kind: Kind, named: &json::Named) -> String {
    match natural(signature, kind, named) {
        Some(value) => {
            let tag = if kind == default_kind(keyword, kind.is_local()) {
                String::new()
            } else {
                attr(kind.tag(), &[]) + " "
            };
            format!("{keyword} {tag}{} == {value};", identifier(&named.name))
        }
        None => tagged(keyword, kind, named),
    }
}

/// `assume {:global "g", "<JSON>"} true;`: any name, any value.
fn tagged(keyword: &str, kind: Kind, named: &json::Named) -> String {
    format!("{keyword} {} true;", attr(kind.tag(), &[quote(&named.name), value_arg(&named.value)]))
}

/// The literal of `named`'s value when the natural form reads back as it: the value is
/// a literal, and the name is a test local exactly when `kind` is one (a local of the
/// same name as a global hides it).
fn natural(signature: &Signature, kind: Kind, named: &json::Named) -> Option<String> {
    let fits = signature.is_local(&named.name) == kind.is_local() && is_plain_name(&named.name);
    literal(&named.value).filter(|_| fits)
}

fn trace_attr(entry: &json::TraceEntry) -> String {
    match entry {
        json::TraceEntry::Havoc { var, value } => attr("trace_havoc", &[quote(var), value_arg(value)]),
        json::TraceEntry::CallOut { callee, var, value } => {
            attr("trace_call_out", &[quote(callee), quote(var), value_arg(value)])
        }
        json::TraceEntry::CallModifies { callee, global, value } => {
            attr("trace_call_modifies", &[quote(callee), quote(global), value_arg(value)])
        }
        json::TraceEntry::Goto { target } => attr("trace_goto", &[quote(target)]),
    }
}

/// `{:name arg, …}`.
fn attr(name: &str, args: &[String]) -> String {
    if args.is_empty() {
        format!("{{:{name}}}")
    } else {
        format!("{{:{name} {}}}", args.join(", "))
    }
}

/// A value as an attribute argument: its literal, or a string holding its JSON.
fn value_arg(value: &Value) -> String {
    literal(value).unwrap_or_else(|| quote(&serde_json::to_string(value).expect("values serialize to JSON")))
}

/// The Boogie literal that reads back as exactly `value`, if there is one: booleans and
/// integers (beyond 64 bits the suite keeps an integer as a string of digits, and
/// reading a literal that large gives that string back).
fn literal(value: &Value) -> Option<String> {
    match value {
        Value::Bool(value) => Some(value.to_string()),
        Value::Number(number) => number.as_i64().map(|value| value.to_string()),
        Value::String(digits) => {
            let parsed: BigInt = digits.parse().ok()?;
            (i64::try_from(&parsed).is_err() && parsed.to_string() == *digits).then(|| digits.clone())
        }
        Value::Null | Value::Array(_) | Value::Object(_) => None,
    }
}

/// A Boogie string literal holding `text`, in JSON's escapes. Boogie's one escape is
/// `\"` (any other backslash is itself), so a string must not end in a backslash: JSON's
/// `\\` is written `\u005c`, and every backslash left starts an escape that ends in
/// another character.
pub(super) fn quote(text: &str) -> String {
    serde_json::to_string(text).expect("strings serialize to JSON").replace("\\\\", "\\u005c")
}

/// The text of a string literal written by [`quote`], from its escapes as written.
fn unquote(raw: &str) -> Result<String, String> {
    serde_json::from_str(&format!("\"{raw}\"")).map_err(|error| without_position(&error))
}

/// A name as Boogie reads it back (a backslash before a keyword).
fn identifier(name: &str) -> String {
    printer::print_expr(&var(name))
}

/// Whether `name` prints as an identifier that reads back as itself (names of the
/// program always do; a hand-made suite's need not).
fn is_plain_name(name: &str) -> bool {
    let parsed = syntax::parse_expr(FileId(0), &identifier(name));
    matches!(&parsed, Ok(ast::Expr { kind: ast::ExprKind::Var(ident), .. }) if ident.name == name)
}

fn var(name: &str) -> ast::Expr {
    ast::Expr {
        kind: ast::ExprKind::Var(ast::Ident { name: name.to_string(), span: Span::default() }),
        span: Span::default(),
    }
}

fn type_text(program: &hir::Program, ty: &hir::Type) -> String {
    printer::print_type(&type_ast(program, ty))
}

fn type_ast(program: &hir::Program, ty: &hir::Type) -> ast::Type {
    let kind = match ty {
        hir::Type::Int => ast::TypeKind::Int,
        hir::Type::Bool => ast::TypeKind::Bool,
        hir::Type::Named(id) => ast::TypeKind::Named {
            name: ast::Ident { name: program.types[id.index()].name.clone(), span: Span::default() },
            args: Vec::new(),
        },
        hir::Type::Map(map) => ast::TypeKind::Map {
            type_params: Vec::new(),
            domain: map.domain.iter().map(|key| type_ast(program, key)).collect(),
            range: Box::new(type_ast(program, &map.range)),
        },
    };
    ast::Type { kind, span: Span::default() }
}

fn plural(count: usize, noun: &str) -> String {
    match count {
        1 => format!("1 {noun}"),
        _ => format!("{count} {noun}s"),
    }
}

/// Text for a `//` comment: one line.
fn one_line(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

// ---------------------------------------------------------------------------------------
// The facts of a test body

/// What an `assume`, `assert` or assignment of a test body states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// An in-parameter's value (`inputs.params`).
    Param,
    /// A global's value: at entry under `assume`, at exit under `assert`.
    Global,
    /// A constant's value (`inputs.consts`).
    Constant,
    /// An out-parameter's final value (`expect.outputs`).
    Output,
}

const FUNCTION_TABLE: &str = "function_table";

impl Kind {
    fn tag(self) -> &'static str {
        match self {
            Kind::Param => "param",
            Kind::Global => "global",
            Kind::Constant => "constant",
            Kind::Output => "output",
        }
    }

    /// Whether it names a local of the test procedure rather than a global or constant.
    fn is_local(self) -> bool {
        matches!(self, Kind::Param | Kind::Output)
    }
}

/// The kinds a statement may state: inputs before the call, the outcome after it.
fn allowed_kinds(keyword: &str) -> &'static [Kind] {
    if keyword == "assume" {
        &[Kind::Param, Kind::Global, Kind::Constant]
    } else {
        &[Kind::Output, Kind::Global]
    }
}

/// What an untagged `assume x == v` / `assert x == v` states: a global's entry value;
/// an output, or a global's final value when `x` is no local.
fn default_kind(keyword: &str, local: bool) -> Kind {
    match (keyword, local) {
        ("assert", true) => Kind::Output,
        _ => Kind::Global,
    }
}

// ---------------------------------------------------------------------------------------
// Reading

type Read<T> = Result<T, LoadError>;

/// Reads the Boogie form back into the suite it was written from.
pub fn from_text(text: &str) -> Read<json::Suite> {
    let (program, errors) = syntax::parse(FileId(0), text);
    if let Some(error) = errors.first() {
        // The front end's diagnostic in one message: what it found, and what it expected.
        let diagnostic = error.to_diagnostic();
        let span = diagnostic.primary_span().unwrap_or_else(|| error.span());
        let label = diagnostic.labels.iter().find(|label| label.primary).map_or("", |label| label.message.as_str());
        let message = match label {
            "" => format!("not a suite file: {}", diagnostic.message),
            label => format!("not a suite file: {} ({label})", diagnostic.message),
        };
        return Err(LoadError { message, location: String::new(), span: Some(span.range()) });
    }
    let mut suite: Option<json::Suite> = None;
    for decl in &program.decls {
        read_decl(&mut suite, decl)?;
    }
    suite.ok_or_else(|| LoadError {
        message: "not a suite file: it has no header `axiom {:seedgen_suite …} … true;`".to_string(),
        location: String::new(),
        span: Some(0..0),
    })
}

fn error(span: Span, message: impl Into<String>) -> LoadError {
    LoadError { message: message.into(), location: String::new(), span: Some(span.range()) }
}

fn read_decl(suite: &mut Option<json::Suite>, decl: &ast::Decl) -> Read<()> {
    let first_attr = |attrs: &[ast::Attribute]| attrs.first().map(|attr| attr.name.name.clone()).unwrap_or_default();
    match decl {
        ast::Decl::Axiom(axiom) if first_attr(&axiom.attrs) == "seedgen_suite" => match suite {
            Some(_) => Err(error(axiom.span, "a second suite header: a file holds one suite")),
            None => {
                *suite = Some(read_header(axiom)?);
                Ok(())
            }
        },
        ast::Decl::Axiom(axiom) if first_attr(&axiom.attrs) == "seedgen_procedure" => {
            header(suite, axiom.span)?.procedures.push(read_procedure(axiom)?);
            Ok(())
        }
        ast::Decl::Axiom(axiom) if first_attr(&axiom.attrs) == "seedgen_goal" => {
            current(suite, axiom.span)?.goals.push(read_goal(axiom)?);
            Ok(())
        }
        ast::Decl::Procedure(test) if first_attr(&test.attrs) == "seedgen_test" => {
            let procedure = current(suite, test.span)?;
            let test = read_test(test, &procedure.name)?;
            procedure.tests.push(test);
            Ok(())
        }
        _ => Err(error(
            decl.span(),
            "not part of a suite: expected `axiom {:seedgen_suite …}`, `axiom {:seedgen_procedure …}`, \
             `axiom {:seedgen_goal …}` or `procedure {:seedgen_test …}`",
        )),
    }
}

/// The suite read so far; everything after its header.
fn header(suite: &mut Option<json::Suite>, span: Span) -> Read<&mut json::Suite> {
    suite.as_mut().ok_or_else(|| error(span, "the suite header `axiom {:seedgen_suite …}` comes first"))
}

/// The procedure whose goals and tests are being read: the last one declared.
fn current(suite: &mut Option<json::Suite>, span: Span) -> Read<&mut json::Procedure> {
    header(suite, span)?
        .procedures
        .last_mut()
        .ok_or_else(|| error(span, "goals and tests follow their procedure's `axiom {:seedgen_procedure …}`"))
}

fn read_header(axiom: &ast::AxiomDecl) -> Read<json::Suite> {
    let attrs = Attrs::new(&axiom.attrs, &["seedgen_suite", "tool", "source", "options", "unroll_goals", "shard"])?;
    let [format, version] = args(attrs.required("seedgen_suite", axiom.span)?)?;
    let [tool] = args(attrs.required("tool", axiom.span)?)?;
    let [file, digest] = args(attrs.required("source", axiom.span)?)?;
    let options = attrs.required("options", axiom.span)?;
    let (goals, inline_depth, unroll, max_unroll) = match options.args.as_slice() {
        [goals, inline_depth] => (goals, inline_depth, 0, 0),
        [goals, inline_depth, unroll, max_unroll] => (goals, inline_depth, number(unroll)?, number(max_unroll)?),
        _ => {
            let message = "`{:options}` takes the goals, the inline depth and, unless 0, the unrolling depths";
            return Err(error(options.span, message));
        }
    };
    let shard = match attrs.get("shard") {
        Some(shard) => {
            let [index, count] = args(shard)?;
            Some(json::Shard { index: number(index)?, count: number(count)? })
        }
        None => None,
    };
    let unroll_goals = match attrs.get("unroll_goals") {
        Some(mode) => {
            let [name] = args(mode)?;
            let parsed = json::unroll_goals_named(&string(name)?);
            Some(parsed.ok_or_else(|| error(mode.span, "`{:unroll_goals}` is \"per-loop\" or \"combinations\""))?)
        }
        None => None,
    };
    Ok(json::Suite {
        format: string(format)?,
        version: number(version)?,
        tool: string(tool)?,
        source: json::Source { file: string(file)?, digest: string(digest)? },
        options: json::Options {
            goals: string(goals)?,
            inline_depth: number(inline_depth)?,
            unroll,
            max_unroll,
            unroll_goals,
            shard,
        },
        procedures: Vec::new(),
    })
}

fn read_procedure(axiom: &ast::AxiomDecl) -> Read<json::Procedure> {
    let attrs = Attrs::new(&axiom.attrs, &["seedgen_procedure"])?;
    let [name, digest] = args(attrs.required("seedgen_procedure", axiom.span)?)?;
    Ok(json::Procedure { name: string(name)?, digest: string(digest)?, goals: Vec::new(), tests: Vec::new() })
}

fn read_goal(axiom: &ast::AxiomDecl) -> Read<json::Goal> {
    let attrs = Attrs::new(&axiom.attrs, &["seedgen_goal", "span", "leaf", "status", "test", "reason"])?;
    let [id] = args(attrs.required("seedgen_goal", axiom.span)?)?;
    let [line, column, end_line, end_column] = args(attrs.required("span", axiom.span)?)?;
    let [leaf] = args(attrs.required("leaf", axiom.span)?)?;
    let [status] = args(attrs.required("status", axiom.span)?)?;
    let optional = |name: &str| -> Read<Option<String>> {
        attrs.get(name).map(|attr| args(attr).and_then(|[text]| string(text))).transpose()
    };
    Ok(json::Goal {
        id: string(id)?,
        span: json::Position {
            line: number(line)?,
            column: number(column)?,
            end_line: number(end_line)?,
            end_column: number(end_column)?,
        },
        leaf: boolean(leaf)?,
        status: string(status)?,
        test: optional("test")?,
        reason: optional("reason")?,
    })
}

fn read_test(procedure: &ast::ProcedureDecl, under_test: &str) -> Read<json::Test> {
    let attrs = Attrs::new(&procedure.attrs, &["seedgen_test", "targets", "covers"])?;
    let [id] = args(attrs.required("seedgen_test", procedure.span)?)?;
    let goal_ids = |name: &str| -> Read<Vec<String>> {
        attrs.get(name).map_or(Ok(Vec::new()), |attr| attr.args.iter().map(string).collect())
    };
    let mut test = json::Test {
        id: string(id)?,
        targets: goal_ids("targets")?,
        covers: goal_ids("covers")?,
        inputs: json::Inputs::default(),
        trace: Vec::new(),
        expect: json::Expect { outcome: "pass".to_string(), message: None, outputs: Vec::new(), globals: Vec::new() },
    };
    let body = procedure.body.as_ref().ok_or_else(|| {
        error(procedure.span, "a test procedure has a body: its inputs, the call and the expected outcome")
    })?;
    let locals: BTreeSet<&str> = body
        .locals
        .iter()
        .flat_map(|decl| &decl.groups)
        .flat_map(|group| &group.names)
        .map(|name| name.name.as_str())
        .collect();
    let body_reader = Body { locals, under_test };
    let mut called = false;
    for stmt in &body.stmts {
        body_reader.stmt(stmt, called, &mut test)?;
        called |= matches!(stmt.kind, ast::StmtKind::Call(_));
    }
    if !called {
        let message = format!("a test calls its procedure: `call … := {under_test}(…);` is missing");
        return Err(error(body.span, message));
    }
    Ok(test)
}

/// Reads the statements of one test procedure's body.
struct Body<'a> {
    /// The test procedure's locals: what an untagged name refers to first.
    locals: BTreeSet<&'a str>,
    /// The implementation the test belongs to, the one its call must name.
    under_test: &'a str,
}

impl Body<'_> {
    fn stmt(&self, stmt: &ast::Stmt, called: bool, test: &mut json::Test) -> Read<()> {
        match (&stmt.kind, called) {
            (ast::StmtKind::Assign { lhs, rhs }, false) => {
                test.inputs.params.push(self.assignment(stmt.span, lhs, rhs)?)
            }
            (ast::StmtKind::Assume { attrs, expr }, false) => self.assumption(attrs, expr, &mut test.inputs)?,
            (ast::StmtKind::Call(call), false) => self.call(call, test)?,
            (ast::StmtKind::Assert { attrs, expr }, true) => match self.fact("assert", attrs, expr)? {
                (Kind::Output, named) => test.expect.outputs.push(named),
                (_, named) => test.expect.globals.push(named),
            },
            (ast::StmtKind::Call(_), true) => return Err(error(stmt.span, "a test calls its procedure once")),
            (ast::StmtKind::Assert { .. }, false) => {
                return Err(error(stmt.span, "the expected outcome is asserted after the call"))
            }
            (ast::StmtKind::Assign { .. } | ast::StmtKind::Assume { .. }, true) => {
                return Err(error(stmt.span, "inputs are set before the call"))
            }
            _ => {
                return Err(error(
                    stmt.span,
                    "a test body holds assignments and `assume`s (the inputs), one `call`, and `assert`s (the outcome)",
                ))
            }
        }
        Ok(())
    }

    /// `x := v;`: an in-parameter's value.
    fn assignment(&self, span: Span, lhs: &[ast::Lhs], rhs: &[ast::Expr]) -> Read<json::Named> {
        let ([target], [value]) = (lhs, rhs) else {
            return Err(error(span, "a parameter is set by one assignment `x := value;`"));
        };
        if !target.indices.is_empty() || !self.locals.contains(target.name.name.as_str()) {
            return Err(error(target.span, "only the test's own locals (the parameters) are assigned"));
        }
        Ok(json::Named { name: target.name.name.clone(), value: literal_value(value)? })
    }

    /// An input other than a parameter's assignment: a tagged or natural fact, or a
    /// function table.
    fn assumption(&self, attrs: &[ast::Attribute], expr: &ast::Expr, inputs: &mut json::Inputs) -> Read<()> {
        if let Some(table) = attrs.first().filter(|attr| attr.name.name == FUNCTION_TABLE) {
            only(attrs)?;
            stating_true(expr)?;
            let [name, entries, default] = args(table)?;
            let entries = serde_json::from_str(&string(entries)?)
                .map_err(|json_error| error(span_of(entries), format!("invalid function entries: {json_error}")))?;
            inputs.functions.push(json::FunctionTable { name: string(name)?, entries, default: value(default)? });
            return Ok(());
        }
        let (kind, named) = self.fact("assume", attrs, expr)?;
        match kind {
            Kind::Param => inputs.params.push(named),
            Kind::Global => inputs.globals.push(named),
            Kind::Constant => inputs.consts.push(named),
            Kind::Output => unreachable!("`allowed_kinds(\"assume\")` has no outputs"),
        }
        Ok(())
    }

    /// `assume|assert {:kind "x", v} true;` or `assume|assert [{:kind}] x == v;`.
    fn fact(&self, keyword: &str, attrs: &[ast::Attribute], expr: &ast::Expr) -> Read<(Kind, json::Named)> {
        let allowed = allowed_kinds(keyword);
        let tag = match attrs.first() {
            None => None,
            Some(attr) => {
                only(attrs)?;
                let kind = allowed.iter().copied().find(|kind| kind.tag() == attr.name.name).ok_or_else(|| {
                    let tags: Vec<String> = allowed.iter().map(|kind| format!("`{{:{}}}`", kind.tag())).collect();
                    error(attr.span, format!("unknown tag here: `{keyword}` takes {}", tags.join(", ")))
                })?;
                Some((kind, attr))
            }
        };
        if let Some((kind, attr)) = tag.filter(|(_, attr)| !attr.args.is_empty()) {
            stating_true(expr)?;
            let [name, given] = args(attr)?;
            return Ok((kind, json::Named { name: string(name)?, value: value(given)? }));
        }
        let (name, given) = equation(expr)?;
        let local = self.locals.contains(name.name.as_str());
        let kind = tag.map_or_else(|| default_kind(keyword, local), |(kind, _)| kind);
        if kind.is_local() != local {
            let why = if local {
                format!(
                    "`{0}` is a local of this test, hiding any global `{0}`; write `{{:{1} \"{0}\", value}} true`",
                    name.name,
                    kind.tag()
                )
            } else {
                format!("`{}` is not a local of this test: declare it with `var`", name.name)
            };
            return Err(error(name.span, why));
        }
        Ok((kind, json::Named { name: name.name.clone(), value: literal_value(given)? }))
    }

    /// The call of the procedure under test; its attributes carry the choices of the
    /// run and the outcome when it is not `pass`.
    fn call(&self, call: &ast::Call, test: &mut json::Test) -> Read<()> {
        if call.callee.name != self.under_test || call.free || call.is_async {
            return Err(error(
                call.callee.span,
                format!("a test of `{0}` makes a plain call of `{0}`", self.under_test),
            ));
        }
        let mut expect: Option<&ast::Attribute> = None;
        for attr in &call.attrs {
            match attr.name.name.as_str() {
                "uninitialized" => {
                    let [name, given] = args(attr)?;
                    test.inputs.uninitialized.push(json::Named { name: string(name)?, value: value(given)? });
                }
                "expect" if expect.is_none() => {
                    let (outcome, message) = match attr.args.as_slice() {
                        [outcome] => (string(outcome)?, None),
                        [outcome, message] => (string(outcome)?, Some(string(message)?)),
                        _ => return Err(error(attr.span, "`{:expect}` takes an outcome and, optionally, a message")),
                    };
                    test.expect.outcome = outcome;
                    test.expect.message = message;
                    expect = Some(attr);
                }
                "expect" => return Err(error(attr.span, "a second `{:expect}`: a test has one outcome")),
                _ => test.trace.push(trace_entry(attr)?),
            }
        }
        Ok(())
    }
}

fn trace_entry(attr: &ast::Attribute) -> Read<json::TraceEntry> {
    Ok(match attr.name.name.as_str() {
        "trace_havoc" => {
            let [var, given] = args(attr)?;
            json::TraceEntry::Havoc { var: string(var)?, value: value(given)? }
        }
        "trace_call_out" => {
            let [callee, var, given] = args(attr)?;
            json::TraceEntry::CallOut { callee: string(callee)?, var: string(var)?, value: value(given)? }
        }
        "trace_call_modifies" => {
            let [callee, global, given] = args(attr)?;
            json::TraceEntry::CallModifies { callee: string(callee)?, global: string(global)?, value: value(given)? }
        }
        "trace_goto" => {
            let [target] = args(attr)?;
            json::TraceEntry::Goto { target: string(target)? }
        }
        other => {
            return Err(error(
                attr.span,
                format!(
                    "unknown attribute `{{:{other}}}` on the call: expected `{{:uninitialized}}`, `{{:expect}}` \
                     or a trace entry (`{{:trace_havoc}}`, `{{:trace_call_out}}`, `{{:trace_call_modifies}}`, \
                     `{{:trace_goto}}`)"
                ),
            ))
        }
    })
}

/// At most one attribute: a fact has one tag.
fn only(attrs: &[ast::Attribute]) -> Read<()> {
    match attrs.get(1) {
        Some(extra) => Err(error(extra.span, "one tag per statement")),
        None => Ok(()),
    }
}

/// A tagged fact states `true`: its attribute says everything.
fn stating_true(expr: &ast::Expr) -> Read<()> {
    match expr.kind {
        ast::ExprKind::Bool(true) => Ok(()),
        _ => Err(error(expr.span, "a tagged statement states `true`: its tag carries the name and the value")),
    }
}

/// `x == v`.
fn equation(expr: &ast::Expr) -> Read<(&ast::Ident, &ast::Expr)> {
    match &expr.kind {
        ast::ExprKind::Binary { op: ast::BinaryOp::Eq, lhs, rhs } => match &lhs.kind {
            ast::ExprKind::Var(name) => Ok((name, rhs)),
            _ => Err(error(lhs.span, "expected a variable's name")),
        },
        _ => Err(error(expr.span, "expected `name == value`, or a tag `{:global \"name\", value}` and `true`")),
    }
}

/// The value a literal stands for, as the suite's JSON writes it.
fn literal_value(expr: &ast::Expr) -> Read<Value> {
    let integer = |magnitude: &BigUint, negative: bool| {
        let value = BigInt::from(magnitude.clone());
        let value = if negative { -value } else { value };
        i64::try_from(&value).map_or_else(|_| Value::String(value.to_string()), Value::from)
    };
    match &expr.kind {
        ast::ExprKind::Bool(value) => Ok(Value::Bool(*value)),
        ast::ExprKind::Int(magnitude) => Ok(integer(magnitude, false)),
        ast::ExprKind::Unary { op: ast::UnaryOp::Neg, operand } => match &operand.kind {
            ast::ExprKind::Int(magnitude) => Ok(integer(magnitude, true)),
            _ => Err(not_a_literal(expr.span)),
        },
        _ => Err(not_a_literal(expr.span)),
    }
}

fn not_a_literal(span: Span) -> LoadError {
    error(span, "expected a boolean or integer literal; other values are written as a string holding their JSON")
}

/// The attributes of a declaration: only `known` names, each at most once.
struct Attrs<'a> {
    attrs: &'a [ast::Attribute],
}

impl<'a> Attrs<'a> {
    fn new(attrs: &'a [ast::Attribute], known: &[&str]) -> Read<Attrs<'a>> {
        for (index, attr) in attrs.iter().enumerate() {
            let name = attr.name.name.as_str();
            if !known.contains(&name) {
                let known: Vec<String> = known.iter().map(|name| format!("`{{:{name}}}`")).collect();
                return Err(error(
                    attr.span,
                    format!("unknown attribute `{{:{name}}}` here: expected {}", known.join(", ")),
                ));
            }
            if attrs[..index].iter().any(|earlier| earlier.name.name == name) {
                return Err(error(attr.span, format!("a second `{{:{name}}}`")));
            }
        }
        Ok(Attrs { attrs })
    }

    fn get(&self, name: &str) -> Option<&'a ast::Attribute> {
        self.attrs.iter().find(|attr| attr.name.name == name)
    }

    fn required(&self, name: &str, owner: Span) -> Read<&'a ast::Attribute> {
        self.get(name).ok_or_else(|| error(owner, format!("`{{:{name} …}}` is missing here")))
    }
}

/// Exactly `N` arguments.
fn args<const N: usize>(attr: &ast::Attribute) -> Read<&[ast::AttrArg; N]> {
    <&[ast::AttrArg; N]>::try_from(attr.args.as_slice()).map_err(|_| {
        let plural = if N == 1 { "" } else { "s" };
        error(attr.span, format!("`{{:{}}}` takes {N} argument{plural}, found {}", attr.name.name, attr.args.len()))
    })
}

fn span_of(arg: &ast::AttrArg) -> Span {
    match arg {
        ast::AttrArg::Expr(expr) => expr.span,
        ast::AttrArg::Str { span, .. } => *span,
    }
}

fn string(arg: &ast::AttrArg) -> Read<String> {
    match arg {
        ast::AttrArg::Str { value, span } => {
            unquote(value).map_err(|message| error(*span, format!("invalid string: {message}")))
        }
        ast::AttrArg::Expr(expr) => Err(error(expr.span, "expected a string")),
    }
}

/// A non-negative integer that fits `T`.
fn number<T: for<'n> TryFrom<&'n BigUint>>(arg: &ast::AttrArg) -> Read<T> {
    match arg {
        ast::AttrArg::Expr(ast::Expr { kind: ast::ExprKind::Int(value), span }) => {
            T::try_from(value).map_err(|_| error(*span, "number out of range"))
        }
        _ => Err(error(span_of(arg), "expected a non-negative integer")),
    }
}

fn boolean(arg: &ast::AttrArg) -> Read<bool> {
    match arg {
        ast::AttrArg::Expr(ast::Expr { kind: ast::ExprKind::Bool(value), .. }) => Ok(*value),
        _ => Err(error(span_of(arg), "expected `true` or `false`")),
    }
}

/// A value argument: a literal, or a string holding the value's JSON.
fn value(arg: &ast::AttrArg) -> Read<Value> {
    match arg {
        ast::AttrArg::Expr(expr) => literal_value(expr),
        ast::AttrArg::Str { span, .. } => serde_json::from_str(&string(arg)?)
            .map_err(|json_error| error(*span, format!("invalid JSON value: {}", without_position(&json_error)))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A program with every kind of name a test refers to: a parameter named like a
    /// global, a map result, an uninterpreted type, constants and a function.
    const PROGRAM: &str = r#"
        type T;
        const N: int;
        const K: T;
        var g: int;
        var h: [int]bool;
        function f(int): int;
        procedure P(g: int, t: T) returns (r: int, m: [int]bool)
          modifies h;
        {
          r := g;
          h[g] := true;
        }
        procedure test_P_t1() returns ();
    "#;

    fn suite(value: serde_json::Value) -> json::Suite {
        serde_json::from_value(value).expect("a well-formed suite")
    }

    fn header(procedures: serde_json::Value) -> json::Suite {
        suite(json!({
            "format": "seedgen-suite", "version": 3, "tool": "seedgen 0.1.0",
            "source": {"file": "p.bpl", "digest": "sha256:00"},
            "options": {"goals": "leaves", "inline_depth": 1},
            "procedures": procedures,
        }))
    }

    /// Writes `suite`, checks that the text parses cleanly and reads back as `suite`,
    /// and returns it.
    fn round_trip(suite: &json::Suite) -> String {
        let program = crate::vc::testing::program(PROGRAM);
        let text = to_text(suite, &program);
        let (_, errors) = syntax::parse(FileId(0), &text);
        assert!(errors.is_empty(), "{errors:?}\n{text}");
        assert_eq!(from_text(&text).as_ref(), Ok(suite), "{text}");
        assert_eq!(to_text(suite, &program), text, "writing is deterministic");
        text
    }

    fn test_of(value: serde_json::Value) -> serde_json::Value {
        let mut test = json!({
            "id": "P/t1", "targets": ["P/entry"], "covers": ["P/entry"],
            "inputs": {"params": [{"name": "g", "value": 1}, {"name": "t", "value": {"type": "T", "elem": 0}}]},
            "trace": [], "expect": {"outcome": "pass"},
        });
        for (key, field) in value.as_object().expect("fields") {
            test[key] = field.clone();
        }
        test
    }

    fn procedure_with(tests: Vec<serde_json::Value>) -> json::Suite {
        header(json!([{
            "name": "P", "digest": "sha256:01",
            "goals": [
                {"id": "P/entry", "span": {"line": 9, "column": 9, "end_line": 13, "end_column": 10},
                 "leaf": true, "status": "covered", "test": "P/t1"},
                {"id": "P/x", "span": {"line": 1, "column": 1, "end_line": 1, "end_column": 2},
                 "leaf": false, "status": "not_covered", "reason": "replay missed: `f` \"quoted\"\nnext line"},
                {"id": "P/y", "span": {"line": 1, "column": 1, "end_line": 1, "end_column": 2},
                 "leaf": false, "status": "odd", "test": "P/t1", "reason": "both"},
            ],
            "tests": tests,
        }]))
    }

    #[test]
    fn a_plain_test_reads_as_boogie() {
        let text = round_trip(&procedure_with(vec![test_of(json!({
            "expect": {"outcome": "pass", "outputs": [{"name": "r", "value": 1}],
                       "globals": [{"name": "h", "value": {"entries": [[1, true]], "default": false}}]},
        }))]));
        let body = &text[text.find("procedure {:seedgen_test").expect("a test")..];
        let expected = r#"procedure {:seedgen_test "P/t1"}
    {:targets "P/entry"}
    {:covers "P/entry"}
    test_P_t1_1()
    modifies h;
{
    var g: int;
    var t: T;
    var r: int;
    var m: [int]bool;

    g := 1;
    assume {:param "t", "{\"elem\":0,\"type\":\"T\"}"} true;
    call r, m := P(g, t);
    assert r == 1;
    assert {:global "h", "{\"default\":false,\"entries\":[[1,true]]}"} true;
}
"#;
        assert_eq!(body, expected);
    }

    #[test]
    fn every_field_survives_the_round_trip() {
        let big = "123456789012345678901234567890";
        round_trip(&procedure_with(vec![
            test_of(json!({
                "targets": [], "covers": [],
                "inputs": {
                    "params": [{"name": "g", "value": big}, {"name": "t", "value": {"opaque": "a\\\"b\\\n\u{e9}\\"}}],
                    "globals": [{"name": "g", "value": 2}, {"name": "h", "value": {"entries": [], "default": true}}],
                    "consts": [
                        {"name": "N", "value": -9223372036854775808_i64},
                        {"name": "K", "value": {"type": "T", "elem": 3}},
                    ],
                    "uninitialized": [{"name": "r", "value": 0}],
                    "functions": [{"name": "f", "entries": [[[1], 2], [[-3], 4]], "default": 0}],
                },
                "trace": [
                    {"havoc": {"var": "x", "value": -1}},
                    {"call_out": {"callee": "Q", "var": "v", "value": true}},
                    {"call_modifies": {"callee": "Q", "global": "g", "value": "-99999999999999999999"}},
                    {"goto": {"target": "if#1/then"}},
                ],
                "expect": {"outcome": "fail", "message": "assertion `r > 0` violated",
                           "outputs": [{"name": "r", "value": 18446744073709551615_u64}, {"name": "z", "value": 1}],
                           "globals": [{"name": "g", "value": "5"}, {"name": "N", "value": 1.5}]},
            })),
            test_of(json!({"id": "P/t1", "expect": {"outcome": "infeasible", "message": "assumption `x` failed"}})),
            test_of(json!({"id": "weird id/\"t\"", "expect": {"outcome": "pass", "message": "odd"}})),
            test_of(json!({"inputs": {"params": [{"name": "not a name", "value": 1}, {"name": "r", "value": 2}]}})),
        ]));
    }

    #[test]
    fn unrolling_depths_are_written_unless_both_are_0() {
        for (unroll, max_unroll) in [(0, 0), (2, 0), (0, 3), (2, 4)] {
            let mut suite = header(json!([]));
            (suite.options.unroll, suite.options.max_unroll) = (unroll, max_unroll);
            let text = round_trip(&suite);
            assert_eq!(text.contains("{:options \"leaves\", 1}"), unroll == 0 && max_unroll == 0, "{text}");
        }
    }

    #[test]
    fn a_procedure_the_program_lacks_is_written_without_a_signature() {
        let mut suite = procedure_with(vec![test_of(json!({}))]);
        suite.procedures[0].name = "Gone".to_string();
        suite.procedures[0].tests[0].id = "Gone/t1".to_string();
        let text = round_trip(&suite);
        assert!(text.contains("assume {:param \"g\", 1} true;\n"), "{text}");
        assert!(text.contains("call Gone();"), "{text}");
    }

    #[test]
    fn every_prefix_of_a_suite_is_read_or_rejected_at_a_span() {
        let text = round_trip(&procedure_with(vec![test_of(json!({"trace": [{"goto": {"target": "a"}}]}))]));
        for end in (0..text.len()).filter(|&end| text.is_char_boundary(end)) {
            if let Err(error) = from_text(&text[..end]) {
                let span = error.span.expect("a span");
                assert!(span.end <= end, "the span lies in the text");
            }
        }
    }

    #[test]
    fn strings_survive_boogie_quoting() {
        for text in ["", "plain", "ends in \\", "\\\"", "\"", "a\\\\\"b", "line\nbreak\ttab", "\u{0}\u{1f}\u{7f}é✓"]
        {
            let source = format!("axiom {{:a {}, 1}} true;", quote(text));
            let (program, errors) = syntax::parse(FileId(0), &source);
            assert!(errors.is_empty(), "{source}: {errors:?}");
            let [ast::Decl::Axiom(axiom)] = program.decls.as_slice() else { panic!("one axiom: {source}") };
            let [quoted, _] = axiom.attrs[0].args.as_slice() else { panic!("the string is one argument: {source}") };
            assert_eq!(string(quoted).as_deref(), Ok(text), "{source}");
        }
    }

    #[test]
    fn literals_are_used_only_where_they_read_back_exactly() {
        let cases = [
            (json!(true), Some("true")),
            (json!(-5), Some("-5")),
            (json!("123456789012345678901234567890"), Some("123456789012345678901234567890")),
            (json!("5"), None),
            (json!("007"), None),
            (json!(18446744073709551615_u64), None),
            (json!(1.5), None),
            (json!(null), None),
        ];
        for (value, expected) in cases {
            assert_eq!(literal(&value).as_deref(), expected, "{value}");
        }
    }

    /// A suite header and the procedure `P`, before the declarations of `rejects`.
    const HEADER: &str = r#"axiom {:seedgen_suite "seedgen-suite", 2} {:tool "t"} {:source "f", "d"}
    {:options "all", 1} true;
axiom {:seedgen_procedure "P", "d"} true;
"#;

    /// Checks that `text` is rejected with an error saying `message` at a span that
    /// starts with `at`.
    fn rejected(text: &str, message: &str, at: &str) {
        let error = from_text(text).expect_err("rejected");
        let span = error.span.clone().expect("every error of the Boogie form has a span");
        assert!(error.message.contains(message), "{text}\n`{}` does not say `{message}`", error.message);
        assert!(
            text[span].starts_with(at),
            "{text}\nthe span is at `{}`, not `{at}`",
            &text[error.span.expect("a span")]
        );
    }

    /// The declarations `decls` after [`HEADER`] are rejected.
    fn rejects(decls: &str, message: &str, at: &str) {
        rejected(&format!("{HEADER}{decls}"), message, at);
    }

    /// A test of `P` whose body is `var g: int;` and `stmts` is rejected.
    fn rejects_test(stmts: &str, message: &str, at: &str) {
        rejects(&format!(r#"procedure {{:seedgen_test "P/t1"}} t() {{ var g: int; {stmts} }}"#), message, at);
    }

    #[test]
    fn malformed_declarations_are_errors_at_spans() {
        rejects("var x: int;", "not part of a suite", "var x: int;");
        rejects(r#"axiom {:seedgen_suite "seedgen-suite", 2} true;"#, "a second suite header", "axiom");
        rejects(r#"axiom {:seedgen_procedure "Q"} true;"#, "takes 2 arguments, found 1", r#"{:seedgen_procedure "Q"}"#);
        let goal = r#"axiom {:seedgen_goal "g"} {:span 1, 2, 3} {:leaf true} {:status "covered"} true;"#;
        rejects(goal, "takes 4 arguments", "{:span 1, 2, 3}");
        rejects(
            r#"axiom {:seedgen_goal "g"} {:span 1, 2, 3, 4} {:status "s"} true;"#,
            "`{:leaf …}` is missing",
            "axiom",
        );
        rejects(r#"axiom {:seedgen_goal "g"} {:spam 1} true;"#, "unknown attribute `{:spam}`", "{:spam 1}");
        rejects(
            r#"axiom {:seedgen_goal "g"} {:span 1, 2, 3, 4} {:leaf 1} {:status "s"} true;"#,
            "expected `true` or `false`",
            "1",
        );
        rejects(r#"axiom {:seedgen_procedure "P", 1} true;"#, "expected a string", "1");
        rejects(r#"axiom {:seedgen_procedure "P", "d"} true"#, "not a suite file: unexpected end of file", "");
    }

    #[test]
    fn malformed_test_bodies_are_errors_at_spans() {
        rejects_test("g := 1;", "is missing", "{");
        rejects_test("call Q();", "a test of `P` makes a plain call of `P`", "Q");
        rejects_test("call P(); call P();", "calls its procedure once", "call P();");
        rejects_test("assert g == 1; call P();", "asserted after the call", "assert g == 1;");
        rejects_test("call P(); g := 1;", "inputs are set before the call", "g := 1;");
        rejects_test("havoc g; call P();", "a test body holds", "havoc g;");
        rejects_test("g := x; call P();", "expected a boolean or integer literal", "x");
        rejects_test("x := 1; call P();", "only the test's own locals", "x");
        rejects_test("assume g == 1; call P();", "is a local of this test", "g");
        rejects_test("call P(); assert {:output} x == 1;", "is not a local of this test", "x");
        rejects_test(r#"assume {:param "g", 1} g == 1; call P();"#, "states `true`", "g == 1");
        rejects_test(r#"assume {:param "g", "{nope"} true; call P();"#, "invalid JSON value", r#""{nope""#);
        rejects_test(r#"assume {:param "g", "\x"} true; call P();"#, "invalid string", r#""\x""#);
        rejects_test(r#"assume {:output "g", 1} true; call P();"#, "unknown tag here", r#"{:output "g", 1}"#);
        rejects_test(r#"assume {:global} {:constant} N == 1; call P();"#, "one tag per statement", "{:constant}");
        rejects_test(
            r#"assume {:function_table "f", "[[1]]", 0} true; call P();"#,
            "invalid function entries",
            r#""[[1]]""#,
        );
        rejects_test("call P(); assert x < 1;", "expected `name == value`", "x < 1");
        rejects_test("call P() }", "not a suite file: unexpected `}`", "}");
    }

    #[test]
    fn malformed_calls_are_errors_at_spans() {
        rejects_test(r#"call {:trace_jump "x"} P();"#, "unknown attribute `{:trace_jump}`", r#"{:trace_jump "x"}"#);
        rejects_test(r#"call {:trace_goto} P();"#, "`{:trace_goto}` takes 1 argument, found 0", "{:trace_goto}");
        rejects_test(r#"call {:expect "pass"} {:expect "fail"} P();"#, "a second `{:expect}`", r#"{:expect "fail"}"#);
        rejects_test(r#"call {:expect} P();"#, "takes an outcome", "{:expect}");
        rejects_test("call {:uninitialized \"i\", x} P();", "expected a boolean or integer literal", "x");
    }

    #[test]
    fn the_order_of_declarations_is_checked() {
        rejected(r#"axiom {:seedgen_procedure "P", "d"} true;"#, "comes first", "axiom");
        let header = &HEADER[..HEADER.find("\naxiom").expect("the procedure follows the header")];
        rejected(&format!("{header}\naxiom {{:seedgen_goal \"g\"}} true;"), "follow their procedure", "axiom");
        for text in ["", "// nothing\n"] {
            rejected(text, "not a suite file: it has no header", "");
        }
    }

    #[test]
    fn options_take_two_or_four_arguments() {
        let text =
            "axiom {:seedgen_suite \"x\", 2} {:tool \"t\"} {:source \"f\", \"d\"} {:options \"all\", 1, 2} true;";
        let error = from_text(text).expect_err("rejected");
        assert!(error.message.contains("takes the goals"), "{error}");
        assert!(text[error.span.expect("a span")].starts_with("{:options"));
    }
}
