//! Set-valued functions that axioms define by membership.
//!
//! Input: a program's axioms. Output: the body-less functions `g` returning a map (a set
//! `[T]bool`, or any map) whose every value the axioms fix point by point, each as a
//! [`Definition`] with a [`Body::Members`] or [`Body::Constant`] body, which the
//! interpreter evaluates as the exact map ([`super::points`] tabulates it: a default and
//! finitely many entries) instead of reading a solver candidate's table of `g`.
//!
//! Verifier front ends axiomatize sets as maps to bool with body-less functions:
//! `Union(S,T)[x] <==> S[x] || T[x]` (havoc0's driver models), `Set#UnionOne(a,x)[o]
//! <==> o == x || a[o]` (Dafny's prelude), `!Set#Empty()[o]` (AutoProof's). Under
//! E-matching z3's candidate tabulates such a function only where relevancy
//! instantiated its axioms, and is arbitrary elsewhere; a contract reading the set (`forall
//! x :: Inverse(M, 1)[x] ==> …`) is then judged on an arbitrary set. The forms
//! recognized, each over distinct bound variables `xs` (the parameters) and `os` (the
//! indices), the quantifier binding exactly those, and the membership `P` not applying
//! `g`:
//! - `forall xs, os :: g(xs)[os] <==> P` (or `==`, either side): `g(xs)` is `lambda os :: P`;
//! - `forall xs, os :: g(xs)[os]`, `forall xs, os :: !g(xs)[os]`: the constant map;
//! - a pair of implications, `g(xs)[os] ==> P` and `Q ==> g(xs')[os']`, where `Q` is
//!   `P` (renamed, as a set of conjuncts, `==` either way round). The second may be in
//!   *pattern* form, an argument a term over the variables: `forall f, x ::
//!   Inverse(f, f[x])[x]` is `forall f, y, x :: y == f[x] ==> Inverse(f, y)[x]` (for
//!   every formula φ, `∀v φ(v, t(v))` ⟺ `∀v, y. y == t(v) ⟹ φ(v, y)`), so the conjuncts
//!   of `Q` are its antecedents and one equality `y == t` per such argument. Together
//!   the two say `g(xs)[os] <==> P`; anything not proved so (a variable bound only in a
//!   term, an index that is also an argument, conjuncts that differ) is not a definition.
//!
//! How a candidate's table is made to agree, and checked, is [`super::define`]'s: the
//! same as for `forall xs :: f(xs) == e`.

use super::define::{applies, Body, Definition};
use crate::sema::hir::{self, BinaryOp, BoundId, ExprKind, FunctionId, Quantifier, UnaryOp};
use crate::vc::{MapValue, Value};
use std::collections::BTreeMap;

/// The most node comparisons matching the two halves of a pair may take (comparing
/// `==` both ways round could otherwise take exponential time on a hostile axiom);
/// past it the pair is not a definition.
const MATCH_BUDGET: u32 = 100_000;

/// A membership `g(args)[indices]`, the arguments split into parameters and terms.
struct Membership<'p> {
    function: FunctionId,
    /// Per argument: the bound variable it is, the first time it is one; else `None`.
    params: Vec<Option<BoundId>>,
    args: &'p [hir::Expr],
    indices: Vec<hir::BoundVar>,
}

/// What one axiom says of a membership.
enum Says<'p> {
    /// `g(xs)[os] <==> P`.
    Iff(&'p hir::Expr),
    /// `g(xs)[os] ==> P`.
    Implies(&'p hir::Expr),
    /// `A1 ==> … ==> g(args)[os]`: the antecedents, split at `&&`.
    ImpliedBy(Vec<&'p hir::Expr>),
    /// `!g(xs)[os]`.
    Never,
}

struct Statement<'p> {
    axiom: usize,
    membership: Membership<'p>,
    says: Says<'p>,
}

/// The membership definitions among `program`'s axioms, at most one per function (the
/// first), none for a function in `defined`.
pub(super) fn membership_definitions<'p>(program: &'p hir::Program, defined: &[FunctionId]) -> Vec<Definition<'p>> {
    let statements: Vec<Statement<'p>> =
        program.axioms.iter().enumerate().filter_map(|(index, axiom)| statement(program, &axiom.expr, index)).collect();
    let mut found: Vec<Definition<'p>> = Vec::new();
    for statement in &statements {
        let function = statement.membership.function;
        if defined.contains(&function) || found.iter().any(|definition| definition.function == function) {
            continue;
        }
        if let Some(definition) = alone(statement).or_else(|| paired(statement, &statements)) {
            found.push(definition);
        }
    }
    found
}

