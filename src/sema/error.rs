//! Problems the checker finds, as data, and their one conversion into diagnostics.
//!
//! Each variant holds spans, names and types (as [`ShownType`]), never prose: all the
//! wording lives in [`SemaError::to_diagnostic`], so every message can be read and
//! reworded in one place.

use crate::diag::Diagnostic;
use crate::source::Span;
use std::fmt;

/// A problem in the user's program found by name resolution or type checking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SemaError {
    /// A name declared a second time in the same name space.
    Duplicate { kind: DeclKind, name: String, span: Span, first: Span },
    /// A name that resolves to nothing; `suggestion` is a close name in scope.
    Unknown { kind: NameKind, name: String, span: Span, suggestion: Option<String> },
    /// A name that resolves to the wrong kind of thing (`f` used as a variable, a call of
    /// a function, `modifies` of a constant).
    WrongKind { name: String, span: Span, expected: NameKind, found: DeclKind, decl: Span },
    /// A construct outside seedgen's Boogie subset.
    NotSupported { construct: Unsupported, span: Span },
    /// A type synonym whose expansion needs itself; `span` is the use closing the cycle.
    SynonymCycle { name: String, span: Span, decl: Span },
    /// A type synonym whose expansion nests deeper or has more parts than the checker
    /// allows.
    TypeTooLarge { name: String, span: Span, max_depth: usize, max_size: usize },
    /// A written type nested deeper than the checker allows (map ranges nest without
    /// brackets); `span` is its first part too deep.
    TypeTooDeep { span: Span, limit: usize },
    /// An attribute whose arguments break the rule Boogie checks for it.
    Attribute { name: String, span: Span, rule: AttributeRule },
    /// Two statements of one implementation with the same `{:id}`.
    DuplicateStatementId { id: String, span: Span, first: Span },
    /// An `{:assumption}` variable that is not a `bool` without a `where` clause.
    AssumptionVariable { span: Span },
    /// A type parameter named like one already in scope (Boogie forbids the shadowing).
    TypeParamShadows { name: String, span: Span, outer: Span },
    /// A type declared with a name the bit-vector types own (`bv16`).
    BitVectorTypeName { name: String, span: Span },
    /// A type applied to the wrong number of type arguments; `decl` is its declaration
    /// (none for a type parameter or a built-in type).
    TypeArguments { name: String, span: Span, expected: usize, found: usize, decl: Option<Span> },
    /// A type parameter that the types which must determine it do not mention: a map
    /// type's domain, a quantifier's bound variables, a function's or procedure's
    /// signature.
    UnusedTypeParam { name: String, span: Span, context: TypeParamContext },
    /// A type argument that neither the arguments nor the context determine: a warning,
    /// and the argument is `int` (Boogie's rule).
    AmbiguousTypeArgument { name: String, span: Span },
    /// An implementation with a different number of type parameters than its procedure.
    ImplTypeParams { name: String, span: Span, expected: usize, found: usize, proc_decl: Span },
    /// A bit-vector literal whose value does not fit its width.
    BitVectorLiteral { span: Span, width: u32 },
    /// `e[high:low]` outside the bits of `e` (or with `high < low`).
    ExtractBounds { span: Span, high: u32, low: u32, width: u32 },
    /// A code expression (`|{ ... }|`) whose blocks are malformed (a missing `return`,
    /// a jump to an unknown label).
    CodeExpr { span: Span, problem: CodeExprProblem },
    /// An expression of the wrong type; `because` is what fixed the expected type.
    Mismatch { span: Span, expected: ShownType, found: ShownType, because: Option<Span> },
    /// An operand of the wrong type for a built-in operator.
    Operand { op: &'static str, span: Span, expected: ShownType, found: ShownType },
    /// An operand outside the types a built-in operator takes (`expected` says which,
    /// in words: "`int` or `real`", "a bit-vector").
    OperandKinds { op: &'static str, span: Span, expected: &'static str, found: ShownType },
    /// A decimal literal whose exponent is too large to represent exactly.
    DecimalTooLarge { span: Span },
    /// `==`, `!=` or `<:` between different types.
    Compare { op: &'static str, span: Span, lhs: ShownType, rhs: ShownType },
    /// Indexing into something that is not a map.
    NotAMap { span: Span, found: ShownType },
    /// A map selection or update with the wrong number of indices.
    IndexCount { span: Span, map: ShownType, expected: usize, found: usize },
    /// A function application or call with the wrong number of arguments.
    ArgCount { kind: NameKind, name: String, span: Span, expected: usize, found: usize, decl: Span },
    /// A call assigning a different number of results than the procedure returns.
    OutCount { name: String, span: Span, expected: usize, found: usize, decl: Span },
    /// `old` where there is no pre-state.
    OldNotAllowed { span: Span, context: OldContext },
    /// A global variable where there is no program state (an axiom, a function body).
    GlobalNotAllowed { name: String, span: Span, context: OldContext, decl: Span },
    /// `where` on a quantifier's bound variable.
    WhereOnBoundVar { span: Span },
    /// Writing a variable that cannot be written (in-parameter, constant).
    Immutable { name: String, span: Span, kind: DeclKind, action: Action, decl: Span },
    /// Writing a global that the enclosing procedure does not declare in `modifies`.
    NotInModifies { global: String, span: Span, action: Action, proc_name: String, proc_decl: Span },
    /// A call to a procedure that may modify a global its caller does not declare.
    CallModifies { callee: String, global: String, span: Span, caller: String, callee_decl: Span },
    /// A parallel assignment with different numbers of targets and values.
    AssignCount { span: Span, targets: usize, values: usize },
    /// The same variable written twice by one assignment or call.
    WrittenTwice { name: String, span: Span, first: Span, action: Action },
    /// An implementation whose in- or out-parameter count differs from its procedure's.
    ImplArity { name: String, span: Span, side: ParamSide, expected: usize, found: usize, proc_decl: Span },
    /// An implementation parameter whose type differs from its procedure's.
    ImplParamType { name: String, span: Span, expected: ShownType, found: ShownType, proc_param: Span },
    /// `break;` outside every loop.
    BreakOutsideLoop { span: Span },
    /// `break L;` where `L` does not label an enclosing `while` or `if`.
    BreakNotEnclosing { name: String, span: Span, label: Span },
    /// An out-parameter where only the state before the call exists (a `requires`
    /// clause, the `where` clause of an in-parameter).
    OutParamNotInScope { name: String, span: Span, context: OldContext, decl: Span },
    /// A `where` clause on an implementation's parameter.
    ImplFormalWhere { span: Span },
    /// An attribute on an implementation's parameter.
    ImplFormalAttr { span: Span },
    /// A trigger that does not mention every variable its quantifier binds; `missing`
    /// holds each omitted variable with its declaration.
    TriggerMissingVars { span: Span, missing: Vec<(String, Span)> },
    /// A trigger term that is a variable by itself.
    TriggerBareVar { name: String, span: Span },
    /// An operator or binder that Boogie forbids in triggers; `construct` as written.
    NotInTrigger { construct: &'static str, span: Span },
    /// A trigger (or `{:nopats}`) on a `lambda`.
    TriggerOnLambda { span: Span },
    /// A `{:nopats}` attribute without exactly one expression.
    NopatsArgs { span: Span },
}

/// What kind of declaration a name refers to, for wording.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclKind {
    Type,
    Constant,
    Global,
    Function,
    Procedure,
    /// A function's parameter.
    Param,
    InParam,
    OutParam,
    Local,
    BoundVar,
    Label,
    TypeParam,
}

impl DeclKind {
    fn noun(self) -> &'static str {
        match self {
            DeclKind::Type => "type",
            DeclKind::Constant => "constant",
            DeclKind::Global => "global variable",
            DeclKind::Function => "function",
            DeclKind::Procedure => "procedure",
            DeclKind::Param => "parameter",
            DeclKind::InParam => "in-parameter",
            DeclKind::OutParam => "out-parameter",
            DeclKind::Local => "local variable",
            DeclKind::BoundVar => "bound variable",
            DeclKind::Label => "label",
            DeclKind::TypeParam => "type parameter",
        }
    }
}

