//! Axioms that define a function, and tables made to agree with them.
//!
//! Input: a program's axioms, and a test whose tables come from a solver's candidate
//! (an `unknown` answer, model-based instantiation off). Output: the test with the
//! table of each function an axiom defines recomputed from its definition, at every
//! argument tuple the table holds.
//!
//! An axiom `forall x1, …, xn :: f(x1, …, xn) == e` (or `e == f(…)`, or `<==>`), where
//! `f` is body-less, the xi distinct and in order, and `e` does not apply `f`, fixes `f`
//! wherever `e` has a value: every test that is an execution has `f`'s table equal to
//! `e` at each tuple. Driver models state dozens (field offsets: `DeviceExtension(x) ==
//! x + 40`); z3's candidate under E-matching breaks them wherever relevancy left an
//! application uninstantiated, and the replay of such a candidate is invalid for a value
//! the axiom alone decides. Recomputing those entries changes nothing in a genuine model
//! (it satisfies the axiom) and makes a candidate's tables what the axiom says; replay
//! then runs the program on them, and the run counts for the goals it enters, whatever
//! path the candidate claimed.
//!
//! A function returning a map whose members axioms fix (`Union(S,T)[x] <==> S[x] ||
//! T[x]`, [`super::members`]) is defined the same way, its value the exact map; a
//! candidate's table of one is recomputed at each entry where the points tabulate the
//! set (and a constant's, `Empty()`, is its value); off its entries the run evaluates
//! the definition, and reads the candidate's default only where the set cannot be
//! tabulated (an infinite set), which makes the run's outcome hold only if the defining
//! axiom does (`unchecked`). A ground axiom `h(args) == e` then pins `h`'s table at
//! `args` as they evaluate on the recomputed tables (`Card(Empty()) == 0`, where the
//! candidate put its `Card` entry at its own, arbitrary, empty set).

use super::eval::{contains_opaque, Eval, EvalError, Evaluator, State};
use super::inputs::entry;
use super::{Machine, TestInput};
use crate::sema::hir::{self, BinaryOp, ExprKind, Quantifier};
use crate::vc::{FunctionModel, Value};
use std::collections::BTreeSet;

/// A function axioms define: `function(params) == body`, or, for a function returning a
/// map, its members ([`super::members`]).
pub(super) struct Definition<'p> {
    pub function: hir::FunctionId,
    pub params: Vec<hir::BoundId>,
    pub body: Body<'p>,
    /// The defining axioms, by index into the program's: one, or the two implications
    /// that together say what the members are.
    pub axioms: Vec<usize>,
}

impl Definition<'_> {
    /// Whether the axioms fix the function's members (a set), not its value.
    pub fn is_membership(&self) -> bool {
        matches!(self.body, Body::Members { .. } | Body::Constant(_))
    }
}

