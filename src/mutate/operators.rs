//! The mutation operators: where a program can be changed, and the change.
//!
//! Input: an [`ast::Program`] that checked without errors. Output: its [`Mutant`]s in
//! source order, each a small description; [`apply`] builds a mutant's program, a
//! clone of the original with one node changed and every span kept, so the checker's
//! and the interpreter's messages about the mutant point at the user's text.
//!
//! Mutating the AST (not the HIR) keeps every mutant honest: it goes through the same
//! checker as a program a person wrote, and a mutant that does not type-check (`==` on
//! Booleans turned into `<`) is discarded by the caller instead of being run.
//!
//! The operators (the classic ones of Mothra and its successors):
//! - **relational operator replacement**: `<`, `<=`, `>`, `>=`, `==`, `!=`, each by every
//!   other;
//! - **arithmetic operator replacement**: `+`, `-`, `*`, `div`, `mod`, each by every other;
//! - **constant ±1**: an integer literal `n` by `n + 1` and `n - 1`;
//! - **condition negation**: the guard `g` of an `if`, `else if` or `while` by `!(g)`;
//! - **statement deletion**: an assignment or a call removed (never an `assume`, an
//!   `assert` or a `havoc`: those are specifications or choices, not computation);
//! - **`old` removal**: `old(e)` by `e`;
//! - **off by one**: an integer value a program stores or indexes with (the whole
//!   right-hand side of an assignment, a map index other than an in-parameter) by
//!   `e + 1` and `e - 1`, and the right operand of an integer comparison moved the way
//!   relational operator replacement does not go (`a < b - 1`, `a == b ± 1`): the
//!   increment mutants of PIT and the off-by-one faults of array code (`upper := middle`
//!   for `upper := middle - 1`, `lower < upper` for `lower < upper - 1`), whose killing
//!   tests are boundary tests. A literal, or `e ± n` with `n` a literal, is left to
//!   constant ±1, which makes the same change.
//!
//! All but `old` removal apply to code: the right-hand sides and map indices of
//! assignments, call arguments and guards, in implementation bodies. Contracts, loop invariants and
//! assertions are the suite's oracle, so they are left alone, except by `old` removal:
//! `old` is written almost only in postconditions and invariants, and removing it there
//! asks whether some test makes the state change the clause talks about.

use crate::sema::hir;
use crate::source::Span;
use crate::syntax::ast::{self, BinaryOp, ExprKind, StmtKind};
use crate::syntax::printer::print_expr;
use num_bigint::{BigInt, BigUint, Sign};
use std::collections::BTreeMap;
use std::ops::ControlFlow;

/// A mutation operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Operator {
    Relational,
    Arithmetic,
    Constant,
    NegateCondition,
    DeleteStatement,
    RemoveOld,
    OffByOne,
}

impl Operator {
    /// The operator's name, as reports print it.
    pub fn name(self) -> &'static str {
        match self {
            Operator::Relational => "relational operator replacement",
            Operator::Arithmetic => "arithmetic operator replacement",
            Operator::Constant => "constant replacement",
            Operator::NegateCondition => "condition negation",
            Operator::DeleteStatement => "statement deletion",
            Operator::RemoveOld => "old removal",
            Operator::OffByOne => "off by one",
        }
    }

    /// A short key for machine-readable output.
    pub fn key(self) -> &'static str {
        match self {
            Operator::Relational => "ror",
            Operator::Arithmetic => "aor",
            Operator::Constant => "constant",
            Operator::NegateCondition => "negate",
            Operator::DeleteStatement => "delete",
            Operator::RemoveOld => "old",
            Operator::OffByOne => "off-by-one",
        }
    }
}

/// What a mutant changes at its point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// The binary operator becomes this one.
    Binary(BinaryOp),
    /// The integer literal becomes this value (negative values as `-n`).
    Literal(BigInt),
    /// The guard `g` becomes `!(g)`.
    Negate,
    /// The statement is removed.
    Delete,
    /// `old(e)` becomes `e`.
    RemoveOld,
    /// `e` becomes `e + 1` (`true`) or `e - 1` (`false`).
    OffByOne(bool),
}