/// A definition one axiom makes by itself.
fn alone<'p>(statement: &Statement<'p>) -> Option<Definition<'p>> {
    let membership = &statement.membership;
    let params = membership.plain_params()?;
    let body = match &statement.says {
        Says::Iff(members) => Body::Members { indices: membership.indices.clone(), body: members },
        Says::Never => Body::Constant(constant(membership.indices.len(), false)),
        Says::ImpliedBy(antecedents) if antecedents.is_empty() => {
            Body::Constant(constant(membership.indices.len(), true))
        }
        Says::Implies(_) | Says::ImpliedBy(_) => return None,
    };
    Some(Definition { function: membership.function, params, body, axioms: vec![statement.axiom] })
}

/// The definition `forward` (`g(xs)[os] ==> P`) makes with a converse among `statements`.
fn paired<'p>(forward: &Statement<'p>, statements: &[Statement<'p>]) -> Option<Definition<'p>> {
    let Says::Implies(members) = forward.says else { return None };
    let params = forward.membership.plain_params()?;
    let converse = statements.iter().find(|backward| {
        let Says::ImpliedBy(antecedents) = &backward.says else { return false };
        backward.membership.function == forward.membership.function
            && converse_of(&forward.membership, members, &backward.membership, antecedents)
    })?;
    let body = Body::Members { indices: forward.membership.indices.clone(), body: members };
    Some(Definition {
        function: forward.membership.function,
        params,
        body,
        axioms: vec![forward.axiom, converse.axiom],
    })
}

/// The statement `expr` (axiom `axiom`) makes of a membership, if it is one of the forms
/// of the module header (its variables not yet matched with another axiom's).
fn statement<'p>(program: &hir::Program, expr: &'p hir::Expr, axiom: usize) -> Option<Statement<'p>> {
    let ExprKind::Quant { quantifier: Quantifier::Forall, vars, body, .. } = &expr.kind else { return None };
    let (membership, says) = match &body.kind {
        ExprKind::Binary { op: BinaryOp::Iff | BinaryOp::Eq, lhs, rhs } => [(lhs, rhs), (rhs, lhs)]
            .into_iter()
            .find_map(|(applied, members)| Some((membership(program, applied, vars)?, Says::Iff(members))))?,
        ExprKind::Unary { op: UnaryOp::Not, operand } => (membership(program, operand, vars)?, Says::Never),
        ExprKind::Binary { op: BinaryOp::Implies, lhs, rhs } if membership(program, lhs, vars).is_some() => {
            (membership(program, lhs, vars)?, Says::Implies(rhs))
        }
        _ => {
            let mut antecedents = Vec::new();
            let mut consequent = &**body;
            while let ExprKind::Binary { op: BinaryOp::Implies, lhs, rhs } = &consequent.kind {
                conjuncts(lhs, &mut antecedents);
                consequent = rhs;
            }
            (membership(program, consequent, vars)?, Says::ImpliedBy(antecedents))
        }
    };
    let plain = membership.plain_params().is_some();
    let members: Vec<&hir::Expr> = match &says {
        Says::Iff(members) | Says::Implies(members) if plain => vec![members],
        Says::Never if plain => Vec::new(),
        Says::ImpliedBy(antecedents) => antecedents.iter().copied().chain(membership.args).collect(),
        _ => return None,
    };
    if members.iter().any(|expr| applies(expr, membership.function)) {
        return None;
    }
    Some(Statement { axiom, membership, says })
}

