//! The resolved, typed program: what every stage after the checker reads.
//!
//! Invariants (established by [`crate::sema::check`], relied on by every later stage):
//! - every name is resolved to an id ([`Var`], [`FunctionId`], [`ProcId`], [`LabelId`]);
//!   ids index the tables of [`Program`] (or of the enclosing [`Procedure`] /
//!   [`Implementation`] for locals and labels);
//! - every expression carries its [`Type`]; type synonyms are expanded, so two types are
//!   equal exactly when they are `==`;
//! - the language is Boogie 2 without CIVL and floating point: type constructors, type
//!   parameters (of functions, procedures, quantifiers and map types, each a
//!   [`TypeParamId`] unique in the program), bit-vectors and reals are in; coercions
//!   `e : T` are gone (they only fixed types), let-expressions are applications of a
//!   lambda (`(var x := e; b)` is `(lambda x :: b)[e]`), block statements are spliced
//!   into their enclosing list, and a function's `uses { axiom ... }` are program axioms;
//! - every application of a polymorphic function, call of a polymorphic procedure and
//!   selection or update of a polymorphic map is at types without inference variables:
//!   the instantiation of a function or procedure is recorded (`type_args`), a map's
//!   follows from its index types;
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
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
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
id_type!(
    /// A type parameter of a function, procedure, implementation, quantifier or map
    /// type ([`Program::type_params`]); unique in the whole program.
    TypeParamId
);

/// A type. Synonyms are expanded, so equal types are `==`, except that polymorphic map
/// types equal up to the names of their type parameters are not (see
/// [`Type::alpha_equal`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Int,
    Bool,
    /// Mathematical reals (exact: tests carry rationals).
    Real,
    /// `bvN`: N-bit vectors, which wrap at their width.
    BitVector(u32),
    /// A user-declared uninterpreted type applied to as many arguments as it declares
    /// parameters (`ref`, `Field int`).
    Named(TypeId, Vec<Type>),
    /// A type parameter, in the scope of the declaration that binds it.
    Param(TypeParamId),
    Map(Arc<MapType>),
}

/// `<a>[ref, Field a]a`: every type parameter occurs in the domain or the range (Boogie's
/// rule); a selection's index types, or its context, determine the instance.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MapType {
    pub type_params: Vec<TypeParamId>,
    pub domain: Vec<Type>,
    pub range: Type,
}

impl Type {
    /// `int`, `bool`, `real` or a bit-vector: values a test writes as literals.
    pub fn is_scalar(&self) -> bool {
        matches!(self, Type::Int | Type::Bool | Type::Real | Type::BitVector(_))
    }

    /// Whether the type mentions a type parameter (outside the map types that bind it).
    pub fn is_polymorphic(&self) -> bool {
        match self {
            Type::Int | Type::Bool | Type::Real | Type::BitVector(_) => false,
            Type::Param(_) => true,
            Type::Named(_, args) => args.iter().any(Type::is_polymorphic),
            Type::Map(map) => {
                !map.type_params.is_empty() || map.domain.iter().chain([&map.range]).any(Type::is_polymorphic)
            }
        }
    }

    /// The type with each parameter in `substitution` replaced by its type.
    pub fn substitute(&self, substitution: &[(TypeParamId, Type)]) -> Type {
        if substitution.is_empty() {
            return self.clone();
        }
        match self {
            Type::Int | Type::Bool | Type::Real | Type::BitVector(_) => self.clone(),
            Type::Param(param) => {
                substitution.iter().find(|(bound, _)| bound == param).map_or_else(|| self.clone(), |(_, ty)| ty.clone())
            }
            Type::Named(id, args) => Type::Named(*id, args.iter().map(|arg| arg.substitute(substitution)).collect()),
            Type::Map(map) => Type::Map(Arc::new(MapType {
                type_params: map.type_params.clone(),
                domain: map.domain.iter().map(|ty| ty.substitute(substitution)).collect(),
                range: map.range.substitute(substitution),
            })),
        }
    }