/// One mutant of a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mutant {
    /// The place it changes, counted in the order [`visit`] meets places.
    pub point: usize,
    pub change: Change,
    pub operator: Operator,
    /// The text it changes.
    pub span: Span,
    /// That text before and after, for people (`a > 0` → `a >= 0`).
    pub original: String,
    pub replacement: String,
}

const RELATIONAL: [BinaryOp; 6] = [BinaryOp::Lt, BinaryOp::Le, BinaryOp::Gt, BinaryOp::Ge, BinaryOp::Eq, BinaryOp::Neq];
const ARITHMETIC: [BinaryOp; 5] = [BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div, BinaryOp::Mod];

/// A place a mutant may change, as [`visit`] hands it out.
enum Point<'a> {
    /// An expression of code: every expression operator applies.
    Code(&'a mut ast::Expr),
    /// An expression of a specification: only `old` removal applies.
    Spec(&'a mut ast::Expr),
    /// The guard of an `if` or `while`, before its own expression is visited.
    Guard(&'a mut ast::Expr),
    /// A statement of a list, by its index.
    Stmt(&'a mut Vec<ast::Stmt>, usize),
}

/// Every mutant of `program` (whose text is `source`), in source order.
pub fn mutants(program: &ast::Program, source: &str) -> Vec<Mutant> {
    // `visit` hands out mutable places (what `apply` needs); enumerating walks a copy.
    let mut scratch = program.clone();
    let targets = off_by_one_targets(program);
    let mut found = Vec::new();
    let mut point = 0;
    let _ = visit(&mut scratch, &mut |place| {
        found.extend(changes(&place, source, &targets).into_iter().map(
            |(operator, change, span, original, replacement)| Mutant {
                point,
                change,
                operator,
                span,
                original,
                replacement,
            },
        ));
        point += 1;
        ControlFlow::Continue(())
    });
    // Places are visited parent first; a statement's deletion and its guard's negation
    // start where their expressions do, so order by position, the traversal breaking ties.
    found.sort_by_key(|mutant| (mutant.span.start, mutant.point));
    found
}

/// The program of `mutant`: a copy of `program` with the one change made.
pub fn apply(program: &ast::Program, mutant: &Mutant) -> ast::Program {
    let mut mutated = program.clone();
    let mut point = 0;
    let applied = visit(&mut mutated, &mut |place| {
        if point == mutant.point {
            make(place, &mutant.change);
            return ControlFlow::Break(());
        }
        point += 1;
        ControlFlow::Continue(())
    });
    assert!(applied.is_break(), "a mutant's point comes from `mutants` on the same program");
    mutated
}

type Found = (Operator, Change, Span, String, String);

/// The changes the operators make at one place; `targets` says where off by one
/// applies ([`off_by_one_targets`]).
fn changes(place: &Point, source: &str, targets: &Targets) -> Vec<Found> {
    match place {
        Point::Code(expr) => {
            let mut found = expr_changes(expr, true);
            let ways = targets.get(&expr.span).copied().unwrap_or_default();
            found.extend(
                [true, false].into_iter().zip(ways).filter(|&(_, made)| made).map(|(up, _)| off_by_one(expr, up)),
            );
            found
        }
        Point::Spec(expr) => expr_changes(expr, false),
        Point::Guard(expr) => {
            let negated = format!("!({})", print_expr(expr));
            vec![(Operator::NegateCondition, Change::Negate, expr.span, print_expr(expr), negated)]
        }
        Point::Stmt(stmts, index) => {
            let stmt = &stmts[*index];
            match stmt.kind {
                StmtKind::Assign { .. } | StmtKind::Call(_) => {
                    let text = one_line(&source[stmt.span.range()]);
                    vec![(Operator::DeleteStatement, Change::Delete, stmt.span, text, "(deleted)".to_string())]
                }
                _ => Vec::new(),
            }
        }
    }
}

fn expr_changes(expr: &ast::Expr, code: bool) -> Vec<Found> {
    let printed = || print_expr(expr);
    let with = |change: Change| {
        let mut mutated = expr.clone();
        make_expr(&mut mutated, &change);
        (change, print_expr(&mutated))
    };
    let replace = |operator: Operator, change: Change| {
        let (change, replacement) = with(change);
        (operator, change, expr.span, printed(), replacement)
    };
    match &expr.kind {
        ExprKind::Old(_) => vec![replace(Operator::RemoveOld, Change::RemoveOld)],
        _ if !code => Vec::new(),
        ExprKind::Binary { op, .. } => {
            let (operator, family) = if RELATIONAL.contains(op) {
                (Operator::Relational, &RELATIONAL[..])
            } else if ARITHMETIC.contains(op) {
                (Operator::Arithmetic, &ARITHMETIC[..])
            } else {
                return Vec::new();
            };
            family.iter().filter(|other| *other != op).map(|&other| replace(operator, Change::Binary(other))).collect()
        }
        ExprKind::Int(value) => {
            let value = BigInt::from(value.clone());
            let moved: [BigInt; 2] = [&value + 1, &value - 1];
            moved
                .into_iter()
                .map(|changed| {
                    let replacement = changed.to_string();
                    (Operator::Constant, Change::Literal(changed), expr.span, printed(), replacement)
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// The off-by-one mutant of `expr`: `expr + 1` when `up`, else `expr - 1`.
fn off_by_one(expr: &ast::Expr, up: bool) -> Found {
    let change = Change::OffByOne(up);
    let mut mutated = expr.clone();
    make_expr(&mut mutated, &change);
    (Operator::OffByOne, change, expr.span, print_expr(expr), print_expr(&mutated))
}

/// Where off by one applies, and which ways: each target's span and whether `e + 1`
/// and `e - 1` are made there ([`off_by_one_targets`]).
type Targets = BTreeMap<Span, [bool; 2]>;

/// The integer expressions of implementation bodies off by one moves (the checker's
/// types: no mutant of this operator is ill-typed), none a literal or a literal moved
/// (`e ± n`: constant ±1 makes the same changes there):
/// - every right-hand side of an assignment and every map index (of a target, or of
///   a selection anywhere in code) but an in-parameter ([`Target::Index`]), both ways;
/// - the right operand of a comparison of two such integers, the way relational
///   operator replacement does not already go: `a < b - 1` (`a < b + 1` is `a <= b`),
///   `a <= b + 1`, `a > b + 1`, `a >= b - 1`, and both ways for `==` and `!=`. With
///   the replacements, both sides of each boundary are asked for a test.
///
/// Empty when `program` does not check.
fn off_by_one_targets(program: &ast::Program) -> Targets {
    let mut targets = Targets::new();
    let Some(checked) = crate::sema::check(program).0 else { return targets };
    for implementation in &checked.implementations {
        let parameter = |expr: &hir::Expr| match expr.kind {
            hir::ExprKind::Var(hir::Var::Local(id)) => implementation.locals[id.index()].kind == hir::LocalKind::In,
            _ => false,
        };
        let mut add = |expr: &hir::Expr, target: Target| {
            let ways = match target {
                Target::Stored => [true, true],
                Target::Index if parameter(expr) => return,
                Target::Index => [true, true],
                Target::Compared(ways) => ways,
            };
            if expr.ty == hir::Type::Int && !moved_by_a_literal(expr) {
                let both = targets.entry(expr.span).or_default();
                *both = [both[0] || ways[0], both[1] || ways[1]];
            }
        };
        targets_in_stmts(&implementation.body, &mut add);
    }
    targets
}

/// Why an expression is a target of off by one.
enum Target {
    /// The right-hand side of an assignment.
    Stored,
    /// A map index. One that is an in-parameter is left alone: it is the caller's
    /// choice of an element (an account, a slot), not an index the code computes, and
    /// moving it would ask for a test per map the procedure reads, nothing about the
    /// code's boundaries.
    Index,
    /// The right operand of a comparison, moved the ways given.
    Compared([bool; 2]),
}

/// Whether `expr` is a literal, or a literal added or subtracted.
fn moved_by_a_literal(expr: &hir::Expr) -> bool {
    let literal = |expr: &hir::Expr| match &expr.kind {
        hir::ExprKind::Int(_) => true,
        hir::ExprKind::Unary { op: hir::UnaryOp::Neg, operand } => matches!(operand.kind, hir::ExprKind::Int(_)),
        _ => false,
    };
    match &expr.kind {
        hir::ExprKind::Binary { op: hir::BinaryOp::Add | hir::BinaryOp::Sub, lhs, rhs } => literal(lhs) || literal(rhs),
        _ => literal(expr),
    }
}

type AddTarget<'a> = dyn FnMut(&hir::Expr, Target) + 'a;

fn targets_in_stmts(stmts: &[hir::Stmt], add: &mut AddTarget) {
    for stmt in stmts {
        match &stmt.kind {
            hir::StmtKind::Assign { lhs, rhs } => {
                for index in lhs.iter().flat_map(|target| target.indices.iter().flatten()) {
                    add(index, Target::Index);
                    targets_in_expr(index, add);
                }
                for value in rhs {
                    add(value, Target::Stored);
                    targets_in_expr(value, add);
                }
            }
            hir::StmtKind::Call { args, .. } => args.iter().for_each(|arg| targets_in_expr(arg, add)),
            hir::StmtKind::If { branches, else_block } => {
                for branch in branches {
                    if let hir::Guard::Expr(guard) = &branch.guard {
                        targets_in_expr(guard, add);
                    }
                    targets_in_stmts(&branch.block, add);
                }
                targets_in_stmts(else_block.as_deref().unwrap_or_default(), add);
            }
            hir::StmtKind::While { guard, body, .. } => {
                if let hir::Guard::Expr(guard) = guard {
                    targets_in_expr(guard, add);
                }
                targets_in_stmts(body, add);
            }
            _ => {}
        }
    }
}

/// The map indices and compared operands within `expr` (quantifier bodies left out:
/// their variables are bound there).
fn targets_in_expr(expr: &hir::Expr, add: &mut AddTarget) {
    use hir::BinaryOp::{Eq, Ge, Gt, Le, Lt, Neq};
    match &expr.kind {
        hir::ExprKind::Quant { .. } => return,
        hir::ExprKind::Select { indices, .. } | hir::ExprKind::Store { indices, .. } => {
            indices.iter().for_each(|index| add(index, Target::Index));
        }
        hir::ExprKind::Binary { op, lhs, rhs } if lhs.ty == hir::Type::Int && !moved_by_a_literal(lhs) => {
            let ways = match op {
                Lt | Ge => [false, true],
                Le | Gt => [true, false],
                Eq | Neq => [true, true],
                _ => [false, false],
            };
            if ways != [false, false] {
                add(rhs, Target::Compared(ways));
            }
        }
        _ => {}
    }
    expr.for_each_child(&mut |child| targets_in_expr(child, add));
}

/// Makes `change` at `place`.
fn make(place: Point, change: &Change) {
    match place {
        Point::Code(expr) | Point::Spec(expr) | Point::Guard(expr) => make_expr(expr, change),
        Point::Stmt(stmts, index) => {
            assert_eq!(*change, Change::Delete, "statements are only deleted");
            stmts.remove(index);
        }
    }
}

fn make_expr(expr: &mut ast::Expr, change: &Change) {
    let span = expr.span;
    match change {
        Change::Binary(new) => match &mut expr.kind {
            ExprKind::Binary { op, .. } => *op = *new,
            _ => unreachable!("operator replacement is made at a binary expression"),
        },
        Change::Literal(value) => expr.kind = literal(value, span),
        Change::Negate => {
            let operand = std::mem::replace(&mut expr.kind, ExprKind::Bool(true));
            let operand = Box::new(ast::Expr { kind: operand, span });
            expr.kind = ExprKind::Unary { op: ast::UnaryOp::Not, operand };
        }
        Change::RemoveOld => {
            let mut inner = match std::mem::replace(&mut expr.kind, ExprKind::Bool(true)) {
                ExprKind::Old(inner) => inner,
                _ => unreachable!("old removal is made at `old(e)`"),
            };
            // The inner expression's own kind moves up; its span stays the outer one, so
            // messages about the mutant point at the text the mutant changed.
            expr.kind = std::mem::replace(&mut inner.kind, ExprKind::Bool(true));
        }
        Change::OffByOne(up) => {
            let value = std::mem::replace(&mut expr.kind, ExprKind::Bool(true));
            let one = ast::Expr { kind: ExprKind::Int(BigUint::from(1u8)), span };
            let op = if *up { BinaryOp::Add } else { BinaryOp::Sub };
            expr.kind = ExprKind::Binary { op, lhs: Box::new(ast::Expr { kind: value, span }), rhs: Box::new(one) };
        }
        Change::Delete => unreachable!("deletion is made at a statement"),
    }
}

/// The literal `value`: Boogie has no negative literals, so `-n` is a negation.
fn literal(value: &BigInt, span: Span) -> ExprKind {
    let magnitude = ExprKind::Int(BigUint::from_bytes_le(&value.magnitude().to_bytes_le()));
    match value.sign() {
        Sign::Minus => {
            ExprKind::Unary { op: ast::UnaryOp::Neg, operand: Box::new(ast::Expr { kind: magnitude, span }) }
        }
        Sign::NoSign | Sign::Plus => magnitude,
    }
}

/// How many divisions and remainders (`div`, `mod`) the Boogie text `text` writes: the
/// interpreter stops a run at a division by zero where z3's division is total, so
/// proofs and products about mutants must know where they are.
pub(super) fn divisions(text: &str) -> usize {
    text.matches(" div ").count() + text.matches(" mod ").count()
}

/// `source` parsed, and its mutant `original → replacement` (for tests of the passes
/// that take a mutant).
#[cfg(test)]
pub fn parsed_mutant(source: &str, original: &str, replacement: &str) -> (ast::Program, Mutant) {
    let (ast, errors) = crate::syntax::parse(crate::source::FileId(0), source);
    assert!(errors.is_empty(), "{errors:?}");
    let mutant = mutants(&ast, source)
        .into_iter()
        .find(|mutant| mutant.original == original && mutant.replacement == replacement)
        .expect("the mutant exists");
    (ast, mutant)
}

/// A statement's text on one line, at most 60 characters.
fn one_line(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let line = words.join(" ");
    if line.chars().count() <= 60 {
        return line;
    }
    let mut short: String = line.chars().take(57).collect();
    short.push_str("...");
    short
}

// ---------------------------------------------------------------------------------------
// The traversal: every place of the program, parent before children, in source order
// within a statement list. Statements and expressions nest at most as deep as the
// parser allows (`syntax::MAX_STMT_DEPTH`, `MAX_EXPR_DEPTH`), so recursion is safe on
// the pipeline's big stack.

type Visitor<'v> = dyn FnMut(Point) -> ControlFlow<()> + 'v;

fn visit(program: &mut ast::Program, f: &mut Visitor) -> ControlFlow<()> {
    for decl in &mut program.decls {
        match decl {
            ast::Decl::Procedure(procedure) => {
                for spec in &mut procedure.specs {
                    if let ast::SpecKind::Ensures { expr, .. } = &mut spec.kind {
                        visit_expr(expr, false, f)?;
                    }
                }
                if let Some(body) = &mut procedure.body {
                    visit_stmts(&mut body.stmts, f)?;
                }
            }
            ast::Decl::Implementation(implementation) => visit_stmts(&mut implementation.body.stmts, f)?,
            _ => {}
        }
    }
    ControlFlow::Continue(())
}

fn visit_stmts(stmts: &mut Vec<ast::Stmt>, f: &mut Visitor) -> ControlFlow<()> {
    for index in 0..stmts.len() {
        f(Point::Stmt(stmts, index))?;
        visit_stmt(&mut stmts[index], f)?;
    }
    ControlFlow::Continue(())
}

fn visit_stmt(stmt: &mut ast::Stmt, f: &mut Visitor) -> ControlFlow<()> {
    match &mut stmt.kind {
        StmtKind::Assert { expr, .. } => visit_expr(expr, false, f),
        StmtKind::Assign { lhs, rhs, .. } => {
            for index in lhs.iter_mut().flat_map(|target| target.indices.iter_mut().flatten()) {
                visit_expr(index, true, f)?;
            }
            rhs.iter_mut().try_for_each(|expr| visit_expr(expr, true, f))
        }
        StmtKind::Call(call) => call.args.iter_mut().try_for_each(|expr| visit_expr(expr, true, f)),
        StmtKind::Block(block) => visit_stmts(&mut block.stmts, f),
        StmtKind::If { branches, else_block } => {
            for branch in branches.iter_mut() {
                visit_guard(&mut branch.guard, f)?;
                visit_stmts(&mut branch.block.stmts, f)?;
            }
            match else_block {
                Some(block) => visit_stmts(&mut block.stmts, f),
                None => ControlFlow::Continue(()),
            }
        }
        StmtKind::While { guard, invariants, body } => {
            visit_guard(guard, f)?;
            for invariant in invariants.iter_mut() {
                visit_expr(&mut invariant.expr, false, f)?;
            }
            visit_stmts(&mut body.stmts, f)
        }
        // An assumption is a guard's other half or a specification; the rest has no
        // expression of code.
        StmtKind::Assume { .. }
        | StmtKind::Label(_)
        | StmtKind::Havoc { .. }
        | StmtKind::Par { .. }
        | StmtKind::Yield
        | StmtKind::Break { .. }
        | StmtKind::Return
        | StmtKind::Goto { .. } => ControlFlow::Continue(()),
    }
}

fn visit_guard(guard: &mut ast::Guard, f: &mut Visitor) -> ControlFlow<()> {
    match guard {
        ast::Guard::Expr(expr) => {
            f(Point::Guard(expr))?;
            visit_expr(expr, true, f)
        }
        ast::Guard::Star(_) => ControlFlow::Continue(()),
    }
}

/// Visits `expr` and its subexpressions; `code` tells whether it is code or a
/// specification. Triggers and attributes are never visited: a trigger must stay a
/// valid pattern, and attributes mean nothing to a run.
fn visit_expr(expr: &mut ast::Expr, code: bool, f: &mut Visitor) -> ControlFlow<()> {
    f(if code { Point::Code(expr) } else { Point::Spec(expr) })?;
    match &mut expr.kind {
        ExprKind::Bool(_)
        | ExprKind::Int(_)
        | ExprKind::Real(_)
        | ExprKind::BitVector { .. }
        | ExprKind::Var(_)
        | ExprKind::Dropped => ControlFlow::Continue(()),
        ExprKind::Apply { args, .. } => args.iter_mut().try_for_each(|arg| visit_expr(arg, code, f)),
        ExprKind::Old(operand)
        | ExprKind::Unary { operand, .. }
        | ExprKind::Convert { operand, .. }
        | ExprKind::Coerce { operand, .. }
        | ExprKind::Extract { operand, .. } => visit_expr(operand, code, f),
        ExprKind::Let { values, body, .. } => {
            values.iter_mut().try_for_each(|value| visit_expr(value, code, f))?;
            visit_expr(body, code, f)
        }
        ExprKind::Binary { lhs, rhs, .. } => {
            visit_expr(lhs, code, f)?;
            visit_expr(rhs, code, f)
        }
        ExprKind::Select { map, indices } => {
            visit_expr(map, code, f)?;
            indices.iter_mut().try_for_each(|index| visit_expr(index, code, f))
        }
        ExprKind::Store { map, indices, value } => {
            visit_expr(map, code, f)?;
            indices.iter_mut().try_for_each(|index| visit_expr(index, code, f))?;
            visit_expr(value, code, f)
        }
        ExprKind::IfThenElse { cond, then_expr, else_expr } => {
            visit_expr(cond, code, f)?;
            visit_expr(then_expr, code, f)?;
            visit_expr(else_expr, code, f)
        }
        ExprKind::Quant { body, .. } => visit_expr(body, code, f),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FileId;
    use crate::syntax::{parse, printer::print_program};

    fn parsed(source: &str) -> ast::Program {
        let (program, errors) = parse(FileId(0), source);
        assert!(errors.is_empty(), "{errors:?}");
        program
    }

    /// `operator: original → replacement` per mutant, in order.
    fn check_mutants(source: &str) -> Vec<String> {
        mutants(&parsed(source), source)
            .iter()
            .map(|mutant| format!("{}: {} → {}", mutant.operator.key(), mutant.original, mutant.replacement))
            .collect()
    }

    /// The body of the first procedure of the mutant, printed.
    fn check_apply(source: &str, which: usize) -> String {
        let program = parsed(source);
        let mutant = &mutants(&program, source)[which];
        let printed = print_program(&apply(&program, mutant));
        printed.lines().filter(|line| line.starts_with("    ")).map(str::trim).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn relational_operators_are_replaced_by_every_other() {
        let found = check_mutants("procedure P(a: int) returns (b: bool) { b := a < 1; }");
        let ror: Vec<&String> = found.iter().filter(|line| line.starts_with("ror")).collect();
        assert_eq!(
            ror,
            [
                "ror: a < 1 → a <= 1",
                "ror: a < 1 → a > 1",
                "ror: a < 1 → a >= 1",
                "ror: a < 1 → a == 1",
                "ror: a < 1 → a != 1"
            ]
        );
    }

    #[test]
    fn arithmetic_operators_are_replaced_by_every_other() {
        let found = check_mutants("procedure P(a: int) returns (b: int) { b := a mod 2; }");
        let aor: Vec<&String> = found.iter().filter(|line| line.starts_with("aor")).collect();
        assert_eq!(
            aor,
            ["aor: a mod 2 → a + 2", "aor: a mod 2 → a - 2", "aor: a mod 2 → a * 2", "aor: a mod 2 → a div 2"]
        );
    }

    #[test]
    fn constants_move_by_one_and_zero_becomes_minus_one() {
        let found = check_mutants("procedure P() returns (b: int) { b := 0; }");
        assert_eq!(found, ["delete: b := 0; → (deleted)", "constant: 0 → 1", "constant: 0 → -1"]);
        assert_eq!(check_apply("procedure P() returns (b: int) { b := 0; }", 2), "b := -1;");
    }

    #[test]
    fn guards_of_if_else_if_and_while_are_negated() {
        let source =
            "procedure P(a: int) { var i: int; if (a > 0) { } else if (a < 0) { } while (i < a) { i := i + 1; } }";
        let negated: Vec<String> =
            check_mutants(source).into_iter().filter(|line| line.starts_with("negate")).collect();
        assert_eq!(negated, ["negate: a > 0 → !(a > 0)", "negate: a < 0 → !(a < 0)", "negate: i < a → !(i < a)"]);
        let which = mutants(&parsed(source), source)
            .iter()
            .position(|mutant| mutant.change == Change::Negate)
            .expect("a negation");
        assert!(
            check_apply(source, which).contains(" if (!(a > 0)) { } else if (a < 0)"),
            "{}",
            check_apply(source, which)
        );
    }

    #[test]
    fn assignments_and_calls_are_deleted_but_not_assumes_asserts_or_havocs() {
        let source =
            "procedure Q(); procedure P() returns (x: int) { havoc x; assume x > 0; assert x > 0; x := 1; call Q(); }";
        let deleted: Vec<String> =
            check_mutants(source).into_iter().filter(|line| line.starts_with("delete")).collect();
        assert_eq!(deleted, ["delete: x := 1; → (deleted)", "delete: call Q(); → (deleted)"]);
    }

    #[test]
    fn specifications_only_lose_old() {
        let source = "var g: int; procedure P() modifies g; ensures g == old(g) + 1; { g := g + 1; }";
        let spec: Vec<String> =
            check_mutants(source).into_iter().filter(|line| line.contains("old") || line.contains("== old")).collect();
        assert_eq!(spec, ["old: old(g) → g"], "the `==` and `+` of the postcondition stay");
    }

    #[test]
    fn triggers_and_assumptions_are_left_alone() {
        let source = "function f(int): int; procedure P() { assume (forall i: int :: {f(i + 1)} f(i) > 0); }";
        assert!(check_mutants(source).is_empty(), "{:?}", check_mutants(source));
    }

    #[test]
    fn mutants_come_in_source_order_and_apply_changes_one_place() {
        let source = "procedure P(a: int) returns (b: int) { b := a + 1; b := b - 2; }";
        let program = parsed(source);
        let all = mutants(&program, source);
        assert!(all.windows(2).all(|pair| pair[0].span.start <= pair[1].span.start));
        for mutant in &all {
            let changed = print_program(&apply(&program, mutant));
            assert_ne!(changed, print_program(&program), "{mutant:?} changes the program");
        }
        assert_eq!(check_apply(source, 0), "b := b - 2;", "the first mutant deletes the first assignment");
    }

    #[test]
    fn off_by_one_moves_stored_values_indices_and_compared_operands() {
        let source = "var a: [int]int; procedure P(n: int, b: bool) returns (r: int, c: bool) modifies a; \
                      { var m: int; m := n + 1; r := m; a[m] := a[r]; c := b; if (m < n) { } if (m == n) { } }";
        let found: Vec<String> =
            check_mutants(source).into_iter().filter(|line| line.starts_with("off-by-one")).collect();
        assert_eq!(
            found,
            [
                "off-by-one: m → m + 1",
                "off-by-one: m → m - 1",
                "off-by-one: m → m + 1",
                "off-by-one: m → m - 1",
                "off-by-one: a[r] → a[r] + 1",
                "off-by-one: a[r] → a[r] - 1",
                "off-by-one: r → r + 1",
                "off-by-one: r → r - 1",
                "off-by-one: n → n - 1",
                "off-by-one: n → n + 1",
                "off-by-one: n → n - 1",
            ],
            "`n + 1` is constant ±1's, `b` no integer, `m < n + 1` is `m <= n`"
        );
    }

    #[test]
    fn an_index_that_is_an_in_parameter_is_not_moved() {
        let source = "var a: [int]int; procedure P(k: int) returns (r: int) { r := a[k]; }";
        let found: Vec<String> =
            check_mutants(source).into_iter().filter(|line| line.starts_with("off-by-one")).collect();
        assert_eq!(found, ["off-by-one: a[k] → a[k] + 1", "off-by-one: a[k] → a[k] - 1"]);
    }

    #[test]
    fn an_expression_moved_by_one_is_the_whole_expression() {
        let source = "procedure P(x: int, y: int) returns (r: int) { r := x * y; }";
        let which = mutants(&parsed(source), source)
            .iter()
            .position(|mutant| mutant.change == Change::OffByOne(false))
            .expect("an off-by-one mutant");
        assert_eq!(check_apply(source, which), "r := x * y - 1;");
    }

    #[test]
    fn removing_old_keeps_the_inner_expression_and_the_outer_span() {
        let source = "var g: int; procedure P() modifies g; { g := old(g) + 1; }";
        let program = parsed(source);
        let mutant = mutants(&program, source).into_iter().find(|m| m.operator == Operator::RemoveOld).expect("old");
        assert_eq!(&source[mutant.span.range()], "old(g)");
        assert!(print_program(&apply(&program, &mutant)).contains("g := g + 1;"));
    }
}
