//! Expressions → [`Value`]s, for the interpreter.
//!
//! Input: a checked expression and the [`State`] it reads (locals by `LocalId`, globals
//! by `GlobalId`, the `old` globals). Output: its value, or why it has none
//! ([`EvalError`]). Every evaluated node is a step of the run's budget; every
//! application of a function with a body is a level of its depth budget.
//!
//! Values stay canonical: maps are built only through [`with_entry`] and
//! [`MapValue::new`], so equality of values is equality of the (extensional) maps. The
//! semantics is listed in the module header of [`super`].

use super::define::Definition;
use super::{theory, Limits};
use crate::sema::hir::{self, BinaryOp, ExprKind, UnaryOp};
use crate::source::Span;
use crate::vc::theory::{Builtin, Op};
use crate::vc::{FunctionModel, MapValue, Value};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Instant;

/// Integers beyond this many bits stop the run as over budget: the step budget counts
/// operations, not their size, and `x := x * x` in a loop doubles the size each time.
const MAX_INT_BITS: u64 = 1 << 20;

/// The deepest nesting of expression evaluations (the native stack's depth): function
/// bodies nest inside applications, so `max_depth` recursive calls of a deep body could
/// otherwise exhaust even the 256 MiB stack `main` runs on.
const MAX_NESTING: u32 = 20_000;

/// How many steps pass between two looks at [`Limits::deadline`].
const DEADLINE_STEPS: u64 = 1 << 12;

/// The program state an expression reads.
#[derive(Clone, Copy)]
pub(super) struct State<'s> {
    pub locals: &'s [Value],
    pub globals: &'s [Value],
    pub old_globals: &'s [Value],
}

impl State<'static> {
    /// No program variables: axioms and function bodies read none.
    pub fn empty() -> State<'static> {
        State { locals: &[], globals: &[], old_globals: &[] }
    }
}

/// Why an expression has no value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum EvalError {
    /// Something outside what the interpreter evaluates exactly, at `span`.
    Cannot { span: Span, message: String },
    /// Over a limit; the caller knows the command to blame.
    Budget { message: String },
}

pub(super) type Eval<T> = Result<T, EvalError>;

fn cannot<T>(span: Span, message: impl Into<String>) -> Eval<T> {
    Err(EvalError::Cannot { span, message: message.into() })
}

/// A body-less function's table, ready for lookups.
struct Table {
    entries: BTreeMap<Vec<Value>, Value>,
    /// The result off `entries`; `None` in a table of the points a run read
    /// ([`Evaluator::on_reads`]), where an application off them has no value.
    default: Option<Value>,
}

/// The points of body-less functions a run applied them at, with their results.
pub(super) type Reads = BTreeMap<hir::FunctionId, BTreeMap<Vec<Value>, Value>>;

/// Evaluates expressions of one program for one run; counts the run's steps.
pub(super) struct Evaluator<'p> {
    program: &'p hir::Program,
    consts: Vec<Value>,
    /// By `FunctionId`; `None`: the function has a body, or the test gives no table.
    tables: Vec<Option<Table>>,
    /// The builtin each function is bound to, by `FunctionId`.
    builtins: Vec<Option<Builtin>>,
    /// The bound variables in scope, innermost last (ids are unique program-wide, and a
    /// recursive function's inner binding shadows the outer one).
    bound: Vec<(hir::BoundId, Value)>,
    limits: Limits,
    pub steps: u64,
    /// Procedure frames beyond the entry plus applications of functions with a body.
    depth: u32,
    /// Expression evaluations in progress (see [`MAX_NESTING`]).
    nesting: u32,
    /// Per uninterpreted type, its elements in this test: those its values mention and
    /// element 0 (every type's default). A test is a finite structure; quantifiers over
    /// `T` range over exactly these (an axiom such as `c == Red || c == Green || c ==
    /// Blue` holds in it as in the solver's model).
    pub universes: BTreeMap<hir::TypeId, BTreeSet<u32>>,
    /// When set, the integer operands of the comparisons evaluated, in order, up to
    /// [`MAX_OPERANDS`] ([`super::Machine::run_observing`]).
    pub operands: Option<Vec<(BigInt, BigInt)>>,
    /// When set, every application of a body-less function evaluated, with its result:
    /// the part of the test's tables the run observes (see `exec::Runner::axioms`).
    pub reads: Option<Reads>,
    /// The functions axioms define, evaluated by their definition where the test's
    /// table does not say ([`super::define`]).
    pub definitions: &'p [Definition<'p>],
    /// The bindings found to make a `forall`'s body false, by the span of that body:
    /// after a closed formula `forall xs :: body` evaluates to false, values of `xs`
    /// where `body` is. What [`crate::interp::Refutation`] reports.
    pub counterexamples: Vec<(Span, Vec<Vec<Value>>)>,
    /// How many bindings to look for before a `forall` is found false: one (the first
    /// decides) unless a refutation is being collected ([`MAX_COUNTEREXAMPLES`]).
    pub collect_counterexamples: usize,
    /// The first set axioms define by membership (`super::members`) that the run read
    /// off its definition, from the candidate's table, where the definition cannot
    /// tabulate it (an infinite set): its defining axioms hold there only if that
    /// table agrees with them, which replay cannot decide.
    pub set_read_off_definition: Option<hir::FunctionId>,
    /// When set, the points at which the run read a body-less Boolean function and
    /// found no value (its table says nothing there, nor does its definition), or read
    /// one of [`Evaluator::completing`] off its table, up to [`MAX_OFF_TABLE_READS`]
    /// ([`super::Machine::run_noting_off_table`]).
    pub off_table_reads: Option<BTreeSet<(hir::FunctionId, Vec<Value>)>>,
    /// Predicates whose tables were completed: every read off their entries is noted.
    pub completing: BTreeSet<hir::FunctionId>,
}