    /// Equality up to the names of the type parameters that map types bind:
    /// `<a>[Field a]a` and `<b>[Field b]b` are one type.
    pub fn alpha_equal(&self, other: &Type) -> bool {
        alpha_equal(self, other, &mut Vec::new())
    }
}

fn alpha_equal(a: &Type, b: &Type, bound: &mut Vec<(TypeParamId, TypeParamId)>) -> bool {
    match (a, b) {
        (Type::Param(a), Type::Param(b)) => match bound.iter().rev().find(|(x, y)| x == a || y == b) {
            Some((x, y)) => x == a && y == b,
            None => a == b,
        },
        (Type::Named(a, a_args), Type::Named(b, b_args)) => {
            a == b && a_args.len() == b_args.len() && a_args.iter().zip(b_args).all(|(a, b)| alpha_equal(a, b, bound))
        }
        (Type::Map(a), Type::Map(b)) => {
            if Arc::ptr_eq(a, b) {
                return true;
            }
            if a.type_params.len() != b.type_params.len() || a.domain.len() != b.domain.len() {
                return false;
            }
            let depth = bound.len();
            bound.extend(a.type_params.iter().copied().zip(b.type_params.iter().copied()));
            let equal = a.domain.iter().zip(&b.domain).all(|(a, b)| alpha_equal(a, b, bound))
                && alpha_equal(&a.range, &b.range, bound);
            bound.truncate(depth);
            equal
        }
        _ => a == b,
    }
}

