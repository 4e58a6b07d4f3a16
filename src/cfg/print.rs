//! Prints HIR declarations and control-flow graphs back as Boogie: `--dump cfg`, the
//! snapshot format of this stage, and the text Boogie 2.4.1 cross-checks.
//!
//! Input: a checked [`hir::Program`] and graphs lowered from it. Output: Boogie text that
//! Boogie 2.4.1 (and our own parser) accepts, meaning what the graph means. Every node is
//! first turned back into the [`ast`] and then printed by [`crate::syntax::printer`], so
//! the layout, the minimal parentheses and the backslashes before names that would lex
//! as keywords are exactly those of the front end's printer (and its round-trip law).
//!
//! A graph prints as an unstructured implementation: its locals, then each block as a
//! fresh label (`bb0`, `bb1`, …, suffixed when a name of the program is taken), its
//! commands and its `goto` or `return`, after a comment naming the block's origin
//! (`// while#1/body`). Things the HIR no longer has are not printed: type synonyms
//! (expanded), comments, the grouping of declarations, attributes on commands. A free
//! invariant prints as the `assume` Boogie reads as one; a `where` clause on a local is
//! printed besides the `assume`s lowering made of it, which is harmless (Boogie assumes
//! it at the same places) and keeps the clause for Boogie's own loop cutting.

use super::graph::{AssertReason, Block, BlockId, Cfg, CmdKind, Origin, Segment, Terminator};
use crate::sema::{hir, order};
use crate::source::Span;
use crate::syntax::ast;
use crate::syntax::printer;
use num_bigint::Sign;
use std::collections::{BTreeMap, BTreeSet};

/// Prints one expression whose locals are `locals` (those of its procedure, or of its
/// graph).
pub fn print_expr(program: &hir::Program, locals: &[hir::Local], expr: &hir::Expr) -> String {
    printer::print_expr(&ToAst::new(program, locals).expr(expr))
}

/// Prints every declaration of `program` but its implementations: types, constants,
/// functions, axioms, global variables and procedures with their full contracts.
pub fn print_declarations(program: &hir::Program) -> String {
    printer::print_program(&ast::Program { decls: declarations(program) })
}

/// Prints `cfg` as an unstructured implementation.
pub fn print_cfg(program: &hir::Program, cfg: &Cfg) -> String {
    print_instrumented_cfg(program, cfg, &Instrumentation::default())
}

/// Statements a later stage adds to a printed graph (the seeds of `seedgen seed`),
/// already as AST: extra locals, statements put at the start of given blocks, and
/// statements after the last block.
#[derive(Clone, Debug, Default)]
pub struct Instrumentation {
    pub locals: Vec<ast::VarDecl>,
    /// Statements printed first in a block, after its label.
    pub block_prefixes: Vec<(BlockId, Vec<ast::Stmt>)>,
    /// Statements printed after the graph's blocks: blocks of the caller's own, each
    /// with a label that must not start with `bb` (the printer's labels do).
    pub trailing: Vec<ast::Stmt>,
}

/// Prints `cfg` as an unstructured implementation with `extra` added.
pub fn print_instrumented_cfg(program: &hir::Program, cfg: &Cfg, extra: &Instrumentation) -> String {
    let labels = block_labels(program, cfg);
    let mut decl = implementation(program, cfg, &labels, extra);
    decl.body.locals.extend(extra.locals.iter().cloned());
    let text = printer::print_program(&ast::Program { decls: vec![ast::Decl::Implementation(decl)] });
    with_origin_comments(&text, cfg, &labels)
}

/// The declarations, then every graph: a whole program Boogie can verify.
pub fn print_program(program: &hir::Program, cfgs: &[Cfg]) -> String {
    let mut out = print_declarations(program);
    for cfg in cfgs {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&print_cfg(program, cfg));
    }
    out
}

// ---------------------------------------------------------------------------------------
// HIR → AST

/// Turns HIR nodes back into AST nodes, naming each variable as its declaration does.
struct ToAst<'p> {
    program: &'p hir::Program,
    locals: &'p [hir::Local],
    /// The bound variables in scope, innermost last.
    bound: Vec<(hir::BoundId, String)>,
}