/// What kind of thing a name was looked up as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKind {
    Type,
    Constant,
    Variable,
    Global,
    Function,
    Procedure,
    Label,
}

impl NameKind {
    fn noun(self) -> &'static str {
        match self {
            NameKind::Type => "type",
            NameKind::Constant => "constant",
            NameKind::Variable => "variable",
            NameKind::Global => "global variable",
            NameKind::Function => "function",
            NameKind::Procedure => "procedure",
            NameKind::Label => "label",
        }
    }

    fn with_article(self) -> &'static str {
        match self {
            NameKind::Type => "a type",
            NameKind::Constant => "a constant",
            NameKind::Variable => "a variable",
            NameKind::Global => "a global variable",
            NameKind::Function => "a function",
            NameKind::Procedure => "a procedure",
            NameKind::Label => "a label",
        }
    }
}

/// The rule an attribute's arguments break.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttributeRule {
    /// `{:minimize e}`, `{:maximize e}`.
    Objective,
    /// `{:verified_under e}`.
    VerifiedUnder,
}

/// Where a type parameter must occur.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeParamContext {
    MapType,
    Quantifier,
    Function,
    Procedure,
}

/// What is wrong with a code expression's blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CodeExprProblem {
    /// A block that ends without `goto` or `return e`.
    NoTransfer,
    /// `return;` without a value.
    ReturnWithoutValue,
}