/// The most points off the tables a run notes ([`Evaluator::off_table_reads`]).
pub(super) const MAX_OFF_TABLE_READS: usize = 256;

/// The most bindings a refutation collects of one `forall` (each an instance the
/// session may assert, [`crate::smt::refine`]).
pub(super) const MAX_COUNTEREXAMPLES: usize = 16;

/// The most comparisons a run observing its operands records.
pub(super) const MAX_OPERANDS: usize = 4096;

impl<'p> Evaluator<'p> {
    /// `consts` by `ConstId`; `functions`: validated tables of body-less functions.
    pub fn new(program: &'p hir::Program, limits: Limits, consts: Vec<Value>, functions: &[FunctionModel]) -> Self {
        let mut tables: Vec<Option<Table>> = program.functions.iter().map(|_| None).collect();
        for model in functions {
            let entries = model.entries.iter().cloned().collect();
            if let Some(slot) = tables.get_mut(model.function.index()) {
                *slot = Some(Table { entries, default: Some(model.default.clone()) });
            }
        }
        let builtins = crate::vc::theory::builtins(program);
        Evaluator::with_tables(program, limits, consts, (tables, builtins))
    }

    /// An evaluator that knows of each body-less function only the points of `reads`:
    /// an application anywhere else has no value ([`EvalError::Cannot`]). A formula it
    /// finds false is false however the tables are extended beyond those points.
    pub fn on_reads(program: &'p hir::Program, limits: Limits, consts: Vec<Value>, reads: &Reads) -> Self {
        let builtins = crate::vc::theory::builtins(program);
        let tables = program
            .functions
            .iter()
            .enumerate()
            .map(|(index, function)| {
                let tabulated = function.body.is_none() && builtins[index].is_none();
                tabulated.then(|| {
                    let read = reads.get(&hir::FunctionId::from_index(index));
                    let entries = read.into_iter().flatten().map(|(args, result)| (args.clone(), explicit(result)));
                    Table { entries: entries.collect(), default: None }
                })
            })
            .collect();
        Evaluator::with_tables(program, limits, consts, (tables, builtins))
    }

    fn with_tables(
        program: &'p hir::Program,
        limits: Limits,
        consts: Vec<Value>,
        (tables, builtins): (Vec<Option<Table>>, Vec<Option<Builtin>>),
    ) -> Self {
        Evaluator {
            program,
            consts,
            tables,
            builtins,
            bound: Vec::new(),
            limits,
            steps: 0,
            depth: 0,
            nesting: 0,
            universes: BTreeMap::new(),
            operands: None,
            reads: None,
            definitions: &[],
            counterexamples: Vec::new(),
            set_read_off_definition: None,
            off_table_reads: None,
            completing: BTreeSet::new(),
            collect_counterexamples: 1,
        }
    }

    /// One step of the budget.
    pub fn tick(&mut self) -> Eval<()> {
        self.charge(1)
    }