fn ident(name: &str, span: Span) -> ast::Ident {
    ast::Ident { name: boogie_name(name), span }
}

/// Whether `expr` reads the bound variable `id`.
fn mentions_bound(expr: &hir::Expr, id: hir::BoundId) -> bool {
    if matches!(expr.kind, hir::ExprKind::Var(hir::Var::Bound(bound)) if bound == id) {
        return true;
    }
    let mut found = false;
    expr.for_each_child(&mut |child| found = found || mentions_bound(child, id));
    found
}

/// `name` as a Boogie identifier. The names monomorphization gives instances (`Field int`,
/// `Set#Card<int>`, `heap<bool>`) are no identifiers: each run of characters outside
/// Boogie's identifier alphabet (letters, digits, `'~#$^_.?`) becomes one `^`
/// (`Field^int`, `Set#Card^int^`), so that the printed program parses in Boogie 2.4.1 and
/// in our own front end alike. Names of the program as written pass unchanged.
fn boogie_name(name: &str) -> String {
    let in_alphabet = |c: char| c.is_ascii_alphanumeric() || "'~#$^_.?".contains(c);
    let mut printed = String::with_capacity(name.len());
    for c in name.chars() {
        if in_alphabet(c) {
            printed.push(c);
        } else if !printed.ends_with('^') {
            printed.push('^');
        }
    }
    printed
}

fn typed(name: &str, ty: ast::Type, where_clause: Option<ast::Expr>, span: Span) -> ast::TypedIdents {
    ast::TypedIdents { attrs: Vec::new(), names: vec![ident(name, span)], ty, where_clause, span }
}

