//! Prints an AST back as Boogie text: `--dump ast`, the snapshot format of the front end,
//! and the way generated programs are written out.
//!
//! Invariant (the round-trip law): for every source `s` that parses without errors,
//! `parse(print_program(parse(s))) == parse(s)` up to spans, and printing is a fixpoint:
//! `print_program(parse(print_program(p))) == print_program(p)`. The same holds for
//! [`print_expr`] and `syntax::parse_expr`. The tests in `tests/it/roundtrip.rs` check it
//! on every corpus file, on targeted cases and on random expressions.
//!
//! The output is Boogie as a person writes it: four spaces per level, one statement per
//! line, labels outdented by two, specifications and loop invariants on their own lines,
//! ASCII operators (Unicode spellings come back as their ASCII forms). The AST keeps no
//! parentheses ([`crate::syntax::actions::parenthesized`]), so the printer puts back
//! exactly those the grammar's precedence levels need, and no others. Names that would
//! lex as keywords get their leading backslash back. Comments and layout of the input are
//! not kept.
//!
//! Expressions are printed recursively; the parser bounds their depth
//! (`syntax::MAX_EXPR_DEPTH`), so any parsed program prints without exhausting the stack.

use crate::syntax::ast::{
    AttrArg, Attribute, BinaryOp, Block, Body, Call, Conversion, Decl, Expr, ExprKind, FunctionArg, Guard, Ident, Lhs,
    Program, Quantifier, Spec, SpecKind, Stmt, StmtKind, Type, TypeKind, TypedIdents, UnaryOp, VarDecl,
};
use crate::syntax::lexer::{self, Token};

/// One level of indentation.
const INDENT: &str = "    ";

/// Prints a whole program, ending with a newline unless it is empty.
pub fn print_program(program: &Program) -> String {
    let mut printer = Printer::default();
    printer.program(program);
    printer.out
}

/// Prints one declaration as [`print_program`] does, with its final newline: the
/// canonical text of a declaration, without its spans or the input's layout (what the
/// `prove-tests` cache digests).
pub fn print_decl(decl: &Decl) -> String {
    let mut printer = Printer::default();
    printer.decl(decl);
    printer.out
}

/// Prints one expression on one line, as `syntax::parse_expr` reads it back.
pub fn print_expr(expr: &Expr) -> String {
    let mut printer = Printer::default();
    printer.expr(expr, Slot::ANY);
    printer.out
}

/// Prints one type.
pub fn print_type(ty: &Type) -> String {
    let mut printer = Printer::default();
    printer.ty(ty, TypeSlot::Full);
    printer.out
}

#[derive(Default)]
struct Printer {
    out: String,
    /// The current indentation, in levels.
    depth: usize,
}

// ---------------------------------------------------------------------------------------
// Declarations

impl Printer {
    fn program(&mut self, program: &Program) {
        let mut previous: Option<&Decl> = None;
        for decl in &program.decls {
            if previous.is_some_and(|previous| needs_blank_line(previous, decl)) {
                self.out.push('\n');
            }
            self.decl(decl);
            previous = Some(decl);
        }
    }

