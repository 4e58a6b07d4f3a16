//! The resolved, typed program: what every stage after the checker reads.
//!
//! Invariants (established by [`crate::sema::check`], relied on by every later stage):
//! - every name is resolved to an id ([`Var`], [`FunctionId`], [`ProcId`], [`LabelId`]);
//!   ids index the tables of [`Program`] (or of the enclosing [`Procedure`] /
//!   [`Implementation`] for locals and labels);
//! - every expression carries its [`Type`]; type synonyms are expanded, so two types are
//!   equal exactly when they are `==`;
//! - only core constructs remain (no bit-vectors, reals, type parameters, CIVL);
//! - `a <== b` is `b ==> a`; an implementation's formals are positionally those of its
//!   procedure (`locals[..ins.len()]` are the ins, in order), and a procedure declared
//!   with a body has that body as its one implementation;
//! - assignments and havocs target only locals that are not in-parameters, and globals
//!   in the procedure's `modifies`; `old` appears only in `ensures` and implementation
//!   bodies.
//!
//! Every node keeps the [`Span`] of its source, and attributes are kept as written.

use crate::source::Span;
use crate::syntax::ast;
use num_bigint::BigInt;
use std::sync::Arc;

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub u32);

        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }

            pub fn from_index(index: usize) -> $name {
                $name(u32::try_from(index).expect("fewer than 2^32 items of one kind"))
            }
        }
    };
}

id_type!(
    /// An uninterpreted type in [`Program::types`].
    TypeId
);
id_type!(
    /// A constant in [`Program::consts`].
    ConstId
);
id_type!(
    /// A global variable in [`Program::globals`].
    GlobalId
);
id_type!(
    /// A function in [`Program::functions`].
    FunctionId
);
id_type!(
    /// A procedure in [`Program::procedures`].
    ProcId
);
id_type!(
    /// An implementation in [`Program::implementations`].
    ImplId
);
id_type!(
    /// A parameter or local of the enclosing procedure or implementation (`locals`).
    LocalId
);
id_type!(
    /// A variable bound by a quantifier, lambda or function parameter list; unique in
    /// the whole program.
    BoundId
);
id_type!(
    /// A label of the enclosing implementation (`labels`).
    LabelId
);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Int,
    Bool,
    /// A user-declared uninterpreted type.
    Named(TypeId),
    Map(Arc<MapType>),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MapType {
    pub domain: Vec<Type>,
    pub range: Type,
}

#[derive(Clone, Debug, Default)]
pub struct Program {
    pub types: Vec<TypeDecl>,
    pub consts: Vec<Const>,
    pub globals: Vec<Global>,
    pub functions: Vec<Function>,
    pub axioms: Vec<Axiom>,
    pub procedures: Vec<Procedure>,
    pub implementations: Vec<Implementation>,
}