/// `expr` as `g(args)[indices]` over the quantifier's variables `vars`: `g` body-less
/// and no builtin, the indices distinct variables that are no argument, and each of
/// `vars` an argument or an index (else it would be bound only inside a term or the
/// membership, which no definition says).
fn membership<'p>(program: &hir::Program, expr: &'p hir::Expr, vars: &[hir::BoundVar]) -> Option<Membership<'p>> {
    let ExprKind::Select { map, indices } = &expr.kind else { return None };
    let ExprKind::Apply { func, args, .. } = &map.kind else { return None };
    let function = program.functions.get(func.index())?;
    let hir::Type::Map(map_type) = &function.result else { return None };
    if function.body.is_some() || crate::vc::theory::builtin(function).is_some() {
        return None;
    }
    if map_type.domain.len() != indices.len() {
        return None;
    }
    let var_of = |expr: &hir::Expr| match expr.kind {
        ExprKind::Var(hir::Var::Bound(id)) => vars.iter().find(|var| var.id == id),
        _ => None,
    };
    let mut index_vars: Vec<hir::BoundVar> = Vec::new();
    for index in indices {
        let var = var_of(index)?;
        if index_vars.iter().any(|seen| seen.id == var.id) {
            return None;
        }
        index_vars.push(var.clone());
    }
    let mut params: Vec<Option<BoundId>> = Vec::new();
    for arg in args {
        let param = var_of(arg).map(|var| var.id).filter(|id| !params.contains(&Some(*id)));
        if param.is_some_and(|id| index_vars.iter().any(|index| index.id == id)) {
            return None;
        }
        params.push(param);
    }
    let bound = |id: BoundId| params.contains(&Some(id)) || index_vars.iter().any(|index| index.id == id);
    if !vars.iter().all(|var| bound(var.id)) {
        return None;
    }
    Some(Membership { function: *func, params, args, indices: index_vars })
}

impl Membership<'_> {
    /// The parameters, when every argument is a variable of its own.
    fn plain_params(&self) -> Option<Vec<BoundId>> {
        self.params.iter().copied().collect()
    }
}

/// Whether `Q ==> g(args')[os']` (`backward`, `antecedents` = Q's conjuncts) is the
/// converse of `g(xs)[os] ==> P` (`forward`, `members` = P): Q, with each term argument
/// `t` at the place of parameter `x` read as a conjunct `x == t`, is P as a set of
/// conjuncts, up to the renaming of the backward's variables into the forward's.
fn converse_of(
    forward: &Membership<'_>,
    members: &hir::Expr,
    backward: &Membership<'_>,
    antecedents: &[&hir::Expr],
) -> bool {
    let Some(params) = forward.plain_params() else { return false };
    let mut renaming: BTreeMap<BoundId, BoundId> = BTreeMap::new();
    for (backward_param, forward_param) in backward.params.iter().zip(&params) {
        if let Some(id) = backward_param {
            renaming.insert(*id, *forward_param);
        }
    }
    for (backward_index, forward_index) in backward.indices.iter().zip(&forward.indices) {
        renaming.insert(backward_index.id, forward_index.id);
    }
    // A term argument: the forward's parameter at its place equals it.
    let equalities: Vec<(BoundId, &hir::Expr)> = (backward.params.iter().zip(&params).zip(backward.args))
        .filter(|((param, _), _)| param.is_none())
        .map(|((_, forward_param), term)| (*forward_param, term))
        .collect();
    let mut forward_conjuncts = Vec::new();
    conjuncts(members, &mut forward_conjuncts);
    let mut matcher = Matcher::new(renaming);
    let backward_matched = antecedents
        .iter()
        .all(|antecedent| forward_conjuncts.iter().any(|conjunct| matcher.same(conjunct, antecedent)))
        && equalities
            .iter()
            .all(|&(param, term)| forward_conjuncts.iter().any(|conjunct| matcher.equality(conjunct, param, term)));
    backward_matched
        && forward_conjuncts.iter().all(|conjunct| {
            antecedents.iter().any(|antecedent| matcher.same(conjunct, antecedent))
                || equalities.iter().any(|&(param, term)| matcher.equality(conjunct, param, term))
        })
}