    /// `steps` steps of the budget at once (work not done by evaluating nodes, such as
    /// filling a lambda's table).
    pub fn charge(&mut self, steps: u64) -> Eval<()> {
        let before = self.steps;
        self.steps = self.steps.saturating_add(steps);
        if self.steps > self.limits.max_steps {
            return Err(EvalError::Budget { message: format!("more than {} steps", self.limits.max_steps) });
        }
        // The clock is read once per DEADLINE_STEPS steps: a run's time is mostly steps.
        let crossed = before / DEADLINE_STEPS != self.steps / DEADLINE_STEPS;
        if crossed && self.limits.deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            return Err(EvalError::Budget { message: "the run's time limit was reached".to_string() });
        }
        Ok(())
    }

    pub fn program(&self) -> &'p hir::Program {
        self.program
    }

    /// Every value in the table of the body-less function `func` (arguments, results
    /// and default), or its result type's default when the test gives no table: all a
    /// body can observe by applying it. A function axioms define whose table has no
    /// default (the points a run read) takes its other values from its definition,
    /// which no table lists: an opaque value then says the values are unknown.
    pub fn function_values(&self, func: hir::FunctionId) -> Vec<Value> {
        match self.tables.get(func.index()).and_then(Option::as_ref) {
            Some(table) => {
                let rows = table.entries.iter().flat_map(|(args, result)| args.iter().chain([result]));
                let defined = self.is_defined(func);
                let off_table = match &table.default {
                    None if defined => Some(Value::unspecified()),
                    default => default.clone(),
                };
                rows.cloned().chain(off_table).collect()
            }
            None if self.is_defined(func) => vec![Value::unspecified()],
            None => self.program.functions.get(func.index()).map(|f| default_value(&f.result)).into_iter().collect(),
        }
    }

    /// Whether axioms define `func` ([`Evaluator::definitions`]).
    fn is_defined(&self, func: hir::FunctionId) -> bool {
        self.definitions.iter().any(|definition| definition.function == func)
    }

    /// Whether the test gives the body-less function `func` a table with at least one
    /// entry.
    pub fn has_entries(&self, func: hir::FunctionId) -> bool {
        self.tables.get(func.index()).and_then(Option::as_ref).is_some_and(|table| !table.entries.is_empty())
    }

    /// The values of the constants and of the bound variables in scope (outer
    /// quantifiers' variables, function parameters).
    pub fn values_in_scope(&self) -> impl Iterator<Item = &Value> {
        self.consts.iter().chain(self.bound.iter().map(|(_, value)| value))
    }

    /// The steps left before the budget runs out.
    pub fn steps_left(&self) -> u64 {
        self.limits.max_steps.saturating_sub(self.steps)
    }

    /// One more level of calls; over `max_depth` stops the run.
    pub fn deeper(&mut self) -> Eval<()> {
        if self.depth >= self.limits.max_depth {
            return Err(EvalError::Budget { message: format!("calls nested deeper than {}", self.limits.max_depth) });
        }
        self.depth += 1;
        Ok(())
    }

    pub fn shallower(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    pub fn eval_bool(&mut self, state: State<'_>, expr: &hir::Expr) -> Eval<bool> {
        let value = self.eval(state, expr)?;
        as_bool(value, expr.span)
    }

    pub fn eval(&mut self, state: State<'_>, expr: &hir::Expr) -> Eval<Value> {
        self.eval_in(state, expr, false)
    }

    /// `old`: inside `old(..)`, where globals read their values at frame entry.
    pub fn eval_in(&mut self, state: State<'_>, expr: &hir::Expr, old: bool) -> Eval<Value> {
        self.tick()?;
        if self.nesting >= MAX_NESTING {
            return Err(EvalError::Budget { message: format!("expressions nested deeper than {MAX_NESTING}") });
        }
        self.nesting += 1;
        let result = self.node(state, expr, old);
        self.nesting -= 1;
        result
    }

    fn node(&mut self, state: State<'_>, expr: &hir::Expr, old: bool) -> Eval<Value> {
        let span = expr.span;
        match &expr.kind {
            ExprKind::Bool(value) => Ok(Value::Bool(*value)),
            ExprKind::Int(value) => Ok(Value::Int(value.clone())),
            ExprKind::Var(var) => self.var(state, *var, old, span),
            ExprKind::Old(inner) => self.eval_in(state, inner, true),
            ExprKind::Real(value) => Ok(Value::Real(value.clone())),
            ExprKind::BitVector { value, width } => Ok(Value::BitVec { value: value.clone(), width: *width }),
            ExprKind::Extract { operand, high, low } => {
                let value = self.eval_in(state, operand, old)?;
                operation(Op::Extract { high: high - 1, low: *low }, vec![value], span)
            }
            ExprKind::Apply { func, args, .. } => {
                let args = args.iter().map(|arg| self.eval_in(state, arg, old)).collect::<Eval<Vec<_>>>()?;
                self.apply(*func, args, span)
            }
            ExprKind::Unary { op, operand } => {
                let value = self.eval_in(state, operand, old)?;
                match op {
                    UnaryOp::Not => Ok(Value::Bool(!as_bool(value, span)?)),
                    UnaryOp::Neg => match value {
                        Value::Real(real) => Ok(Value::Real(-real)),
                        other => Ok(Value::Int(-as_int(other, span)?)),
                    },
                    UnaryOp::ToInt => operation(Op::ToInt, vec![value], span),
                    UnaryOp::ToReal => operation(Op::ToReal, vec![value], span),
                }
            }
            ExprKind::Binary { op, lhs, rhs } => self.binary(state, old, *op, (lhs, rhs), span),
            ExprKind::Select { map, indices } => self.select(state, old, map, indices, span),
            ExprKind::Store { map, indices, value } => {
                let map = self.eval_in(state, map, old)?;
                let keys = self.keys(state, indices, old)?;
                let value = self.eval_in(state, value, old)?;
                store(&map, &keys, value, span)
            }
            ExprKind::IfThenElse { cond, then_expr, else_expr } => {
                // Short-circuit: the branch not taken may be undefined (`x != 0 ? 1 div x`).
                let taken = if as_bool(self.eval_in(state, cond, old)?, span)? { then_expr } else { else_expr };
                self.eval_in(state, taken, old)
            }
            ExprKind::Quant { quantifier, vars, body, .. } => {
                self.quantifier((state, old), *quantifier, vars, body, span)
            }
        }
    }

    /// `map[indices]`; a map held by a variable is read in place, not copied (replay
    /// reads arrays of thousands of entries inside quantifiers), and so is each row of
    /// a selection from it (`m[i][j]` copies no row of `m`).
    fn select(
        &mut self,
        state: State<'_>,
        old: bool,
        map: &hir::Expr,
        indices: &[hir::Expr],
        span: Span,
    ) -> Eval<Value> {
        let Some(HeldChain { var, var_old, steps, rows }) = held_chain(map, old) else {
            let map = self.eval_in(state, map, old)?;
            let keys = self.keys(state, indices, old)?;
            return select(&map, &keys, span);
        };
        // The steps the map operand would have taken as an expression.
        self.charge(steps)?;
        let mut keys = Vec::new();
        for (indices, old) in rows.into_iter().chain([(indices, old)]) {
            keys.extend(self.keys(state, indices, old)?);
        }
        match self.lookup(state, var, var_old) {
            Some(value) => select(value, &keys, span),
            None => cannot(span, "a variable with no value here"),
        }
    }

    /// The entry of the test's table of `func` at `args`, if it has one there.
    pub(super) fn table_entry(&self, func: hir::FunctionId, args: &[Value]) -> Option<Value> {
        self.tables.get(func.index())?.as_ref()?.entries.get(args).cloned()
    }

    /// When `expr` reads a variable a test can set (a global or a local, not under
    /// `old`), or a cell of one (`v[k1][k2]…`): the variable, the keys (none for the
    /// variable itself) and the value read; `None` where a key has no value.
    pub(super) fn variable_cell(
        &mut self,
        state: State<'_>,
        expr: &hir::Expr,
    ) -> Option<(hir::Var, Vec<Value>, Value)> {
        let HeldChain { var, var_old: false, rows, .. } = held_chain(expr, false)? else { return None };
        if !matches!(var, hir::Var::Global(_) | hir::Var::Local(_)) {
            return None;
        }
        let mut keys = Vec::new();
        for (indices, old) in rows {
            keys.extend(self.keys(state, indices, old).ok()?);
        }
        let read = select(self.lookup(state, var, false)?, &keys, expr.span).ok()?;
        Some((var, keys, read))
    }

    fn keys(&mut self, state: State<'_>, indices: &[hir::Expr], old: bool) -> Eval<Vec<Value>> {
        indices.iter().map(|index| self.eval_in(state, index, old)).collect()
    }

    fn var(&self, state: State<'_>, var: hir::Var, old: bool, span: Span) -> Eval<Value> {
        match self.lookup(state, var, old) {
            Some(value) => Ok(value.clone()),
            // The checker rules this out (no state in axioms and function bodies); a
            // wrong program must still not crash the interpreter.
            None => cannot(span, "a variable with no value here"),
        }
    }

    fn lookup<'s>(&'s self, state: State<'s>, var: hir::Var, old: bool) -> Option<&'s Value> {
        match var {
            hir::Var::Const(id) => self.consts.get(id.index()),
            hir::Var::Global(id) if old => state.old_globals.get(id.index()),
            hir::Var::Global(id) => state.globals.get(id.index()),
            hir::Var::Local(id) => state.locals.get(id.index()),
            hir::Var::Bound(id) => self.bound.iter().rev().find(|(bound, _)| *bound == id).map(|(_, value)| value),
        }
    }

    /// Binds `vars` to `values` (innermost last) while `f` runs.
    pub fn with_bound<T>(&mut self, bindings: Vec<(hir::BoundId, Value)>, f: impl FnOnce(&mut Self) -> T) -> T {
        let mark = self.bound.len();
        self.bound.extend(bindings);
        let result = f(self);
        self.bound.truncate(mark);
        result
    }

    /// Records the operands of an integer comparison, when the run observes them.
    fn observe(&mut self, left: &Value, right: &Value) {
        if let (Some(operands), Value::Int(left), Value::Int(right)) = (&mut self.operands, left, right) {
            if operands.len() < MAX_OPERANDS {
                operands.push((left.clone(), right.clone()));
            }
        }
    }

    fn binary(
        &mut self,
        state: State<'_>,
        old: bool,
        op: BinaryOp,
        (lhs, rhs): (&hir::Expr, &hir::Expr),
        span: Span,
    ) -> Eval<Value> {
        let left = self.eval_in(state, lhs, old)?;
        // Short-circuit: `i < n && a[i] > 0` never evaluates `a[i]` out of range.
        let decided = match op {
            BinaryOp::And => (!as_bool(left.clone(), span)?).then_some(false),
            BinaryOp::Or => as_bool(left.clone(), span)?.then_some(true),
            BinaryOp::Implies => (!as_bool(left.clone(), span)?).then_some(true),
            _ => None,
        };
        if let Some(result) = decided {
            return Ok(Value::Bool(result));
        }
        let right = self.eval_in(state, rhs, old)?;
        match op {
            BinaryOp::And | BinaryOp::Or | BinaryOp::Implies => Ok(Value::Bool(as_bool(right, span)?)),
            BinaryOp::Iff | BinaryOp::Eq => {
                self.observe(&left, &right);
                Ok(Value::Bool(equal(&left, &right, span)?))
            }
            BinaryOp::Neq => {
                self.observe(&left, &right);
                Ok(Value::Bool(!equal(&left, &right, span)?))
            }
            BinaryOp::Subtype => cannot(span, "the partial order `<:` is uninterpreted"),
            BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => {
                self.observe(&left, &right);
                if let (Value::Real(left), Value::Real(right)) = (&left, &right) {
                    return Ok(Value::Bool(compare(op, left, right)));
                }
                let (left, right) = (as_int(left, span)?, as_int(right, span)?);
                Ok(Value::Bool(compare(op, &left, &right)))
            }
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::RealDiv
                if matches!((&left, &right), (Value::Real(_), Value::Real(_))) =>
            {
                let (Value::Real(left), Value::Real(right)) = (left, right) else { unreachable!("matched above") };
                real_arithmetic(op, &left, &right, span).map(Value::Real)
            }
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod => {
                let result = arithmetic(op, as_int(left, span)?, as_int(right, span)?, span)?;
                if result.bits() > MAX_INT_BITS {
                    return Err(EvalError::Budget { message: format!("an integer of more than {MAX_INT_BITS} bits") });
                }
                Ok(Value::Int(result))
            }
            BinaryOp::RealDiv => cannot(span, unexpected(&left, "a real")),
            BinaryOp::Power => operation(Op::RealPow, vec![left, right], span),
            BinaryOp::Concat => operation(Op::Concat, vec![left, right], span),
        }
    }

    fn apply(&mut self, func: hir::FunctionId, args: Vec<Value>, span: Span) -> Eval<Value> {
        let program = self.program;
        let Some(function) = program.functions.get(func.index()) else { return cannot(span, "an unknown function") };
        match self.builtins.get(func.index()).copied().flatten() {
            Some(Builtin::Op(op)) => return operation(op, args, span),
            Some(Builtin::Arith(op)) => {
                let [left, right] = <[Value; 2]>::try_from(args).map_err(|_| EvalError::Cannot {
                    span,
                    message: format!("`{}` takes two arguments", function.name),
                })?;
                let binary = match op {
                    crate::vc::term::ArithOp::Div => BinaryOp::Div,
                    _ => BinaryOp::Mod,
                };
                return arithmetic(binary, as_int(left, span)?, as_int(right, span)?, span).map(Value::Int);
            }
            None => {}
        }
        if let Some(body) = &function.body {
            // A definition may recurse without end on the test's values (AutoProof's
            // `in_domain` along a cycle of owners): say whose recursion it was.
            self.deeper().map_err(|_| EvalError::Budget {
                message: format!(
                    "applications of `{}` nested deeper than {} (a recursive definition that may not terminate on the test's values)",
                    function.name, self.limits.max_depth
                ),
            })?;
            let bindings = function.params.iter().map(|param| param.id).zip(args).collect();
            let result = self.with_bound(bindings, |this| this.eval(State::empty(), body));
            self.shallower();
            return result;
        }
        if args.iter().any(contains_opaque) {
            return cannot(span, format!("`{}` applied to an opaque value", function.name));
        }
        let found = match self.tables.get(func.index()).and_then(Option::as_ref) {
            Some(table) => match table.entries.get(&args) {
                Some(result) => Some(result.clone()),
                None => {
                    if self.completing.contains(&func) {
                        self.note_off_table(func, &args);
                    }
                    self.off_table(func, &args)?
                }
            },
            // A function axioms define that the test gives no table (a candidate's
            // model leaves out a function E-matching never applied) is its definition.
            None if self.is_defined(func) => None,
            None => Some(default_value(&function.result)),
        };
        let result = match found {
            Some(Value::Opaque(_)) | None if self.is_defined(func) => {
                self.defined(func, &args).inspect_err(|error| {
                    if matches!(error, EvalError::Cannot { .. }) {
                        self.note_off_table(func, &args);
                    }
                })?
            }
            Some(Value::Opaque(_)) | None => {
                self.note_off_table(func, &args);
                match found {
                    Some(opaque) => opaque,
                    None => return cannot(span, format!("`{}` at a point the run does not read", function.name)),
                }
            }
            Some(result) => result,
        };
        if let Some(reads) = &mut self.reads {
            reads.entry(func).or_default().insert(args, result.clone());
        }
        Ok(result)
    }
}

