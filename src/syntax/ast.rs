//! The abstract syntax tree: the program exactly as written, with a span on every node.
//!
//! Invariant: every node carries the [`Span`] of the text it came from; nothing is
//! resolved or desugared here (names are strings, `else if` stays an `else if`), so the
//! printer can render the tree back and `parse(print(parse(s))) == parse(s)` holds up to
//! spans ([`crate::syntax::printer`]).
//!
//! Constructs outside seedgen's core (type parameters, bit-vectors, reals, floats, CIVL
//! commands) are represented faithfully so that the checker can reject them with a
//! "not supported yet" diagnostic at their span instead of the parser failing.

use crate::source::Span;
use num_bigint::BigUint;

/// A name as written, with its span. Boogie identifiers may contain `'~#$^_.?` and
/// a leading backslash, which is not part of the name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// `{:name arg, ...}`: kept on the node it decorates, never interpreted by the parser.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    pub name: Ident,
    pub args: Vec<AttrArg>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum AttrArg {
    Expr(Expr),
    /// A string literal, without its quotes, escapes kept as written.
    Str {
        value: String,
        span: Span,
    },
}

/// A whole file.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Program {
    pub decls: Vec<Decl>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Decl {
    Type(TypeDecl),
    Const(ConstDecl),
    Function(FunctionDecl),
    Axiom(AxiomDecl),
    Var(VarDecl),
    Procedure(ProcedureDecl),
    Implementation(ImplementationDecl),
}

impl Decl {
    pub fn span(&self) -> Span {
        match self {
            Decl::Type(decl) => decl.span,
            Decl::Const(decl) => decl.span,
            Decl::Function(decl) => decl.span,
            Decl::Axiom(decl) => decl.span,
            Decl::Var(decl) => decl.span,
            Decl::Procedure(decl) => decl.span,
            Decl::Implementation(decl) => decl.span,
        }
    }
}

/// `type {:attrs} [finite] Name params [= Synonym];` — one per name: `type A, B;` is two.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeDecl {
    pub attrs: Vec<Attribute>,
    pub finite: bool,
    pub name: Ident,
    /// Type-constructor parameters (`type Set a;`) or synonym parameters; outside the core.
    pub params: Vec<Ident>,
    pub synonym: Option<Type>,
    pub span: Span,
}

/// `const {:attrs} [unique] a, b: T [extends ...];`
#[derive(Clone, Debug, PartialEq)]
pub struct ConstDecl {
    pub attrs: Vec<Attribute>,
    pub unique: bool,
    pub names: Vec<Ident>,
    pub ty: Type,
    /// The partial-order specification (`extends`).
    pub order: Option<OrderSpec>,
    /// `uses { axiom ...; }`: axioms that belong to the constant.
    pub uses: Vec<AxiomDecl>,
    pub span: Span,
}

/// `extends [unique] p, ... [complete]`.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderSpec {
    pub parents: Vec<(bool, Ident)>,
    pub complete: bool,
    pub span: Span,
}

/// `function {:attrs} f<T>(x: int, bool) returns (int) [{ body }]`; `: T` also means
/// `returns (T)`.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDecl {
    pub attrs: Vec<Attribute>,
    pub name: Ident,
    pub type_params: Vec<Ident>,
    pub params: Vec<FunctionArg>,
    pub result: FunctionArg,
    pub body: Option<Expr>,
    /// `uses { axiom ...; }`: axioms that belong to the function (current Boogie's
    /// syntax, which front ends write so that axioms are pruned with their function).
    pub uses: Vec<AxiomDecl>,
    pub span: Span,
}

/// A function parameter or result: `x: T` or just `T`.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionArg {
    pub name: Option<Ident>,
    pub ty: Type,
    pub span: Span,
}

/// `axiom {:attrs} e;`
#[derive(Clone, Debug, PartialEq)]
pub struct AxiomDecl {
    pub attrs: Vec<Attribute>,
    pub expr: Expr,
    pub span: Span,
}