/// Constructs seedgen parses but does not check or execute yet (DESIGN.md §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsupported {
    FloatType,
    /// `bvN` wider than seedgen's limit.
    WideBitVector,
    Datatype,
    Yield,
    Par,
    AsyncCall,
    Yields,
}

impl Unsupported {
    fn message(self) -> &'static str {
        match self {
            Unsupported::FloatType => "floating-point types are not supported",
            Unsupported::WideBitVector => "bit-vector types wider than 65536 bits are not supported",
            Unsupported::Datatype => "`{:datatype}` types are not supported yet",
            Unsupported::Yield => "`yield` is not supported",
            Unsupported::Par => "`par` calls are not supported",
            Unsupported::AsyncCall => "`async call` is not supported",
            Unsupported::Yields => "`{:yields}` procedures are not supported",
        }
    }

    fn help(self) -> Option<&'static str> {
        match self {
            Unsupported::Yield | Unsupported::Par | Unsupported::AsyncCall | Unsupported::Yields => {
                Some("seedgen does not support CIVL's concurrency constructs")
            }
            Unsupported::FloatType => {
                Some("seedgen reads Boogie 2 without floating point; use `real` for exact arithmetic")
            }
            _ => None,
        }
    }
}

/// Where an `old` was found that has no pre-state to refer to (also where a global
/// variable was found that has no state at all, for the stateless contexts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OldContext {
    Requires,
    Axiom,
    FunctionBody,
    GlobalWhere,
    ParamWhere,
}

impl OldContext {
    /// Axioms and function bodies are evaluated in no program state (as in Boogie).
    pub(crate) fn is_stateless(self) -> bool {
        matches!(self, OldContext::Axiom | OldContext::FunctionBody)
    }

    fn phrase(self) -> &'static str {
        match self {
            OldContext::Requires => "in a `requires` clause",
            OldContext::Axiom => "in an axiom",
            OldContext::FunctionBody => "in a function body",
            OldContext::GlobalWhere => "in the `where` clause of a global variable",
            OldContext::ParamWhere => "in the `where` clause of a procedure parameter",
        }
    }
}

/// How a variable is written, for wording.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Assign,
    Havoc,
    CallOut,
}

impl Action {
    fn verb(self) -> &'static str {
        match self {
            Action::Assign => "assign to",
            Action::Havoc => "havoc",
            Action::CallOut => "assign a call's result to",
        }
    }

    fn statement(self) -> &'static str {
        match self {
            Action::Assign => "assignment",
            Action::Havoc => "`havoc`",
            Action::CallOut => "call",
        }
    }
}

/// In-parameters or out-parameters of a procedure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamSide {
    In,
    Out,
}

/// A type as the user would write it, for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShownType {
    Int,
    Bool,
    Real,
    BitVector(u32),
    /// A type constructor with its arguments, or a type parameter (no arguments).
    Named(String, Vec<ShownType>),
    /// Type parameters, domain, range.
    Map(Vec<String>, Vec<ShownType>, Box<ShownType>),
    /// A type that could not be resolved or inferred; never shown alone, because its
    /// error was reported.
    Unknown,
}

impl ShownType {
    /// Whether the type needs parentheses as a type constructor's argument.
    fn is_compound(&self) -> bool {
        matches!(self, ShownType::Map(..)) || matches!(self, ShownType::Named(_, args) if !args.is_empty())
    }
}