/// `expr` split at `&&`.
pub(super) fn conjuncts<'e>(expr: &'e hir::Expr, found: &mut Vec<&'e hir::Expr>) {
    split_conjuncts(expr, found, &|_| None);
}

/// `expr` split at `&&` as the encoding splits the formula: through the applications
/// of functions it expands ([`hir::Function::expands_at_applications`]), whose bodies'
/// conjuncts stand in the application's place (in the body's terms, not substituted:
/// what a refutation names is the position and the quantifier's span).
pub(super) fn formula_conjuncts<'e>(program: &'e hir::Program, expr: &'e hir::Expr, found: &mut Vec<&'e hir::Expr>) {
    let expansion = |application: &'e hir::Expr| {
        let ExprKind::Apply { func, .. } = &application.kind else { return None };
        let function = &program.functions[func.index()];
        function.body.as_ref().filter(|_| function.expands_at_applications())
    };
    split_conjuncts(expr, found, &expansion);
}

/// `expr` split at `&&`, each operand `expansion` gives a body for split in turn.
fn split_conjuncts<'e>(
    expr: &'e hir::Expr,
    found: &mut Vec<&'e hir::Expr>,
    expansion: &dyn Fn(&'e hir::Expr) -> Option<&'e hir::Expr>,
) {
    match &expr.kind {
        ExprKind::Binary { op: BinaryOp::And, lhs, rhs } => {
            split_conjuncts(lhs, found, expansion);
            split_conjuncts(rhs, found, expansion);
        }
        ExprKind::Bool(true) => {}
        _ => match expansion(expr) {
            Some(body) => split_conjuncts(body, found, expansion),
            None => found.push(expr),
        },
    }
}

/// Compares a forward axiom's expressions with a backward one's, the backward's bound
/// variables renamed into the forward's.
pub(super) struct Matcher {
    renaming: BTreeMap<BoundId, BoundId>,
    /// Node comparisons left ([`MATCH_BUDGET`]).
    budget: u32,
}

impl Matcher {
    pub(super) fn new(renaming: BTreeMap<BoundId, BoundId>) -> Matcher {
        Matcher { renaming, budget: MATCH_BUDGET }
    }

    /// Whether `conjunct` is `param == term` (or `term == param`, or `<==>`).
    fn equality(&mut self, conjunct: &hir::Expr, param: BoundId, term: &hir::Expr) -> bool {
        let ExprKind::Binary { op: BinaryOp::Eq | BinaryOp::Iff, lhs, rhs } = &conjunct.kind else { return false };
        let is_param = |expr: &hir::Expr| matches!(expr.kind, ExprKind::Var(hir::Var::Bound(id)) if id == param);
        (is_param(lhs) && self.same(rhs, term)) || (is_param(rhs) && self.same(lhs, term))
    }

