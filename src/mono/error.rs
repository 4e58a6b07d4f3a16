//! Problems monomorphization finds, as data, and their one conversion into diagnostics.

use crate::diag::Diagnostic;
use crate::source::Span;

/// A polymorphic program the engine cannot turn into a monomorphic one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MonoError {
    /// Instantiating type-quantified axioms and polymorphic declarations keeps producing
    /// new instances: at `span` an instance nests `depth` deep (past
    /// [`super::MAX_TYPE_DEPTH`]) or the instances number more than
    /// [`super::MAX_INSTANCES`]. `driver` is the type-quantified expression whose
    /// instantiation produced it, if any.
    NonTerminating { span: Span, instance: String, driver: Option<Span>, too_many: bool },
    /// A polymorphic map type where its values cannot be split into one map per
    /// instance (a function's result, a type argument, inside another map), or a
    /// lambda with type parameters.
    Unsupported { what: &'static str, span: Span },
    /// The run's `--time-limit` was reached while the declaration at `span` was being
    /// instantiated (a front end's prelude over a heap of hundreds of field types takes
    /// tens of seconds).
    TimeLimit { span: Span },
}

impl MonoError {
    pub fn span(&self) -> Span {
        match self {
            MonoError::NonTerminating { span, .. }
            | MonoError::Unsupported { span, .. }
            | MonoError::TimeLimit { span } => *span,
        }
    }

    pub fn to_diagnostic(&self) -> Diagnostic {
        match self {
            MonoError::NonTerminating { span, instance, driver, too_many } => {
                let limit = if *too_many {
                    format!("more than {} instances", super::MAX_INSTANCES)
                } else {
                    format!("types nested more than {} deep", super::MAX_TYPE_DEPTH)
                };
                let diagnostic = Diagnostic::error("instantiating the program's polymorphism does not terminate")
                    .with_primary(*span, format!("this needs the instance `{instance}`, one of {limit}"))
                    .with_note(
                        "seedgen runs polymorphic programs by instantiating each polymorphic function, procedure, map \
                         and type-quantified expression at the types the program uses; each instance here makes a \
                         bigger one",
                    )
                    .with_help("give the type quantifier a trigger or an instance that does not build a bigger type");
                match driver {
                    Some(driver) => diagnostic.with_secondary(*driver, "instantiated from this type-quantified expression"),
                    None => diagnostic,
                }
            }
            MonoError::TimeLimit { span } => {
                Diagnostic::warning("the run's time limit was reached while instantiating the program's polymorphism")
                    .with_primary(*span, "instantiating this declaration when the time was up")
                    .with_note("nothing was verified or generated; a larger `--time-limit` (or none) lets it finish")
            }
            MonoError::Unsupported { what, span } => {
                Diagnostic::error(format!("seedgen cannot generate tests for {what} yet"))
                    .with_primary(*span, "used here")
                    .with_note("`seedgen check` accepts this program; the engine runs polymorphic maps only as values of variables, parameters and bound variables")
            }
        }
    }
}