impl<'p> ToAst<'p> {
    fn new(program: &'p hir::Program, locals: &'p [hir::Local]) -> ToAst<'p> {
        ToAst { program, locals, bound: Vec::new() }
    }

    fn ty(&self, ty: &hir::Type) -> ast::Type {
        let span = Span::default();
        let kind = match ty {
            hir::Type::Int => ast::TypeKind::Int,
            hir::Type::Bool => ast::TypeKind::Bool,
            hir::Type::Real => ast::TypeKind::Real,
            hir::Type::BitVector(width) => {
                ast::TypeKind::Named { name: ident(&format!("bv{width}"), span), args: Vec::new() }
            }
            hir::Type::Param(param) => {
                let name = ident(&self.program.type_params[param.index()].name, span);
                ast::TypeKind::Named { name, args: Vec::new() }
            }
            hir::Type::Named(id, args) => {
                let name = ident(&self.program.types[id.index()].name, span);
                ast::TypeKind::Named { name, args: args.iter().map(|arg| self.ty(arg)).collect() }
            }
            hir::Type::Map(map) => ast::TypeKind::Map {
                type_params: map
                    .type_params
                    .iter()
                    .map(|param| ident(&self.program.type_params[param.index()].name, span))
                    .collect(),
                domain: map.domain.iter().map(|ty| self.ty(ty)).collect(),
                range: Box::new(self.ty(&map.range)),
            },
        };
        ast::Type { kind, span }
    }

    fn var_name(&self, var: hir::Var) -> String {
        match var {
            hir::Var::Local(id) => self.locals[id.index()].name.clone(),
            hir::Var::Global(id) => self.program.globals[id.index()].name.clone(),
            hir::Var::Const(id) => self.program.consts[id.index()].name.clone(),
            hir::Var::Bound(id) => match self.bound.iter().rev().find(|(bound, _)| *bound == id) {
                Some((_, name)) => name.clone(),
                // Only a fragment printed out of its binder has a free bound variable.
                None => format!("#bound{}", id.0),
            },
        }
    }

    fn var(&self, var: hir::Var, span: Span) -> ast::Ident {
        ident(&self.var_name(var), span)
    }

    fn exprs(&mut self, exprs: &[hir::Expr]) -> Vec<ast::Expr> {
        exprs.iter().map(|expr| self.expr(expr)).collect()
    }

    fn boxed(&mut self, expr: &hir::Expr) -> Box<ast::Expr> {
        Box::new(self.expr(expr))
    }

    /// Recursion is as deep as the expression, which the parser bounds.
    fn expr(&mut self, expr: &hir::Expr) -> ast::Expr {
        let span = expr.span;
        let kind = match &expr.kind {
            hir::ExprKind::Bool(value) => ast::ExprKind::Bool(*value),
            hir::ExprKind::Int(value) => {
                let magnitude = ast::Expr { kind: ast::ExprKind::Int(value.magnitude().clone()), span };
                if value.sign() != Sign::Minus {
                    return magnitude;
                }
                ast::ExprKind::Unary { op: ast::UnaryOp::Neg, operand: Box::new(magnitude) }
            }
            hir::ExprKind::Var(var) => ast::ExprKind::Var(self.var(*var, span)),
            hir::ExprKind::Real(value) => ast::ExprKind::Real(decimal_text(value)),
            hir::ExprKind::BitVector { value, width } => {
                ast::ExprKind::BitVector { value: value.clone(), width: *width }
            }
            hir::ExprKind::Extract { operand, high, low } => {
                ast::ExprKind::Extract { operand: self.boxed(operand), high: (*high).into(), low: (*low).into() }
            }
            hir::ExprKind::Apply { func, args, .. } => {
                let function = &self.program.functions[func.index()];
                match args.as_slice() {
                    [lhs, rhs] if order::is_order(function) => {
                        ast::ExprKind::Binary { op: ast::BinaryOp::Subtype, lhs: self.boxed(lhs), rhs: self.boxed(rhs) }
                    }
                    _ => ast::ExprKind::Apply { func: ident(&function.name, span), args: self.exprs(args) },
                }
            }
            hir::ExprKind::Old(operand) => ast::ExprKind::Old(self.boxed(operand)),
            hir::ExprKind::Unary { op, operand } => {
                let op = match op {
                    hir::UnaryOp::Not => ast::UnaryOp::Not,
                    hir::UnaryOp::Neg => ast::UnaryOp::Neg,
                    hir::UnaryOp::ToInt | hir::UnaryOp::ToReal => {
                        let to =
                            if *op == hir::UnaryOp::ToInt { ast::Conversion::ToInt } else { ast::Conversion::ToReal };
                        return ast::Expr { kind: ast::ExprKind::Convert { to, operand: self.boxed(operand) }, span };
                    }
                };
                ast::ExprKind::Unary { op, operand: self.boxed(operand) }
            }
            hir::ExprKind::Binary { op, lhs, rhs } => {
                ast::ExprKind::Binary { op: binary_op(*op), lhs: self.boxed(lhs), rhs: self.boxed(rhs) }
            }
            hir::ExprKind::Select { map, indices } => {
                ast::ExprKind::Select { map: self.boxed(map), indices: self.exprs(indices) }
            }
            hir::ExprKind::Store { map, indices, value } => {
                ast::ExprKind::Store { map: self.boxed(map), indices: self.exprs(indices), value: self.boxed(value) }
            }
            hir::ExprKind::IfThenElse { cond, then_expr, else_expr } => ast::ExprKind::IfThenElse {
                cond: self.boxed(cond),
                then_expr: self.boxed(then_expr),
                else_expr: self.boxed(else_expr),
            },
            hir::ExprKind::Quant { quantifier, vars, triggers, attrs, body, .. } => {
                self.quant(*quantifier, vars, triggers, attrs, body)
            }
        };
        ast::Expr { kind, span }
    }

    fn quant(
        &mut self,
        quantifier: hir::Quantifier,
        vars: &[hir::BoundVar],
        triggers: &[Vec<hir::Expr>],
        attrs: &[ast::Attribute],
        body: &hir::Expr,
    ) -> ast::ExprKind {
        let scope = self.bound.len();
        let mut groups = Vec::with_capacity(vars.len());
        for var in vars {
            let name = var.name.clone().unwrap_or_else(|| format!("#bound{}", var.id.0));
            groups.push(typed(&name, self.ty(&var.ty), None, var.span));
            self.bound.push((var.id, name));
        }
        // A trigger that does not mention every bound variable (one component of a split
        // heap's multi-pattern) is dropped, as the encoding drops it and Boogie rejects it.
        let triggers = triggers
            .iter()
            .filter(|trigger| vars.iter().all(|var| trigger.iter().any(|expr| mentions_bound(expr, var.id))))
            .map(|trigger| {
                let span = trigger.first().map_or(body.span, |first| first.span);
                ast::Trigger { exprs: self.exprs(trigger), span }
            })
            .collect();
        let body = self.boxed(body);
        self.bound.truncate(scope);
        let quantifier = match quantifier {
            hir::Quantifier::Forall => ast::Quantifier::Forall,
            hir::Quantifier::Exists => ast::Quantifier::Exists,
            hir::Quantifier::Lambda => ast::Quantifier::Lambda,
        };
        ast::ExprKind::Quant {
            quantifier,
            type_params: Vec::new(),
            vars: groups,
            attrs: attrs.to_vec(),
            triggers,
            body,
        }
    }

    /// `x: T [where e]` for each of `ids`; `with_where` is false for an implementation's
    /// formals, where Boogie rejects `where`.
    fn formals(&mut self, ids: &[hir::LocalId], with_where: bool) -> Vec<ast::TypedIdents> {
        ids.iter()
            .map(|id| {
                let local = &self.locals[id.index()];
                let where_clause = local.where_clause.as_ref().filter(|_| with_where).map(|expr| self.expr(expr));
                typed(&local.name, self.ty(&local.ty), where_clause, local.span)
            })
            .collect()
    }
}