/// `value` known only where it is explicit: a map's default (at every depth) made opaque.
/// A map a run read as a function's result is a finite table standing for a value the
/// solver only constrained at some points (`AtLeast(n, x)`, a set), so off its entries
/// it says nothing on reads ([`Evaluator::on_reads`]).
fn explicit(value: &Value) -> Value {
    match value {
        Value::Map(map) => {
            let entries = map.entries.iter().map(|(key, value)| (key.clone(), explicit(value))).collect();
            Value::Map(MapValue {
                entries,
                default: Box::new(Value::Opaque("off the entries the run read".to_string())),
            })
        }
        other => other.clone(),
    }
}

impl Evaluator<'_> {
    /// The body-less `func` at `args` off its table's entries: for a set axioms define
    /// by membership, the exact set its definition tabulates there (a candidate's
    /// default is an arbitrary set: `Inverse(f, 1)` at an `f` z3 never applied it to),
    /// else, or where the definition cannot tabulate it (an infinite set), the table's
    /// default, as for any function.
    /// Notes a read of `func` at `args`, off its table, when the run notes them and
    /// `func` is a predicate.
    fn note_off_table(&mut self, func: hir::FunctionId, args: &[Value]) {
        let Some(reads) = &mut self.off_table_reads else { return };
        let predicate = self.program.functions.get(func.index()).is_some_and(|f| f.result == hir::Type::Bool);
        if predicate && reads.len() < MAX_OFF_TABLE_READS {
            reads.insert((func, args.to_vec()));
        }
    }

    fn off_table(&mut self, func: hir::FunctionId, args: &[Value]) -> Eval<Option<Value>> {
        let table = self.tables.get(func.index()).and_then(Option::as_ref);
        let default = table.and_then(|table| table.default.clone());
        let by_membership = self.definitions.iter().any(|found| found.function == func && found.is_membership());
        if !by_membership {
            return Ok(default);
        }
        match (self.defined(func, args), default) {
            (Ok(value), _) => Ok(Some(value)),
            // A default that says nothing leaves the definition's reason.
            (Err(cannot @ EvalError::Cannot { .. }), None | Some(Value::Opaque(_))) => Err(cannot),
            (Err(EvalError::Cannot { .. }), Some(default)) => {
                self.set_read_off_definition.get_or_insert(func);
                Ok(Some(default))
            }
            (Err(budget), _) => Err(budget),
        }
    }

    /// The body-less `func`, which an axiom defines, at `args`: its definition, as a
    /// level of the depth budget (definitions may read one another).
    fn defined(&mut self, func: hir::FunctionId, args: &[Value]) -> Eval<Value> {
        let definitions = self.definitions;
        let definition = definitions.iter().find(|found| found.function == func).expect("a definition was found");
        self.deeper()?;
        let value = super::define::definition_value(self, definition, args);
        self.shallower();
        value
    }
}