/// `var {:attrs} x, y: T where e, z: U;` — global or local.
#[derive(Clone, Debug, PartialEq)]
pub struct VarDecl {
    pub attrs: Vec<Attribute>,
    pub groups: Vec<TypedIdents>,
    pub span: Span,
}

/// `{:attrs} x, y: T where e`: names sharing one type (and `where` clause).
#[derive(Clone, Debug, PartialEq)]
pub struct TypedIdents {
    pub attrs: Vec<Attribute>,
    pub names: Vec<Ident>,
    pub ty: Type,
    pub where_clause: Option<Expr>,
    pub span: Span,
}

/// `procedure {:attrs} P<T>(ins) returns (outs); specs` or with a body `specs { ... }`.
#[derive(Clone, Debug, PartialEq)]
pub struct ProcedureDecl {
    pub attrs: Vec<Attribute>,
    pub name: Ident,
    pub type_params: Vec<Ident>,
    pub params: Vec<TypedIdents>,
    pub returns: Vec<TypedIdents>,
    pub specs: Vec<Spec>,
    pub body: Option<Body>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    pub kind: SpecKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum SpecKind {
    Requires { free: bool, attrs: Vec<Attribute>, expr: Expr },
    Ensures { free: bool, attrs: Vec<Attribute>, expr: Expr },
    Modifies { names: Vec<Ident> },
}

/// `implementation {:attrs} P<T>(ins) returns (outs) { ... }`
#[derive(Clone, Debug, PartialEq)]
pub struct ImplementationDecl {
    pub attrs: Vec<Attribute>,
    pub name: Ident,
    pub type_params: Vec<Ident>,
    pub params: Vec<TypedIdents>,
    pub returns: Vec<TypedIdents>,
    pub body: Body,
    pub span: Span,
}

/// `{ var ...; statements }`: local declarations come first, as in Boogie.
#[derive(Clone, Debug, PartialEq)]
pub struct Body {
    pub locals: Vec<VarDecl>,
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

/// `{ statements }` of an `if`, `else` or `while`.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// `L:` — names the position before the next statement, as in Boogie.
    Label(Ident),
    Assert {
        attrs: Vec<Attribute>,
        expr: Expr,
    },
    Assume {
        attrs: Vec<Attribute>,
        expr: Expr,
    },
    Havoc {
        names: Vec<Ident>,
    },
    /// `x, a[i][j] := {:attrs} e1, e2;`
    Assign {
        lhs: Vec<Lhs>,
        attrs: Vec<Attribute>,
        rhs: Vec<Expr>,
    },
    Call(Call),
    /// `{ stmts }`: a block of statements, run in place.
    Block(Block),
    /// `par A() | B();` — CIVL, outside the core.
    Par {
        calls: Vec<Call>,
    },
    /// `yield;` — CIVL, outside the core.
    Yield,
    /// `if (g1) {..} else if (g2) {..} else {..}`: the branches in order. Kept flat, so
    /// a long `else if` chain does not nest (and cannot overflow a recursive pass).
    If {
        branches: Vec<IfBranch>,
        else_block: Option<Block>,
    },
    While {
        guard: Guard,
        invariants: Vec<Invariant>,
        body: Block,
    },
    Break {
        label: Option<Ident>,
    },
    Return,
    Goto {
        targets: Vec<Ident>,
    },
}

/// `call {:attrs} x, y := P(args);`, also `free call` and `async call` (CIVL).
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    pub attrs: Vec<Attribute>,
    pub free: bool,
    pub is_async: bool,
    pub outs: Vec<Ident>,
    pub callee: Ident,
    pub args: Vec<Expr>,
    pub span: Span,
}

/// The left side of an assignment: a variable followed by zero or more map selections.
#[derive(Clone, Debug, PartialEq)]
pub struct Lhs {
    pub name: Ident,
    /// `a[i][j, k]` is `[[i], [j, k]]`.
    pub indices: Vec<Vec<Expr>>,
    pub span: Span,
}

/// The condition of `if` or `while`: an expression or `*` (nondeterministic).
#[derive(Clone, Debug, PartialEq)]
pub enum Guard {
    Expr(Expr),
    Star(Span),
}

