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

use super::eval::{contains_opaque, Eval, EvalError, Evaluator, State};
use super::inputs::entry;
use super::{Machine, TestInput};
use crate::sema::hir::{self, BinaryOp, ExprKind, Quantifier};
use crate::vc::Value;

/// A function an axiom defines: `function(params) == body`.
pub(super) struct Definition<'p> {
    pub function: hir::FunctionId,
    pub params: Vec<hir::BoundId>,
    pub body: &'p hir::Expr,
    /// The defining axiom, by index into the program's.
    pub axiom: usize,
}

/// The definitions among `program`'s axioms, at most one per function (the first).
pub(super) fn definitions(program: &hir::Program) -> Vec<Definition<'_>> {
    let mut found: Vec<Definition<'_>> = Vec::new();
    for (index, axiom) in program.axioms.iter().enumerate() {
        if let Some(definition) = definition(program, &axiom.expr, index) {
            if found.iter().all(|earlier| earlier.function != definition.function) {
                found.push(definition);
            }
        }
    }
    found
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
            body: defining,
            axiom,
        })
    })
}

/// Whether `expr` applies `function` anywhere.
fn applies(expr: &hir::Expr, function: hir::FunctionId) -> bool {
    let mut found = std::collections::BTreeSet::new();
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
        if self.definitions.is_empty() {
            return;
        }
        let Ok(entry) = entry(self, input) else { return };
        let mut eval = Evaluator::new(self.program, self.limits, entry.consts, &entry.functions);
        eval.definitions = &self.definitions;
        for definition in &self.definitions {
            let Some(table) = input.functions.iter_mut().find(|table| table.function == definition.function) else {
                continue;
            };
            table.default = Value::unspecified();
            for (args, result) in &mut table.entries {
                if let Ok(value) = definition_value(&mut eval, definition, args) {
                    *result = value;
                }
            }
        }
    }
}

/// `definition`'s body at `args`, when it has a value with no opaque part.
pub(super) fn definition_value(eval: &mut Evaluator<'_>, definition: &Definition<'_>, args: &[Value]) -> Eval<Value> {
    let bindings = definition.params.iter().copied().zip(args.iter().cloned()).collect();
    let value = eval.with_bound(bindings, |eval| eval.eval(State::empty(), definition.body))?;
    if contains_opaque(&value) {
        return Err(EvalError::Cannot { span: definition.body.span, message: "an opaque value".to_string() });
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
