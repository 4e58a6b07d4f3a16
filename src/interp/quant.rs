//! Quantifiers: `forall`/`exists` evaluated by enumerating their variables, and `lambda`
//! handed to [`super::points`].
//!
//! Input: a quantifier whose variables are `bool`s or `int`s the body bounds, or whose
//! body is in the point fragment of [`super::points`]. Output: its truth value, or
//! [`EvalError::Cannot`] for anything else (never silently true).
//!
//! Two methods, the cheaper first. *Intervals*: the bounds are found in the antecedents
//! of `forall i :: A1 ==> A2 ==> P` and in the conjuncts of `exists i :: C1 && C2 && P`,
//! each antecedent split at `&&`. A conjunct `i op e` or `e op i` (`op` one of `< <= > >=
//! ==`, `e` free of the quantifier's variables) bounds `i`; `i op j` between two of its
//! variables passes bounds from one to the other (`0 <= i && i < j && j < n`). Every
//! value outside the bounds falsifies a conjunct, so makes a `forall`'s body true and an
//! `exists`'s body false: enumerating the bounded box (and evaluating the whole body,
//! guard included, at each point) gives the exact value. This handles arithmetic on the
//! variables (`a[i + 1]`). An int the bounds leave open gets an upper bound from a
//! guard that grows with it ([`super::monotone`]), or is confined to the keys of the maps
//! a guard reads it in, when the guard is false off them ([`super::support`]). *Points*:
//! when a variable is unbounded, is of an uninterpreted type, or the box is larger than
//! the steps left, and the body is in the point fragment, the product of the
//! representatives [`super::points`] gives is enumerated instead (exact by the argument
//! there). Either way the points enumerated may be at most as many as the run has steps
//! left.
//!
//! *Witnesses*, a one-sided fallback: when neither method decides and the body applies
//! a body-less function the test tabulates (a table whose default the decoder could
//! not read is opaque, so the points of [`super::points`] are unknown), the body is
//! evaluated at candidate assignments built from what the test shows (see
//! [`Evaluator::witness`] for the candidates and why one is enough). A candidate that
//! makes an `exists` body true proves the `exists`, one that makes a `forall` body false
//! refutes the `forall`; otherwise the quantifier still cannot be evaluated.

use super::eval::{as_bool, contains_opaque, Eval, EvalError, Evaluator, State};
use super::points::{self, name};
use super::theory;
use crate::sema::hir::{self, BinaryOp, ExprKind, Quantifier};
use crate::source::Span;
use crate::vc::Value;
use num_bigint::BigInt;
use num_traits::{One, ToPrimitive, Zero};
use std::collections::BTreeSet;

/// The values one variable ranges over.
#[derive(Clone, Debug)]
enum Range {
    Bools,
    /// `lo..=hi`, empty when `lo > hi`.
    Ints {
        lo: BigInt,
        hi: BigInt,
    },
    /// Representatives ([`super::points`]).
    Values(Vec<Value>),
}

impl Range {
    fn len(&self) -> BigInt {
        match self {
            Range::Bools => BigInt::from(2),
            Range::Ints { lo, hi } if lo <= hi => hi - lo + 1,
            Range::Ints { .. } => BigInt::zero(),
            Range::Values(values) => BigInt::from(values.len()),
        }
    }

    /// The value at `position`, which is below [`Range::len`].
    fn value(&self, position: u64) -> Value {
        match self {
            Range::Bools => Value::Bool(position == 1),
            Range::Ints { lo, .. } => Value::Int(lo + position),
            Range::Values(values) => values[usize::try_from(position).expect("a representative's position")].clone(),
        }
    }
}

/// A box of at most this many points is enumerated without looking for
/// representatives, which cost more to find than so few evaluations.
const SMALL_BOX: u32 = 256;