/// One `if (guard) { ... }` or `else if (guard) { ... }`.
#[derive(Clone, Debug, PartialEq)]
pub struct IfBranch {
    pub guard: Guard,
    pub block: Block,
    pub span: Span,
}

/// `[free] invariant {:attrs} e;`
#[derive(Clone, Debug, PartialEq)]
pub struct Invariant {
    pub free: bool,
    pub attrs: Vec<Attribute>,
    pub expr: Expr,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Type {
    pub kind: TypeKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TypeKind {
    Int,
    Bool,
    /// Outside the core.
    Real,
    /// A user type, a synonym, or a built-in family the checker recognises by name
    /// (`bv32`, `float24e8`: outside the core). `args` are type-constructor arguments.
    Named {
        name: Ident,
        args: Vec<Type>,
    },
    /// `<a>[int, a]T`: type parameters are outside the core.
    Map {
        type_params: Vec<Ident>,
        domain: Vec<Type>,
        range: Box<Type>,
    },
}

/// Map types nest without brackets (`[int][int]…int`), and the parser builds them without
/// recursion; dropping them must not recurse either (as for [`Expr`]), or a hostile
/// input would overflow the stack after its error was reported.
impl Drop for Type {
    fn drop(&mut self) {
        let mut pending = Vec::new();
        move_type_children_into(&mut self.kind, &mut pending);
        while let Some(mut ty) = pending.pop() {
            move_type_children_into(&mut ty.kind, &mut pending);
        }
    }
}

/// Moves the parts of `kind` to `out`, leaving a leaf.
fn move_type_children_into(kind: &mut TypeKind, out: &mut Vec<Type>) {
    match std::mem::replace(kind, TypeKind::Int) {
        TypeKind::Int | TypeKind::Bool | TypeKind::Real => {}
        TypeKind::Named { args, .. } => out.extend(args),
        TypeKind::Map { domain, range, .. } => {
            out.extend(domain);
            out.push(*range);
        }
    }
}

#[derive(Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `!`
    Not,
    /// `-`
    Neg,
}

/// Binary operators, from the loosest binding to the tightest (Boogie's precedence):
/// `<==>` < `==>`/`<==` < `&&`/`||` < comparisons < `++` < `+ -` < `* / div mod` < `**`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Iff,
    Implies,
    Explies,
    And,
    Or,
    Eq,
    Neq,
    Lt,
    Le,
    Gt,
    Ge,
    Subtype,
    Concat,
    Add,
    Sub,
    Mul,
    RealDiv,
    Div,
    Mod,
    /// `**`: real exponentiation, outside the core.
    Power,
}