#[derive(Clone, Debug, Default)]
pub struct Program {
    pub types: Vec<TypeDecl>,
    /// Every type parameter, by [`TypeParamId`], for messages and printing.
    pub type_params: Vec<TypeParam>,
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
    /// How many type arguments the constructor takes (`type Field _;` takes 1).
    pub arity: usize,
    pub finite: bool,
    pub attrs: Vec<ast::Attribute>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct TypeParam {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Const {
    pub name: String,
    pub ty: Type,
    pub unique: bool,
    /// `extends p1, unique p2 complete`: the constant's place in the `<:` order.
    pub order: Option<OrderSpec>,
    pub attrs: Vec<ast::Attribute>,
    pub span: Span,
}

/// The parents a constant declares in the partial order `<:`, as Boogie's `extends`.
#[derive(Clone, Debug)]
pub struct OrderSpec {
    /// Each parent, and whether the edge is `unique` (its children's subtrees are disjoint).
    pub parents: Vec<(bool, ConstId)>,
    /// `complete`: every element below the constant is below one of its declared children.
    pub complete: bool,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Global {
    pub name: String,
    pub ty: Type,
    pub where_clause: Option<Expr>,
    pub attrs: Vec<ast::Attribute>,
    pub span: Span,
    /// In the monomorphic program ([`crate::mono`]), the variable as written of which this
    /// global is one instance (`Heap<int>` of `Heap: <a>[ref, Field a]a`).
    pub instance_of: Option<MapInstanceOf>,
}

/// A variable of a polymorphic map type as written, of which a variable of the
/// monomorphic program is one instance ([`crate::mono`] splits it into one monomorphic
/// map per instance of its type parameters): selected at the instance's index types
/// (`Heap[o, f]` with `f: Field int`), the variable as written gives the instance's
/// values. What shows a value in the program's own terms (the Boogie form of a suite),
/// where no stage reads the source again, writes it so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapInstanceOf {
    /// The variable's name as written (`Heap`).
    pub name: String,
    /// Its type as written (`<a>[ref, Field a]a`), at the type arguments of the
    /// declaration it belongs to: a type of the monomorphic program, which keeps the
    /// checked program's types and type parameters.
    pub ty: Type,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub type_params: Vec<TypeParamId>,
    /// Parameters are bound variables of the body; unnamed ones get a `BoundId` too.
    pub params: Vec<BoundVar>,
    pub result: Type,
    pub body: Option<Expr>,
    pub attrs: Vec<ast::Attribute>,
    pub span: Span,
    /// In the monomorphic program ([`crate::mono`]), the function as written that this
    /// one is (an instance of); `None` in a checked program.
    pub origin: Option<FunctionOrigin>,
}

impl Function {
    /// Whether the function is expanded at its applications, as Boogie 2.4.1 expands
    /// every `{:inline}` function: an `{:inline}` (or `{:inline true}`, not `{:inline
    /// false}`) function whose body binds variables (a quantifier or a λ). Other
    /// functions with bodies are definitions, which z3 unfolds as Boogie expands them;
    /// z3 4.8.12 cannot unfold a definition that binds.
    pub fn expands_at_applications(&self) -> bool {
        fn binds(expr: &Expr) -> bool {
            let mut found = matches!(expr.kind, ExprKind::Quant { .. });
            expr.for_each_child(&mut |child| found = found || binds(child));
            found
        }
        let off =
            |arg: &ast::AttrArg| matches!(arg, ast::AttrArg::Expr(ast::Expr { kind: ast::ExprKind::Bool(false), .. }));
        let inline = self
            .attrs
            .iter()
            .any(|attr| attr.name.name == "inline" && !matches!(attr.args.as_slice(), [arg] if off(arg)));
        inline && self.body.as_ref().is_some_and(binds)
    }
}

/// A function of the monomorphic program in the terms of the program as written: what
/// shows its applications to a person (the Boogie form of a suite) needs, since no later
/// stage reads the source again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionOrigin {
    /// The name as written: `Seq#Length` for the instance `Seq#Length<int>`, from whose
    /// arguments Boogie infers the instance.
    pub name: String,
    /// Each parameter as written, at the instance's type arguments (types of the
    /// monomorphic program, which keeps the checked program's types and type
    /// parameters), and how many of this function's parameters stand for it: one, or one
    /// per instance of a polymorphic map (`IsHeap(heap: <a>[ref, Field a]a)` takes
    /// `heap<bool>`, `heap<int>`, …).
    pub params: Vec<(Type, usize)>,
    /// Whether this function is the whole result of the function as written, not one
    /// component of a result of a polymorphic map type.
    pub whole_result: bool,
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
    /// In the monomorphic program ([`crate::mono`]), the local as written of which this
    /// one is one instance (`h<int>` of a parameter `h: <a>[ref, Field a]a`).
    pub instance_of: Option<MapInstanceOf>,
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
    pub type_params: Vec<TypeParamId>,
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
    /// The procedure's type parameters, renamed: `type_params[i]` stands for the
    /// procedure's `i`-th.
    pub type_params: Vec<TypeParamId>,
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
        /// The instantiation of the callee's type parameters.
        type_args: Vec<Type>,
        /// `free call`: the callee's preconditions are assumed, not checked.
        free: bool,
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
    /// Negation of an `int` or a `real` (the expression's type says which).
    Neg,
    /// `int(e)`: the greatest integer not above a real.
    ToInt,
    /// `real(e)`: an integer as a real.
    ToReal,
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
    /// `+`, `-`, `*` and the comparisons above apply to two `int`s or two `real`s: the
    /// operands' type says which.
    Add,
    Sub,
    Mul,
    /// SMT-LIB `div`/`mod` (Euclidean).
    Div,
    Mod,
    /// `/`: real division (integer operands are converted with [`UnaryOp::ToReal`]).
    RealDiv,
    /// `**`: real exponentiation.
    Power,
    /// `++`: bit-vector concatenation, the left operand the high bits.
    Concat,
}

impl BinaryOp {
    /// The comparison `b op' a` that says what `a op b` does; any other operator as it is.
    pub fn swapped(self) -> BinaryOp {
        match self {
            BinaryOp::Lt => BinaryOp::Gt,
            BinaryOp::Le => BinaryOp::Ge,
            BinaryOp::Gt => BinaryOp::Lt,
            BinaryOp::Ge => BinaryOp::Le,
            other => other,
        }
    }