/// A bound found in the body, on variable `var` (an index into the quantifier's vars).
enum Bound<'e> {
    /// `var >= expr` (`strict`: `var > expr`).
    Lower { var: usize, expr: &'e hir::Expr, strict: bool },
    /// `var <= expr` (`strict`: `var < expr`).
    Upper { var: usize, expr: &'e hir::Expr, strict: bool },
    /// `below <= above` (`strict`: `below < above`), both variables of the quantifier.
    Order { below: usize, above: usize, strict: bool },
}

impl Evaluator<'_> {
    pub(super) fn quantifier(
        &mut self,
        (state, old): (State<'_>, bool),
        quantifier: Quantifier,
        vars: &[hir::BoundVar],
        body: &hir::Expr,
        span: Span,
    ) -> Eval<Value> {
        let forall = match quantifier {
            Quantifier::Forall => true,
            Quantifier::Exists => false,
            Quantifier::Lambda => return self.lambda((state, old), vars, body, span),
        };
        let exact = self.exactly((state, old), forall, vars, body, span);
        if !matches!(exact, Err(EvalError::Cannot { .. })) || !self.applies_tabulated(body) {
            return exact;
        }
        match self.witness((state, old), forall, vars, body)? {
            Some(decided) => Ok(decided),
            None => exact,
        }
    }

    /// The quantifier's value by intervals or points (see the module header).
    fn exactly(
        &mut self,
        (state, old): (State<'_>, bool),
        forall: bool,
        vars: &[hir::BoundVar],
        body: &hir::Expr,
        span: Span,
    ) -> Eval<Value> {
        let intervals = self.ranges((state, old), forall, vars, body, span);
        if let Ok(ranges) = &intervals {
            if size(ranges) <= BigInt::from(SMALL_BOX) {
                return self.enumerate((state, old), forall, vars, ranges, body);
            }
        }
        // A large box: the representatives may be far fewer (`0 <= i && i < n` with
        // `n` = 10,000 over a map of a few entries), and either is exact.
        let unfolded_body = points::fragment(self.program(), vars, body)
            .is_err()
            .then(|| points::unfolded(self.program(), vars, body))
            .flatten()
            .filter(|unfolded| points::fragment(self.program(), vars, unfolded).is_ok());
        let body = unfolded_body.as_ref().unwrap_or(body);
        let ranges = match points::fragment(self.program(), vars, body) {
            Ok(fragment) => {
                let candidates = self.point_candidates((state, old), vars, &fragment, span)?;
                let points: Vec<Range> = candidates.into_iter().map(Range::Values).collect();
                match intervals {
                    Ok(ranges) if size(&ranges) <= size(&points) => ranges,
                    _ => points,
                }
            }
            Err(outside) => match intervals {
                Ok(ranges) if size(&ranges) <= BigInt::from(self.steps_left()) => ranges,
                intervals => return Err(why_not(intervals, outside)),
            },
        };
        self.enumerate((state, old), forall, vars, &ranges, body)
    }

    /// Evaluates `body` at every point of the box `ranges` until one decides.
    fn enumerate(
        &mut self,
        (state, old): (State<'_>, bool),
        forall: bool,
        vars: &[hir::BoundVar],
        ranges: &[Range],
        body: &hir::Expr,
    ) -> Eval<Value> {
        let points = size(ranges);
        if points > BigInt::from(self.steps_left()) {
            return Err(EvalError::Budget { message: format!("a quantifier over {points} values") });
        }
        if points.is_zero() {
            return Ok(Value::Bool(forall));
        }
        // Every length is at most the product, which fits the steps left (a `u64`).
        let lengths: Vec<u64> =
            ranges.iter().map(|range| range.len().to_u64().expect("a length within budget")).collect();
        let mut positions = vec![0u64; ranges.len()];
        let mut refuted = false;
        loop {
            let values: Vec<Value> =
                ranges.iter().zip(&positions).map(|(range, &position)| range.value(position)).collect();
            let bindings = vars.iter().map(|var| var.id).zip(values.iter().cloned()).collect();
            let holds = self.with_bound(bindings, |this| this.eval_in(state, body, old))?;
            // forall: the first counterexample decides (more are looked for when they
            // are collected); exists: the first witness.
            if as_bool(holds, body.span)? != forall {
                if !self.note_counterexample(forall, body, values) {
                    return Ok(Value::Bool(!forall));
                }
                refuted = true;
            }
            if !advance(&lengths, &mut positions) {
                return Ok(Value::Bool(forall && !refuted));
            }
        }
    }

    /// Remembers `values` as a binding that falsifies the `forall` whose body is `body`
    /// ([`Evaluator::counterexamples`]); whether to look for more.
    fn note_counterexample(&mut self, forall: bool, body: &hir::Expr, values: Vec<Value>) -> bool {
        if !forall {
            return false;
        }
        let found = &mut self.counterexamples;
        let bindings = match found.iter_mut().find(|(span, _)| *span == body.span) {
            Some((_, bindings)) => bindings,
            None => {
                found.push((body.span, Vec::new()));
                &mut found.last_mut().expect("just pushed").1
            }
        };
        bindings.push(values);
        bindings.len() < self.collect_counterexamples
    }

    /// The range of each variable; an unbounded `int` or a variable of another type has
    /// none.
    fn ranges(
        &mut self,
        (state, old): (State<'_>, bool),
        forall: bool,
        vars: &[hir::BoundVar],
        body: &hir::Expr,
        span: Span,
    ) -> Eval<Vec<Range>> {
        let ids: Vec<hir::BoundId> = vars.iter().map(|var| var.id).collect();
        let guards = guards(forall, body);
        let (mut lower, mut upper) = self.bounded((state, old), &guards, &ids)?;
        // An int bounded below only: an upper bound from a guard that grows with it,
        // found on this state (`j * j <= a[i]`; super::monotone).
        for (index, var) in vars.iter().enumerate() {
            if let (hir::Type::Int, Some(lo), None) = (&var.ty, &lower[index], &upper[index]) {
                upper[index] = self.monotone_upper((state, old), &guards, (&ids, index), &lo.clone())?;
            }
        }
        // An int still unbounded: the keys of the maps a guard reads it in, when the
        // guard is false off them (`Inverse(Res, 1)[x]`; super::support).
        let mut supports = vec![None; vars.len()];
        for (index, var) in vars.iter().enumerate() {
            if matches!(var.ty, hir::Type::Int) && (lower[index].is_none() || upper[index].is_none()) {
                supports[index] = self.int_support((state, old), &guards, (&ids, index))?;
            }
        }
        vars.iter()
            .enumerate()
            .map(|(index, var)| match (&var.ty, lower[index].take(), upper[index].take()) {
                (hir::Type::Bool, _, _) => Ok(Range::Bools),
                (hir::Type::Int, lo, hi) if supports[index].is_some() => {
                    let keys = supports[index].take().into_iter().flatten();
                    let within =
                        |key: &BigInt| lo.as_ref().is_none_or(|lo| key >= lo) && hi.as_ref().is_none_or(|hi| key <= hi);
                    Ok(Range::Values(keys.filter(within).map(Value::Int).collect()))
                }
                // A narrow bit-vector's every value: as exact as the bounds, and cheap.
                (hir::Type::BitVector(width), _, _) if *width <= theory::ENUMERATED_WIDTH => {
                    Ok(Range::Values(theory::all_bit_vecs(*width)))
                }
                (hir::Type::Int, Some(lo), Some(hi)) => Ok(Range::Ints { lo, hi }),
                (hir::Type::Int, _, _) => Err(cannot(span, format!("a quantifier with `{}` unbounded", name(var)))),
                // The test's universe of the type, which is finite (see
                // `Evaluator::universes`): exact.
                (hir::Type::Named(ty, _), _, _) if self.universes.contains_key(ty) => {
                    let elements = &self.universes[ty];
                    Ok(Range::Values(elements.iter().map(|&index| Value::Elem { ty: *ty, index }).collect()))
                }
                _ => Err(cannot(span, format!("a quantifier over `{}`, neither int nor bool", name(var)))),
            })
            .collect()
    }

    /// The inclusive lower and upper bound of each of the variables `ids` that `guards`
    /// give on `state`, passed along the orders between them.
    fn bounded(
        &mut self,
        (state, old): (State<'_>, bool),
        guards: &[&hir::Expr],
        ids: &[hir::BoundId],
    ) -> Eval<(Bounds, Bounds)> {
        let mut lower: Bounds = vec![None; ids.len()];
        let mut upper: Bounds = vec![None; ids.len()];
        let mut orders = Vec::new();
        for bound in bounds(guards, ids) {
            match bound {
                Bound::Lower { var, expr, strict } => {
                    let value = self.bound_value((state, old), expr)? + BigInt::from(u8::from(strict));
                    tighten(&mut lower[var], value, true);
                }
                Bound::Upper { var, expr, strict } => {
                    let value = self.bound_value((state, old), expr)? - BigInt::from(u8::from(strict));
                    tighten(&mut upper[var], value, false);
                }
                Bound::Order { below, above, strict } => orders.push((below, above, strict)),
            }
        }
        propagate(&orders, &mut lower, &mut upper);
        Ok((lower, upper))
    }

    fn bound_value(&mut self, (state, old): (State<'_>, bool), expr: &hir::Expr) -> Eval<BigInt> {
        match self.eval_in(state, expr, old)? {
            Value::Int(value) => Ok(value),
            other if contains_opaque(&other) => Err(cannot(expr.span, "an opaque value bounds a quantifier")),
            _ => Err(cannot(expr.span, "a quantifier bound that is not an integer")),
        }
    }
}

/// A bound per variable of a quantifier, where the guards give one.
type Bounds = Vec<Option<BigInt>>;

/// The most candidate assignments [`Evaluator::witness`] tries: it is a fallback, and a
/// search over the product of several variables' candidates would be costly for little.
const MAX_WITNESS_POINTS: u64 = 4096;

impl Evaluator<'_> {
    /// Whether `body` applies a body-less function whose table in the test has entries.
    fn applies_tabulated(&self, body: &hir::Expr) -> bool {
        let mut functions = BTreeSet::new();
        applied_functions(body, &mut functions);
        functions.into_iter().any(|function| self.has_entries(function))
    }

    /// The quantifier's value if a candidate assignment decides it, else `None`.
    ///
    /// **Why one candidate is enough.** Every candidate is a value of its variable's type
    /// (an int, a bool, an element of the test's universe of T, which is what a
    /// quantifier over T ranges over). The body's value at a candidate is evaluated as
    /// anywhere else: exactly, or not at all (a lookup outside a table with an opaque
    /// default, say) — and a candidate whose body has no value is skipped, deciding
    /// nothing. So if the body is true at some candidate, that candidate is a witness and
    /// `exists` is true; if false, it is a counterexample and `forall` is false. The
    /// other outcomes (an `exists` body false, a `forall` body true at every candidate)
    /// say nothing about the values not tried, so they leave the quantifier undecided.
    /// Where the candidates come from only matters for how often this succeeds, never
    /// for soundness: the tables of the functions the body applies (arguments and
    /// results, which is where the model's witnesses live: `exists z :: y == grow(z)`
    /// with `y := grow(grow(x))` has the witness `grow(x)`, an argument in `grow`'s
    /// table), the values of the body's closed parts, and the scalars in scope (locals,
    /// globals, constants, outer bound variables); each int also ±1 (for strict
    /// comparisons such as `z > x`). At most [`MAX_WITNESS_POINTS`] assignments, and no
    /// search over a map variable.
    fn witness(
        &mut self,
        (state, old): (State<'_>, bool),
        forall: bool,
        vars: &[hir::BoundVar],
        body: &hir::Expr,
    ) -> Eval<Option<Value>> {
        let Some(candidates) = self.witness_candidates((state, old), vars, body)? else { return Ok(None) };
        let ranges: Vec<Range> = candidates.into_iter().map(Range::Values).collect();
        let points = size(&ranges);
        if points.is_zero() || points > BigInt::from(MAX_WITNESS_POINTS.min(self.steps_left())) {
            return Ok(None);
        }
        // Every length is at most the product, which is at most MAX_WITNESS_POINTS.
        let lengths: Vec<u64> =
            ranges.iter().map(|range| range.len().to_u64().expect("a length within the cap")).collect();
        let mut positions = vec![0u64; ranges.len()];
        let mut refuted = false;
        loop {
            let values: Vec<Value> =
                ranges.iter().zip(&positions).map(|(range, &position)| range.value(position)).collect();
            let bindings = vars.iter().map(|var| var.id).zip(values.iter().cloned()).collect();
            match self.with_bound(bindings, |this| this.eval_in(state, body, old)) {
                // exists: a witness; forall: a counterexample (more looked for when they
                // are collected).
                Ok(Value::Bool(holds)) if holds != forall => {
                    if !self.note_counterexample(forall, body, values) {
                        return Ok(Some(Value::Bool(!forall)));
                    }
                    refuted = true;
                }
                Ok(_) | Err(EvalError::Cannot { .. }) => {}
                Err(budget) => return Err(budget),
            }
            if !advance(&lengths, &mut positions) {
                return Ok(refuted.then_some(Value::Bool(false)));
            }
        }
    }

    /// The candidates of each variable (see [`Evaluator::witness`]), ascending; `None`
    /// when a variable is a map.
    fn witness_candidates(
        &mut self,
        (state, old): (State<'_>, bool),
        vars: &[hir::BoundVar],
        body: &hir::Expr,
    ) -> Eval<Option<Vec<Vec<Value>>>> {
        let mut seen = BTreeSet::new();
        let mut functions = BTreeSet::new();
        applied_functions(body, &mut functions);
        for function in functions {
            for value in self.function_values(function) {
                collect_ints(&value, &mut seen);
            }
        }
        let ids: Vec<hir::BoundId> = vars.iter().map(|var| var.id).collect();
        let mut parts = Vec::new();
        if closed_parts(body, &ids, false, &mut parts) {
            parts.push((body, false));
        }
        for (part, inside_old) in parts {
            match self.eval_in(state, part, old || inside_old) {
                Ok(value) => collect_ints(&value, &mut seen),
                // A part without a value offers no candidate; the body decides the rest.
                Err(EvalError::Cannot { .. }) => {}
                Err(budget) => return Err(budget),
            }
        }
        let globals = if old { state.old_globals } else { state.globals };
        for value in state.locals.iter().chain(globals).chain(self.values_in_scope()) {
            if !matches!(value, Value::Map(_)) {
                collect_ints(value, &mut seen);
            }
        }
        let ints: BTreeSet<BigInt> = seen.iter().flat_map(|int| [int - 1, int.clone(), int + 1]).collect();
        Ok(vars
            .iter()
            .map(|var| match &var.ty {
                hir::Type::Bool => Some(vec![Value::Bool(false), Value::Bool(true)]),
                hir::Type::Int => Some(ints.iter().cloned().map(Value::Int).collect()),
                hir::Type::Named(ty, _) => {
                    let universe = self.universes.get(ty).into_iter().flatten();
                    Some(universe.map(|&index| Value::Elem { ty: *ty, index }).collect())
                }
                hir::Type::BitVector(width) if *width <= theory::ENUMERATED_WIDTH => Some(theory::all_bit_vecs(*width)),
                hir::Type::Map(_) | hir::Type::Real | hir::Type::BitVector(_) => None,
                hir::Type::Param(_) => unreachable!("{}", crate::cfg::support::OUTSIDE_ENGINE),
            })
            .collect())
    }
}

/// Adds the ints in `value` to `ints`, map keys, values and defaults included; an
/// opaque part adds nothing.
fn collect_ints(value: &Value, ints: &mut BTreeSet<BigInt>) {
    match value {
        Value::Int(int) => {
            ints.insert(int.clone());
        }
        Value::Map(map) => {
            collect_ints(&map.default, ints);
            for (key, value) in &map.entries {
                collect_ints(key, ints);
                collect_ints(value, ints);
            }
        }
        Value::Bool(_) | Value::Real(_) | Value::BitVec { .. } | Value::Elem { .. } | Value::Opaque(_) => {}
    }
}

/// The functions `expr` applies anywhere (nested quantifiers included, function bodies
/// not entered).
pub(super) fn applied_functions(expr: &hir::Expr, found: &mut BTreeSet<hir::FunctionId>) {
    if let ExprKind::Apply { func, .. } = &expr.kind {
        found.insert(*func);
    }
    for child in subexpressions(expr) {
        applied_functions(child, found);
    }
}

/// Whether `expr` mentions none of `ids`; if it does, pushes its maximal subexpressions
/// that do not (each with whether it sits inside `old(..)`). Inside a nested quantifier
/// that mentions one of `ids`, its own variables count too: a part reading them has no
/// value on its own.
fn closed_parts<'e>(
    expr: &'e hir::Expr,
    ids: &[hir::BoundId],
    old: bool,
    found: &mut Vec<(&'e hir::Expr, bool)>,
) -> bool {
    let ids: Vec<hir::BoundId> = match &expr.kind {
        ExprKind::Var(hir::Var::Bound(id)) => return !ids.contains(id),
        ExprKind::Quant { vars, body, .. } => {
            let mut mentions = false;
            crate::cfg::uninit::for_each_var(body, &mut |var| {
                mentions |= matches!(var, hir::Var::Bound(id) if ids.contains(&id));
            });
            if !mentions {
                return true;
            }
            ids.iter().copied().chain(vars.iter().map(|var| var.id)).collect()
        }
        _ => ids.to_vec(),
    };
    let old = old || matches!(expr.kind, ExprKind::Old(_));
    let children = subexpressions(expr);
    let closed: Vec<bool> = children.iter().map(|child| closed_parts(child, &ids, old, found)).collect();
    if closed.iter().all(|&closed| closed) {
        return true;
    }
    found.extend(children.into_iter().zip(closed).filter(|&(_, closed)| closed).map(|(child, _)| (child, old)));
    false
}

/// The direct subexpressions of `expr` (a quantifier's body, not its triggers).
pub(super) fn subexpressions(expr: &hir::Expr) -> Vec<&hir::Expr> {
    match &expr.kind {
        ExprKind::Bool(_) | ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::BitVector { .. } | ExprKind::Var(_) => {
            Vec::new()
        }
        ExprKind::Apply { args, .. } => args.iter().collect(),
        ExprKind::Old(inner)
        | ExprKind::Unary { operand: inner, .. }
        | ExprKind::Extract { operand: inner, .. }
        | ExprKind::Quant { body: inner, .. } => vec![inner],
        ExprKind::Binary { lhs, rhs, .. } => vec![lhs, rhs],
        ExprKind::Select { map, indices } => std::iter::once(&**map).chain(indices).collect(),
        ExprKind::Store { map, indices, value } => std::iter::once(&**map).chain(indices).chain([&**value]).collect(),
        ExprKind::IfThenElse { cond, then_expr, else_expr } => vec![cond, then_expr, else_expr],
    }
}

fn cannot(span: Span, message: impl Into<String>) -> EvalError {
    EvalError::Cannot { span, message: message.into() }
}

/// The number of points of the box `ranges`.
fn size(ranges: &[Range]) -> BigInt {
    ranges.iter().fold(BigInt::one(), |product, range| product * range.len())
}

/// Why neither method applies: the intervals' reason and the fragment's. A box over the
/// budget stays over the budget.
fn why_not(intervals: Eval<Vec<Range>>, outside: points::Outside) -> EvalError {
    match intervals {
        Ok(ranges) => EvalError::Budget { message: format!("a quantifier over {} values", size(&ranges)) },
        Err(EvalError::Cannot { span, message }) => {
            EvalError::Cannot { span, message: format!("{message}, and {}", outside.0) }
        }
        Err(budget) => budget,
    }
}

/// For `forall x: int :: lo <= x && x < hi ==> … ==> conclusion` (the bounds in any of
/// the usual forms, closed), on `state`: `lo` (inclusive), `hi` (exclusive) and the
/// conclusion; `None` for any other formula, or bounds without a value.
pub(super) fn int_range<'e>(
    eval: &mut Evaluator<'_>,
    state: State<'_>,
    var: &hir::BoundVar,
    body: &'e hir::Expr,
) -> Option<(BigInt, BigInt, &'e hir::Expr)> {
    let (mut lower, mut upper) = eval.bounded((state, false), &guards(true, body), &[var.id]).ok()?;
    let (lo, hi) = (lower.pop()??, upper.pop()??);
    let mut conclusion = body;
    while let ExprKind::Binary { op: BinaryOp::Implies, rhs, .. } = &conclusion.kind {
        conclusion = rhs;
    }
    Some((lo, hi + 1, conclusion))
}

/// The conjuncts that must hold for the body to matter: a `forall`'s antecedents, an
/// `exists`'s conjuncts.
fn guards(forall: bool, body: &hir::Expr) -> Vec<&hir::Expr> {
    let mut found = Vec::new();
    if forall {
        let mut rest = body;
        while let ExprKind::Binary { op: BinaryOp::Implies, lhs, rhs } = &rest.kind {
            conjuncts(lhs, &mut found);
            rest = rhs;
        }
    } else {
        conjuncts(body, &mut found);
    }
    found
}

fn conjuncts<'e>(expr: &'e hir::Expr, found: &mut Vec<&'e hir::Expr>) {
    match &expr.kind {
        ExprKind::Binary { op: BinaryOp::And, lhs, rhs } => {
            conjuncts(lhs, found);
            conjuncts(rhs, found);
        }
        _ => found.push(expr),
    }
}

/// The bounds among `guards` on the variables `ids`.
fn bounds<'e>(guards: &[&'e hir::Expr], ids: &[hir::BoundId]) -> Vec<Bound<'e>> {
    let var_of = |expr: &hir::Expr| match &expr.kind {
        ExprKind::Var(hir::Var::Bound(id)) => ids.iter().position(|candidate| candidate == id),
        _ => None,
    };
    let closed = |expr: &hir::Expr| !super::monotone::mentions(expr, ids);
    let mut found = Vec::new();
    for guard in guards {
        let ExprKind::Binary { op, lhs, rhs } = &guard.kind else { continue };
        // Written as `var op expr`: `e < i` is `i > e`.
        let (op, left, right) = match (var_of(lhs), var_of(rhs)) {
            (Some(left), Some(right)) => {
                found.extend(order(*op, left, right));
                continue;
            }
            (Some(var), None) => (*op, var, &**rhs),
            (None, Some(var)) => (op.swapped(), var, &**lhs),
            (None, None) => continue,
        };
        if !closed(right) {
            continue;
        }
        match op {
            BinaryOp::Lt | BinaryOp::Le => {
                found.push(Bound::Upper { var: left, expr: right, strict: op == BinaryOp::Lt });
            }
            BinaryOp::Gt | BinaryOp::Ge => {
                found.push(Bound::Lower { var: left, expr: right, strict: op == BinaryOp::Gt });
            }
            BinaryOp::Eq => {
                found.push(Bound::Lower { var: left, expr: right, strict: false });
                found.push(Bound::Upper { var: left, expr: right, strict: false });
            }
            _ => {}
        }
    }
    found
}

/// The order `left op right` between two variables, if `op` is one.
fn order<'e>(op: BinaryOp, left: usize, right: usize) -> Option<Bound<'e>> {
    match op {
        BinaryOp::Lt | BinaryOp::Le => Some(Bound::Order { below: left, above: right, strict: op == BinaryOp::Lt }),
        BinaryOp::Gt | BinaryOp::Ge => Some(Bound::Order { below: right, above: left, strict: op == BinaryOp::Gt }),
        _ => None,
    }
}

/// Keeps the tighter of two bounds (`lower`: the larger one).
fn tighten(slot: &mut Option<BigInt>, value: BigInt, lower: bool) {
    let tighter = match slot {
        Some(current) => (lower && value > *current) || (!lower && value < *current),
        None => true,
    };
    if tighter {
        *slot = Some(value);
    }
}

/// Passes bounds along `below < above` (or `<=`): `above`'s lower bound from
/// `below`'s, `below`'s upper bound from `above`'s. Each round is sound on its own;
/// as many rounds as variables carry a bound along any chain.
fn propagate(orders: &[(usize, usize, bool)], lower: &mut [Option<BigInt>], upper: &mut [Option<BigInt>]) {
    for _ in 0..lower.len() {
        for &(below, above, strict) in orders {
            let gap = BigInt::from(u8::from(strict));
            if let Some(lo) = lower[below].clone() {
                tighten(&mut lower[above], lo + &gap, true);
            }
            if let Some(hi) = upper[above].clone() {
                tighten(&mut upper[below], hi - &gap, false);
            }
        }
    }
}

/// Steps `positions` to the next point of the box with these `lengths`, last variable
/// fastest; `false` after the last point.
fn advance(lengths: &[u64], positions: &mut [u64]) -> bool {
    for index in (0..lengths.len()).rev() {
        if positions[index] + 1 < lengths[index] {
            positions[index] += 1;
            return true;
        }
        positions[index] = 0;
    }
    false
}