impl fmt::Display for ShownType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShownType::Int => f.write_str("int"),
            ShownType::Bool => f.write_str("bool"),
            ShownType::Real => f.write_str("real"),
            ShownType::BitVector(width) => write!(f, "bv{width}"),
            ShownType::Named(name, args) => {
                f.write_str(name)?;
                for arg in args {
                    if arg.is_compound() {
                        write!(f, " ({arg})")?;
                    } else {
                        write!(f, " {arg}")?;
                    }
                }
                Ok(())
            }
            ShownType::Map(params, domain, range) => {
                if !params.is_empty() {
                    write!(f, "<{}>", params.join(", "))?;
                }
                f.write_str("[")?;
                for (position, index) in domain.iter().enumerate() {
                    if position > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{index}")?;
                }
                write!(f, "]{range}")
            }
            ShownType::Unknown => f.write_str("_"),
        }
    }
}

fn plural(count: usize, singular: &str, plural: &str) -> String {
    if count == 1 {
        format!("1 {singular}")
    } else {
        format!("{count} {plural}")
    }
}

impl SemaError {
    /// Whether the problem is a warning: the program is still accepted.
    pub fn is_warning(&self) -> bool {
        matches!(self, SemaError::AmbiguousTypeArgument { .. })
    }

    /// Where the problem is: the span of the primary label.
    pub fn span(&self) -> Span {
        match self {
            SemaError::Duplicate { span, .. }
            | SemaError::Unknown { span, .. }
            | SemaError::WrongKind { span, .. }
            | SemaError::NotSupported { span, .. }
            | SemaError::SynonymCycle { span, .. }
            | SemaError::TypeTooLarge { span, .. }
            | SemaError::TypeTooDeep { span, .. }
            | SemaError::TypeArguments { span, .. }
            | SemaError::OperandKinds { span, .. }
            | SemaError::Attribute { span, .. }
            | SemaError::DuplicateStatementId { span, .. }
            | SemaError::AssumptionVariable { span }
            | SemaError::TypeParamShadows { span, .. }
            | SemaError::BitVectorTypeName { span, .. }
            | SemaError::DecimalTooLarge { span }
            | SemaError::UnusedTypeParam { span, .. }
            | SemaError::AmbiguousTypeArgument { span, .. }
            | SemaError::ImplTypeParams { span, .. }
            | SemaError::BitVectorLiteral { span, .. }
            | SemaError::ExtractBounds { span, .. }
            | SemaError::CodeExpr { span, .. }
            | SemaError::Mismatch { span, .. }
            | SemaError::Operand { span, .. }
            | SemaError::Compare { span, .. }
            | SemaError::NotAMap { span, .. }
            | SemaError::IndexCount { span, .. }
            | SemaError::ArgCount { span, .. }
            | SemaError::OutCount { span, .. }
            | SemaError::OldNotAllowed { span, .. }
            | SemaError::GlobalNotAllowed { span, .. }
            | SemaError::WhereOnBoundVar { span }
            | SemaError::Immutable { span, .. }
            | SemaError::NotInModifies { span, .. }
            | SemaError::CallModifies { span, .. }
            | SemaError::AssignCount { span, .. }
            | SemaError::WrittenTwice { span, .. }
            | SemaError::ImplArity { span, .. }
            | SemaError::ImplParamType { span, .. }
            | SemaError::BreakOutsideLoop { span }
            | SemaError::BreakNotEnclosing { span, .. }
            | SemaError::OutParamNotInScope { span, .. }
            | SemaError::ImplFormalWhere { span }
            | SemaError::ImplFormalAttr { span }
            | SemaError::TriggerMissingVars { span, .. }
            | SemaError::TriggerBareVar { span, .. }
            | SemaError::NotInTrigger { span, .. }
            | SemaError::TriggerOnLambda { span }
            | SemaError::NopatsArgs { span } => *span,
        }
    }