pub(super) fn as_bool(value: Value, span: Span) -> Eval<bool> {
    match value {
        Value::Bool(value) => Ok(value),
        other => cannot(span, unexpected(&other, "a boolean")),
    }
}

fn as_int(value: Value, span: Span) -> Eval<BigInt> {
    match value {
        Value::Int(value) => Ok(value),
        other => cannot(span, unexpected(&other, "an integer")),
    }
}

/// Inputs are type-checked before a run, so only an opaque value (a solver's term the
/// decoder could not tabulate) gets here in practice.
fn unexpected(value: &Value, wanted: &str) -> String {
    match value {
        Value::Opaque(text) => format!("an opaque value (`{text}`) is used"),
        _ => format!("a value of the wrong type where {wanted} is needed"),
    }
}

pub(super) fn contains_opaque(value: &Value) -> bool {
    match value {
        Value::Opaque(_) => true,
        Value::Map(map) => {
            contains_opaque(&map.default)
                || map.entries.iter().any(|(key, value)| contains_opaque(key) || contains_opaque(value))
        }
        Value::Bool(_) | Value::Int(_) | Value::Real(_) | Value::BitVec { .. } | Value::Elem { .. } => false,
    }
}

/// Equality of canonical values is structural; an opaque part makes it unknown. A map
/// over `bool` keys is the one exception: both keys can be in its table, so one function
/// has two tables (`{false: 1}` with default 0 is `{true: 0}` with default 1). Such maps
/// are compared in the form without a `false` key, the form lambdas are built in.
fn equal(left: &Value, right: &Value, span: Span) -> Eval<bool> {
    if contains_opaque(left) || contains_opaque(right) {
        return cannot(span, "an opaque value is compared");
    }
    if has_false_key(left) || has_false_key(right) {
        return Ok(without_false_keys(left) == without_false_keys(right));
    }
    Ok(left == right)
}