impl BinaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Iff => "<==>",
            BinaryOp::Implies => "==>",
            BinaryOp::Explies => "<==",
            BinaryOp::And => "&&",
            BinaryOp::Or => "||",
            BinaryOp::Eq => "==",
            BinaryOp::Neq => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::Subtype => "<:",
            BinaryOp::Concat => "++",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::RealDiv => "/",
            BinaryOp::Div => "div",
            BinaryOp::Mod => "mod",
            BinaryOp::Power => "**",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Conversion {
    ToInt,
    ToReal,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quantifier {
    Forall,
    Exists,
    Lambda,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Bool(bool),
    Int(BigUint),
    /// `1.5`, `1e3`: outside the core; the literal as written.
    Real(String),
    /// `5bv32`: outside the core.
    BitVector {
        value: BigUint,
        width: u32,
    },
    /// A variable or constant.
    Var(Ident),
    /// `f(args)`.
    Apply {
        func: Ident,
        args: Vec<Expr>,
    },
    Old(Box<Expr>),
    /// `int(e)` / `real(e)`: conversions between int and real, outside the core.
    Convert {
        to: Conversion,
        operand: Box<Expr>,
    },
    Unary {
        op: UnaryOp,
        operand: Box<Expr>,
    },
    Binary {
        op: BinaryOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `m[i, j]`.
    Select {
        map: Box<Expr>,
        indices: Vec<Expr>,
    },
    /// `m[i, j := v]`.
    Store {
        map: Box<Expr>,
        indices: Vec<Expr>,
        value: Box<Expr>,
    },
    /// `e : T`: fixes the type of `e` (a type argument Boogie cannot infer otherwise).
    Coerce {
        operand: Box<Expr>,
        ty: Type,
    },
    /// `(var x, y := a, b; body)`: `body` with `x` bound to `a` and `y` to `b`.
    Let {
        vars: Vec<Ident>,
        values: Vec<Expr>,
        attrs: Vec<Attribute>,
        body: Box<Expr>,
    },
    /// `x[hi:lo]`: bit-vector extraction.
    Extract {
        operand: Box<Expr>,
        high: BigUint,
        low: BigUint,
    },
    IfThenElse {
        cond: Box<Expr>,
        then_expr: Box<Expr>,
        else_expr: Box<Expr>,
    },
    /// `(forall<T> x: int, y: T :: {:attr} { trigger } body)`, also `exists`, `lambda`.
    Quant {
        quantifier: Quantifier,
        type_params: Vec<Ident>,
        vars: Vec<TypedIdents>,
        attrs: Vec<Attribute>,
        triggers: Vec<Trigger>,
        body: Box<Expr>,
    },
    /// Left behind while a deep tree is dropped iteratively; never produced by the parser.
    #[doc(hidden)]
    Dropped,
}

/// `{ e1, e2 }` inside a quantifier: a multi-pattern.
#[derive(Clone, Debug, PartialEq)]
pub struct Trigger {
    pub exprs: Vec<Expr>,
    pub span: Span,
}

impl Clone for Expr {
    fn clone(&self) -> Expr {
        Expr { kind: self.kind.clone(), span: self.span }
    }
}

/// Expressions can nest arbitrarily deep without brackets (`a + a + ... + a`, `!!!x`,
/// `if .. else if ..`), and the parser builds them without recursion; dropping them must
/// not recurse either, or a hostile input would overflow the stack.
impl Drop for Expr {
    fn drop(&mut self) {
        if !self.kind.has_children() {
            return;
        }
        let mut pending = Vec::new();
        std::mem::replace(&mut self.kind, ExprKind::Dropped).move_children_into(&mut pending);
        while let Some(mut expr) = pending.pop() {
            std::mem::replace(&mut expr.kind, ExprKind::Dropped).move_children_into(&mut pending);
        }
    }
}

impl ExprKind {
    fn has_children(&self) -> bool {
        !matches!(
            self,
            ExprKind::Bool(_)
                | ExprKind::Int(_)
                | ExprKind::Real(_)
                | ExprKind::BitVector { .. }
                | ExprKind::Var(_)
                | ExprKind::Dropped
        )
    }

    fn move_children_into(self, out: &mut Vec<Expr>) {
        match self {
            ExprKind::Bool(_)
            | ExprKind::Int(_)
            | ExprKind::Real(_)
            | ExprKind::BitVector { .. }
            | ExprKind::Var(_)
            | ExprKind::Dropped => {}
            ExprKind::Apply { args, .. } => out.extend(args),
            ExprKind::Old(operand) | ExprKind::Unary { operand, .. } | ExprKind::Convert { operand, .. } => {
                out.push(*operand)
            }
            ExprKind::Extract { operand, .. } | ExprKind::Coerce { operand, .. } => out.push(*operand),
            ExprKind::Let { values, attrs, body, .. } => {
                out.extend(values);
                out.extend(attrs.into_iter().flat_map(attribute_exprs));
                out.push(*body);
            }
            ExprKind::Binary { lhs, rhs, .. } => out.extend([*lhs, *rhs]),
            ExprKind::Select { map, indices } => {
                out.push(*map);
                out.extend(indices);
            }
            ExprKind::Store { map, indices, value } => {
                out.push(*map);
                out.extend(indices);
                out.push(*value);
            }
            ExprKind::IfThenElse { cond, then_expr, else_expr } => out.extend([*cond, *then_expr, *else_expr]),
            ExprKind::Quant { vars, attrs, triggers, body, .. } => {
                out.push(*body);
                out.extend(vars.into_iter().filter_map(|group| group.where_clause));
                out.extend(attrs.into_iter().flat_map(attribute_exprs));
                out.extend(triggers.into_iter().flat_map(|trigger| trigger.exprs));
            }
        }
    }
}

fn attribute_exprs(attr: Attribute) -> impl Iterator<Item = Expr> {
    attr.args.into_iter().filter_map(|arg| match arg {
        AttrArg::Expr(expr) => Some(expr),
        AttrArg::Str { .. } => None,
    })
}

impl ExprKind {
    /// Calls `f` on each direct subexpression (including those in triggers, attributes
    /// and `where` clauses of bound variables).
    pub fn for_each_child<'a>(&'a self, f: &mut dyn FnMut(&'a Expr)) {
        match self {
            ExprKind::Bool(_)
            | ExprKind::Int(_)
            | ExprKind::Real(_)
            | ExprKind::BitVector { .. }
            | ExprKind::Var(_)
            | ExprKind::Dropped => {}
            ExprKind::Apply { args, .. } => args.iter().for_each(f),
            ExprKind::Old(operand)
            | ExprKind::Unary { operand, .. }
            | ExprKind::Extract { operand, .. }
            | ExprKind::Coerce { operand, .. }
            | ExprKind::Convert { operand, .. } => f(operand),
            ExprKind::Let { values, attrs, body, .. } => {
                values.iter().for_each(&mut *f);
                visit_attrs(attrs, f);
                f(body);
            }
            ExprKind::Binary { lhs, rhs, .. } => {
                f(lhs);
                f(rhs);
            }
            ExprKind::Select { map, indices } => {
                f(map);
                indices.iter().for_each(f);
            }
            ExprKind::Store { map, indices, value } => {
                f(map);
                indices.iter().for_each(&mut *f);
                f(value);
            }
            ExprKind::IfThenElse { cond, then_expr, else_expr } => {
                f(cond);
                f(then_expr);
                f(else_expr);
            }
            ExprKind::Quant { vars, attrs, triggers, body, .. } => {
                vars.iter().filter_map(|group| group.where_clause.as_ref()).for_each(&mut *f);
                visit_attrs(attrs, f);
                triggers.iter().flat_map(|trigger| &trigger.exprs).for_each(&mut *f);
                f(body);
            }
        }
    }
}

/// Calls `f` on every outermost expression of the program (not on subexpressions).
pub fn visit_exprs<'a>(program: &'a Program, f: &mut dyn FnMut(&'a Expr)) {
    for decl in &program.decls {
        match decl {
            Decl::Type(decl) => visit_attrs(&decl.attrs, f),
            Decl::Const(decl) => {
                visit_attrs(&decl.attrs, f);
                visit_axioms(&decl.uses, f);
            }
            Decl::Function(decl) => {
                visit_attrs(&decl.attrs, f);
                decl.body.iter().for_each(&mut *f);
                visit_axioms(&decl.uses, f);
            }
            Decl::Axiom(decl) => {
                visit_attrs(&decl.attrs, f);
                f(&decl.expr);
            }
            Decl::Var(decl) => visit_var_decl(decl, f),
            Decl::Procedure(decl) => {
                visit_attrs(&decl.attrs, f);
                decl.params.iter().chain(&decl.returns).for_each(|group| visit_typed_idents(group, f));
                for spec in &decl.specs {
                    match &spec.kind {
                        SpecKind::Requires { attrs, expr, .. } | SpecKind::Ensures { attrs, expr, .. } => {
                            visit_attrs(attrs, f);
                            f(expr);
                        }
                        SpecKind::Modifies { .. } => {}
                    }
                }
                if let Some(body) = &decl.body {
                    visit_body(body, f);
                }
            }
            Decl::Implementation(decl) => {
                visit_attrs(&decl.attrs, f);
                decl.params.iter().chain(&decl.returns).for_each(|group| visit_typed_idents(group, f));
                visit_body(&decl.body, f);
            }
        }
    }
}

fn visit_axioms<'a>(axioms: &'a [AxiomDecl], f: &mut dyn FnMut(&'a Expr)) {
    for axiom in axioms {
        visit_attrs(&axiom.attrs, f);
        f(&axiom.expr);
    }
}

fn visit_attrs<'a>(attrs: &'a [Attribute], f: &mut dyn FnMut(&'a Expr)) {
    for attr in attrs {
        for arg in &attr.args {
            if let AttrArg::Expr(expr) = arg {
                f(expr);
            }
        }
    }
}

fn visit_typed_idents<'a>(group: &'a TypedIdents, f: &mut dyn FnMut(&'a Expr)) {
    visit_attrs(&group.attrs, f);
    group.where_clause.iter().for_each(f);
}

fn visit_var_decl<'a>(decl: &'a VarDecl, f: &mut dyn FnMut(&'a Expr)) {
    visit_attrs(&decl.attrs, f);
    decl.groups.iter().for_each(|group| visit_typed_idents(group, f));
}

fn visit_body<'a>(body: &'a Body, f: &mut dyn FnMut(&'a Expr)) {
    body.locals.iter().for_each(|decl| visit_var_decl(decl, f));
    visit_stmts(&body.stmts, f);
}

fn visit_call<'a>(call: &'a Call, f: &mut dyn FnMut(&'a Expr)) {
    visit_attrs(&call.attrs, f);
    call.args.iter().for_each(f);
}

fn visit_guard<'a>(guard: &'a Guard, f: &mut dyn FnMut(&'a Expr)) {
    if let Guard::Expr(expr) = guard {
        f(expr);
    }
}

/// Statements nest only through braces, which the parser bounds, so recursion is safe.
fn visit_stmts<'a>(stmts: &'a [Stmt], f: &mut dyn FnMut(&'a Expr)) {
    for stmt in stmts {
        match &stmt.kind {
            StmtKind::Label(_) | StmtKind::Havoc { .. } | StmtKind::Yield => {}
            StmtKind::Break { .. } | StmtKind::Return | StmtKind::Goto { .. } => {}
            StmtKind::Assert { attrs, expr } | StmtKind::Assume { attrs, expr } => {
                visit_attrs(attrs, f);
                f(expr);
            }
            StmtKind::Assign { lhs, attrs, rhs } => {
                visit_attrs(attrs, f);
                lhs.iter().flat_map(|target| target.indices.iter().flatten()).for_each(&mut *f);
                rhs.iter().for_each(&mut *f);
            }
            StmtKind::Call(call) => visit_call(call, f),
            StmtKind::Block(block) => visit_stmts(&block.stmts, f),
            StmtKind::Par { calls } => calls.iter().for_each(|call| visit_call(call, f)),
            StmtKind::If { branches, else_block } => {
                for branch in branches {
                    visit_guard(&branch.guard, f);
                    visit_stmts(&branch.block.stmts, f);
                }
                if let Some(block) = else_block {
                    visit_stmts(&block.stmts, f);
                }
            }
            StmtKind::While { guard, invariants, body } => {
                visit_guard(guard, f);
                for invariant in invariants {
                    visit_attrs(&invariant.attrs, f);
                    f(&invariant.expr);
                }
                visit_stmts(&body.stmts, f);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dropping_a_very_deep_expression_does_not_overflow_the_stack() {
        let span = Span::default();
        let mut expr = Expr { kind: ExprKind::Bool(true), span };
        for _ in 0..1_000_000 {
            let operand = Box::new(expr);
            expr = Expr { kind: ExprKind::Unary { op: UnaryOp::Not, operand }, span };
        }
        drop(expr);
    }

    #[test]
    fn dropping_a_very_deep_map_type_does_not_overflow_the_stack() {
        let span = Span::default();
        let mut ty = Type { kind: TypeKind::Int, span };
        for _ in 0..1_000_000 {
            let domain = vec![Type { kind: TypeKind::Int, span }];
            ty = Type { kind: TypeKind::Map { type_params: Vec::new(), domain, range: Box::new(ty) }, span };
        }
        drop(ty);
    }
}