    /// The one place where checker errors get their wording.
    pub fn to_diagnostic(&self) -> Diagnostic {
        match self {
            SemaError::Duplicate { kind, name, span, first } => {
                Diagnostic::error(format!("duplicate {} `{name}`", kind.noun()))
                    .with_primary(*span, format!("`{name}` declared again here"))
                    .with_secondary(*first, format!("`{name}` first declared here"))
            }
            SemaError::Unknown { kind, name, span, suggestion } => {
                let diagnostic = Diagnostic::error(format!("cannot find {} `{name}`", kind.noun()))
                    .with_primary(*span, "not found in this scope");
                match suggestion {
                    Some(close) => diagnostic.with_help(format!("did you mean `{close}`?")),
                    None => diagnostic,
                }
            }
            SemaError::WrongKind { name, span, expected, found, decl } => {
                let diagnostic =
                    Diagnostic::error(format!("expected {}, found {} `{name}`", expected.with_article(), found.noun()))
                        .with_primary(*span, format!("not {}", expected.with_article()))
                        .with_secondary(*decl, format!("`{name}` declared here"));
                match (expected, found) {
                    (NameKind::Procedure, DeclKind::Function) => {
                        diagnostic.with_help(format!("functions are applied in expressions: `{name}(...)`"))
                    }
                    (NameKind::Function, DeclKind::Procedure) => {
                        diagnostic.with_help(format!("procedures are called by a statement: `call {name}(...);`"))
                    }
                    _ => diagnostic,
                }
            }
            SemaError::NotSupported { construct, span } => {
                let diagnostic =
                    Diagnostic::error(construct.message()).with_primary(*span, "outside seedgen's Boogie subset");
                match construct.help() {
                    Some(help) => diagnostic.with_help(help),
                    None => diagnostic,
                }
            }
            SemaError::SynonymCycle { name, span, decl } => {
                Diagnostic::error(format!("type synonym `{name}` is defined in terms of itself"))
                    .with_primary(*span, "this use closes the cycle")
                    .with_secondary(*decl, format!("`{name}` declared here"))
            }
            SemaError::TypeTooLarge { name, span, max_depth, max_size } => {
                Diagnostic::error(format!("type synonym `{name}` expands to a type too large to check"))
                    .with_primary(*span, "declared here")
                    .with_note(format!(
                        "seedgen accepts types nested at most {max_depth} levels deep and made of at most \
                         {max_size} parts, so that no input can exhaust its stack or time"
                    ))
            }
            SemaError::TypeTooDeep { span, limit } => {
                Diagnostic::error(format!("type nested more than {limit} levels deep"))
                    .with_primary(*span, "this part is too deep")
                    .with_note("seedgen limits nesting so that no input can exhaust its stack")
            }
            SemaError::TypeArguments { name, span, expected, found, decl } => {
                let message = if *expected == 0 {
                    format!("type `{name}` takes no type arguments")
                } else {
                    format!(
                        "type `{name}` takes {} but {found} {} given",
                        plural(*expected, "type argument", "type arguments"),
                        if *found == 1 { "was" } else { "were" }
                    )
                };
                let diagnostic = Diagnostic::error(message).with_primary(*span, "used here");
                match decl {
                    Some(decl) => diagnostic.with_secondary(*decl, format!("`{name}` declared here")),
                    None => diagnostic,
                }
            }
            SemaError::UnusedTypeParam { name, span, context } => {
                let (message, help) = match context {
                    TypeParamContext::MapType => {
                        ("the map type", "a map's type parameters are determined by its indices or its values")
                    }
                    TypeParamContext::Quantifier => (
                        "the types of the bound variables",
                        "a quantifier's type parameters are determined by its bound variables",
                    ),
                    TypeParamContext::Function => (
                        "the function's signature",
                        "declare the type parameter only where a parameter or the result uses it",
                    ),
                    TypeParamContext::Procedure => {
                        ("the procedure's signature", "declare the type parameter only where a parameter uses it")
                    }
                };
                Diagnostic::error(format!("type parameter `{name}` does not occur in {message}"))
                    .with_primary(*span, "declared here")
                    .with_help(help)
            }
            SemaError::Attribute { name, span, rule } => {
                let message = match rule {
                    AttributeRule::Objective => {
                        format!("`{{:{name}}}` takes one expression of type `int`, `real` or a bit-vector")
                    }
                    AttributeRule::VerifiedUnder => format!("`{{:{name}}}` takes one `bool` expression"),
                };
                Diagnostic::error(message).with_primary(*span, "this attribute")
            }
            SemaError::DuplicateStatementId { id, span, first } => Diagnostic::error(format!(
                "two statements have the id `{id}`"
            ))
            .with_primary(*span, "second use")
            .with_secondary(*first, "first used here")
            .with_note(
                "a statement's `{:id}` names it in Boogie's reports, so it must be unique in its implementation",
            ),
            SemaError::AssumptionVariable { span } => {
                Diagnostic::error("an `{:assumption}` variable must be a `bool` without a `where` clause")
                    .with_primary(*span, "declared here")
            }
            SemaError::TypeParamShadows { name, span, outer } => {
                Diagnostic::error(format!("type parameter `{name}` is already declared"))
                    .with_primary(*span, "declared again here")
                    .with_secondary(*outer, "the enclosing declaration")
                    .with_help("rename one of them")
            }
            SemaError::BitVectorTypeName { name, span } => {
                Diagnostic::error(format!("`{name}` names a bit-vector type and cannot be declared"))
                    .with_primary(*span, "declared here")
            }
            SemaError::OperandKinds { op, span, expected, found } => {
                Diagnostic::error(format!("`{op}` cannot be applied to `{found}`"))
                    .with_primary(*span, format!("expected {expected}, found `{found}`"))
            }
            SemaError::DecimalTooLarge { span } => Diagnostic::error("decimal literal too large to represent exactly")
                .with_primary(*span, "its exponent is beyond 100000"),
            SemaError::AmbiguousTypeArgument { name, span } => {
                Diagnostic::warning(format!("type argument `{name}` is ambiguous; it is instantiated to `int`"))
                    .with_primary(*span, "the arguments and the context leave it open")
                    .with_help("add a type coercion, e.g. `e : T`")
            }
            SemaError::ImplTypeParams { name, span, expected, found, proc_decl } => Diagnostic::error(format!(
                "implementation of `{name}` has {} but its procedure has {expected}",
                plural(*found, "type parameter", "type parameters")
            ))
            .with_primary(*span, "declared here")
            .with_secondary(*proc_decl, "the procedure is declared here"),
            SemaError::BitVectorLiteral { span, width } => {
                Diagnostic::error(format!("bit-vector literal does not fit in {width} bits"))
                    .with_primary(*span, format!("this value needs more than {width} bits"))
            }
            SemaError::ExtractBounds { span, high, low, width } => {
                Diagnostic::error(format!("bits `[{high}:{low}]` are not within a `bv{width}`"))
                    .with_primary(*span, format!("needs {low} <= {high} <= {width}"))
            }
            SemaError::CodeExpr { span, problem } => {
                let message = match problem {
                    CodeExprProblem::NoTransfer => "a block of a code expression must end with `goto` or `return e`",
                    CodeExprProblem::ReturnWithoutValue => "`return` in a code expression needs a boolean value",
                };
                Diagnostic::error(message).with_primary(*span, "here")
            }
            SemaError::Mismatch { span, expected, found, because } => {
                let diagnostic = Diagnostic::error("mismatched types")
                    .with_primary(*span, format!("expected `{expected}`, found `{found}`"));
                match because {
                    Some(because) => diagnostic.with_secondary(*because, "expected because of this"),
                    None => diagnostic,
                }
            }
            SemaError::Operand { op, span, expected, found } => {
                Diagnostic::error(format!("`{op}` cannot be applied to `{found}`"))
                    .with_primary(*span, format!("expected `{expected}`, found `{found}`"))
            }
            SemaError::Compare { op, span, lhs, rhs } => {
                Diagnostic::error(format!("cannot compare `{lhs}` with `{rhs}`"))
                    .with_primary(*span, format!("`{op}` needs both sides of the same type"))
            }
            SemaError::NotAMap { span, found } => {
                Diagnostic::error(format!("cannot index into a value of type `{found}`"))
                    .with_primary(*span, "not a map")
            }
            SemaError::IndexCount { span, map, expected, found } => Diagnostic::error(format!(
                "map of type `{map}` takes {} but {} given",
                plural(*expected, "index", "indices"),
                plural(*found, "was", "were")
            ))
            .with_primary(*span, format!("expected {}", plural(*expected, "index", "indices"))),
            SemaError::ArgCount { kind, name, span, expected, found, decl } => Diagnostic::error(format!(
                "{} `{name}` takes {} but {} supplied",
                kind.noun(),
                plural(*expected, "argument", "arguments"),
                plural(*found, "was", "were")
            ))
            .with_primary(*span, format!("expected {}", plural(*expected, "argument", "arguments")))
            .with_secondary(*decl, format!("{} declared here", kind.noun())),
            SemaError::OutCount { name, span, expected, found, decl } => Diagnostic::error(format!(
                "procedure `{name}` returns {} but the call receives {found}",
                plural(*expected, "value", "values")
            ))
            .with_primary(*span, format!("expected {}", plural(*expected, "result variable", "result variables")))
            .with_secondary(*decl, "procedure declared here"),
            SemaError::OldNotAllowed { span, context } => {
                Diagnostic::error(format!("`old` is not allowed {}", context.phrase()))
                    .with_primary(*span, "no pre-state to refer to here")
                    .with_note("`old` may appear only in `ensures` clauses and implementation bodies")
            }
            SemaError::GlobalNotAllowed { name, span, context, decl } => {
                Diagnostic::error(format!("global variable `{name}` cannot be used {}", context.phrase()))
                    .with_primary(*span, "refers to the program state")
                    .with_secondary(*decl, format!("`{name}` declared here"))
                    .with_note("axioms and function bodies do not depend on the program state; constants may appear")
            }
            SemaError::WhereOnBoundVar { span } => {
                Diagnostic::error("`where` clauses are not allowed on bound variables")
                    .with_primary(*span, "`where` clause here")
                    .with_help("state the condition in the body, e.g. `(forall x: int :: cond ==> body)`")
            }
            SemaError::Immutable { name, span, kind, action, decl } => {
                Diagnostic::error(format!("cannot {} {} `{name}`", action.verb(), kind.noun()))
                    .with_primary(*span, format!("{}s cannot be written", kind.noun()))
                    .with_secondary(*decl, format!("`{name}` declared here"))
            }
            SemaError::NotInModifies { global, span, action, proc_name, proc_decl } => Diagnostic::error(format!(
                "cannot {} global variable `{global}`: it is not in the `modifies` clause of `{proc_name}`",
                action.verb()
            ))
            .with_primary(*span, format!("`{global}` is written here"))
            .with_secondary(*proc_decl, "procedure declared here")
            .with_help(format!("add `modifies {global};` to procedure `{proc_name}`")),
            SemaError::CallModifies { callee, global, span, caller, callee_decl } => Diagnostic::error(format!(
                "call to `{callee}` may modify `{global}`, which is not in the `modifies` clause of `{caller}`"
            ))
            .with_primary(*span, format!("this call may modify `{global}`"))
            .with_secondary(*callee_decl, format!("`{callee}` declared here"))
            .with_help(format!("add `modifies {global};` to procedure `{caller}`")),
            SemaError::AssignCount { span, targets, values } => Diagnostic::error(format!(
                "assignment has {} but {}",
                plural(*targets, "target", "targets"),
                plural(*values, "value", "values")
            ))
            .with_primary(*span, "each target needs exactly one value"),
            SemaError::WrittenTwice { name, span, first, action } => {
                Diagnostic::error(format!("`{name}` is written twice by one {}", action.statement()))
                    .with_primary(*span, "written again here")
                    .with_secondary(*first, "first written here")
            }
            SemaError::ImplArity { name, span, side, expected, found, proc_decl } => {
                let (singular, plural_noun) = match side {
                    ParamSide::In => ("in-parameter", "in-parameters"),
                    ParamSide::Out => ("out-parameter", "out-parameters"),
                };
                Diagnostic::error(format!(
                    "implementation of `{name}` has {} but its procedure has {}",
                    plural(*found, singular, plural_noun),
                    plural(*expected, singular, plural_noun)
                ))
                .with_primary(*span, format!("expected {}", plural(*expected, singular, plural_noun)))
                .with_secondary(*proc_decl, "procedure declared here")
            }
            SemaError::ImplParamType { name, span, expected, found, proc_param } => Diagnostic::error(format!(
                "parameter `{name}` has type `{found}` but the procedure declares `{expected}`"
            ))
            .with_primary(*span, format!("expected `{expected}`"))
            .with_secondary(*proc_param, "procedure's parameter declared here"),
            SemaError::BreakOutsideLoop { span } => Diagnostic::error("`break` outside of a loop")
                .with_primary(*span, "cannot `break` here")
                .with_help("to leave a labelled `if`, write `break L;`"),
            SemaError::BreakNotEnclosing { name, span, label } => {
                Diagnostic::error(format!("label `{name}` does not label an enclosing statement"))
                    .with_primary(*span, "cannot break out of it from here")
                    .with_secondary(*label, format!("`{name}` declared here"))
                    .with_note("`break L;` must be inside the `while` or `if` that directly follows `L:`")
            }
            SemaError::OutParamNotInScope { name, span, context, decl } => {
                let place = match context {
                    OldContext::ParamWhere => "in the `where` clause of an in-parameter",
                    _ => context.phrase(),
                };
                Diagnostic::error(format!("out-parameter `{name}` cannot be used {place}"))
                    .with_primary(*span, "out-parameters do not exist before the call")
                    .with_secondary(*decl, format!("`{name}` declared here"))
            }
            SemaError::ImplFormalWhere { span } => Diagnostic::error(
                "`where` clauses are not allowed on an implementation's parameters; put them on the procedure's",
            )
            .with_primary(*span, "`where` clause here")
            .with_note("an implementation's parameters only rename the procedure's, which carry the `where` clauses"),
            SemaError::ImplFormalAttr { span } => Diagnostic::error(
                "attributes are not allowed on an implementation's parameters; put them on the procedure's",
            )
            .with_primary(*span, "attribute here"),
            SemaError::TriggerMissingVars { span, missing } => {
                let names: Vec<String> = missing.iter().map(|(name, _)| format!("`{name}`")).collect();
                let listed = match names.split_last() {
                    Some((last, rest)) if !rest.is_empty() => format!("variables {} and {last}", rest.join(", ")),
                    _ => format!("variable {}", names.concat()),
                };
                let diagnostic = Diagnostic::error(format!("trigger does not mention bound {listed}"))
                    .with_primary(*span, "this trigger")
                    .with_note(
                        "a trigger must mention every variable of its quantifier, so that a match instantiates \
                         all of them",
                    );
                missing.iter().fold(diagnostic, |diagnostic, (name, decl)| {
                    diagnostic.with_secondary(*decl, format!("`{name}` bound here"))
                })
            }
            SemaError::TriggerBareVar { name, span } => {
                Diagnostic::error(format!("a trigger term cannot be the variable `{name}` by itself"))
                    .with_primary(*span, "a bare variable")
                    .with_help(format!(
                        "use `{name}` inside a function application or map selection, e.g. `{{ f({name}) }}`"
                    ))
            }
            SemaError::NotInTrigger { construct, span } => {
                Diagnostic::error(format!("`{construct}` is not allowed in a trigger"))
                    .with_primary(*span, "not allowed in a trigger")
                    .with_note(
                        "triggers are built from function applications, map selections and updates, and arithmetic; \
                         boolean connectives, `==`, comparisons and binders are not allowed (as in Boogie)",
                    )
            }
            SemaError::TriggerOnLambda { span } => Diagnostic::error("`lambda` expressions cannot have triggers")
                .with_primary(*span, "trigger here")
                .with_help("remove the trigger; only `forall` and `exists` take triggers"),
            SemaError::NopatsArgs { span } => Diagnostic::error("`{:nopats}` takes exactly one expression")
                .with_primary(*span, "a negative trigger")
                .with_help("write one `{:nopats e}` attribute per excluded pattern"),
        }
    }
}