    fn decl(&mut self, decl: &Decl) {
        match decl {
            Decl::Type(decl) => {
                self.push("type");
                self.attrs_after(&decl.attrs);
                if decl.finite {
                    self.push(" finite");
                }
                self.push(" ");
                self.ident(&decl.name);
                for param in &decl.params {
                    self.push(" ");
                    self.ident(param);
                }
                if let Some(synonym) = &decl.synonym {
                    self.push(" = ");
                    self.ty(synonym, TypeSlot::Full);
                }
                self.push(";\n");
            }
            Decl::Const(decl) => {
                self.push("const");
                self.attrs_after(&decl.attrs);
                if decl.unique {
                    self.push(" unique");
                }
                self.push(" ");
                self.idents(&decl.names);
                self.push(": ");
                self.ty(&decl.ty, TypeSlot::Full);
                if let Some(order) = &decl.order {
                    self.push(" extends");
                    for (index, (unique, parent)) in order.parents.iter().enumerate() {
                        self.push(if index == 0 { " " } else { ", " });
                        if *unique {
                            self.push("unique ");
                        }
                        self.ident(parent);
                    }
                    if order.complete {
                        self.push(" complete");
                    }
                }
                if decl.uses.is_empty() {
                    self.push(";\n");
                } else {
                    self.uses(&decl.uses);
                }
            }
            Decl::Function(decl) => {
                self.push("function");
                self.attrs_after(&decl.attrs);
                self.push(" ");
                self.ident(&decl.name);
                self.type_params(&decl.type_params);
                self.push("(");
                self.comma_separated(&decl.params, Printer::function_arg);
                self.push(") returns (");
                self.function_arg(&decl.result);
                self.push(")");
                match &decl.body {
                    Some(body) => {
                        self.push(" { ");
                        self.expr(body, Slot::ANY);
                        self.push(" }");
                        if decl.uses.is_empty() {
                            self.push("\n");
                        }
                    }
                    None if decl.uses.is_empty() => self.push(";\n"),
                    None => {}
                }
                if !decl.uses.is_empty() {
                    self.uses(&decl.uses);
                }
            }
            Decl::Axiom(decl) => {
                self.push("axiom");
                self.attrs_after(&decl.attrs);
                self.push(" ");
                self.expr(&decl.expr, Slot::ANY);
                self.push(";\n");
            }
            Decl::Var(decl) => self.var_decl(decl),
            Decl::Procedure(decl) => {
                self.push("procedure");
                self.attrs_after(&decl.attrs);
                self.push(" ");
                self.signature(&decl.name, &decl.type_params, &decl.params, &decl.returns);
                if decl.body.is_none() {
                    self.push(";");
                }
                self.push("\n");
                self.depth += 1;
                for spec in &decl.specs {
                    self.spec(spec);
                }
                self.depth -= 1;
                if let Some(body) = &decl.body {
                    self.body(body);
                }
            }
            Decl::Implementation(decl) => {
                self.push("implementation");
                self.attrs_after(&decl.attrs);
                self.push(" ");
                self.signature(&decl.name, &decl.type_params, &decl.params, &decl.returns);
                self.push("\n");
                self.body(&decl.body);
            }
        }
    }

    /// ` uses { axiom ...; }` after a function or constant.
    fn uses(&mut self, axioms: &[crate::syntax::ast::AxiomDecl]) {
        self.push(" uses {\n");
        self.depth += 1;
        for axiom in axioms {
            self.indent();
            self.push("axiom");
            self.attrs_after(&axiom.attrs);
            self.push(" ");
            self.expr(&axiom.expr, Slot::ANY);
            self.push(";\n");
        }
        self.depth -= 1;
        self.push("}\n");
    }

    /// `P<T>(ins) returns (outs)`, shared by procedures and implementations.
    fn signature(&mut self, name: &Ident, type_params: &[Ident], params: &[TypedIdents], returns: &[TypedIdents]) {
        self.ident(name);
        self.type_params(type_params);
        self.push("(");
        self.comma_separated(params, Printer::typed_idents);
        self.push(")");
        if !returns.is_empty() {
            self.push(" returns (");
            self.comma_separated(returns, Printer::typed_idents);
            self.push(")");
        }
    }

    fn spec(&mut self, spec: &Spec) {
        self.indent();
        match &spec.kind {
            SpecKind::Requires { free, attrs, expr } => self.contract(*free, "requires", attrs, expr),
            SpecKind::Ensures { free, attrs, expr } => self.contract(*free, "ensures", attrs, expr),
            SpecKind::Modifies { names } => {
                self.push("modifies");
                if !names.is_empty() {
                    self.push(" ");
                    self.idents(names);
                }
                self.push(";\n");
            }
        }
    }