    /// The comparison that holds where this one fails (`!(a < b)` is `a >= b`); `None`
    /// for an operator that is no comparison of `==`, `!=`, `<`, `<=`, `>`, `>=`.
    pub fn negated(self) -> Option<BinaryOp> {
        match self {
            BinaryOp::Lt => Some(BinaryOp::Ge),
            BinaryOp::Le => Some(BinaryOp::Gt),
            BinaryOp::Gt => Some(BinaryOp::Le),
            BinaryOp::Ge => Some(BinaryOp::Lt),
            BinaryOp::Eq => Some(BinaryOp::Neq),
            BinaryOp::Neq => Some(BinaryOp::Eq),
            _ => None,
        }
    }
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

/// The direct subexpressions of `$kind` (an `&ExprKind` or an `&mut ExprKind`), a
/// quantifier's triggers included, each given to `$f`; `$iter` is `iter` or `iter_mut`.
/// One list for both borrows, so that the two walks cannot drift apart.
macro_rules! for_each_child_of {
    ($kind:expr, $f:ident, $iter:ident) => {
        match $kind {
            ExprKind::Bool(_)
            | ExprKind::Int(_)
            | ExprKind::Real(_)
            | ExprKind::BitVector { .. }
            | ExprKind::Var(_) => {}
            ExprKind::Apply { args, .. } => args.$iter().for_each($f),
            ExprKind::Old(operand) | ExprKind::Unary { operand, .. } | ExprKind::Extract { operand, .. } => $f(operand),
            ExprKind::Binary { lhs, rhs, .. } => {
                $f(lhs);
                $f(rhs);
            }
            ExprKind::Select { map, indices } => {
                $f(map);
                indices.$iter().for_each($f);
            }
            ExprKind::Store { map, indices, value } => {
                $f(map);
                indices.$iter().for_each(&mut *$f);
                $f(value);
            }
            ExprKind::IfThenElse { cond, then_expr, else_expr } => {
                $f(cond);
                $f(then_expr);
                $f(else_expr);
            }
            ExprKind::Quant { triggers, body, .. } => {
                triggers.$iter().flatten().for_each(&mut *$f);
                $f(body);
            }
        }
    };
}

impl Expr {
    /// Calls `f` on each direct subexpression, a quantifier's triggers included.
    pub fn for_each_child<'a>(&'a self, f: &mut dyn FnMut(&'a Expr)) {
        for_each_child_of!(&self.kind, f, iter)
    }

    /// [`Expr::for_each_child`], each child mutable.
    pub fn for_each_child_mut(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        for_each_child_of!(&mut self.kind, f, iter_mut)
    }
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Bool(bool),
    Int(BigInt),
    /// A decimal literal, exactly.
    Real(BigRational),
    /// `5bv32`; `value < 2^width`.
    BitVector {
        value: BigUint,
        width: u32,
    },
    Var(Var),
    Apply {
        func: FunctionId,
        /// The instantiation of the function's type parameters.
        type_args: Vec<Type>,
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
    /// `e[high:low]`: bits `low` to `high - 1` of a bit-vector.
    Extract {
        operand: Box<Expr>,
        high: u32,
        low: u32,
    },
    IfThenElse {
        cond: Box<Expr>,
        then_expr: Box<Expr>,
        else_expr: Box<Expr>,
    },
    Quant {
        quantifier: Quantifier,
        /// `forall<T> ...`: each occurs in some bound variable's type.
        type_params: Vec<TypeParamId>,
        vars: Vec<BoundVar>,
        /// Each trigger is a multi-pattern.
        triggers: Vec<Vec<Expr>>,
        attrs: Vec<ast::Attribute>,
        body: Box<Expr>,
    },
}