    /// Whether `forward` and `backward` are the same expression up to the renaming, the
    /// operands of `==`, `!=`, `<==>`, `&&` and `||` in either order; triggers and
    /// attributes aside (they do not change what a formula says).
    pub(super) fn same(&mut self, forward: &hir::Expr, backward: &hir::Expr) -> bool {
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        match (&forward.kind, &backward.kind) {
            (ExprKind::Var(hir::Var::Bound(left)), ExprKind::Var(hir::Var::Bound(right))) => {
                *left == self.renaming.get(right).copied().unwrap_or(*right)
            }
            (
                ExprKind::Apply { func, type_args, args },
                ExprKind::Apply { func: func2, type_args: types2, args: args2 },
            ) => func == func2 && type_args == types2 && self.all_same(args, args2),
            (ExprKind::Old(left), ExprKind::Old(right)) => self.same(left, right),
            (ExprKind::Unary { op, operand }, ExprKind::Unary { op: op2, operand: operand2 }) => {
                op == op2 && self.same(operand, operand2)
            }
            (ExprKind::Binary { op, lhs, rhs }, ExprKind::Binary { op: op2, lhs: lhs2, rhs: rhs2 }) => {
                let symmetric =
                    matches!(op, BinaryOp::Eq | BinaryOp::Neq | BinaryOp::Iff | BinaryOp::And | BinaryOp::Or);
                op == op2
                    && ((self.same(lhs, lhs2) && self.same(rhs, rhs2))
                        || (symmetric && self.same(lhs, rhs2) && self.same(rhs, lhs2)))
            }
            (ExprKind::Select { map, indices }, ExprKind::Select { map: map2, indices: indices2 }) => {
                self.same(map, map2) && self.all_same(indices, indices2)
            }
            (
                ExprKind::Store { map, indices, value },
                ExprKind::Store { map: map2, indices: indices2, value: value2 },
            ) => self.same(map, map2) && self.all_same(indices, indices2) && self.same(value, value2),
            (
                ExprKind::Extract { operand, high, low },
                ExprKind::Extract { operand: operand2, high: high2, low: low2 },
            ) => high == high2 && low == low2 && self.same(operand, operand2),
            (
                ExprKind::IfThenElse { cond, then_expr, else_expr },
                ExprKind::IfThenElse { cond: cond2, then_expr: then2, else_expr: else2 },
            ) => self.same(cond, cond2) && self.same(then_expr, then2) && self.same(else_expr, else2),
            (
                ExprKind::Quant { quantifier, type_params, vars, body, .. },
                ExprKind::Quant {
                    quantifier: quantifier2, type_params: type_params2, vars: vars2, body: body2, ..
                },
            ) => {
                let alike = quantifier == quantifier2
                    && type_params.is_empty()
                    && type_params2.is_empty()
                    && vars.len() == vars2.len()
                    && vars.iter().zip(vars2).all(|(var, var2)| var.ty == var2.ty);
                if !alike {
                    return false;
                }
                let saved = self.renaming.clone();
                self.renaming.extend(vars2.iter().zip(vars).map(|(var2, var)| (var2.id, var.id)));
                let same = self.same(body, body2);
                self.renaming = saved;
                same
            }
            (ExprKind::Var(left), ExprKind::Var(right)) => left == right,
            (ExprKind::Bool(left), ExprKind::Bool(right)) => left == right,
            (ExprKind::Int(left), ExprKind::Int(right)) => left == right,
            (ExprKind::Real(left), ExprKind::Real(right)) => left == right,
            (ExprKind::BitVector { value, width }, ExprKind::BitVector { value: value2, width: width2 }) => {
                value == value2 && width == width2
            }
            _ => false,
        }
    }

    fn all_same(&mut self, forward: &[hir::Expr], backward: &[hir::Expr]) -> bool {
        forward.len() == backward.len() && forward.iter().zip(backward).all(|(left, right)| self.same(left, right))
    }
}

/// The map of `arity` indices (curried) that is `value` everywhere.
fn constant(arity: usize, value: bool) -> Value {
    (0..arity).fold(Value::Bool(value), |row, _| Value::Map(MapValue { entries: Vec::new(), default: Box::new(row) }))
}

#[cfg(test)]
mod tests {
    use super::super::define::definitions;
    use super::super::tests::{defined_where, int, set, Candidate};
    use super::super::{Limits, Outcome};
    use crate::sema::hir;
    use crate::vc::{MapValue, Value};

    fn function(program: &hir::Program, name: &str) -> hir::FunctionId {
        let index = program.functions.iter().position(|function| function.name == name);
        hir::FunctionId::from_index(index.unwrap_or_else(|| panic!("no function `{name}`")))
    }

    /// The functions `source`'s axioms define by membership, by name, with their
    /// defining axioms.
    fn defined(source: &str) -> Vec<(String, Vec<usize>)> {
        defined_where(source, |definition| definition.is_membership())
    }

