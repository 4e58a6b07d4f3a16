//! The Boogie form of a suite (`prove-tests --emit bpl`; `docs/suite-format.md`, "The
//! Boogie form"): the same [`json::Suite`] as a Boogie program fragment a person can read.
//!
//! Each test is a procedure that sets the inputs, calls the procedure under test and
//! asserts the recorded outcome, every value a Boogie expression ([`super::bpl_value`]): maps
//! are lambdas, elements of uninterpreted types constants the suite declares, function
//! tables `assume`s on the function's points and its default. A polymorphic program is
//! written as written, not as its monomorphic program: an instance of a polymorphic map
//! (`Heap<int>`) as the map at that instance's indices, `(forall i: ref, j: Field int ::
//! Heap[i, j] == …)`; an instance's function table (`Seq#Length<int>`) in the function as
//! written, tagged with the instance's name; a function over a polymorphic map with its
//! parameter as written. [`crate::mono`] records what each declaration is as written
//! (`hir::Global::instance_of`, `hir::Function::origin`). What has no Boogie
//! statement (the header, goals, the trace, an outcome other than `pass`) is carried by
//! attributes whose arguments are strings (names, ids, messages) and Boogie expressions
//! (values). Appended to the program it was generated from, the fragment type-checks as
//! Boogie.
//!
//! Invariant (the round-trip law): `from_text(&to_text(suite, program)) == Ok(suite)`
//! for every suite of `program`'s implementations; the writer chooses a statement only
//! where reading it gives back exactly the field it came from, and an attribute
//! otherwise. Writing is deterministic: the text depends on the suite and the program's
//! declarations only.
//!
//! Reading goes through the front end ([`syntax::parse`]) and then walks the AST, so a
//! malformed file gives a [`LoadError`] at a span, never a panic; the reader needs no
//! program (variables' types are for Boogie, not for it).

use super::bpl_value::{collect_elements, element, element_name, identifier, Elements, Printer, Ty};
use super::json;
use super::load::{without_position, LoadError};
use crate::sema::hir;
use crate::sema::order::ORDER_PREFIX;
use crate::source::{FileId, Span};
use crate::syntax::{self, ast};
use num_bigint::BigUint;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

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
    writer.elements(suite);
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
    /// In-parameters, then out-parameters: each a name and its type.
    ins: Vec<(String, Ty)>,
    outs: Vec<(String, Ty)>,
    /// The globals its procedure may modify, which the test procedure must declare too.
    modifies: Vec<String>,
    /// The names of `ins` and `outs`: the test procedure's locals.
    locals: BTreeSet<String>,
    /// Each parameter or result of the implementation that is one instance of a
    /// polymorphic map as written (`h<int>` of `h: <a>[ref, Field a]a`, which the test
    /// procedure declares as written): the name as written and the instance's type.
    instances: BTreeMap<String, (String, Ty)>,
}

impl Signature {
    fn is_local(&self, name: &str) -> bool {
        self.locals.contains(name)
    }