    /// `[free] keyword {:attrs} expr;` — requires, ensures and loop invariants.
    fn contract(&mut self, free: bool, keyword: &str, attrs: &[Attribute], expr: &Expr) {
        if free {
            self.push("free ");
        }
        self.push(keyword);
        self.attrs_after(attrs);
        self.push(" ");
        self.expr(expr, Slot::ANY);
        self.push(";\n");
    }

    /// `var {:attrs} x, y: T where e, z: U;` on its own line, at the current indentation.
    fn var_decl(&mut self, decl: &VarDecl) {
        self.indent();
        self.push("var");
        self.attrs_after(&decl.attrs);
        self.push(" ");
        self.comma_separated(&decl.groups, Printer::typed_idents);
        self.push(";\n");
    }

    /// `{:attrs} x, y: T where e`.
    fn typed_idents(&mut self, group: &TypedIdents) {
        self.attrs_before(&group.attrs);
        self.idents(&group.names);
        self.push(": ");
        self.ty(&group.ty, TypeSlot::Full);
        if let Some(where_clause) = &group.where_clause {
            self.push(" where ");
            self.expr(where_clause, Slot::ANY);
        }
    }

    fn function_arg(&mut self, arg: &FunctionArg) {
        if let Some(name) = &arg.name {
            self.ident(name);
            self.push(": ");
        }
        self.ty(&arg.ty, TypeSlot::Full);
    }

    fn type_params(&mut self, params: &[Ident]) {
        if !params.is_empty() {
            self.push("<");
            self.idents(params);
            self.push(">");
        }
    }
}

/// Declarations of one kind sit on consecutive lines; a blank line separates groups of
/// different kinds and sets off every procedure and implementation.
fn needs_blank_line(previous: &Decl, next: &Decl) -> bool {
    let is_long = |decl: &Decl| matches!(decl, Decl::Procedure(_) | Decl::Implementation(_));
    is_long(previous) || is_long(next) || std::mem::discriminant(previous) != std::mem::discriminant(next)
}

// ---------------------------------------------------------------------------------------
// Statements

impl Printer {
    /// A procedure or implementation body: braces on their own lines, locals first and a
    /// blank line before the statements.
    fn body(&mut self, body: &Body) {
        self.push("{\n");
        self.depth += 1;
        for local in &body.locals {
            self.var_decl(local);
        }
        if !body.locals.is_empty() && !body.stmts.is_empty() {
            self.push("\n");
        }
        self.stmts(&body.stmts);
        self.depth -= 1;
        self.push("}\n");
    }

    /// `{`, the statements one level deeper, and `}` at the current indentation; the
    /// caller has printed what comes before the brace and prints what follows it.
    fn block(&mut self, block: &Block) {
        self.push("{\n");
        self.depth += 1;
        self.stmts(&block.stmts);
        self.depth -= 1;
        self.indent();
        self.push("}");
    }

    fn stmts(&mut self, stmts: &[Stmt]) {
        for stmt in stmts {
            self.stmt(stmt);
        }
    }