    /// havoc0's sets (Boogie's `Test/havoc0` driver models), in that style.
    const HAVOC_SETS: &str = "
        function Empty(): [int]bool;
        function SetTrue(): [int]bool;
        function Singleton(int): [int]bool;
        function Union([int]bool, [int]bool): [int]bool;
        function Inverse(f: [int]int, x: int): [int]bool;
        function AtLeast(int, int): [int]bool;
        function Rep(int, int): int;
        function HasType(v: int, m: [int]int): bool;
        function Values(m: [int]int): [int]bool;
        axiom (forall x: int :: !Empty()[x]);
        axiom (forall x: int :: SetTrue()[x]);
        axiom (forall x: int, y: int :: {Singleton(y)[x]} Singleton(y)[x] <==> x == y);
        axiom (forall y: int :: {Singleton(y)} Singleton(y)[y]);
        axiom (forall x: int, S: [int]bool, T: [int]bool :: {Union(S,T)[x]} Union(S,T)[x] <==> S[x] || T[x]);
        axiom (forall f: [int]int, x: int :: {Inverse(f,f[x])} Inverse(f,f[x])[x]);
        axiom (forall f: [int]int, x: int, y: int :: {Inverse(f,y), f[x]} Inverse(f,y)[x] ==> f[x] == y);
        axiom (forall n: int, x: int, y: int :: {AtLeast(n,x)[y]} AtLeast(n,x)[y] ==> x <= y && Rep(n,x) == Rep(n,y));
        axiom (forall n: int, x: int, y: int :: {AtLeast(n,x),Rep(n,x),Rep(n,y)} x <= y && Rep(n,x) == Rep(n,y) ==> AtLeast(n,x)[y]);
        axiom (forall n: int, x: int :: {AtLeast(n,x)} AtLeast(n,x)[x]);
        axiom (forall v: int, m: [int]int :: {Values(m)[v]} Values(m)[v] ==> HasType(v, m));
        axiom (forall v: int, m: [int]int :: {HasType(v, m), Values(m)} HasType(v, m) ==> Values(m)[v]);
        ";

    #[test]
    fn memberships_one_axiom_or_a_pair_of_implications_states_are_definitions() {
        let found = defined(HAVOC_SETS);
        let expected = [
            ("Empty", vec![0]),
            ("SetTrue", vec![1]),
            ("Singleton", vec![2]),
            ("Union", vec![4]),
            // The pattern form `Inverse(f, f[x])[x]` is `y == f[x] ==> Inverse(f, y)[x]`.
            ("Inverse", vec![6, 5]),
            ("AtLeast", vec![7, 8]),
            ("Values", vec![10, 11]),
        ];
        let expected: Vec<(String, Vec<usize>)> =
            expected.into_iter().map(|(name, axioms)| (name.to_string(), axioms)).collect();
        assert_eq!(found, expected);
    }

    #[test]
    fn implications_that_do_not_say_the_same_members_define_nothing() {
        let found = defined(
            "function Inverse(f: [int]int, x: int): [int]bool;
            function Bigger(f: [int]int, x: int): [int]bool;
            function Shifted(f: [int]int, x: int): [int]bool;
            function Self(x: int): [int]bool;
            function Guarded(x: int): [int]bool;
            // The converse of `Inverse(f,y)[x] ==> f[x] == y` would be `f[x] == y ==>`.
            axiom (forall f: [int]int, x: int :: Inverse(f, f[x] + 1)[x]);
            axiom (forall f: [int]int, x: int, y: int :: Inverse(f, y)[x] ==> f[x] == y);
            axiom (forall f: [int]int, x: int, y: int :: f[x] > y ==> Bigger(f, y)[x]);
            axiom (forall f: [int]int, x: int, y: int :: Bigger(f, y)[x] ==> f[x] >= y);
            // `z` is bound only inside a term: the converse would need `exists z`.
            axiom (forall f: [int]int, x: int, z: int :: Shifted(f, f[x] + z)[x]);
            axiom (forall f: [int]int, x: int, y: int :: Shifted(f, y)[x] ==> f[x] == y);
            // An index that is also an argument: `x` is in `Self(x)`, nothing more.
            axiom (forall x: int :: Self(x)[x]);
            // One direction alone.
            axiom (forall x: int, o: int :: x < o ==> Guarded(x)[o]);",
        );
        assert_eq!(found, Vec::new());
    }