fn has_false_key(value: &Value) -> bool {
    let Value::Map(map) = value else { return false };
    has_false_key(&map.default)
        || map
            .entries
            .iter()
            .any(|(key, value)| *key == Value::Bool(false) || has_false_key(key) || has_false_key(value))
}

/// `value` with every map over `bool` keys in the form whose default is the value at
/// `false`.
fn without_false_keys(value: &Value) -> Value {
    let Value::Map(map) = value else { return value.clone() };
    let mut entries: Vec<(Value, Value)> =
        map.entries.iter().map(|(key, value)| (without_false_keys(key), without_false_keys(value))).collect();
    let default = without_false_keys(&map.default);
    let Some(position) = entries.iter().position(|(key, _)| *key == Value::Bool(false)) else {
        return Value::Map(MapValue::new(entries, default));
    };
    let at_false = entries.remove(position).1;
    let at_true = entries.pop().map_or(default, |(_, value)| value);
    Value::Map(MapValue::new(vec![(Value::Bool(true), at_true)], at_false))
}

/// An operation of the reals or the bit-vectors ([`theory`]); an opaque operand, or a
/// value SMT-LIB leaves unspecified, has no value.
fn operation(op: Op, operands: Vec<Value>, span: Span) -> Eval<Value> {
    if let Some(opaque) = operands.iter().find(|operand| contains_opaque(operand)) {
        return cannot(span, unexpected(opaque, "a value"));
    }
    theory::apply(op, &operands).or_else(|message| cannot(span, message))
}