fn binary_op(op: hir::BinaryOp) -> ast::BinaryOp {
    match op {
        hir::BinaryOp::Iff => ast::BinaryOp::Iff,
        hir::BinaryOp::Implies => ast::BinaryOp::Implies,
        hir::BinaryOp::And => ast::BinaryOp::And,
        hir::BinaryOp::Or => ast::BinaryOp::Or,
        hir::BinaryOp::Eq => ast::BinaryOp::Eq,
        hir::BinaryOp::Neq => ast::BinaryOp::Neq,
        hir::BinaryOp::Lt => ast::BinaryOp::Lt,
        hir::BinaryOp::Le => ast::BinaryOp::Le,
        hir::BinaryOp::Gt => ast::BinaryOp::Gt,
        hir::BinaryOp::Ge => ast::BinaryOp::Ge,
        hir::BinaryOp::Subtype => ast::BinaryOp::Subtype,
        hir::BinaryOp::Add => ast::BinaryOp::Add,
        hir::BinaryOp::Sub => ast::BinaryOp::Sub,
        hir::BinaryOp::Mul => ast::BinaryOp::Mul,
        hir::BinaryOp::Div => ast::BinaryOp::Div,
        hir::BinaryOp::Mod => ast::BinaryOp::Mod,
        hir::BinaryOp::RealDiv => ast::BinaryOp::RealDiv,
        hir::BinaryOp::Power => ast::BinaryOp::Power,
        hir::BinaryOp::Concat => ast::BinaryOp::Concat,
    }
}

/// A real as Boogie text: a decimal literal when it has one (a denominator of 2s and
/// 5s only, as every literal's), else a parenthesized quotient of two.
pub fn decimal_text(value: &num_rational::BigRational) -> String {
    use num_bigint::BigInt;
    use num_traits::{Signed, Zero};
    let sign = if value.is_negative() { "-" } else { "" };
    let (numer, denom) = (value.numer().abs(), value.denom().clone());
    let (mut rest, mut twos, mut fives) = (denom.clone(), 0u32, 0u32);
    while (&rest % 2u32).is_zero() {
        rest /= 2u32;
        twos += 1;
    }
    while (&rest % 5u32).is_zero() {
        rest /= 5u32;
        fives += 1;
    }
    if rest != BigInt::from(1) {
        return format!("({sign}{numer}.0 / {denom}.0)");
    }
    let scale = twos.max(fives);
    let digits = (numer * num_traits::pow(BigInt::from(10), scale as usize) / denom).to_string();
    let width = scale as usize + 1;
    let padded = format!("{digits:0>width$}");
    let (whole, fraction) = padded.split_at(padded.len() - scale as usize);
    format!("{sign}{whole}.{}", if fraction.is_empty() { "0" } else { fraction })
}

// ---------------------------------------------------------------------------------------
// Declarations