    /// A program, and candidates' tests of it.
    const INVERSE: &str = "
        function Inverse(f: [int]int, x: int): [int]bool;
        axiom (forall f: [int]int, x: int :: {Inverse(f,f[x])} Inverse(f,f[x])[x]);
        axiom (forall f: [int]int, x: int, y: int :: {Inverse(f,y), f[x]} Inverse(f,y)[x] ==> f[x] == y);
        procedure Owned(m: [int]int, k: int) returns (r: bool, s: bool)
          requires (forall x: int :: Inverse(m, 1)[x] ==> x > 0);
        { r := Inverse(m, 1)[k]; s := Inverse(m, 2)[-3]; }";

    #[test]
    fn inverse_is_the_exact_set_of_points_a_map_takes_a_value_at() {
        let candidate = Candidate::new(INVERSE);
        let m = Value::Map(MapValue::new(vec![(int(5), int(1)), (int(-3), int(2))], int(0)));
        // E-matching's candidate: -3 in `Inverse(m, 1)`, 5 not; the `requires` breaks.
        let table = vec![(vec![m.clone(), int(1)], set(&[-3]))];
        let mut input = candidate.input("Owned", vec![m.clone(), int(5)], vec![("Inverse", table, set(&[]))]);
        let (outcome, outputs) = candidate.run(&mut input);
        assert_eq!(input.functions[0].entries, vec![(vec![m, int(1)], set(&[5]))]);
        // The default is kept, read only where the definition cannot tabulate the set.
        assert_eq!(input.functions[0].default, set(&[]));
        assert_eq!(outcome, Outcome::Passed);
        // `Inverse(m, 2)` is off the table: the definition gives `{-3}`.
        assert_eq!(outputs, vec![Value::Bool(true), Value::Bool(true)]);
    }

    #[test]
    fn an_inverse_at_the_default_is_every_point_but_the_entries() {
        let candidate = Candidate::new(INVERSE);
        let m = Value::Map(MapValue::new(vec![(int(-7), int(0))], int(1)));
        let table = vec![(vec![m.clone(), int(1)], set(&[]))];
        let mut input = candidate.input("Owned", vec![m, int(5)], vec![("Inverse", table, set(&[]))]);
        // `Inverse(m, 1)` holds every x but -7, so the `requires` is false at x = 0.
        let (outcome, _) = candidate.run(&mut input);
        assert!(matches!(outcome, Outcome::Invalid(_)), "{outcome:?}");
    }

    #[test]
    fn add_remove_and_union_compute_the_sets_their_axioms_say() {
        let candidate = Candidate::new(
            "function Empty(): [int]bool;
            function Add(a: [int]bool, x: int): [int]bool;
            function Remove(a: [int]bool, x: int): [int]bool;
            function Union(a: [int]bool, b: [int]bool): [int]bool;
            axiom (forall o: int :: { Empty()[o] } !Empty()[o]);
            axiom (forall a: [int]bool, x: int, o: int :: { Add(a, x)[o] } Add(a, x)[o] <==> o == x || a[o]);
            axiom (forall a: [int]bool, x: int, o: int :: { Remove(a, x)[o] } Remove(a, x)[o] <==> o != x && a[o]);
            axiom (forall a: [int]bool, b: [int]bool, o: int :: Union(a, b)[o] <==> a[o] || b[o]);
            procedure Build(x: int, y: int) returns (s: [int]bool)
            { s := Union(Add(Empty(), x), Remove(Add(Add(Empty(), y), 9), x)); }",
        );
        // The candidate's tables, wrong at their one entry and everywhere else.
        let everything = Value::Map(MapValue::new(Vec::new(), Value::Bool(true)));
        let tables = [("Empty", vec![]), ("Add", vec![set(&[]), int(1)]), ("Remove", vec![set(&[7]), int(7)])]
            .into_iter()
            .chain([("Union", vec![set(&[]), set(&[])])])
            .map(|(name, args)| (name, vec![(args, everything.clone())], everything.clone()))
            .collect::<Vec<_>>();
        let mut input = candidate.input("Build", vec![int(1), int(2)], tables.clone());
        assert_eq!(candidate.run(&mut input), (Outcome::Passed, vec![set(&[1, 2, 9])]));
        let mut input = candidate.input("Build", vec![int(9), int(9)], tables);
        assert_eq!(candidate.run(&mut input), (Outcome::Passed, vec![set(&[9])]));
    }