fn real_arithmetic(op: BinaryOp, left: &BigRational, right: &BigRational, span: Span) -> Eval<BigRational> {
    Ok(match op {
        BinaryOp::Add => left + right,
        BinaryOp::Sub => left - right,
        BinaryOp::Mul => left * right,
        _ => theory::real_div(left, right).or_else(|message| cannot(span, message))?,
    })
}

fn compare<T: Ord>(op: BinaryOp, left: &T, right: &T) -> bool {
    match op {
        BinaryOp::Lt => left < right,
        BinaryOp::Le => left <= right,
        BinaryOp::Gt => left > right,
        _ => left >= right,
    }
}

fn arithmetic(op: BinaryOp, left: BigInt, right: BigInt, span: Span) -> Eval<BigInt> {
    Ok(match op {
        BinaryOp::Add => left + right,
        BinaryOp::Sub => left - right,
        BinaryOp::Mul => left * right,
        BinaryOp::Div => euclidean(&left, &right, span)?.0,
        _ => euclidean(&left, &right, span)?.1,
    })
}

/// SMT-LIB `div` and `mod`: `a = b*q + r` with `0 <= r < |b|`. SMT-LIB leaves division
/// by zero unspecified, so it has no value here.
fn euclidean(a: &BigInt, b: &BigInt, span: Span) -> Eval<(BigInt, BigInt)> {
    if b.is_zero() {
        return cannot(span, "division by zero (unspecified in SMT-LIB)");
    }
    // `%` truncates towards zero, so the remainder has the sign of `a`; shift it into
    // `0..|b|`, then the quotient is exact.
    let mut r = a % b;
    if r.is_negative() {
        r += b.abs();
    }
    let q = (a - &r) / b;
    Ok((q, r))
}

/// A map operand that reads a variable: `a`, `old(a)`, or rows of one, `m[i]`.
struct HeldChain<'e> {
    var: hir::Var,
    /// Whether the variable is read inside `old(..)`.
    var_old: bool,
    /// The steps evaluating the operand as an expression takes (its nodes).
    steps: u64,
    /// The index lists selecting the row, innermost first, each with whether it is
    /// inside `old(..)`.
    rows: Vec<(&'e [hir::Expr], bool)>,
}

fn held_chain(expr: &hir::Expr, old: bool) -> Option<HeldChain<'_>> {
    match &expr.kind {
        ExprKind::Var(var) => Some(HeldChain { var: *var, var_old: old, steps: 1, rows: Vec::new() }),
        ExprKind::Old(inner) => held_chain(inner, true).map(|chain| HeldChain { steps: chain.steps + 1, ..chain }),
        ExprKind::Select { map, indices } => held_chain(map, old).map(|mut chain| {
            chain.rows.push((indices, old));
            HeldChain { steps: chain.steps + 1, ..chain }
        }),
        _ => None,
    }
}