/// Types, constants, functions, axioms, globals, then procedures (Boogie reads
/// declarations in any order).
fn declarations(program: &hir::Program) -> Vec<ast::Decl> {
    let none: &[hir::Local] = &[];
    let mut to_ast = ToAst::new(program, none);
    let mut decls = Vec::new();
    for decl in &program.types {
        let name = ident(&decl.name, decl.span);
        let (attrs, span) = (decl.attrs.clone(), decl.span);
        decls.push(ast::Decl::Type(ast::TypeDecl {
            attrs,
            finite: false,
            name,
            params: Vec::new(),
            synonym: None,
            span,
        }));
    }
    for decl in &program.consts {
        decls.push(ast::Decl::Const(ast::ConstDecl {
            attrs: decl.attrs.clone(),
            unique: decl.unique,
            names: vec![ident(&decl.name, decl.span)],
            ty: to_ast.ty(&decl.ty),
            order: None,
            uses: Vec::new(),
            span: decl.span,
        }));
    }
    // The order functions are Boogie's own `<:`; their axioms, printed with the rest,
    // are the ones Boogie assumes anyway.
    let functions = program.functions.iter().filter(|decl| !order::is_order(decl));
    decls.extend(functions.map(|decl| ast::Decl::Function(function(&mut to_ast, decl))));
    for decl in &program.axioms {
        let expr = to_ast.expr(&decl.expr);
        decls.push(ast::Decl::Axiom(ast::AxiomDecl { attrs: decl.attrs.clone(), expr, span: decl.span }));
    }
    for decl in &program.globals {
        let where_clause = decl.where_clause.as_ref().map(|expr| to_ast.expr(expr));
        let group = typed(&decl.name, to_ast.ty(&decl.ty), where_clause, decl.span);
        decls.push(ast::Decl::Var(ast::VarDecl { attrs: decl.attrs.clone(), groups: vec![group], span: decl.span }));
    }
    decls.extend(program.procedures.iter().map(|decl| ast::Decl::Procedure(procedure(program, decl))));
    decls
}

fn function(to_ast: &mut ToAst, decl: &hir::Function) -> ast::FunctionDecl {
    let scope = to_ast.bound.len();
    let mut params = Vec::with_capacity(decl.params.len());
    for param in &decl.params {
        let name = param.name.as_ref().map(|name| ident(name, param.span));
        params.push(ast::FunctionArg { name, ty: to_ast.ty(&param.ty), span: param.span });
        if let Some(name) = &param.name {
            to_ast.bound.push((param.id, name.clone()));
        }
    }
    let body = decl.body.as_ref().map(|body| to_ast.expr(body));
    to_ast.bound.truncate(scope);
    let result = ast::FunctionArg { name: None, ty: to_ast.ty(&decl.result), span: decl.span };
    let name = ident(&decl.name, decl.span);
    ast::FunctionDecl {
        attrs: decl.attrs.clone(),
        name,
        type_params: Vec::new(),
        params,
        result,
        body,
        uses: Vec::new(),
        span: decl.span,
    }
}

/// `procedure P(ins) returns (outs); requires; modifies; ensures` — no body: the
/// implementations print as graphs.
fn procedure(program: &hir::Program, decl: &hir::Procedure) -> ast::ProcedureDecl {
    let mut to_ast = ToAst::new(program, &decl.locals);
    let params = to_ast.formals(&decl.ins, true);
    let returns = to_ast.formals(&decl.outs, true);
    let mut specs = Vec::new();
    for clause in &decl.requires {
        let (free, attrs, expr) = (clause.free, clause.attrs.clone(), to_ast.expr(&clause.expr));
        specs.push(ast::Spec { kind: ast::SpecKind::Requires { free, attrs, expr }, span: clause.span });
    }
    if !decl.modifies.is_empty() {
        let names = decl.modifies.iter().map(|&global| to_ast.var(hir::Var::Global(global), decl.span)).collect();
        specs.push(ast::Spec { kind: ast::SpecKind::Modifies { names }, span: decl.span });
    }
    for clause in &decl.ensures {
        let (free, attrs, expr) = (clause.free, clause.attrs.clone(), to_ast.expr(&clause.expr));
        specs.push(ast::Spec { kind: ast::SpecKind::Ensures { free, attrs, expr }, span: clause.span });
    }
    ast::ProcedureDecl {
        attrs: decl.attrs.clone(),
        name: ident(&decl.name, decl.span),
        type_params: Vec::new(),
        params,
        returns,
        specs,
        body: None,
        span: decl.span,
    }
}