/// What a defined function is at its parameters.
pub(super) enum Body<'p> {
    /// `function(params) == body`.
    Value(&'p hir::Expr),
    /// `function(params) == !body`: a predicate two clauses define ([`super::clauses`]).
    Negation(&'p hir::Expr),
    /// `function(params)[indices] == body`: the map `lambda indices :: body`.
    Members { indices: Vec<hir::BoundVar>, body: &'p hir::Expr },
    /// The same map at every argument (`!Empty()[o]`: the empty set).
    Constant(Value),
}

/// The definitions among `program`'s axioms, at most one per function (the first, and
/// `f(xs) == e` before a membership, a membership before a pair of clauses).
pub(super) fn definitions(program: &hir::Program) -> Vec<Definition<'_>> {
    let mut found: Vec<Definition<'_>> = Vec::new();
    for (index, axiom) in program.axioms.iter().enumerate() {
        if let Some(definition) = definition(program, &axiom.expr, index) {
            if found.iter().all(|earlier| earlier.function != definition.function) {
                found.push(definition);
            }
        }
    }
    let defined: Vec<hir::FunctionId> = found.iter().map(|definition| definition.function).collect();
    found.extend(super::members::membership_definitions(program, &defined));
    let defined: Vec<hir::FunctionId> = found.iter().map(|definition| definition.function).collect();
    found.extend(super::clauses::clause_definitions(program, &defined));
    found
}

/// The functions whose definitions read themselves through other definitions
/// (`ReachBetween(f, x, y, z) == ReachBetweenSet(f, x, z)[y]`, the set's members being
/// `ReachBetween(f, x, y, z)`): a run evaluating one by its definition follows the
/// cycle to its depth budget, so the definition gives it no value.
pub(super) fn circular(definitions: &[Definition<'_>]) -> BTreeSet<hir::FunctionId> {
    let reads = |function: hir::FunctionId| {
        let mut found = BTreeSet::new();
        let definition = definitions.iter().find(|definition| definition.function == function);
        match definition.map(|definition| &definition.body) {
            Some(Body::Value(body) | Body::Negation(body) | Body::Members { body, .. }) => {
                super::quant::applied_functions(body, &mut found)
            }
            Some(Body::Constant(_)) | None => {}
        }
        found
    };
    let mut circular = BTreeSet::new();
    for definition in definitions {
        let mut seen = BTreeSet::new();
        let mut pending: Vec<hir::FunctionId> = reads(definition.function).into_iter().collect();
        while let Some(function) = pending.pop() {
            if function == definition.function {
                circular.insert(function);
                break;
            }
            if seen.insert(function) {
                pending.extend(reads(function));
            }
        }
    }
    circular
}

fn definition<'p>(program: &hir::Program, expr: &'p hir::Expr, axiom: usize) -> Option<Definition<'p>> {
    let ExprKind::Quant { quantifier: Quantifier::Forall, vars, body, .. } = &expr.kind else { return None };
    let ExprKind::Binary { op: BinaryOp::Eq | BinaryOp::Iff, lhs, rhs } = &body.kind else { return None };
    let params: Vec<hir::BoundId> = vars.iter().map(|var| var.id).collect();
    [(lhs, rhs), (rhs, lhs)].into_iter().find_map(|(applied, defining)| {
        let ExprKind::Apply { func, args, .. } = &applied.kind else { return None };
        let function = program.functions.get(func.index())?;
        let in_order = args.len() == params.len()
            && args
                .iter()
                .zip(&params)
                .all(|(arg, id)| matches!(arg.kind, ExprKind::Var(hir::Var::Bound(bound)) if bound == *id));
        let builtin = crate::vc::theory::builtin(function).is_some();
        (function.body.is_none() && !builtin && in_order && !applies(defining, *func)).then(|| Definition {
            function: *func,
            params: params.clone(),
            body: Body::Value(defining),
            axioms: vec![axiom],
        })
    })
}

/// Whether `expr` applies `function` anywhere.
pub(super) fn applies(expr: &hir::Expr, function: hir::FunctionId) -> bool {
    let mut found = BTreeSet::new();
    super::quant::applied_functions(expr, &mut found);
    found.contains(&function)
}