#[derive(Clone, Debug)]
pub struct TypeDecl {
    pub name: String,
    pub attrs: Vec<ast::Attribute>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Const {
    pub name: String,
    pub ty: Type,
    pub unique: bool,
    pub attrs: Vec<ast::Attribute>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Global {
    pub name: String,
    pub ty: Type,
    pub where_clause: Option<Expr>,
    pub attrs: Vec<ast::Attribute>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    /// Parameters are bound variables of the body; unnamed ones get a `BoundId` too.
    pub params: Vec<BoundVar>,
    pub result: Type,
    pub body: Option<Expr>,
    pub attrs: Vec<ast::Attribute>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Axiom {
    pub expr: Expr,
    pub attrs: Vec<ast::Attribute>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LocalKind {
    In,
    Out,
    Local,
}

#[derive(Clone, Debug)]
pub struct Local {
    pub name: String,
    pub ty: Type,
    pub kind: LocalKind,
    pub where_clause: Option<Expr>,
    pub attrs: Vec<ast::Attribute>,
    pub span: Span,
}

/// `requires`, `ensures` or a loop invariant.
#[derive(Clone, Debug)]
pub struct Clause {
    pub free: bool,
    pub expr: Expr,
    pub attrs: Vec<ast::Attribute>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Procedure {
    pub name: String,
    /// The ins, then the outs; contracts refer to these.
    pub locals: Vec<Local>,
    pub ins: Vec<LocalId>,
    pub outs: Vec<LocalId>,
    pub requires: Vec<Clause>,
    pub ensures: Vec<Clause>,
    /// Sorted by id, without duplicates.
    pub modifies: Vec<GlobalId>,
    pub implementations: Vec<ImplId>,
    pub attrs: Vec<ast::Attribute>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Implementation {
    pub proc: ProcId,
    pub name: String,
    /// The ins, the outs, then the declared locals.
    pub locals: Vec<Local>,
    pub ins: Vec<LocalId>,
    pub outs: Vec<LocalId>,
    pub labels: Vec<Label>,
    pub body: Vec<Stmt>,
    pub attrs: Vec<ast::Attribute>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Label {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    /// The position a `goto` can jump to.
    Label(LabelId),
    Assert {
        expr: Expr,
        attrs: Vec<ast::Attribute>,
    },
    Assume {
        expr: Expr,
        attrs: Vec<ast::Attribute>,
    },
    Havoc {
        vars: Vec<Var>,
    },
    /// Parallel: every right side is evaluated before any target is written.
    Assign {
        lhs: Vec<Lhs>,
        rhs: Vec<Expr>,
    },
    Call {
        callee: ProcId,
        args: Vec<Expr>,
        outs: Vec<Var>,
        attrs: Vec<ast::Attribute>,
    },
    If {
        branches: Vec<IfBranch>,
        else_block: Option<Vec<Stmt>>,
    },
    While {
        guard: Guard,
        invariants: Vec<Clause>,
        body: Vec<Stmt>,
    },
    /// `break;` leaves the innermost loop; `break L;` the statement labelled `L`.
    Break {
        label: Option<LabelId>,
    },
    Return,
    Goto {
        targets: Vec<LabelId>,
    },
}

#[derive(Clone, Debug)]
pub struct IfBranch {
    pub guard: Guard,
    pub block: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Guard {
    Expr(Expr),
    /// `*`: the test's choice trace decides.
    Star(Span),
}

/// An assignment target `x[i][j]`: a variable and the indices of each selection.
#[derive(Clone, Debug)]
pub struct Lhs {
    pub var: Var,
    pub indices: Vec<Vec<Expr>>,
    /// The type of the whole target (after the selections).
    pub ty: Type,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Var {
    Const(ConstId),
    Global(GlobalId),
    Local(LocalId),
    Bound(BoundId),
}

#[derive(Clone, Debug)]
pub struct BoundVar {
    pub id: BoundId,
    /// `None` for an unnamed function parameter.
    pub name: Option<String>,
    pub ty: Type,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Not,
    Neg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Iff,
    Implies,
    And,
    Or,
    Eq,
    Neq,
    Lt,
    Le,
    Gt,
    Ge,
    /// `<:`, the partial order; uninterpreted.
    Subtype,
    Add,
    Sub,
    Mul,
    /// SMT-LIB `div`/`mod` (Euclidean).
    Div,
    Mod,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quantifier {
    Forall,
    Exists,
    Lambda,
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: Type,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Bool(bool),
    Int(BigInt),
    Var(Var),
    Apply {
        func: FunctionId,
        args: Vec<Expr>,
    },
    Old(Box<Expr>),
    Unary {
        op: UnaryOp,
        operand: Box<Expr>,
    },
    Binary {
        op: BinaryOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Select {
        map: Box<Expr>,
        indices: Vec<Expr>,
    },
    Store {
        map: Box<Expr>,
        indices: Vec<Expr>,
        value: Box<Expr>,
    },
    IfThenElse {
        cond: Box<Expr>,
        then_expr: Box<Expr>,
        else_expr: Box<Expr>,
    },
    Quant {
        quantifier: Quantifier,
        vars: Vec<BoundVar>,
        /// Each trigger is a multi-pattern.
        triggers: Vec<Vec<Expr>>,
        attrs: Vec<ast::Attribute>,
        body: Box<Expr>,
    },
}