// ---------------------------------------------------------------------------------------
// Graphs

/// A fresh label per block: `bb<id>`, suffixed until it is no name of the program or
/// of the implementation (variables, labels, declarations).
fn block_labels(program: &hir::Program, cfg: &Cfg) -> Vec<String> {
    let mut taken: BTreeSet<&str> = BTreeSet::new();
    taken.extend(cfg.locals.iter().map(|local| local.name.as_str()));
    taken.extend(program.implementations[cfg.implementation.index()].labels.iter().map(|label| label.name.as_str()));
    taken.extend(program.types.iter().map(|decl| decl.name.as_str()));
    taken.extend(program.consts.iter().map(|decl| decl.name.as_str()));
    taken.extend(program.globals.iter().map(|decl| decl.name.as_str()));
    taken.extend(program.functions.iter().map(|decl| decl.name.as_str()));
    taken.extend(program.procedures.iter().map(|decl| decl.name.as_str()));
    // The labels given so far, in a set: a graph may have tens of thousands of blocks.
    let mut given: BTreeSet<String> = BTreeSet::new();
    let mut labels: Vec<String> = Vec::with_capacity(cfg.blocks.len());
    for id in cfg.block_ids() {
        let mut label = format!("bb{}", id.0);
        let mut suffix = 0;
        while taken.contains(label.as_str()) || given.contains(&label) {
            suffix += 1;
            label = format!("bb{}_{suffix}", id.0);
        }
        given.insert(label.clone());
        labels.push(label);
    }
    labels
}

fn implementation(
    program: &hir::Program,
    cfg: &Cfg,
    labels: &[String],
    extra: &Instrumentation,
) -> ast::ImplementationDecl {
    let declared = &program.implementations[cfg.implementation.index()];
    let mut to_ast = ToAst::new(program, &cfg.locals);
    let params = to_ast.formals(&declared.ins, false);
    let returns = to_ast.formals(&declared.outs, false);
    let locals = (declared.ins.len() + declared.outs.len()..cfg.locals.len())
        .map(|index| {
            let local = &cfg.locals[index];
            let where_clause = local.where_clause.as_ref().map(|expr| to_ast.expr(expr));
            let group = typed(&local.name, to_ast.ty(&local.ty), where_clause, local.span);
            ast::VarDecl { attrs: local.attrs.clone(), groups: vec![group], span: local.span }
        })
        .collect();
    let mut prefixes: BTreeMap<BlockId, Vec<&ast::Stmt>> = BTreeMap::new();
    for (block, prefix) in &extra.block_prefixes {
        prefixes.entry(*block).or_default().extend(prefix);
    }
    let mut stmts = Vec::new();
    for (id, block) in cfg.block_ids().zip(&cfg.blocks) {
        stmts.push(ast::Stmt { kind: ast::StmtKind::Label(ident(&labels[id.index()], block.span)), span: block.span });
        stmts.extend(prefixes.get(&id).into_iter().flatten().map(|&stmt| stmt.clone()));
        block_stmts(&mut to_ast, block, labels, &mut stmts);
    }
    stmts.extend(extra.trailing.iter().cloned());
    ast::ImplementationDecl {
        attrs: declared.attrs.clone(),
        name: ident(&cfg.name, cfg.span),
        type_params: Vec::new(),
        params,
        returns,
        body: ast::Body { locals, stmts, span: cfg.span },
        span: cfg.span,
    }
}