    fn stmt(&mut self, stmt: &Stmt) {
        if let StmtKind::Label(label) = &stmt.kind {
            // Labels stand out two columns left of the statements they name.
            let width = self.depth * INDENT.len();
            self.out.extend(std::iter::repeat_n(' ', width.saturating_sub(2)));
            self.ident(label);
            self.push(":\n");
            return;
        }
        self.indent();
        match &stmt.kind {
            StmtKind::Label(_) => unreachable!("labels are printed above"),
            StmtKind::Assert { attrs, expr } => self.simple_with_expr("assert", attrs, expr),
            StmtKind::Assume { attrs, expr } => self.simple_with_expr("assume", attrs, expr),
            StmtKind::Havoc { names } => {
                self.push("havoc ");
                self.idents(names);
                self.push(";\n");
            }
            StmtKind::Assign { lhs, attrs, rhs } => {
                self.comma_separated(lhs, Printer::lhs);
                self.push(" :=");
                self.attrs_after(attrs);
                self.push(" ");
                self.exprs(rhs);
                self.push(";\n");
            }
            StmtKind::Call(call) => {
                self.call(call, true);
                self.push(";\n");
            }
            StmtKind::Block(block) => {
                self.block(block);
                self.push("\n");
            }
            StmtKind::Par { calls } => {
                self.push("par ");
                for (index, call) in calls.iter().enumerate() {
                    if index > 0 {
                        self.push(" | ");
                    }
                    self.call(call, false);
                }
                self.push(";\n");
            }
            StmtKind::Yield => self.push("yield;\n"),
            StmtKind::If { branches, else_block } => {
                for (index, branch) in branches.iter().enumerate() {
                    if index > 0 {
                        self.push(" else ");
                    }
                    self.push("if (");
                    self.guard(&branch.guard);
                    self.push(") ");
                    self.block(&branch.block);
                }
                if let Some(block) = else_block {
                    self.push(" else ");
                    self.block(block);
                }
                self.push("\n");
            }
            StmtKind::While { guard, invariants, body } => {
                self.push("while (");
                self.guard(guard);
                self.push(")");
                if invariants.is_empty() {
                    self.push(" ");
                } else {
                    // As in Boogie: the invariants one level deeper, the brace below them.
                    self.push("\n");
                    self.depth += 1;
                    for invariant in invariants {
                        self.indent();
                        self.contract(invariant.free, "invariant", &invariant.attrs, &invariant.expr);
                    }
                    self.depth -= 1;
                    self.indent();
                }
                self.block(body);
                self.push("\n");
            }
            StmtKind::Break { label } => {
                self.push("break");
                if let Some(label) = label {
                    self.push(" ");
                    self.ident(label);
                }
                self.push(";\n");
            }
            StmtKind::Return => self.push("return;\n"),
            StmtKind::Goto { targets } => {
                self.push("goto ");
                self.idents(targets);
                self.push(";\n");
            }
        }
    }

    /// `assert {:attrs} e;` and `assume {:attrs} e;`.
    fn simple_with_expr(&mut self, keyword: &str, attrs: &[Attribute], expr: &Expr) {
        self.push(keyword);
        self.attrs_after(attrs);
        self.push(" ");
        self.expr(expr, Slot::ANY);
        self.push(";\n");
    }

    /// `[free] [async] call {:attrs} outs := P(args)`; inside `par` the keywords are not
    /// written (`with_keyword` is false).
    fn call(&mut self, call: &Call, with_keyword: bool) {
        if with_keyword {
            if call.free {
                self.push("free ");
            }
            if call.is_async {
                self.push("async ");
            }
            self.push("call ");
        }
        self.attrs_before(&call.attrs);
        if !call.outs.is_empty() {
            self.idents(&call.outs);
            self.push(" := ");
        }
        self.ident(&call.callee);
        self.push("(");
        self.exprs(&call.args);
        self.push(")");
    }

    fn lhs(&mut self, lhs: &Lhs) {
        self.ident(&lhs.name);
        for indices in &lhs.indices {
            self.push("[");
            self.exprs(indices);
            self.push("]");
        }
    }

