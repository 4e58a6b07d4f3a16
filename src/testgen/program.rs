//! The program writer: globals, an optional body-less procedure, and one to three
//! procedures with bodies, each calling only those before it (no recursion), written
//! straight to Boogie text.
//!
//! Well-typed by construction: every expression is built for its type from the
//! variables in scope, assignments and `havoc`s target only variables the procedure may
//! write (its outs and locals, and the globals, which every procedure modifies), and
//! each loop has a counter of its own that nothing else writes, so its invariant
//! `0 <= i && i <= K` holds and the loop ends after at most `K` iterations. A `goto`
//! jumps forward only, to labels of its own statement list, so every run ends. Contracts
//! may quantify over a map with bounds read from the state (`forall k :: 0 <= k && k <
//! x0 ==> m[k] > k`, and nested: `… ==> (forall j :: 0 <= j && j < m[k] ==> …)`), which
//! only run-time bounds let replay check.

use super::Choices;
use std::fmt::Write;

/// Statements one procedure body may have in all, and how deep they nest.
const STATEMENTS: usize = 14;
const DEPTH: usize = 3;
/// How deep expressions nest.
const EXPR_DEPTH: usize = 3;

/// A procedure the later ones may call.
struct Callee {
    name: String,
    ins: Vec<Ty>,
    outs: Vec<Ty>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Ty {
    Int,
    Bool,
    Map,
}

impl Ty {
    fn name(self) -> &'static str {
        match self {
            Ty::Int => "int",
            Ty::Bool => "bool",
            Ty::Map => "[int]int",
        }
    }
}

#[derive(PartialEq, Eq)]
enum Flow {
    Continues,
    /// A `break` or `return`.
    Jumps,
}

/// A variable in scope and whether the procedure may write it.
#[derive(Clone)]
struct Var {
    name: String,
    ty: Ty,
    writable: bool,
}

pub fn write(choices: &mut Choices) -> String {
    let mut out = String::new();
    let globals = globals(choices);
    for global in &globals {
        writeln!(out, "var {}: {};", global.name, global.ty.name()).expect("writing to a String");
    }
    let mut callees = Vec::new();
    if choices.one_in(3) {
        // A procedure without a body: its result is a choice of the test (a trace entry).
        out.push_str("\nprocedure Ext(a: int) returns (b: int);\n  ensures b >= a;\n");
        callees.push(Callee { name: "Ext".to_string(), ins: vec![Ty::Int], outs: vec![Ty::Int] });
    }
    for index in 0..1 + choices.below(3) {
        let name = format!("P{index}");
        let mut procedure = Procedure::new(choices, &name, &globals, &callees);
        out.push('\n');
        out.push_str(&procedure.write(choices));
        callees.push(Callee { name, ins: procedure.ins.iter().map(|v| v.ty).collect(), outs: procedure.out_types() });
    }
    out
}

fn globals(choices: &mut Choices) -> Vec<Var> {
    let candidates = [("g0", Ty::Int), ("g1", Ty::Bool), ("gm", Ty::Map)];
    let mut globals = Vec::new();
    for (name, ty) in candidates {
        if choices.below(2) == 1 {
            globals.push(Var { name: name.to_string(), ty, writable: true });
        }
    }
    globals
}

/// One procedure being written: its scope and the state of its body.
struct Procedure<'a> {
    name: String,
    ins: Vec<Var>,
    outs: Vec<Var>,
    locals: Vec<Var>,
    globals: &'a [Var],
    callees: &'a [Callee],
    /// Statements left for the body.
    budget: usize,
    /// Loop counters declared so far (`i0`, `i1`, …).
    counters: usize,
    /// Loops around the statement being written (`break` needs one).
    open_loops: usize,
    /// Labels declared so far (`L0`, `L1`, …).
    labels: usize,
    /// What is being written, which decides the variables in scope.
    context: Context,
}