impl Machine<'_> {
    /// `input` with the table of every function an axiom defines recomputed from the
    /// definition at each tuple it holds (an entry whose definition has no value there
    /// is left as it is), and its default made unspecified: off the table, the run
    /// evaluates the definition ([`Evaluator::apply`]), and the defining axiom is
    /// checked on the entries ([`definition_holds`]). See the module header.
    pub fn agree_with_definitions(&self, input: &mut TestInput) {
        self.agree_with_definitions_noting(input, &BTreeSet::new());
    }

    /// [`Machine::agree_with_definitions`], but for the predicates `completing`, whose
    /// tables the solver completed (they are read off their tables, not their
    /// definitions); with the points at which a definition read a body-less Boolean
    /// function and found no value, or read one of `completing` off its table (see
    /// [`Machine::run_noting_off_table`]).
    pub fn agree_with_definitions_noting(
        &self,
        input: &mut TestInput,
        completing: &BTreeSet<hir::FunctionId>,
    ) -> BTreeSet<(hir::FunctionId, Vec<Value>)> {
        let mut noted = BTreeSet::new();
        if self.definitions.is_empty() {
            return noted;
        }
        // Values first, so that a membership reading a defined function at its members
        // reads what the definition says (and is no finite table when it cannot tell).
        noted.extend(self.agree_tables(input, false, completing));
        noted.extend(self.agree_tables(input, true, completing));
        self.agree_with_ground_values(input);
        noted
    }

    /// The predicates `input` leaves open, as it is or once it agrees with the
    /// definitions ([`Machine::agree_with_definitions`]): the body-less Boolean functions
    /// it tabulates that no definition evaluates, no axiom defining them and their table
    /// having no default, or their definition circular ([`circular`]; agreement leaves a
    /// defined value's table without a default). A run reads them where the test's
    /// table says nothing only as the solver decides them (`crate::gen::complete`).
    pub fn open_predicates(&self, input: &TestInput) -> BTreeSet<hir::FunctionId> {
        let open = |table: &FunctionModel| match self
            .definitions
            .iter()
            .find(|definition| definition.function == table.function)
        {
            None => table.default == Value::unspecified(),
            Some(definition) => self.circular.contains(&table.function) && !definition.is_membership(),
        };
        (input.functions.iter())
            .filter(|table| open(table))
            .filter(|table| {
                self.program.functions.get(table.function.index()).is_some_and(|f| f.result == hir::Type::Bool)
            })
            .map(|table| table.function)
            .collect()
    }

    /// [`Machine::agree_with_definitions_noting`] for the membership definitions
    /// (`members`) or the others.
    fn agree_tables(
        &self,
        input: &mut TestInput,
        members: bool,
        completing: &BTreeSet<hir::FunctionId>,
    ) -> BTreeSet<(hir::FunctionId, Vec<Value>)> {
        let Ok(entry) = entry(self, input) else { return BTreeSet::new() };
        let mut eval = Evaluator::new(self.program, self.limits, entry.consts, &entry.functions);
        eval.definitions = &self.definitions;
        eval.off_table_reads = Some(BTreeSet::new());
        eval.completing = completing.clone();
        for definition in &self.definitions {
            if definition.is_membership() != members || completing.contains(&definition.function) {
                continue;
            }
            let Some(table) = input.functions.iter_mut().find(|table| table.function == definition.function) else {
                continue;
            };
            if members && definition.params.is_empty() {
                // A constant's table is its value, as a default.
                if let Ok(value) = definition_value(&mut eval, definition, &[]) {
                    *table = FunctionModel { entries: Vec::new(), default: value, ..table.clone() };
                }
                continue;
            }
            let values: Vec<Eval<Value>> =
                table.entries.iter().map(|(args, _)| definition_value(&mut eval, definition, args)).collect();
            // A membership keeps the candidate's default: off the entries the run
            // evaluates the definition, and reads the default only where the points
            // cannot tabulate the set (an infinite set, an opaque map; the run's
            // outcome then holds only if the defining axiom does, `Evaluator::off_table`).
            // An entry where the definition has no value is kept likewise, and the
            // defining axiom, judged on the entries, is then undecided.
            if !members {
                table.default = Value::unspecified();
            }
            for ((_, result), value) in table.entries.iter_mut().zip(values) {
                if let Ok(value) = value {
                    *result = value;
                }
            }
        }
        eval.off_table_reads.take().unwrap_or_default()
    }

    /// `input` with the entry of each ground axiom `h(args) == e` (`h` body-less, not
    /// defined, tabulated by the test) set to `e` at `args`, both evaluated on the
    /// tables the definitions made: `Card(Empty()) == 0` pins `Card` at the empty set
    /// the definition of `Empty` now gives, wherever the candidate had put it.
    fn agree_with_ground_values(&self, input: &mut TestInput) {
        let pins: Vec<(hir::FunctionId, &[hir::Expr], &hir::Expr)> =
            self.program.axioms.iter().filter_map(|axiom| self.ground_value(&axiom.expr)).collect();
        if pins.is_empty() {
            return;
        }
        let Ok(entry) = entry(self, input) else { return };
        let mut eval = Evaluator::new(self.program, self.limits, entry.consts, &entry.functions);
        eval.definitions = &self.definitions;
        for (function, args, value) in pins {
            let evaluated = args.iter().map(|arg| eval.eval(State::empty(), arg)).collect::<Eval<Vec<Value>>>();
            let (Ok(args), Ok(value)) = (evaluated, eval.eval(State::empty(), value)) else { continue };
            if args.iter().chain([&value]).any(contains_opaque) {
                continue;
            }
            let Some(table) = input.functions.iter_mut().find(|table| table.function == function) else { continue };
            match table.entries.binary_search_by(|(key, _)| key.cmp(&args)) {
                Ok(position) => table.entries[position].1 = value,
                Err(_) if value == table.default => {}
                Err(position) => table.entries.insert(position, (args, value)),
            }
        }
    }

    /// `expr` as `h(args) == e` (either side), `h` body-less, no builtin and no defined
    /// function, with no bound variable anywhere.
    fn ground_value<'e>(&self, expr: &'e hir::Expr) -> Option<(hir::FunctionId, &'e [hir::Expr], &'e hir::Expr)> {
        let ExprKind::Binary { op: BinaryOp::Eq | BinaryOp::Iff, lhs, rhs } = &expr.kind else { return None };
        let mut ground = true;
        crate::cfg::uninit::for_each_var(expr, &mut |var| ground &= !matches!(var, hir::Var::Bound(_)));
        if !ground {
            return None;
        }
        [(lhs, rhs), (rhs, lhs)].into_iter().find_map(|(applied, value)| {
            let ExprKind::Apply { func, args, .. } = &applied.kind else { return None };
            let function = self.program.functions.get(func.index())?;
            let tabulated = function.body.is_none() && crate::vc::theory::builtin(function).is_none();
            let defined = self.definitions.iter().any(|definition| definition.function == *func);
            (tabulated && !defined).then_some((*func, args.as_slice(), &**value))
        })
    }
}