    fn guard(&mut self, guard: &Guard) {
        match guard {
            Guard::Expr(expr) => self.expr(expr, Slot::ANY),
            Guard::Star(_) => self.push("*"),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Types

/// Where a type stands: anywhere a full type may, or as a type-constructor argument
/// (`Set int`), where only atoms and bare names may.
#[derive(Clone, Copy, PartialEq, Eq)]
enum TypeSlot {
    Full,
    Argument,
}

impl Printer {
    fn ty(&mut self, ty: &Type, slot: TypeSlot) {
        let compound = match &ty.kind {
            TypeKind::Named { args, .. } => !args.is_empty(),
            TypeKind::Map { .. } => true,
            TypeKind::Int | TypeKind::Bool | TypeKind::Real => false,
        };
        if compound && slot == TypeSlot::Argument {
            self.push("(");
            self.ty(ty, TypeSlot::Full);
            self.push(")");
            return;
        }
        match &ty.kind {
            TypeKind::Int => self.push("int"),
            TypeKind::Bool => self.push("bool"),
            TypeKind::Real => self.push("real"),
            TypeKind::Named { name, args } => {
                self.ident(name);
                for arg in args {
                    self.push(" ");
                    self.ty(arg, TypeSlot::Argument);
                }
            }
            TypeKind::Map { type_params, domain, range } => {
                self.type_params(type_params);
                self.push("[");
                for (index, ty) in domain.iter().enumerate() {
                    if index > 0 {
                        self.push(", ");
                    }
                    self.ty(ty, TypeSlot::Full);
                }
                self.push("]");
                self.ty(range, TypeSlot::Full);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Expressions

/// Where an expression stands, as the grammar's nonterminal for that position: the
/// loosest precedence level printed there without parentheses, plus the one operator of
/// a looser level the position also takes (the left operand of `&&` may be an `&&`
/// chain, that of `<==` a `<==` chain).
#[derive(Clone, Copy)]
struct Slot {
    min_level: u8,
    also: Option<BinaryOp>,
}

impl Slot {
    /// `Expr`: anything, including `if .. then .. else ..`.
    const ANY: Slot = Slot::level(0);

    const fn level(min_level: u8) -> Slot {
        Slot { min_level, also: None }
    }

    const fn level_or(min_level: u8, op: BinaryOp) -> Slot {
        Slot { min_level, also: Some(op) }
    }

    fn admits(self, kind: &ExprKind) -> bool {
        match kind {
            ExprKind::Binary { op, .. } if self.also == Some(*op) => true,
            _ => level(kind) >= self.min_level,
        }
    }
}

// The precedence levels, loosest first, as in the header of `grammar/boogie.lalrpop`.
const LEVEL_ITE: u8 = 0;
const LEVEL_IFF: u8 = 1;
const LEVEL_IMPLIES: u8 = 2;
const LEVEL_LOGICAL: u8 = 3;
const LEVEL_REL: u8 = 4;
const LEVEL_CONCAT: u8 = 5;
const LEVEL_ADD: u8 = 6;
const LEVEL_MUL: u8 = 7;
const LEVEL_POWER: u8 = 8;
const LEVEL_UNARY: u8 = 9;
const LEVEL_COERCE: u8 = 10;
const LEVEL_POSTFIX: u8 = 11;
const LEVEL_ATOM: u8 = 12;

fn level(kind: &ExprKind) -> u8 {
    match kind {
        ExprKind::IfThenElse { .. } => LEVEL_ITE,
        ExprKind::Binary { op, .. } => binary_level(*op),
        ExprKind::Unary { .. } => LEVEL_UNARY,
        ExprKind::Coerce { .. } => LEVEL_COERCE,
        ExprKind::Select { .. } | ExprKind::Store { .. } | ExprKind::Extract { .. } => LEVEL_POSTFIX,
        ExprKind::Bool(_)
        | ExprKind::Int(_)
        | ExprKind::Real(_)
        | ExprKind::BitVector { .. }
        | ExprKind::Var(_)
        | ExprKind::Apply { .. }
        | ExprKind::Old(_)
        | ExprKind::Convert { .. }
        | ExprKind::Quant { .. }
        | ExprKind::Let { .. }
        | ExprKind::Dropped => LEVEL_ATOM,
    }
}

fn binary_level(op: BinaryOp) -> u8 {
    match op {
        BinaryOp::Iff => LEVEL_IFF,
        BinaryOp::Implies | BinaryOp::Explies => LEVEL_IMPLIES,
        BinaryOp::And | BinaryOp::Or => LEVEL_LOGICAL,
        BinaryOp::Eq
        | BinaryOp::Neq
        | BinaryOp::Lt
        | BinaryOp::Le
        | BinaryOp::Gt
        | BinaryOp::Ge
        | BinaryOp::Subtype => LEVEL_REL,
        BinaryOp::Concat => LEVEL_CONCAT,
        BinaryOp::Add | BinaryOp::Sub => LEVEL_ADD,
        BinaryOp::Mul | BinaryOp::RealDiv | BinaryOp::Div | BinaryOp::Mod => LEVEL_MUL,
        BinaryOp::Power => LEVEL_POWER,
    }
}

/// The slots of a binary operator's operands, read off the grammar's productions.
fn operand_slots(op: BinaryOp) -> (Slot, Slot) {
    match op {
        // IffExpr "<==>" ImpliesExpr: left-associative.
        BinaryOp::Iff => (Slot::level(LEVEL_IFF), Slot::level(LEVEL_IMPLIES)),
        // LogicalExpr "==>" ImpliesExpr: right-associative, and its right side may be a
        // `<==` chain.
        BinaryOp::Implies => (Slot::level(LEVEL_LOGICAL), Slot::level(LEVEL_IMPLIES)),
        // ExpliesExpr "<==" LogicalExpr: left-associative.
        BinaryOp::Explies => (Slot::level_or(LEVEL_LOGICAL, BinaryOp::Explies), Slot::level(LEVEL_LOGICAL)),
        // Chains of one connective, left-associative; `&&` and `||` never mix unbracketed.
        BinaryOp::And => (Slot::level_or(LEVEL_REL, BinaryOp::And), Slot::level(LEVEL_REL)),
        BinaryOp::Or => (Slot::level_or(LEVEL_REL, BinaryOp::Or), Slot::level(LEVEL_REL)),
        // ConcatExpr RelOp ConcatExpr: non-associative.
        BinaryOp::Eq
        | BinaryOp::Neq
        | BinaryOp::Lt
        | BinaryOp::Le
        | BinaryOp::Gt
        | BinaryOp::Ge
        | BinaryOp::Subtype => (Slot::level(LEVEL_CONCAT), Slot::level(LEVEL_CONCAT)),
        BinaryOp::Concat => (Slot::level(LEVEL_CONCAT), Slot::level(LEVEL_ADD)),
        BinaryOp::Add | BinaryOp::Sub => (Slot::level(LEVEL_ADD), Slot::level(LEVEL_MUL)),
        BinaryOp::Mul | BinaryOp::RealDiv | BinaryOp::Div | BinaryOp::Mod => {
            (Slot::level(LEVEL_MUL), Slot::level(LEVEL_POWER))
        }
        // UnaryExpr "**" PowerExpr: right-associative.
        BinaryOp::Power => (Slot::level(LEVEL_UNARY), Slot::level(LEVEL_POWER)),
    }
}

impl Printer {
    /// Prints `expr` where the grammar expects `slot`, in parentheses if it would not
    /// parse back there as the same tree.
    fn expr(&mut self, expr: &Expr, slot: Slot) {
        if !slot.admits(&expr.kind) {
            self.push("(");
            self.expr(expr, Slot::ANY);
            self.push(")");
            return;
        }
        match &expr.kind {
            ExprKind::Bool(value) => self.push(if *value { "true" } else { "false" }),
            ExprKind::Int(value) => self.push(&value.to_string()),
            ExprKind::Real(text) => self.push(text),
            ExprKind::BitVector { value, width } => self.push(&format!("{value}bv{width}")),
            ExprKind::Var(name) => self.ident(name),
            ExprKind::Apply { func, args } => {
                self.ident(func);
                self.push("(");
                self.exprs(args);
                self.push(")");
            }
            ExprKind::Convert { to, operand } => {
                self.push(match to {
                    Conversion::ToInt => "int(",
                    Conversion::ToReal => "real(",
                });
                self.expr(operand, Slot::ANY);
                self.push(")");
            }
            ExprKind::Old(operand) => {
                self.push("old(");
                self.expr(operand, Slot::ANY);
                self.push(")");
            }
            ExprKind::Unary { op, operand } => {
                self.push(match op {
                    UnaryOp::Not => "!",
                    UnaryOp::Neg => "-",
                });
                // `--x` would lex as two minus signs, but reads like a decrement.
                if *op == UnaryOp::Neg && matches!(operand.kind, ExprKind::Unary { op: UnaryOp::Neg, .. }) {
                    self.push(" ");
                }
                self.expr(operand, Slot::level(LEVEL_UNARY));
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let (lhs_slot, rhs_slot) = operand_slots(*op);
                self.expr(lhs, lhs_slot);
                self.push(" ");
                self.push(op.symbol());
                self.push(" ");
                self.expr(rhs, rhs_slot);
            }
            ExprKind::Select { map, indices } => {
                self.expr(map, Slot::level(LEVEL_POSTFIX));
                self.push("[");
                self.exprs(indices);
                self.push("]");
            }
            ExprKind::Store { map, indices, value } => {
                self.expr(map, Slot::level(LEVEL_POSTFIX));
                self.push("[");
                self.exprs(indices);
                self.push(" := ");
                self.expr(value, Slot::ANY);
                self.push("]");
            }
            ExprKind::Extract { operand, high, low } => {
                self.expr(operand, Slot::level(LEVEL_POSTFIX));
                self.push(&format!("[{high}:{low}]"));
            }
            ExprKind::Coerce { operand, ty } => {
                // A literal number before `:` would read as extraction bounds.
                if matches!(operand.kind, ExprKind::Int(_)) {
                    self.push("(");
                    self.expr(operand, Slot::ANY);
                    self.push(")");
                } else {
                    self.expr(operand, Slot::level(LEVEL_COERCE));
                }
                self.push(" : ");
                // The grammar reads a coercion's type without a leading `<`, which would
                // be a comparison: anything but a plain type goes in parentheses.
                let plain = match &ty.kind {
                    TypeKind::Named { args, .. } => args.is_empty(),
                    TypeKind::Map { .. } => false,
                    TypeKind::Int | TypeKind::Bool | TypeKind::Real => true,
                };
                if plain {
                    self.ty(ty, TypeSlot::Full);
                } else {
                    self.push("(");
                    self.ty(ty, TypeSlot::Full);
                    self.push(")");
                }
            }
            ExprKind::Let { vars, values, attrs, body } => {
                self.push("(var ");
                self.idents(vars);
                self.push(" := ");
                self.exprs(values);
                self.push(";");
                self.attrs_after(attrs);
                self.push(" ");
                self.expr(body, Slot::ANY);
                self.push(")");
            }
            ExprKind::IfThenElse { cond, then_expr, else_expr } => {
                self.push("if ");
                self.expr(cond, Slot::ANY);
                self.push(" then ");
                self.expr(then_expr, Slot::ANY);
                self.push(" else ");
                self.expr(else_expr, Slot::ANY);
            }
            ExprKind::Quant { quantifier, type_params, vars, attrs, triggers, body } => {
                self.push(match quantifier {
                    Quantifier::Forall => "(forall",
                    Quantifier::Exists => "(exists",
                    Quantifier::Lambda => "(lambda",
                });
                self.type_params(type_params);
                self.push(" ");
                self.comma_separated(vars, Printer::typed_idents);
                self.push(" ::");
                // The parser separates attributes from triggers, so their relative order
                // is not kept; attributes come first, as Boogie writes them.
                self.attrs_after(attrs);
                for trigger in triggers {
                    self.push(" { ");
                    self.exprs(&trigger.exprs);
                    self.push(" }");
                }
                self.push(" ");
                self.expr(body, Slot::ANY);
                self.push(")");
            }
            ExprKind::Dropped => unreachable!("ExprKind::Dropped exists only inside Expr::drop"),
        }
    }

    fn exprs(&mut self, exprs: &[Expr]) {
        self.comma_separated(exprs, |printer, expr| printer.expr(expr, Slot::ANY));
    }
}

// ---------------------------------------------------------------------------------------
// Names, attributes and layout

impl Printer {
    fn push(&mut self, text: &str) {
        self.out.push_str(text);
    }

    fn indent(&mut self) {
        for _ in 0..self.depth {
            self.out.push_str(INDENT);
        }
    }

    fn comma_separated<T>(&mut self, items: &[T], mut print: impl FnMut(&mut Printer, &T)) {
        for (index, item) in items.iter().enumerate() {
            if index > 0 {
                self.push(", ");
            }
            print(self, item);
        }
    }

    fn ident(&mut self, ident: &Ident) {
        if needs_backslash(&ident.name) {
            self.out.push('\\');
        }
        self.push(&ident.name);
    }

    fn idents(&mut self, idents: &[Ident]) {
        self.comma_separated(idents, Printer::ident);
    }

    /// Attributes after a keyword: ` {:a} {:b}`.
    fn attrs_after(&mut self, attrs: &[Attribute]) {
        for attr in attrs {
            self.push(" ");
            self.attr(attr);
        }
    }

    /// Attributes before a name: `{:a} {:b} `.
    fn attrs_before(&mut self, attrs: &[Attribute]) {
        for attr in attrs {
            self.attr(attr);
            self.push(" ");
        }
    }

    fn attr(&mut self, attr: &Attribute) {
        self.push("{:");
        self.ident(&attr.name);
        for (index, arg) in attr.args.iter().enumerate() {
            self.push(if index == 0 { " " } else { ", " });
            match arg {
                AttrArg::Expr(expr) => self.expr(expr, Slot::ANY),
                AttrArg::Str { value, .. } => {
                    // The AST keeps the string's escapes as written, so quoting it again
                    // gives back the literal.
                    self.out.push('"');
                    self.push(value);
                    self.out.push('"');
                }
            }
        }
        self.push("}");
    }
}

/// Whether a name must be written `\name` to lex back as this identifier: keywords, and
/// anything else the lexer would not read as exactly this one identifier. Asking the
/// lexer keeps the printer right when a keyword is added.
fn needs_backslash(name: &str) -> bool {
    let (tokens, problems) = lexer::lex(name);
    !(problems.is_empty() && matches!(tokens.as_slice(), [(_, Token::Ident(lexed), _)] if lexed == name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FileId;
    use crate::syntax::parse_expr;

    fn reprint(source: &str) -> String {
        print_expr(&parse_expr(FileId(0), source).expect("the test input parses"))
    }

    #[test]
    fn keywords_get_their_backslash_back() {
        assert!(needs_backslash("if"));
        assert!(needs_backslash("forall"));
        assert!(!needs_backslash("iff"));
        assert!(!needs_backslash("$Heap"));
        assert_eq!(reprint(r"\old(\int) + old(x)"), r"\old(\int) + old(x)");
    }

    #[test]
    fn parentheses_only_where_the_grammar_needs_them() {
        assert_eq!(reprint("((a + b)) * (c)"), "(a + b) * c");
        assert_eq!(reprint("a - (b - c)"), "a - (b - c)");
        assert_eq!(reprint("(a - b) - c"), "a - b - c");
        assert_eq!(reprint("(a ==> b) ==> c"), "(a ==> b) ==> c");
        assert_eq!(reprint("a ==> (b ==> c)"), "a ==> b ==> c");
        assert_eq!(reprint("a <== (b <== c)"), "a <== (b <== c)");
        assert_eq!(reprint("(a && b) || c"), "(a && b) || c");
        assert_eq!(reprint("- (-x)"), "- -x");
        assert_eq!(reprint("1 + (if b then 1 else 2)"), "1 + (if b then 1 else 2)");
    }
}