/// `map[k1][k2]…`: a map of arity n is curried (see [`MapValue`]).
fn select(map: &Value, keys: &[Value], span: Span) -> Eval<Value> {
    let mut current = map;
    for key in keys {
        if contains_opaque(key) {
            return cannot(span, "an opaque value is used as a map index");
        }
        let Value::Map(table) = current else { return cannot(span, unexpected(current, "a map")) };
        current = table.get(key);
    }
    Ok(current.clone())
}

/// Sets `map`'s cell at `keys` to `wanted` where it holds `read`; whether it did.
pub(super) fn set_cell(map: &mut Value, keys: &[Value], read: &Value, wanted: &Value) -> bool {
    let span = Span::default();
    if select(map, keys, span).ok().as_ref() != Some(read) {
        return false;
    }
    match store(map, keys, wanted.clone(), span) {
        Ok(stored) => {
            *map = stored;
            true
        }
        Err(_) => false,
    }
}

/// `map[k1, k2 := value]`: the row `map[k1]` updated at `k2`, and so on.
fn store(map: &Value, keys: &[Value], value: Value, span: Span) -> Eval<Value> {
    let Some((key, rest)) = keys.split_first() else { return Ok(value) };
    if contains_opaque(key) {
        return cannot(span, "an opaque value is used as a map index");
    }
    let Value::Map(table) = map else { return cannot(span, unexpected(map, "a map")) };
    let inner = store(table.get(key), rest, value, span)?;
    Ok(Value::Map(with_entry(table, key.clone(), inner)))
}

/// `map` with `key` mapped to `value`, still canonical (no entry equal to the default).
pub(super) fn with_entry(map: &MapValue, key: Value, value: Value) -> MapValue {
    let mut entries = map.entries.clone();
    let position = entries.binary_search_by(|(candidate, _)| candidate.cmp(&key));
    match (position, value == *map.default) {
        (Ok(index), true) => {
            entries.remove(index);
        }
        (Ok(index), false) => entries[index].1 = value,
        (Err(_), true) => {}
        (Err(index), false) => entries.insert(index, (key, value)),
    }
    MapValue { entries, default: map.default.clone() }
}

/// The default value of a type: `0`, `false`, element 0, or the constant map of the
/// range's default (curried for arity > 1).
pub fn default_value(ty: &hir::Type) -> Value {
    match ty {
        hir::Type::Int => Value::Int(BigInt::zero()),
        hir::Type::Real => Value::Real(BigRational::zero()),
        hir::Type::BitVector(width) => Value::BitVec { value: 0u8.into(), width: *width },
        hir::Type::Bool => Value::Bool(false),
        hir::Type::Named(id, _) => Value::Elem { ty: *id, index: 0 },
        hir::Type::Map(map) => {
            Value::Map(MapValue { entries: Vec::new(), default: Box::new(default_value(&row_type(map))) })
        }
        hir::Type::Param(_) => unreachable!("{}", crate::cfg::support::OUTSIDE_ENGINE),
    }
}

/// The type of `m[k]` for a curried map `m`: the range, or a map of the remaining
/// index types.
pub fn row_type(map: &hir::MapType) -> hir::Type {
    match map.domain.get(1..) {
        Some(rest) if !rest.is_empty() => hir::Type::Map(Arc::new(hir::MapType {
            type_params: Vec::new(),
            domain: rest.to_vec(),
            range: map.range.clone(),
        })),
        _ => map.range.clone(),
    }
}

/// `value` made canonical, if it is a value of type `ty` (an opaque value fits any
/// type: it is the solver's, and using it is what cannot be evaluated).
pub(super) fn admit(value: &Value, ty: &hir::Type) -> Option<Value> {
    match (value, ty) {
        (Value::Opaque(_), _)
        | (Value::Bool(_), hir::Type::Bool)
        | (Value::Int(_), hir::Type::Int)
        | (Value::Real(_), hir::Type::Real) => Some(value.clone()),
        (Value::BitVec { value: bits, width }, hir::Type::BitVector(declared))
            if width == declared && bits.bits() <= u64::from(*width) =>
        {
            Some(value.clone())
        }
        (Value::Elem { ty: elem_ty, .. }, hir::Type::Named(id, _)) if elem_ty == id => Some(value.clone()),
        (Value::Map(map), hir::Type::Map(map_ty)) => {
            let key_ty = map_ty.domain.first()?;
            let row_ty = row_type(map_ty);
            let default = admit(&map.default, &row_ty)?;
            let entries = map
                .entries
                .iter()
                .map(|(key, value)| Some((admit(key, key_ty)?, admit(value, &row_ty)?)))
                .collect::<Option<Vec<_>>>()?;
            Some(Value::Map(MapValue::new(entries, default)))
        }
        _ => None,
    }
}