    fn local_type(&self, name: &str) -> Option<&Ty> {
        self.ins.iter().chain(&self.outs).find(|(local, _)| local == name).map(|(_, ty)| ty)
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

    /// `const unique T#n: T;` for every element of an uninterpreted type a test names.
    /// Where the program has `unique` constants of that type, which a test may state to
    /// be one of the elements, the elements are plain constants and one axiom says they
    /// differ (`unique` would make them differ from the program's too).
    fn elements(&mut self, suite: &json::Suite) {
        let mut found = BTreeSet::new();
        for test in suite.procedures.iter().flat_map(|procedure| &procedure.tests) {
            let test = serde_json::to_value(test).expect("tests serialize to JSON");
            collect_elements(&test, &mut found);
        }
        if found.is_empty() {
            return;
        }
        self.line(0, "");
        self.line(0, "// The elements of uninterpreted types that the tests name, all different.");
        let mut by_type: Vec<(String, Vec<String>)> = Vec::new();
        for (ty, index) in found {
            let name = identifier(&element_name(&ty, index));
            match by_type.last_mut() {
                Some((last, names)) if *last == ty => names.push(name),
                _ => by_type.push((ty, vec![name])),
            }
        }
        for (ty, names) in by_type {
            let unique = !self.program.consts.iter().any(|constant| {
                constant.unique
                    && matches!(&constant.ty, hir::Type::Named(id, _) if self.program.types[id.index()].name == ty)
            });
            let keyword = if unique { "const unique" } else { "const" };
            let type_text = Ty::Named(ty.clone(), Vec::new()).text();
            for name in &names {
                self.line(0, &format!("{keyword} {name}: {type_text};"));
            }
            if !unique && names.len() > 1 {
                let pairs = names
                    .iter()
                    .enumerate()
                    .flat_map(|(at, first)| names[at + 1..].iter().map(move |second| format!("{first} != {second}")));
                self.line(0, &format!("axiom {};", pairs.collect::<Vec<_>>().join(" && ")));
            }
        }
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
        if !test.kills.is_empty() {
            self.line(1, &attr("kills", &test.kills.iter().map(|id| quote(id)).collect::<Vec<_>>()));
        }
        let name = self.fresh_name(&test.id);
        self.line(1, &format!("{}()", identifier(&name)));
        if !signature.modifies.is_empty() {
            let modifies: Vec<String> = signature.modifies.iter().map(|global| identifier(global)).collect();
            self.line(1, &format!("modifies {};", modifies.join(", ")));
        }
        self.line(0, "{");
        for (local, ty) in signature.ins.iter().chain(&signature.outs) {
            self.line(1, &format!("var {}: {};", identifier(local), ty.text()));
        }
        if !signature.ins.is_empty() || !signature.outs.is_empty() {
            self.line(0, "");
        }
        let facts = Facts { program: self.program, signature, printer: Printer { locals: &signature.locals } };
        for statement in facts.inputs(&test.inputs) {
            self.line(1, &statement);
        }
        self.call(under_test, &facts, test);
        for statement in facts.expectations(&test.expect) {
            self.line(1, &statement);
        }
        self.line(0, "}");
    }

    /// `call {:trace_…} … outs := P(ins);`: the attributes carry the choices of the run
    /// (and the callee's unset locals), which no statement of the caller can make; a
    /// comment after each says the step in words.
    fn call(&mut self, under_test: &str, facts: &Facts, test: &json::Test) {
        let mut attrs: Vec<(String, String)> = (test.inputs.uninitialized.iter())
            .map(|named| {
                let value = facts.value_arg(&named.value);
                (
                    attr("uninitialized", &[quote(&named.name), value]),
                    format!("{} before it is set", one_line(&named.name)),
                )
            })
            .collect();
        for (step, entry) in test.trace.iter().enumerate() {
            let (attr, said) = facts.trace_attr(entry);
            attrs.push((attr, format!("{}. {said}", step + 1)));
        }
        let expect = &test.expect;
        if expect.outcome != "pass" || expect.message.is_some() {
            let mut args = vec![quote(&expect.outcome)];
            args.extend(expect.message.iter().map(|message| quote(message)));
            attrs.push((attr("expect", &args), String::new()));
        }
        let names =
            |locals: &[(String, Ty)]| -> Vec<String> { locals.iter().map(|(local, _)| identifier(local)).collect() };
        let outs = names(&facts.signature.outs);
        let assigned = if outs.is_empty() { String::new() } else { format!("{} := ", outs.join(", ")) };
        let callee = identifier(declared_name(under_test));
        let call = format!("{assigned}{callee}({});", names(&facts.signature.ins).join(", "));
        let commented = |(attr, said): &(String, String)| match said.as_str() {
            "" => attr.clone(),
            said => format!("{attr}  // {said}"),
        };
        match attrs.split_first() {
            None => self.line(1, &format!("call {call}")),
            Some((first, rest)) => {
                self.line(1, &format!("call {}", commented(first)));
                for attr in rest {
                    self.line(2, &commented(attr));
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
        return Signature {
            ins: Vec::new(),
            outs: Vec::new(),
            modifies: Vec::new(),
            locals: BTreeSet::new(),
            instances: BTreeMap::new(),
        };
    };
    let mut instances = BTreeMap::new();
    // The locals as written: the instances of one polymorphic map are one local.
    let mut typed = |ids: &[hir::LocalId]| -> Vec<(String, Ty)> {
        let mut declared: Vec<(String, Ty)> = Vec::new();
        for id in ids {
            let local = &implementation.locals[id.index()];
            let Some(written) = &local.instance_of else {
                declared.push((local.name.clone(), Ty::of(program, &local.ty)));
                continue;
            };
            instances.insert(local.name.clone(), (written.name.clone(), Ty::of(program, &local.ty)));
            if declared.last().is_none_or(|(last, _)| *last != written.name) {
                declared.push((written.name.clone(), Ty::of(program, &written.ty)));
            }
        }
        declared
    };
    let procedure = &program.procedures[implementation.proc.index()];
    let (ins, outs) = (typed(&implementation.ins), typed(&implementation.outs));
    let locals = ins.iter().chain(&outs).map(|(name, _)| name.clone()).collect();
    Signature {
        ins,
        outs,
        instances,
        modifies: procedure
            .modifies
            .iter()
            .map(|id| declared_name(&program.globals[id.index()].name).to_string())
            .collect::<BTreeSet<String>>()
            .into_iter()
            .collect(),
        locals,
    }
}

/// The name a declaration has in the program as written: a component of a polymorphic
/// map (`Heap<int>`) or an instance of a polymorphic procedure (`Id<int>`), as
/// [`crate::mono`] names them, is its declaration's name before `<`; Boogie infers the
/// instance of a call from its arguments.
fn declared_name(name: &str) -> &str {
    name.split('<').next().unwrap_or(name)
}

/// Writes the statements of one test: what its inputs and outcome state, in Boogie.
struct Facts<'a> {
    program: &'a hir::Program,
    signature: &'a Signature,
    printer: Printer<'a>,
}

impl Facts<'_> {
    /// The statements that set a test's inputs: parameters by assignment, globals' entry
    /// values and constants by `assume`, each in the natural form `x := 1;` /
    /// `assume g == 1;` where it reads back as the input, tagged otherwise; then the
    /// function tables.
    fn inputs(&self, inputs: &json::Inputs) -> Vec<String> {
        let mut statements: Vec<String> = inputs
            .params
            .iter()
            .map(|named| match self.natural(Kind::Param, named) {
                Some(value) => format!("{} := {value};", identifier(&named.name)),
                None => self.tagged("assume", Kind::Param, named),
            })
            .collect();
        statements.extend(inputs.globals.iter().map(|named| self.fact("assume", Kind::Global, named)));
        statements.extend(inputs.consts.iter().map(|named| self.fact("assume", Kind::Constant, named)));
        for table in &inputs.functions {
            statements.extend(self.function_table(table));
        }
        statements
    }

    /// The asserts of a test's recorded outputs and modified globals.
    fn expectations(&self, expect: &json::Expect) -> Vec<String> {
        let outputs = expect.outputs.iter().map(|named| self.fact("assert", Kind::Output, named));
        outputs.chain(expect.globals.iter().map(|named| self.fact("assert", Kind::Global, named))).collect()
    }

    /// `assume g == 1;` or `assert r == 2;` when that reads back as `named` of `kind`,
    /// the tagged form otherwise.
    fn fact(&self, keyword: &str, kind: Kind, named: &json::Named) -> String {
        match self.natural(kind, named) {
            Some(value) => {
                let tag = if kind == default_kind(keyword, kind.is_local()) {
                    String::new()
                } else {
                    attr(kind.tag(), &[]) + " "
                };
                format!("{keyword} {tag}{} == {value};", identifier(&named.name))
            }
            None => self.tagged(keyword, kind, named),
        }
    }

    /// `assume {:global "g", value} true;`: any name, any value; for one instance of a
    /// polymorphic map, the map index by index ([`Facts::pointwise`]).
    fn tagged(&self, keyword: &str, kind: Kind, named: &json::Named) -> String {
        if let Some(statement) = self.pointwise(keyword, kind, named) {
            return statement;
        }
        // A component of a polymorphic map (`Heap<int>`) has no Boogie name; its value,
        // typed by its declaration, states one field type of the heap.
        let value = match declared_name(&named.name) != named.name {
            true => self.printer.expr(&named.value, self.declared_type(kind, &named.name).as_ref()),
            false => None,
        };
        let value = value.unwrap_or_else(|| self.value_arg(&named.value));
        format!("{keyword} {} true;", attr(kind.tag(), &[quote(&named.name), value]))
    }

    /// `assume {:global "Heap<int>"} (forall i: ref, j: Field int :: Heap[i, j] == 3);`:
    /// the value of a global, parameter or result that is one instance of a polymorphic
    /// map as written (`hir::Global::instance_of`, `hir::Local::instance_of`), stated at
    /// that instance's indices of the map as written; the tag names the instance, the
    /// statement says its value in Boogie. `None` where that is not Boogie: a local hides
    /// the global map, the value has no expression.
    fn pointwise(&self, keyword: &str, kind: Kind, named: &json::Named) -> Option<String> {
        let (written, ty) = match kind {
            Kind::Global => {
                let global = self.program.globals.iter().find(|global| global.name == named.name)?;
                let written = &global.instance_of.as_ref()?.name;
                (!self.signature.is_local(written)).then(|| (written.clone(), Ty::of(self.program, &global.ty)))?
            }
            Kind::Param | Kind::Output => self.signature.instances.get(&named.name)?.clone(),
            Kind::Constant => return None,
        };
        let stated = self.printer.pointwise(&written, &named.value, &ty)?;
        Some(format!("{keyword} {} {stated};", attr(kind.tag(), &[quote(&named.name)])))
    }

    /// The expression of `named`'s value when the natural form reads back as it: the
    /// value has one, and the name is a test local exactly when `kind` is one (a local
    /// of the same name as a global hides it).
    fn natural(&self, kind: Kind, named: &json::Named) -> Option<String> {
        let fits = self.signature.is_local(&named.name) == kind.is_local() && is_plain_name(&named.name);
        fits.then(|| self.printer.expr(&named.value, self.declared_type(kind, &named.name).as_ref()))?
    }

    /// The declared type of what `name` of `kind` names, where the program says.
    fn declared_type(&self, kind: Kind, name: &str) -> Option<Ty> {
        let program = self.program;
        let ty = match kind {
            Kind::Param | Kind::Output => return self.signature.local_type(name).cloned(),
            Kind::Global => &program.globals.iter().find(|global| global.name == name)?.ty,
            Kind::Constant => &program.consts.iter().find(|constant| constant.name == name)?.ty,
        };
        Some(Ty::of(program, ty))
    }

    /// A value as an attribute argument: its expression (Boogie checks an attribute's
    /// expression in itself only, so its type need not be declared), or a string holding
    /// its JSON when it has none.
    fn value_arg(&self, value: &Value) -> String {
        self.printer
            .expr(value, None)
            .unwrap_or_else(|| quote(&serde_json::to_string(value).expect("values serialize to JSON")))
    }

    /// The `{:trace_…}` attribute of a trace entry, and the step in words.
    fn trace_attr(&self, entry: &json::TraceEntry) -> (String, String) {
        match entry {
            json::TraceEntry::Havoc { var, value } => {
                (attr("trace_havoc", &[quote(var), self.value_arg(value)]), format!("havoc {}", one_line(var)))
            }
            json::TraceEntry::CallOut { callee, var, value } => (
                attr("trace_call_out", &[quote(callee), quote(var), self.value_arg(value)]),
                format!("{} := {}(…)", one_line(var), one_line(callee)),
            ),
            json::TraceEntry::CallModifies { callee, global, value } => (
                attr("trace_call_modifies", &[quote(callee), quote(global), self.value_arg(value)]),
                format!("{}(…) modifies {}", one_line(callee), one_line(global)),
            ),
            json::TraceEntry::Goto { target } => {
                (attr("trace_goto", &[quote(target)]), format!("goto {}", one_line(target)))
            }
        }
    }

    /// A function's table as Boogie states it: `assume f(1) == 3;` for each point, then
    /// `assume (forall x: int :: x != 1 ==> f(x) == 0);` for the others (for a function
    /// without arguments, `assume f() == 0;`), `f` the function as written. An
    /// unspecified default (the function is whatever the axioms allow elsewhere) is no
    /// statement: the points alone. A default with no expression is tagged,
    /// `assume {:function_default "f", "<JSON>"} true;`; a table the points cannot state
    /// at all (a point without an expression, arguments of different numbers, a point
    /// at a polymorphic map, one component of a split result) is one tagged statement
    /// holding its JSON. The table of an instance (`Seq#Length<int>`) starts with a tag
    /// naming it, `assume {:instance "Seq#Length<int>"} Seq#Length(Seq_int#0) == 7;`:
    /// Boogie infers the instance from the arguments, the reader needs its name.
    fn function_table(&self, table: &json::FunctionTable) -> Vec<String> {
        if let Some(points) = self.order_table(table) {
            return points;
        }
        let declared = self.program.functions.iter().find(|function| function.name == table.name);
        let origin = declared.and_then(|function| function.origin.as_ref());
        let written = origin.map_or(table.name.as_str(), |origin| origin.name.as_str());
        // A parameter split per instance of a polymorphic map is stated as written, with
        // no point: a point's argument would be one polymorphic map.
        let split = origin.is_some_and(|origin| origin.params.iter().any(|(_, parts)| *parts != 1));
        let declared_types: Option<Vec<Ty>> = declared.map(|function| match origin {
            Some(origin) if split => origin.params.iter().map(|(ty, _)| Ty::of(self.program, ty)).collect(),
            _ => function.params.iter().map(|param| Ty::of(self.program, &param.ty)).collect(),
        });
        // The arguments' types, where no declaration says as the first point shows them.
        let first = table.entries.first().map(|(args, _)| args.as_slice()).unwrap_or_default();
        let arity = declared_types.as_ref().map_or(first.len(), Vec::len);
        let types: Vec<Option<Ty>> = match declared_types {
            Some(types) => types.into_iter().map(Some).collect(),
            None => first.iter().map(Ty::of_value).collect(),
        };
        let result = declared.map(|function| Ty::of(self.program, &function.result));
        // What no statement of the function as written states: one component of a result
        // split per instance, a point at a polymorphic map.
        let stated = origin.is_none_or(|origin| origin.whole_result) && (!split || table.entries.is_empty());
        let function = identifier(written);
        let points: Option<Vec<String>> = (table.entries.iter())
            .map(|(args, value)| {
                if args.len() != arity || arity == 0 || !is_plain_name(written) {
                    return None;
                }
                let args = args.iter().zip(&types).map(|(arg, ty)| self.printer.expr(arg, ty.as_ref()));
                let args = args.collect::<Option<Vec<_>>>()?.join(", ");
                Some(format!("assume {function}({args}) == {};", self.printer.expr(value, result.as_ref())?))
            })
            .collect();
        let Some(mut statements) = points.filter(|_| stated) else {
            let entries = serde_json::to_string(&table.entries).expect("function tables serialize to JSON");
            let args = [quote(&table.name), quote(&entries), self.value_arg(&table.default)];
            return vec![format!("assume {} true;", attr(FUNCTION_TABLE, &args))];
        };
        if !is_unspecified(&table.default) || statements.is_empty() {
            let default = self.printer.expr(&table.default, result.as_ref()).filter(|_| is_plain_name(written));
            statements.push(match default {
                Some(default) if arity == 0 => format!("assume {function}() == {default};"),
                Some(default) => self.function_default(&function, table, &types, &default),
                None => format!(
                    "assume {} true;",
                    attr(FUNCTION_DEFAULT, &[quote(&table.name), self.value_arg(&table.default)])
                ),
            });
        }
        if written != table.name {
            tag_instance(&mut statements, &table.name);
        }
        statements
    }

    /// The table of an order function (`sema::order`) as the comparisons it holds:
    /// `assume T#1 <: T#0;`, `assume !(T#3 <: T#1);`; `None` where that cannot say it
    /// all (a default other than unspecified, a value without an expression).
    fn order_table(&self, table: &json::FunctionTable) -> Option<Vec<String>> {
        if !table.name.starts_with(ORDER_PREFIX) || !is_unspecified(&table.default) || table.entries.is_empty() {
            return None;
        }
        (table.entries.iter())
            .map(|(args, holds)| {
                let [lhs, rhs] = args.as_slice() else { return None };
                let (lhs, rhs) = (self.printer.expr(lhs, None)?, self.printer.expr(rhs, None)?);
                (order_name(&args[0])? == table.name).then_some(())?;
                match holds {
                    Value::Bool(true) => Some(format!("assume {lhs} <: {rhs};")),
                    Value::Bool(false) => Some(format!("assume !({lhs} <: {rhs});")),
                    _ => None,
                }
            })
            .collect()
    }

    /// `assume (forall x: int :: x != 1 && x != 2 ==> f(x) == default);`, the guard
    /// leaving out the points (`!(x == 1 && y == 2)` for several arguments).
    fn function_default(
        &self,
        function: &str,
        table: &json::FunctionTable,
        types: &[Option<Ty>],
        default: &str,
    ) -> String {
        let names = self.printer.bound_names(0, types.len());
        let bound: Vec<String> = (names.iter().zip(types))
            .map(|(name, ty)| format!("{name}: {}", ty.as_ref().unwrap_or(&Ty::Int).text()))
            .collect();
        let excluded: Vec<String> = (table.entries.iter())
            .map(|(args, _)| {
                let tests: Vec<String> = names
                    .iter()
                    .zip(args.iter().zip(types))
                    .map(|(name, (arg, ty))| {
                        format!("{name} == {}", self.printer.expr(arg, ty.as_ref()).expect("points have expressions"))
                    })
                    .collect();
                match tests.as_slice() {
                    [test] => test.replacen(" == ", " != ", 1),
                    _ => format!("!({})", tests.join(" && ")),
                }
            })
            .collect();
        let guard = if excluded.is_empty() { String::new() } else { format!("{} ==> ", excluded.join(" && ")) };
        format!("assume (forall {} :: {guard}{function}({}) == {default});", bound.join(", "), names.join(", "))
    }
}

/// Tags the first of the `statements` of an instance's table with the instance's name,
/// `assume {:instance "Seq#Length<int>"} Seq#Length(…) == …;`, unless it names it
/// already (a tagged default).
fn tag_instance(statements: &mut [String], instance: &str) {
    if let Some(first) = statements.first_mut().filter(|first| !first.starts_with("assume {:")) {
        *first = first.replacen("assume ", &format!("assume {} ", attr(INSTANCE, &[quote(instance)])), 1);
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

/// The JSON of [`crate::vc::Value::unspecified`].
fn unspecified() -> Value {
    serde_json::json!({ "opaque": crate::vc::model::UNSPECIFIED })
}

fn is_unspecified(value: &Value) -> bool {
    *value == unspecified()
}

/// Whether `name` prints as an identifier that reads back as itself (names of the
/// program always do; a hand-made suite's need not).
fn is_plain_name(name: &str) -> bool {
    let parsed = syntax::parse_expr(FileId(0), &identifier(name));
    matches!(&parsed, Ok(ast::Expr { kind: ast::ExprKind::Var(ident), .. }) if ident.name == name)
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

/// A whole function table as JSON: what the points cannot state.
const FUNCTION_TABLE: &str = "function_table";
/// A function table's default that has no expression.
const FUNCTION_DEFAULT: &str = "function_default";
/// The instance (`Seq#Length<int>`) whose table starts at this statement, which states it
/// in the function as written (`Seq#Length`).
const INSTANCE: &str = "instance";

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
    // Elements first: a value may name one declared further down.
    let mut elements = Elements::default();
    for decl in &program.decls {
        if let ast::Decl::Const(constant) = decl {
            for name in &constant.names {
                elements.declare(name, &constant.ty)?;
            }
        }
    }
    let mut suite: Option<json::Suite> = None;
    for decl in &program.decls {
        read_decl(&mut suite, &elements, decl)?;
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

fn read_decl(suite: &mut Option<json::Suite>, elements: &Elements, decl: &ast::Decl) -> Read<()> {
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
            let test = read_test(test, &procedure.name, elements)?;
            procedure.tests.push(test);
            Ok(())
        }
        // Read before the rest (`from_text`); what they say about their elements follows.
        ast::Decl::Const(constant) if constant.attrs.is_empty() && constant.order.is_none() => Ok(()),
        ast::Decl::Axiom(axiom) if axiom.attrs.is_empty() => distinct_elements(elements, &axiom.expr),
        _ => Err(error(
            decl.span(),
            "not part of a suite: expected `axiom {:seedgen_suite …}`, `axiom {:seedgen_procedure …}`, \
             `axiom {:seedgen_goal …}`, `procedure {:seedgen_test …}`, or an element `const T#0: T;` and \
             `axiom T#0 != T#1 && …;`",
        )),
    }
}

/// `axiom T#0 != T#1 && …;`: the elements differ, as their numbers already say.
fn distinct_elements(elements: &Elements, expr: &ast::Expr) -> Read<()> {
    let element = |side: &ast::Expr| matches!(&side.kind, ast::ExprKind::Var(name) if elements.contains(&name.name));
    match &expr.kind {
        ast::ExprKind::Binary { op: ast::BinaryOp::And, lhs, rhs } => {
            distinct_elements(elements, lhs)?;
            distinct_elements(elements, rhs)
        }
        ast::ExprKind::Binary { op: ast::BinaryOp::Neq, lhs, rhs } if element(lhs) && element(rhs) => Ok(()),
        _ => Err(error(expr.span, "an axiom of a suite says that its elements differ: `T#0 != T#1 && …`")),
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

fn read_test(procedure: &ast::ProcedureDecl, under_test: &str, elements: &Elements) -> Read<json::Test> {
    let attrs = Attrs::new(&procedure.attrs, &["seedgen_test", "targets", "covers", "kills"])?;
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
        kills: goal_ids("kills")?,
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
    let mut body_reader = Body { locals, under_test, elements, open_table: None };
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
    elements: &'a Elements,
    /// The function table whose points are being read: its default statement ends it,
    /// or any other statement, leaving the default unspecified.
    open_table: Option<json::FunctionTable>,
}

impl Body<'_> {
    fn stmt(&mut self, stmt: &ast::Stmt, called: bool, test: &mut json::Test) -> Read<()> {
        if let ast::StmtKind::Assume { attrs, expr } = &stmt.kind {
            if !called && is_function_fact(attrs, expr) {
                return self.function_fact(attrs, expr, &mut test.inputs);
            }
        }
        self.close_unspecified(&mut test.inputs);
        match (&stmt.kind, called) {
            (ast::StmtKind::Assign { lhs, rhs, .. }, false) => {
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
        Ok(json::Named { name: target.name.name.clone(), value: self.elements.value(value)? })
    }

    /// An input other than a parameter's assignment or a function table's: a tagged or
    /// natural fact.
    fn assumption(&self, attrs: &[ast::Attribute], expr: &ast::Expr, inputs: &mut json::Inputs) -> Read<()> {
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
        if let Some((kind, attr)) = tag.filter(|(_, attr)| attr.args.len() == 1) {
            // One instance of a polymorphic map, stated index by index in the map as written.
            let name = string(&attr.args[0])?;
            let (variable, value) = self.elements.pointwise(expr)?;
            if variable.name != declared_name(&name) {
                let message =
                    format!("`{name}` is an instance of `{}`, not of `{}`", declared_name(&name), variable.name);
                return Err(error(variable.span, message));
            }
            return Ok((kind, json::Named { name, value }));
        }
        if let Some((kind, attr)) = tag.filter(|(_, attr)| !attr.args.is_empty()) {
            stating_true(expr)?;
            let [name, given] = args(attr)?;
            return Ok((kind, json::Named { name: string(name)?, value: self.value(given)? }));
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
        Ok((kind, json::Named { name: name.name.clone(), value: self.elements.value(given)? }))
    }

    /// A value argument: an expression, or a string holding the JSON of a value that has
    /// none.
    fn value(&self, arg: &ast::AttrArg) -> Read<Value> {
        match arg {
            ast::AttrArg::Expr(expr) => self.elements.value(expr),
            ast::AttrArg::Str { span, .. } => serde_json::from_str(&string(arg)?)
                .map_err(|json_error| error(*span, format!("invalid JSON value: {}", without_position(&json_error)))),
        }
    }

    /// A statement of a function table: a point `f(1) == 3`, the default
    /// `(forall x: int :: x != 1 ==> f(x) == 0)` (`f() == 0` without arguments) or
    /// `{:function_default "f", value} true`, or a whole table `{:function_table …} true`.
    fn function_fact(&mut self, attrs: &[ast::Attribute], expr: &ast::Expr, inputs: &mut json::Inputs) -> Read<()> {
        let mut instance = None;
        if let Some(tag) = attrs.first().filter(|tag| tag.name.name == INSTANCE) {
            // An instance's table starts here.
            only(attrs)?;
            let [name] = args(tag)?;
            instance = Some(string(name)?);
            self.close_unspecified(inputs);
        } else if let Some(tag) = attrs.first() {
            only(attrs)?;
            stating_true(expr)?;
            if tag.name.name == FUNCTION_TABLE {
                let [name, entries, default] = args(tag)?;
                let entries = serde_json::from_str(&string(entries)?).map_err(|json_error| {
                    error(span_of(entries), format!("invalid function entries: {}", without_position(&json_error)))
                })?;
                return self.close_table(tag.span, string(name)?, Some(entries), self.value(default)?, inputs);
            }
            let [name, default] = args(tag)?;
            return self.close_table(tag.span, string(name)?, None, self.value(default)?, inputs);
        }
        if let ast::ExprKind::Quant { quantifier: ast::Quantifier::Forall, vars, body, .. } = &expr.kind {
            let bound: Vec<&str> = vars.iter().flat_map(|group| &group.names).map(|name| name.name.as_str()).collect();
            let (function, args, default) = application(body_of_default(body))?;
            let arguments = args.iter().map(|arg| match &arg.kind {
                ast::ExprKind::Var(name) => Some(name.name.as_str()),
                _ => None,
            });
            if arguments.collect::<Vec<_>>() != bound.iter().map(|name| Some(*name)).collect::<Vec<_>>() {
                return Err(error(body.span, "a function's default is stated at its bound variables, in order"));
            }
            let default = self.elements.value(default)?;
            let name = self.table_name(function, instance)?;
            return self.close_table(expr.span, name, None, default, inputs);
        }
        if let Some((lhs, rhs, holds)) = order_point(expr) {
            let args = vec![self.elements.value(lhs)?, self.elements.value(rhs)?];
            let name =
                order_name(&args[0]).ok_or_else(|| error(lhs.span, "`<:` compares elements, integers or Booleans"))?;
            self.point(name, args, Value::Bool(holds), inputs);
            return Ok(());
        }
        let (function, args, value) = application(expr)?;
        let value = self.elements.value(value)?;
        let name = self.table_name(function, instance)?;
        if args.is_empty() {
            if let Some(table) = &self.open_table {
                let message = format!(
                    "`{}()` is the whole table of a function without arguments, which has no points; the table of \
                     `{}` ends with its default, `assume (forall … :: … ==> f(…) == …);`",
                    function.name, table.name
                );
                return Err(error(expr.span, message));
            }
            return self.close_table(expr.span, name, None, value, inputs);
        }
        let args = args.iter().map(|arg| self.elements.value(arg)).collect::<Read<Vec<_>>>()?;
        self.point(name, args, value, inputs);
        Ok(())
    }

    /// The table that a statement about `function` (the function as written) belongs
    /// to: the `instance` its tag names, else the table being read when that is an
    /// instance of `function`, else `function`'s own.
    fn table_name(&self, function: &ast::Ident, instance: Option<String>) -> Read<String> {
        match instance {
            Some(instance) if declared_name(&instance) == function.name => Ok(instance),
            Some(instance) => Err(error(
                function.span,
                format!("`{{:{INSTANCE}}}` names `{instance}`, an instance of `{}`", declared_name(&instance)),
            )),
            None => Ok(match &self.open_table {
                Some(table) if declared_name(&table.name) == function.name => table.name.clone(),
                _ => function.name.clone(),
            }),
        }
    }

    /// The point `name(args) == value`, in the table being read, or starting one.
    fn point(&mut self, name: String, args: Vec<Value>, value: Value, inputs: &mut json::Inputs) {
        if self.open_table.as_ref().is_some_and(|table| table.name != name) {
            self.close_unspecified(inputs);
        }
        match &mut self.open_table {
            Some(table) => table.entries.push((args, value)),
            None => {
                self.open_table = Some(json::FunctionTable { name, entries: vec![(args, value)], default: Value::Null })
            }
        }
    }

    /// Ends the table being read, if any, at a statement that is none of its points or
    /// its default: the function is unspecified away from its points.
    fn close_unspecified(&mut self, inputs: &mut json::Inputs) {
        if let Some(mut table) = self.open_table.take() {
            table.default = unspecified();
            inputs.functions.push(table);
        }
    }

    /// Ends the table of `name` with its `default`: the table of the points read so
    /// far, or `entries` (a whole table).
    fn close_table(
        &mut self,
        span: Span,
        name: String,
        entries: Option<Vec<(Vec<Value>, Value)>>,
        default: Value,
        inputs: &mut json::Inputs,
    ) -> Read<()> {
        if self.open_table.as_ref().is_some_and(|table| table.name != name) {
            self.close_unspecified(inputs);
        }
        let points = match self.open_table.take() {
            Some(table) if entries.is_none() => table.entries,
            Some(table) => {
                let message = format!("the points of `{}` come before its whole table", table.name);
                return Err(error(span, message));
            }
            None => entries.unwrap_or_default(),
        };
        inputs.functions.push(json::FunctionTable { name, entries: points, default });
        Ok(())
    }

    /// The call of the procedure under test; its attributes carry the choices of the
    /// run and the outcome when it is not `pass`.
    fn call(&self, call: &ast::Call, test: &mut json::Test) -> Read<()> {
        if call.callee.name != declared_name(self.under_test) || call.free || call.is_async {
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
                    test.inputs.uninitialized.push(json::Named { name: string(name)?, value: self.value(given)? });
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
                _ => test.trace.push(self.trace_entry(attr)?),
            }
        }
        Ok(())
    }

    fn trace_entry(&self, attr: &ast::Attribute) -> Read<json::TraceEntry> {
        Ok(match attr.name.name.as_str() {
            "trace_havoc" => {
                let [var, given] = args(attr)?;
                json::TraceEntry::Havoc { var: string(var)?, value: self.value(given)? }
            }
            "trace_call_out" => {
                let [callee, var, given] = args(attr)?;
                json::TraceEntry::CallOut { callee: string(callee)?, var: string(var)?, value: self.value(given)? }
            }
            "trace_call_modifies" => {
                let [callee, global, given] = args(attr)?;
                json::TraceEntry::CallModifies {
                    callee: string(callee)?,
                    global: string(global)?,
                    value: self.value(given)?,
                }
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

/// Whether an `assume` states a function table's point or default.
fn is_function_fact(attrs: &[ast::Attribute], expr: &ast::Expr) -> bool {
    match attrs.first() {
        Some(tag) => [FUNCTION_TABLE, FUNCTION_DEFAULT, INSTANCE].contains(&tag.name.name.as_str()),
        None if order_point(expr).is_some() => true,
        None => match &expr.kind {
            ast::ExprKind::Quant { quantifier: ast::Quantifier::Forall, .. } => true,
            ast::ExprKind::Binary { op: ast::BinaryOp::Eq, lhs, .. } => matches!(lhs.kind, ast::ExprKind::Apply { .. }),
            _ => false,
        },
    }
}

/// `a <: b` or `!(a <: b)`: a point of the order `<:` (`sema::order`), and whether the
/// comparison holds there.
fn order_point(expr: &ast::Expr) -> Option<(&ast::Expr, &ast::Expr, bool)> {
    match &expr.kind {
        ast::ExprKind::Binary { op: ast::BinaryOp::Subtype, lhs, rhs } => Some((lhs, rhs, true)),
        ast::ExprKind::Unary { op: ast::UnaryOp::Not, operand } => {
            order_point(operand).filter(|(_, _, holds)| *holds).map(|(lhs, rhs, _)| (lhs, rhs, false))
        }
        _ => None,
    }
}

/// The order function of the type of `value`, an argument of `<:`.
fn order_name(value: &Value) -> Option<String> {
    let ty = match value {
        Value::Bool(_) => "bool",
        Value::Number(_) => "int",
        _ => element(value)?.0,
    };
    Some(format!("{ORDER_PREFIX}{ty}"))
}

/// The equation of a default `forall`, after its guard (which repeats the points).
fn body_of_default(body: &ast::Expr) -> &ast::Expr {
    match &body.kind {
        ast::ExprKind::Binary { op: ast::BinaryOp::Implies, rhs, .. } => rhs,
        _ => body,
    }
}

/// `f(args) == value`.
fn application(expr: &ast::Expr) -> Read<(&ast::Ident, &[ast::Expr], &ast::Expr)> {
    match &expr.kind {
        ast::ExprKind::Binary { op: ast::BinaryOp::Eq, lhs, rhs } => match &lhs.kind {
            ast::ExprKind::Apply { func, args } => Ok((func, args, rhs)),
            _ => Err(error(lhs.span, "expected a function's application `f(…)`")),
        },
        _ => Err(error(expr.span, "expected a function's point `f(…) == value`")),
    }
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
#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::bpl_value::literal;
    use serde_json::json;

    /// A program with every kind of name a test refers to: a parameter named like a
    /// global, a map result, an uninterpreted type, constants and a function.
    const PROGRAM: &str = r#"
        type T, U;
        const N: int;
        const K: T;
        const unique L: T;
        var g: int;
        var h: [int]bool;
        var mm: [int, bool][U]int;
        function f(int): int;
        function f2(i: int, b: bool): U;
        function z(): int;
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
        round_trip_in(&crate::vc::testing::program(PROGRAM), suite)
    }

    /// [`round_trip`] for a suite of `program`.
    fn round_trip_in(program: &hir::Program, suite: &json::Suite) -> String {
        let text = to_text(suite, program);
        let (_, errors) = syntax::parse(FileId(0), &text);
        assert!(errors.is_empty(), "{errors:?}\n{text}");
        assert_eq!(from_text(&text).as_ref(), Ok(suite), "{text}");
        assert_eq!(to_text(suite, program), text, "writing is deterministic");
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
    t := T#0;
    call r, m := P(g, t);
    assert r == 1;
    assert h == (lambda i: int :: if i == 1 then true else false);
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
                    "functions": [
                        {"name": "f", "entries": [[[1], 2], [[-3], 4]], "default": 0},
                        {"name": "gone", "entries": [[[{"type": "U", "elem": 0}], true]], "default": false},
                        {"name": "gone", "entries": [[[1], 2], [[1, 2], 3]], "default": 0},
                    ],
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
    fn maps_elements_and_function_tables_are_boogie() {
        let t = |index: u32| json!({"type": "T", "elem": index});
        let u = |index: u32| json!({"type": "U", "elem": index});
        let row = json!({"entries": [[u(1), 7]], "default": 0});
        let text = round_trip(&procedure_with(vec![test_of(json!({
            "inputs": {
                "params": [{"name": "g", "value": 1}, {"name": "t", "value": t(0)}],
                "globals": [{"name": "mm", "value": {
                    "entries": [[2, {"entries": [[true, row]], "default": {"entries": [], "default": 0}}]],
                    "default": {"entries": [], "default": row}}}],
                "consts": [{"name": "K", "value": t(2)}],
                "functions": [
                    {"name": "f", "entries": [[[1], 2], [[-3], 4]], "default": 0},
                    {"name": "f", "entries": [[[5], 6]], "default": {"opaque": "unspecified"}},
                    {"name": "f2", "entries": [[[1, true], u(0)]], "default": u(1)},
                    {"name": "z", "entries": [], "default": 5},
                    {"name": "f", "entries": [[[1], 2]], "default": {"opaque": "(ite x 1 2)"}},
                    {"name": "z", "entries": [[[], 1]], "default": 0},
                ],
            },
            "trace": [{"havoc": {"var": "a", "value": {"entries": [], "default": {"entries": [[false, 1]], "default": 0}}}}],
        }))]));
        for expected in [
            "const T#0: T;\nconst T#2: T;\naxiom T#0 != T#2;\nconst unique U#0: U;\nconst unique U#1: U;\n",
            "    t := T#0;\n",
            "    assume mm == (lambda i: int, j: bool :: if i == 2 then (if j == true then (lambda k: U :: if k == U#1 \
             then 7 else 0) else (lambda k: U :: 0)) else (lambda k: U :: if k == U#1 then 7 else 0));\n",
            "    assume {:constant} K == T#2;\n",
            "    assume f(1) == 2;\n    assume f(-3) == 4;\n    assume (forall i: int :: i != 1 && i != -3 ==> f(i) == 0);\n",
            "    assume (forall i: int :: i != 1 && i != -3 ==> f(i) == 0);\n    assume f(5) == 6;\n    assume f2(1, true) == U#0;\n",
            "    assume f2(1, true) == U#0;\n    assume (forall i: int, j: bool :: !(i == 1 && j == true) ==> f2(i, j) == U#1);\n",
            "    assume z() == 5;\n",
            "    assume f(1) == 2;\n    assume {:function_default \"f\", \"{\\\"opaque\\\":\\\"(ite x 1 2)\\\"}\"} true;\n",
            "    assume {:function_table \"z\", \"[[[],1]]\", 0} true;\n",
            "{:trace_havoc \"a\", (lambda i: int :: (lambda j: bool :: if j == false then 1 else 0))}  // 1. havoc a\n",
        ] {
            assert!(text.contains(expected), "{text}\ndoes not hold\n{expected}");
        }
        // Appended to the program, it is a program: names resolve, types agree.
        crate::vc::testing::program(&format!("{PROGRAM}\n{text}"));
    }

    /// A polymorphic program: a heap, a function over heaps, instances of polymorphic
    /// functions.
    const POLYMORPHIC: &str = r#"
        type ref;
        type Field _;
        type Seq _;
        var Heap: <a>[ref, Field a]a;
        const next: Field ref;
        const count: Field int;
        function IsHeap(heap: <a>[ref, Field a]a): bool;
        function Seq#Length<T>(Seq T): int;
        function Seq#Empty<T>(): Seq T;
        procedure P(o: ref, s: Seq int, h: <a>[ref, Field a]a) returns (r: int)
          modifies Heap;
        {
          assume IsHeap(Heap) && s != Seq#Empty();
          Heap[o, count] := Seq#Length(s);
          Heap[o, next] := h[o, next];
          r := Heap[o, count];
        }
    "#;

    #[test]
    fn heaps_and_instances_are_written_in_the_program_as_written() {
        let program = crate::mono::monomorphize(crate::vc::testing::program(POLYMORPHIC)).expect("monomorphic");
        let r = |index: u32| json!({"type": "ref", "elem": index});
        let s = |index: u32| json!({"type": "Seq int", "elem": index});
        let field = |ty: &str, index: u32| json!({"type": format!("Field {ty}"), "elem": index});
        let row =
            |entries: serde_json::Value, default: serde_json::Value| json!({"entries": entries, "default": default});
        let counts = row(json!([[r(0), row(json!([[field("int", 0), 5]]), json!(0))]]), row(json!([]), json!(1)));
        let nexts = row(json!([]), row(json!([]), r(1)));
        let suite = procedure_with(vec![test_of(json!({
            "inputs": {
                "params": [
                    {"name": "o", "value": r(0)},
                    {"name": "s", "value": s(0)},
                    {"name": "h<int>", "value": counts},
                    {"name": "h<ref>", "value": nexts},
                ],
                "globals": [{"name": "Heap<ref>", "value": nexts}, {"name": "Heap<int>", "value": counts}],
                "functions": [
                    {"name": "IsHeap", "entries": [], "default": true},
                    {"name": "Seq#Length<int>", "entries": [[[s(0)], 5], [[s(1)], 0]], "default": {"opaque": "unspecified"}},
                    {"name": "Seq#Length<int>", "entries": [[[s(2)], 1]], "default": 7},
                    {"name": "Seq#Empty<int>", "entries": [], "default": s(1)},
                    {"name": "IsHeap", "entries": [[[row(json!([]), row(json!([]), r(0))), counts, counts], true]],
                     "default": false},
                ],
            },
            "expect": {"outcome": "pass", "outputs": [{"name": "r", "value": 5}],
                       "globals": [{"name": "Heap<int>", "value": counts}]},
        }))]);
        let text = round_trip_in(&program, &suite);
        for expected in [
            // A heap parameter is one local as written, set index by index.
            "    var h: <a>[ref, Field a]a;\n    var r: int;\n",
            "    assume {:param \"h<ref>\"} (forall i: ref, j: Field ref :: h[i, j] == ref#1);\n",
            "    call r := P(o, s, h);\n",
            "    assume {:global \"Heap<ref>\"} (forall i: ref, j: Field ref :: Heap[i, j] == ref#1);\n",
            "    assume {:global \"Heap<int>\"} (forall i: ref, j: Field int :: Heap[i, j] == (if i == ref#0 then \
             (if j == Field_int#0 then 5 else 0) else 1));\n",
            "    assume (forall i: <a>[ref, Field a]a :: IsHeap(i) == true);\n",
            "    assume {:instance \"Seq#Length<int>\"} Seq#Length(Seq_int#0) == 5;\n    assume Seq#Length(Seq_int#1) == 0;\n",
            "    assume {:instance \"Seq#Length<int>\"} Seq#Length(Seq_int#2) == 1;\n    \
             assume (forall i: Seq int :: i != Seq_int#2 ==> Seq#Length(i) == 7);\n",
            "    assume {:instance \"Seq#Empty<int>\"} Seq#Empty() == Seq_int#1;\n",
            // A point at a polymorphic map has no statement of the function as written.
            "    assume {:function_table \"IsHeap\", ",
            "    assert {:global \"Heap<int>\"} (forall i: ref, j: Field int :: Heap[i, j] == (if i == ref#0 then \
             (if j == Field_int#0 then 5 else 0) else 1));\n",
        ] {
            assert!(text.contains(expected), "{text}\ndoes not hold\n{expected}");
        }
        // Appended to the program as written, it is a program: names resolve, types agree.
        crate::vc::testing::program(&format!("{POLYMORPHIC}\n{text}"));
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
        rejects("const x: int;", "a constant of an uninterpreted type", "int");
        rejects("type T;", "not part of a suite", "type T;");
        rejects("const x: T;", "is named `T#` and its number", "x");
        rejects("const T#0: T;\nconst T#1: T;\naxiom T#0 != T#1 && T#0 == T#1;", "its elements differ", "T#0 == T#1");
        rejects("const T#0: T;\naxiom T#0 != x;", "its elements differ", "T#0 != x");
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
        rejects_test("g := x; call P();", "not an element the suite declares", "x");
        rejects_test("g := 1 + 1; call P();", "expected a value", "1 + 1");
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
        rejects_test(
            r#"assume f(1) == 2; assume {:function_table "f", "[]", 0} true; call P();"#,
            "the points of `f` come before its whole table",
            "{:function_table",
        );
        rejects_test("assume (forall i: int :: f(1) == 0); call P();", "at its bound variables", "f(1) == 0");
        rejects_test("assume (forall i: int :: i > 0); call P();", "expected a function's point", "i > 0");
        rejects_test("assume f(1) == 2; assume f() == 0; call P();", "has no points", "f() == 0");
        rejects_test("call P() }", "not a suite file: unexpected `}`", "}");
        let heap = r#"assume {:global "Heap<int>"}"#;
        rejects_test(&format!("{heap} (forall i: int :: M[i] == 1); call P();"), "an instance of `Heap`", "M");
        rejects_test(&format!("{heap} (forall i: int :: Heap[1] == 1); call P();"), "its bound variables", "Heap[1]");
        rejects_test(&format!("{heap} Heap == 1; call P();"), "a map stated index by index", "Heap == 1");
        rejects_test(
            r#"assume {:instance "Seq#Length<int>"} f(1) == 2; call P();"#,
            "names `Seq#Length<int>`, an instance of `Seq#Length`",
            "f",
        );
    }

    #[test]
    fn malformed_calls_are_errors_at_spans() {
        rejects_test(r#"call {:trace_jump "x"} P();"#, "unknown attribute `{:trace_jump}`", r#"{:trace_jump "x"}"#);
        rejects_test(r#"call {:trace_goto} P();"#, "`{:trace_goto}` takes 1 argument, found 0", "{:trace_goto}");
        rejects_test(r#"call {:expect "pass"} {:expect "fail"} P();"#, "a second `{:expect}`", r#"{:expect "fail"}"#);
        rejects_test(r#"call {:expect} P();"#, "takes an outcome", "{:expect}");
        rejects_test("call {:uninitialized \"i\", x} P();", "not an element the suite declares", "x");
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