fn block_stmts(to_ast: &mut ToAst, block: &Block, labels: &[String], stmts: &mut Vec<ast::Stmt>) {
    for cmd in &block.cmds {
        let kind = match &cmd.kind {
            // Nothing to write (a polymorphic map assigned a type-quantified lambda, none of
            // whose instances the program uses): Boogie has no empty assignment or havoc.
            CmdKind::Assign { targets, .. } | CmdKind::Havoc { vars: targets, .. } if targets.is_empty() => continue,
            CmdKind::Assign { targets, values } => ast::StmtKind::Assign {
                lhs: targets
                    .iter()
                    .map(|&var| ast::Lhs { name: to_ast.var(var, cmd.span), indices: Vec::new(), span: cmd.span })
                    .collect(),
                attrs: Vec::new(),
                rhs: to_ast.exprs(values),
            },
            CmdKind::Havoc { vars, .. } => {
                ast::StmtKind::Havoc { names: vars.iter().map(|&var| to_ast.var(var, cmd.span)).collect() }
            }
            CmdKind::Assume { expr, .. } => ast::StmtKind::Assume { attrs: Vec::new(), expr: to_ast.expr(expr) },
            // A free invariant is assumed, never checked: Boogie's spelling is `assume`.
            CmdKind::Assert { expr, reason: AssertReason::Invariant { free: true, .. } } => {
                ast::StmtKind::Assume { attrs: Vec::new(), expr: to_ast.expr(expr) }
            }
            CmdKind::Assert { expr, .. } => ast::StmtKind::Assert { attrs: Vec::new(), expr: to_ast.expr(expr) },
            CmdKind::Call { callee, args, outs, free } => ast::StmtKind::Call(ast::Call {
                attrs: Vec::new(),
                free: *free,
                is_async: false,
                outs: outs.iter().map(|&var| to_ast.var(var, cmd.span)).collect(),
                callee: ident(&to_ast.program.procedures[callee.index()].name, cmd.span),
                args: to_ast.exprs(args),
                span: cmd.span,
            }),
        };
        stmts.push(ast::Stmt { kind, span: cmd.span });
    }
    let kind = match &block.terminator {
        Terminator::Goto(targets) => ast::StmtKind::Goto {
            targets: targets.iter().map(|target| ident(&labels[target.index()], block.span)).collect(),
        },
        Terminator::Return => ast::StmtKind::Return,
    };
    stmts.push(ast::Stmt { kind, span: block.span });
}

/// Puts a comment with the block's origin before each block label. The printer writes a
/// label `L` of the body as the line `  L:` and nothing else starts that way; the labels
/// are fresh, so each such line is found exactly once.
fn with_origin_comments(text: &str, cfg: &Cfg, labels: &[String]) -> String {
    let mut out = String::with_capacity(text.len() + 32 * labels.len());
    let mut next = 0;
    let mut first_label = true;
    for line in text.split_inclusive('\n') {
        if next < labels.len() && line.trim_end() == format!("  {}:", labels[next]) {
            if !first_label {
                out.push('\n');
            }
            first_label = false;
            out.push_str("  // ");
            out.push_str(&origin_comment(&cfg.block(BlockId::from_index(next)).origin));
            out.push('\n');
            next += 1;
        }
        out.push_str(line);
    }
    debug_assert_eq!(next, labels.len(), "every block label was found in the printed body");
    out
}