    #[test]
    fn a_membership_the_points_cannot_tabulate_falls_back_to_the_table() {
        // `Above(n)` is infinite, `Shifted(a)` reads `a` at `o - 1`: the candidate's
        // tables are kept, and read.
        let candidate = Candidate::new(
            "function Above(n: int): [int]bool;
            function Shifted(a: [int]bool): [int]bool;
            axiom (forall n: int, o: int :: Above(n)[o] <==> n <= o);
            axiom (forall a: [int]bool, o: int :: Shifted(a)[o] <==> a[o - 1]);
            procedure Read(n: int, a: [int]bool) returns (r: bool, s: bool) { r := Above(n)[n]; s := Shifted(a)[1]; }",
        );
        let above = vec![(vec![int(3)], set(&[4]))];
        let shifted = vec![(vec![set(&[0])], set(&[2]))];
        let tables = vec![("Above", above, set(&[])), ("Shifted", shifted, set(&[]))];
        let mut input = candidate.input("Read", vec![int(3), set(&[0])], tables);
        let before = input.functions.clone();
        let (_, outputs) = candidate.run(&mut input);
        assert_eq!(input.functions, before);
        assert_eq!(outputs, vec![Value::Bool(false), Value::Bool(false)]);
    }

    #[test]
    fn a_ground_axiom_pins_its_function_at_the_set_a_definition_computes() {
        let candidate = Candidate::new(
            "function Empty(): [int]bool;
            function Card(s: [int]bool): int;
            axiom (forall o: int :: !Empty()[o]);
            axiom Card(Empty()) == 0;
            procedure Size() returns (n: int) { n := Card(Empty()); }",
        );
        // The candidate's empty set held 4, and its `Card` was 0 there.
        let cards = vec![(vec![set(&[4])], int(0))];
        let tables = vec![("Empty", Vec::new(), set(&[4])), ("Card", cards, int(7))];
        let mut input = candidate.input("Size", Vec::new(), tables);
        assert_eq!(candidate.run(&mut input), (Outcome::Passed, vec![int(0)]));
        assert_eq!(input.functions[1].entries, vec![(vec![set(&[])], int(0)), (vec![set(&[4])], int(0))]);
    }

    #[test]
    fn a_quantifier_reading_a_defined_function_off_the_points_a_run_read_is_not_enumerated() {
        // Off the points read, `Big` is its definition, whose values no table lists: the
        // representative points of `y` (around 0 and 5000) would miss `y = 5`.
        let program = crate::sema::tests::expect_accepted(
            "function Big(x: int): int;
            axiom (forall x: int :: Big(x) == x * 1000);
            axiom (forall y: int :: Big(y) != 5000);",
        );
        let found = definitions(&program);
        let reads = [(function(&program, "Big"), [(vec![int(0)], int(0))].into_iter().collect())].into_iter().collect();
        let mut eval = super::super::eval::Evaluator::on_reads(&program, Limits::default(), Vec::new(), &reads);
        eval.definitions = &found;
        let verdict = eval.eval_bool(super::super::eval::State::empty(), &program.axioms[1].expr);
        assert_ne!(verdict, Ok(true));
    }
}