/// `definition`'s body at `args`, when it has a value with no opaque part.
pub(super) fn definition_value(eval: &mut Evaluator<'_>, definition: &Definition<'_>, args: &[Value]) -> Eval<Value> {
    let bindings = definition.params.iter().copied().zip(args.iter().cloned()).collect();
    let value = eval.with_bound(bindings, |eval| match &definition.body {
        Body::Value(body) => eval.eval(State::empty(), body),
        Body::Negation(body) => match eval.eval(State::empty(), body)? {
            Value::Bool(value) => Ok(Value::Bool(!value)),
            other => Ok(other),
        },
        Body::Members { indices, body } => {
            eval.lambda((State::empty(), false), indices, body, body.span).map_err(|error| match error {
                EvalError::Cannot { span, message } => {
                    let name = &eval.program().functions[definition.function.index()].name;
                    EvalError::Cannot { span, message: format!("the members of `{name}` its axioms define: {message}") }
                }
                budget => budget,
            })
        }
        Body::Constant(value) => Ok(value.clone()),
    })?;
    if contains_opaque(&value) {
        let span = eval.program().axioms[definition.axioms[0]].span;
        return Err(EvalError::Cannot { span, message: "an opaque value".to_string() });
    }
    Ok(value)
}

/// Whether a table whose default is unspecified agrees with `definition` at each of its
/// entries: the defining axiom on such a test (off the entries the run evaluates the
/// definition itself).
pub(super) fn definition_holds(
    eval: &mut Evaluator<'_>,
    definition: &Definition<'_>,
    entries: &[(Vec<Value>, Value)],
) -> Eval<bool> {
    for (args, result) in entries {
        if definition_value(eval, definition, args)? != *result {
            return Ok(false);
        }
    }
    Ok(true)
}