/// `while#1/body` for the first block of a branch; `while#1 (head)` for a loop head;
/// `if#1/then (continued)` for any other block.
fn origin_comment(origin: &Origin) -> String {
    let path = if origin.path.0.is_empty() { "top level".to_string() } else { origin.path.to_string() };
    if origin.starts_branch {
        path
    } else if matches!(origin.path.0.last(), Some(Segment::While(_))) {
        format!("{path} (head)")
    } else {
        format!("{path} (continued)")
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{lowered, program};
    use super::*;
    use num_bigint::BigInt;

    #[test]
    fn an_instance_name_prints_as_a_boogie_identifier() {
        assert_eq!(boogie_name("Field int"), "Field^int");
        assert_eq!(boogie_name("Set#Card<int>"), "Set#Card^int^");
        assert_eq!(boogie_name("Seq (Seq int)"), "Seq^Seq^int^");
        assert_eq!(boogie_name("heap<[ref, Field bool]bool>"), "heap^ref^Field^bool^bool^");
        assert_eq!(boogie_name("$Heap.x'?"), "$Heap.x'?");
    }

    #[test]
    fn expressions_get_minimal_parentheses() {
        let (program, cfg) =
            lowered("procedure P(a: int) returns (b: bool) { b := (a + 1) * 2 > -3 && !(a == 0 || b); }");
        let CmdKind::Assign { values, .. } = &cfg.blocks[0].cmds[0].kind else { panic!("an assignment") };
        assert_eq!(print_expr(&program, &cfg.locals, &values[0]), "(a + 1) * 2 > -3 && !(a == 0 || b)");
    }

    #[test]
    fn a_negative_literal_prints_as_a_negation() {
        let program = program("procedure P(a: int);");
        let locals = &program.procedures[0].locals;
        let int = |value: i64| hir::Expr {
            kind: hir::ExprKind::Int(BigInt::from(value)),
            ty: hir::Type::Int,
            span: Span::default(),
        };
        let var = hir::Expr {
            kind: hir::ExprKind::Var(hir::Var::Local(hir::LocalId(0))),
            ty: hir::Type::Int,
            span: Span::default(),
        };
        let kind = hir::ExprKind::Binary { op: hir::BinaryOp::Sub, lhs: Box::new(var), rhs: Box::new(int(-5)) };
        let expr = hir::Expr { kind, ty: hir::Type::Int, span: Span::default() };
        assert_eq!(print_expr(&program, locals, &expr), "a - -5");
    }

    #[test]
    fn declarations_print_with_their_contracts() {
        let program = program(
            "type T; type S = [int]T;
             const unique c: T;
             function {:inline} f(x: int, y: S): T { y[x] }
             function g(int): bool;
             axiom (forall z: int :: { g(z) } g(z) ==> z > 0);
             var {:a} m: S where m[0] == c;
             procedure P(i: int where i > 0) returns (r: T where r != c);
               requires i < 10; free requires g(i);
               modifies m;
               ensures m == old(m)[i := r]; free ensures true;
             procedure {:b} Q() { }",
        );
        assert_eq!(
            print_declarations(&program),
            "type T;

const unique c: T;

function {:inline} f(x: int, y: [int]T) returns (T) { y[x] }
function g(int) returns (bool);

axiom (forall z: int :: { g(z) } g(z) ==> z > 0);

var {:a} m: [int]T where m[0] == c;

procedure P(i: int where i > 0) returns (r: T where r != c);
    requires i < 10;
    free requires g(i);
    modifies m;
    ensures m == old(m)[i := r];
    free ensures true;

procedure {:b} Q();
"
        );
    }

    #[test]
    fn a_graph_prints_as_an_unstructured_implementation() {
        let source = "
            procedure P(n: int where n >= 0) returns (r: int);
            implementation {:x} P(count: int) returns (r: int) {
              var l: int where l >= 0;
              r := 0;
              while (r < count) free invariant r >= 0; { r := r + 1; }
            }";
        let (program, cfg) = lowered(source);
        assert_eq!(
            print_cfg(&program, &cfg),
            "implementation {:x} P(count: int) returns (r: int)
{
    var l: int where l >= 0;

  // entry
  bb0:
    assume count >= 0;
    assume l >= 0;
    r := 0;
    goto bb1;

  // while#1 (head)
  bb1:
    assume r >= 0;
    goto bb2, bb3;

  // while#1/body
  bb2:
    assume r < count;
    r := r + 1;
    goto bb1;

  // while#1/exit
  bb3:
    assume count <= r;
    goto bb4;

  // top level (continued)
  bb4:
    return;
}
"
        );
    }

    #[test]
    fn block_labels_avoid_every_name_of_the_program() {
        let (program, cfg) =
            lowered("var bb1: int; procedure P() { var bb0: int; bb0_1: goto bb0_1, bb2; bb2: return; }");
        let printed = print_cfg(&program, &cfg);
        let labels: Vec<&str> = printed.lines().filter(|line| line.starts_with("  bb")).collect();
        assert_eq!(labels, ["  bb0_2:", "  bb1_1:", "  bb2_1:"], "{printed}");
    }

    #[test]
    fn keywords_as_names_get_their_backslash() {
        let (program, cfg) = lowered(r"procedure P() returns (\int: int) { \int := 1; }");
        assert!(print_cfg(&program, &cfg).contains(r"\int := 1;"));
    }
}