/// The part of a procedure being written: a precondition sees only the ins, a
/// postcondition the ins, outs and globals, the body everything.
#[derive(Clone, Copy)]
enum Context {
    Body,
    Requires,
    Ensures,
}

impl<'a> Procedure<'a> {
    fn new(choices: &mut Choices, name: &str, globals: &'a [Var], callees: &'a [Callee]) -> Procedure<'a> {
        let var = |name: &str, ty, writable| Var { name: name.to_string(), ty, writable };
        let mut ins = vec![var("x0", Ty::Int, false)];
        for (name, ty) in [("x1", Ty::Int), ("b0", Ty::Bool), ("m", Ty::Map)] {
            if choices.below(2) == 1 {
                ins.push(var(name, ty, false));
            }
        }
        let mut outs = vec![var("r", Ty::Int, true)];
        if choices.below(2) == 1 {
            outs.push(var("ok", Ty::Bool, true));
        }
        let locals = vec![var("l0", Ty::Int, true), var("l1", Ty::Int, true), var("c0", Ty::Bool, true)];
        Procedure {
            name: name.to_string(),
            ins,
            outs,
            locals,
            globals,
            callees,
            budget: STATEMENTS,
            counters: 0,
            open_loops: 0,
            labels: 0,
            context: Context::Body,
        }
    }

    fn out_types(&self) -> Vec<Ty> {
        self.outs.iter().map(|v| v.ty).collect()
    }

    fn scope(&self) -> impl Iterator<Item = &Var> {
        let (outs, locals, globals): (&[Var], &[Var], &[Var]) = match self.context {
            Context::Body => (&self.outs, &self.locals, self.globals),
            Context::Requires => (&[], &[], &[]),
            Context::Ensures => (&self.outs, &[], self.globals),
        };
        self.ins.iter().chain(outs).chain(locals).chain(globals)
    }

    fn names(&self, ty: Ty, writable_only: bool) -> Vec<String> {
        self.scope().filter(|v| v.ty == ty && (v.writable || !writable_only)).map(|v| v.name.clone()).collect()
    }

    /// The whole declaration: signature, contract, body (written first: it decides how
    /// many loop counters to declare).
    fn write(&mut self, choices: &mut Choices) -> String {
        let mut body = String::new();
        self.block(choices, &mut body, 1);
        let signature = |vars: &[Var]| -> String {
            vars.iter().map(|v| format!("{}: {}", v.name, v.ty.name())).collect::<Vec<_>>().join(", ")
        };
        let mut out = format!("procedure {}({})", self.name, signature(&self.ins));
        writeln!(out, " returns ({})", signature(&self.outs)).expect("writing to a String");
        if choices.one_in(3) {
            // A test whose inputs break the precondition is invalid.
            self.context = Context::Requires;
            writeln!(out, "  requires {};", self.bool_expr(choices, 1)).expect("writing to a String");
        }
        if self.ins.iter().any(|v| v.ty == Ty::Map) && choices.one_in(3) {
            self.context = Context::Requires;
            writeln!(out, "  requires {};", self.quantified(choices, "m")).expect("writing to a String");
        }
        if !self.globals.is_empty() {
            let names: Vec<&str> = self.globals.iter().map(|v| v.name.as_str()).collect();
            writeln!(out, "  modifies {};", names.join(", ")).expect("writing to a String");
        }
        if choices.one_in(4) {
            // A postcondition that may fail: the run's outcome is then `fail`.
            self.context = Context::Ensures;
            writeln!(out, "  ensures {};", self.bool_expr(choices, 1)).expect("writing to a String");
        }
        if self.globals.iter().any(|v| v.ty == Ty::Map) && choices.one_in(4) {
            self.context = Context::Ensures;
            writeln!(out, "  ensures {};", self.quantified(choices, "gm")).expect("writing to a String");
        }
        out.push_str("{\n");
        for local in &self.locals {
            writeln!(out, "  var {}: {};", local.name, local.ty.name()).expect("writing to a String");
        }
        for counter in 0..self.counters {
            writeln!(out, "  var i{counter}: int;").expect("writing to a String");
        }
        out.push_str(&body);
        out.push_str("}\n");
        out
    }

    /// Statements at `depth` (1 is the body): at least one while the budget lasts, none
    /// after a `break`, `return` or `goto` (code there would only be dead); whether
    /// control goes on after them.
    fn block(&mut self, choices: &mut Choices, out: &mut String, depth: usize) -> Flow {
        let count = 1 + choices.below(3);
        for _ in 0..count {
            if self.budget == 0 {
                break;
            }
            self.budget -= 1;
            if self.statement(choices, out, depth) == Flow::Jumps {
                return Flow::Jumps;
            }
        }
        Flow::Continues
    }

    /// Writes one statement; whether control goes on after it.
    fn statement(&mut self, choices: &mut Choices, out: &mut String, depth: usize) -> Flow {
        let indent = "  ".repeat(depth);
        let nested = depth < DEPTH;
        match choices.below(17) {
            0..=3 => self.assign(choices, out, &indent),
            4 | 5 if nested => {
                let guard = self.bool_expr(choices, EXPR_DEPTH);
                self.conditional(choices, out, depth, &guard);
            }
            6 if nested => self.conditional(choices, out, depth, "*"),
            7 | 8 if nested && self.counters < 3 => self.while_loop(choices, out, depth),
            9 => {
                let targets: Vec<String> = [Ty::Int, Ty::Bool].iter().flat_map(|&ty| self.names(ty, true)).collect();
                writeln!(out, "{indent}havoc {};", choices.pick(&targets)).expect("writing to a String");
            }
            10 => writeln!(out, "{indent}assume {};", self.bool_expr(choices, 1)).expect("writing to a String"),
            11 => writeln!(out, "{indent}assert {};", self.bool_expr(choices, 1)).expect("writing to a String"),
            12 if !self.callees.is_empty() => self.call(choices, out, &indent),
            13 if self.globals.iter().any(|v| v.ty == Ty::Map) => {
                let (key, value) = (self.int_expr(choices, 1), self.int_expr(choices, 2));
                writeln!(out, "{indent}gm[{key}] := {value};").expect("writing to a String");
            }
            14 if self.open_loops > 0 && depth > 1 => {
                writeln!(out, "{indent}break;").expect("writing to a String");
                return Flow::Jumps;
            }
            15 if depth > 1 => {
                writeln!(out, "{indent}return;").expect("writing to a String");
                return Flow::Jumps;
            }
            16 if nested => self.goto_choice(choices, out, depth),
            _ => self.assign(choices, out, &indent),
        }
        Flow::Continues
    }

    /// `goto A, B; A: …; goto C; B: …; C: assume true;`: a choice between two statement
    /// lists as labelled blocks of the enclosing list, joined again at `C`.
    fn goto_choice(&mut self, choices: &mut Choices, out: &mut String, depth: usize) {
        let indent = "  ".repeat(depth);
        let [first, second, join] = [0, 1, 2].map(|offset| format!("L{}", self.labels + offset));
        self.labels += 3;
        writeln!(out, "{indent}goto {first}, {second};").expect("writing to a String");
        for label in [&first, &second] {
            writeln!(out, "{indent}{label}:").expect("writing to a String");
            if self.block(choices, out, depth) == Flow::Continues {
                writeln!(out, "{indent}goto {join};").expect("writing to a String");
            }
        }
        writeln!(out, "{indent}{join}:\n{indent}assume true;").expect("writing to a String");
    }

    /// A quantified claim about `map` whose bound is read from the state: an integer in
    /// scope, or, nested, the map's own entries.
    fn quantified(&mut self, choices: &mut Choices, map: &str) -> String {
        let bound = choices.pick(&self.names(Ty::Int, false)).clone();
        let operator = choices.pick(&["<", "<=", "!=", ">", ">="]);
        let offset = choices.int_in(-1, 2);
        let claim = if choices.one_in(3) {
            let inner = choices.pick(&["<=", "!=", ">="]);
            format!("(forall j: int :: 0 <= j && j < {map}[k] ==> {map}[j] {inner} j)")
        } else {
            format!("{map}[k] {operator} k + {offset}")
        };
        format!("(forall k: int :: 0 <= k && k < {bound} ==> {claim})")
    }

    fn assign(&mut self, choices: &mut Choices, out: &mut String, indent: &str) {
        let (target, value) = if choices.below(3) == 2 {
            (choices.pick(&self.names(Ty::Bool, true)).clone(), self.bool_expr(choices, EXPR_DEPTH))
        } else {
            (choices.pick(&self.names(Ty::Int, true)).clone(), self.int_expr(choices, EXPR_DEPTH))
        };
        writeln!(out, "{indent}{target} := {value};").expect("writing to a String");
    }

    fn conditional(&mut self, choices: &mut Choices, out: &mut String, depth: usize, guard: &str) {
        let indent = "  ".repeat(depth);
        writeln!(out, "{indent}if ({guard}) {{").expect("writing to a String");
        self.block(choices, out, depth + 1);
        if choices.below(3) != 0 {
            writeln!(out, "{indent}}} else {{").expect("writing to a String");
            self.block(choices, out, depth + 1);
        }
        writeln!(out, "{indent}}}").expect("writing to a String");
    }

    /// `i := 0; while (i < K [&& i < x]) invariant …; { …; i := i + 1; }`: at most `K`
    /// iterations whatever the body does, since only this loop writes `i`.
    fn while_loop(&mut self, choices: &mut Choices, out: &mut String, depth: usize) {
        let indent = "  ".repeat(depth);
        let counter = format!("i{}", self.counters);
        self.counters += 1;
        let bound = choices.int_in(1, 3);
        let mut guard = format!("{counter} < {bound}");
        if choices.below(2) == 1 {
            guard.push_str(&format!(" && {counter} < {}", choices.pick(&self.names(Ty::Int, false))));
        }
        let invariant = match choices.below(4) {
            0 => format!("0 <= {counter} && {counter} <= {bound}"),
            1 => "true".to_string(),
            2 => format!("0 <= {counter}"),
            // Any claim, often false: a failing invariant is a failing test, and the
            // goals that need it may not be called unreachable.
            _ => self.bool_expr(choices, 1),
        };
        writeln!(out, "{indent}{counter} := 0;").expect("writing to a String");
        writeln!(out, "{indent}while ({guard})\n{indent}  invariant {invariant};\n{indent}{{")
            .expect("writing to a String");
        self.open_loops += 1;
        self.block(choices, out, depth + 1);
        self.open_loops -= 1;
        writeln!(out, "{indent}  {counter} := {counter} + 1;\n{indent}}}").expect("writing to a String");
    }

    /// `call outs := Callee(ins);` with distinct writable targets, or an assignment when
    /// there are not enough of them.
    fn call(&mut self, choices: &mut Choices, out: &mut String, indent: &str) {
        // Only map variables have map type: a callee with a map parameter needs one.
        let has_map = !self.names(Ty::Map, false).is_empty();
        let callable: Vec<&Callee> = self.callees.iter().filter(|c| has_map || !c.ins.contains(&Ty::Map)).collect();
        if callable.is_empty() {
            return self.assign(choices, out, indent);
        }
        let callee = *choices.pick(&callable);
        let mut targets: Vec<String> = Vec::new();
        for &ty in &callee.outs {
            let free: Vec<String> = self.names(ty, true).into_iter().filter(|name| !targets.contains(name)).collect();
            if free.is_empty() {
                return self.assign(choices, out, indent);
            }
            targets.push(choices.pick(&free).clone());
        }
        let args: Vec<String> = callee.ins.iter().map(|&ty| self.expr(choices, ty, 2)).collect();
        let name = &callee.name;
        writeln!(out, "{indent}call {} := {name}({});", targets.join(", "), args.join(", "))
            .expect("writing to a String");
    }

    fn expr(&mut self, choices: &mut Choices, ty: Ty, depth: usize) -> String {
        match ty {
            Ty::Int => self.int_expr(choices, depth),
            Ty::Bool => self.bool_expr(choices, depth),
            // Only variables have map type here.
            Ty::Map => choices.pick(&self.names(Ty::Map, false)).clone(),
        }
    }

    /// Linear integer arithmetic, `div`/`mod` by nonzero constants, map reads and
    /// conditional expressions, parenthesized throughout.
    fn int_expr(&mut self, choices: &mut Choices, depth: usize) -> String {
        if depth == 0 {
            return self.int_leaf(choices);
        }
        let depth = depth - 1;
        let divisor = |choices: &mut Choices| *choices.pick(&[2, 3, -2, 7]);
        match choices.below(10) {
            1 => format!("({} + {})", self.int_expr(choices, depth), self.int_expr(choices, depth)),
            2 => format!("({} - {})", self.int_expr(choices, depth), self.int_expr(choices, depth)),
            3 => format!("({} * {})", choices.int_in(-3, 3), self.int_expr(choices, depth)),
            4 => format!("({} div {})", self.int_expr(choices, depth), divisor(choices)),
            5 => format!("({} mod {})", self.int_expr(choices, depth), divisor(choices)),
            6 if !self.names(Ty::Map, false).is_empty() => {
                let map = choices.pick(&self.names(Ty::Map, false)).clone();
                format!("{map}[{}]", self.int_expr(choices, depth))
            }
            7 => format!(
                "(if {} then {} else {})",
                self.bool_expr(choices, depth),
                self.int_expr(choices, depth),
                self.int_expr(choices, depth)
            ),
            _ => self.int_leaf(choices),
        }
    }

    /// A variable most of the time, else a constant (small, or now and then one far from
    /// the small values minimization prefers).
    fn int_leaf(&mut self, choices: &mut Choices) -> String {
        match choices.below(6) {
            1..=3 => choices.pick(&self.names(Ty::Int, false)).clone(),
            4 => choices.pick(&["1000", "(-1000)", "12345", "(-99)", "64"]).to_string(),
            _ => match choices.int_in(-3, 5) {
                negative @ ..0 => format!("({negative})"),
                value => value.to_string(),
            },
        }
    }

    fn bool_expr(&mut self, choices: &mut Choices, depth: usize) -> String {
        let leaf = depth == 0;
        match choices.below(9) {
            1 if !self.names(Ty::Bool, false).is_empty() => choices.pick(&self.names(Ty::Bool, false)).clone(),
            2 if !leaf => format!("!{}", self.bool_atom(choices, depth - 1)),
            3 if !leaf => format!("({} && {})", self.bool_expr(choices, depth - 1), self.bool_expr(choices, depth - 1)),
            4 if !leaf => format!("({} || {})", self.bool_expr(choices, depth - 1), self.bool_expr(choices, depth - 1)),
            5 if !leaf => {
                format!("({} ==> {})", self.bool_expr(choices, depth - 1), self.bool_expr(choices, depth - 1))
            }
            6 => choices.pick(&["true", "false"]).to_string(),
            _ => {
                // A variable on the left: comparisons of constants decide nothing.
                let left = choices.pick(&self.names(Ty::Int, false)).clone();
                let operator = choices.pick(&["<", "<=", "==", "!=", ">", ">="]);
                format!("({left} {operator} {})", self.int_expr(choices, depth.saturating_sub(1)))
            }
        }
    }

    /// A Boolean expression that needs no parentheses after `!`.
    fn bool_atom(&mut self, choices: &mut Choices, depth: usize) -> String {
        let expr = self.bool_expr(choices, depth);
        if expr.starts_with('(') || !expr.contains(' ') {
            expr
        } else {
            format!("({expr})")
        }
    }
}