/// The name among `candidates` closest to `name` by edit distance, if it is close enough
/// to be a plausible typo; ties go to the first candidate, so callers pass names in a
/// deterministic order.
pub(crate) fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let limit = (name.chars().count() / 3).max(1);
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        if candidate == name {
            continue;
        }
        let distance = edit_distance(name, candidate);
        if distance <= limit && best.is_none_or(|(best_distance, _)| distance < best_distance) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate.to_string())
}

/// Levenshtein distance over characters, with one row of memory.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, a_char) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, b_char) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(a_char != *b_char);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_insertions_deletions_and_substitutions() {
        assert_eq!(edit_distance("count", "count"), 0);
        assert_eq!(edit_distance("cout", "count"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    #[test]
    fn suggest_picks_the_closest_plausible_name() {
        assert_eq!(suggest("cout", ["x", "count", "counter"]), Some("count".to_string()));
        assert_eq!(suggest("y", ["x"]), Some("x".to_string()));
        assert_eq!(suggest("total", ["x", "count"]), None);
    }

    #[test]
    fn shown_types_print_as_boogie_types() {
        let map = ShownType::Map(
            Vec::new(),
            vec![ShownType::Int, ShownType::Named("Ref".to_string(), Vec::new())],
            Box::new(ShownType::Map(Vec::new(), vec![ShownType::Int], Box::new(ShownType::Bool))),
        );
        assert_eq!(map.to_string(), "[int, Ref][int]bool");
        let field =
            ShownType::Named("Field".to_string(), vec![ShownType::Named("Seq".to_string(), vec![ShownType::Int])]);
        let heap = ShownType::Map(
            vec!["a".to_string()],
            vec![ShownType::Named("ref".to_string(), Vec::new()), field],
            Box::new(ShownType::BitVector(8)),
        );
        assert_eq!(heap.to_string(), "<a>[ref, Field (Seq int)]bv8");
    }
}
