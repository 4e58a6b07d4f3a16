//! Attributes: their expression arguments are resolved and type-checked in the scope of
//! what they decorate, as Boogie does, and the attributes whose meaning Boogie checks
//! get its rules.
//!
//! Input: the attributes of a declaration, contract, statement or quantifier, and the
//! scope of their construct. Output: errors only; attributes stay in the HIR as
//! written (no later stage reads an attribute's expression).

use super::error::{AttributeRule, SemaError};
use super::expr::Scope;
use super::hir::Type;
use super::Checker;
use crate::syntax::ast;

/// The attributes whose arguments Boogie checks beyond typing.
enum Rule {
    /// `{:minimize e}` / `{:maximize e}`: one `int`, `real` or bit-vector expression.
    Objective,
    /// `{:verified_under e}`: one `bool` expression.
    VerifiedUnder,
}

fn rule(name: &str) -> Option<Rule> {
    match name {
        "minimize" | "maximize" => Some(Rule::Objective),
        "verified_under" => Some(Rule::VerifiedUnder),
        _ => None,
    }
}

impl Checker {
    /// Checks the expression arguments of `attrs` in `scope`.
    pub(super) fn check_attrs(&mut self, scope: &mut Scope, attrs: &[ast::Attribute]) {
        // A negative trigger `{:nopats e}` is checked with the triggers.
        for attr in attrs.iter().filter(|attr| attr.name.name != "nopats") {
            let mut types = Vec::new();
            for arg in &attr.args {
                if let ast::AttrArg::Expr(expr) = arg {
                    let mark = self.inference_mark();
                    let mut checked = self.expr(scope, expr);
                    self.settle(mark, &mut checked);
                    types.push(checked.ty);
                }
            }
            let Some(rule) = rule(&attr.name.name) else { continue };
            let single = match (attr.args.len(), types.as_slice()) {
                (1, [ty]) => Some(self.resolved(ty)),
                _ => None,
            };
            let fits = match (&rule, &single) {
                (_, None) => false,
                (Rule::Objective, Some(ty)) => matches!(ty, Type::Int | Type::Real | Type::BitVector(_)),
                (Rule::VerifiedUnder, Some(ty)) => *ty == Type::Bool,
            };
            if !fits && !single.as_ref().is_some_and(super::types::contains_error) {
                let rule = match rule {
                    Rule::Objective => AttributeRule::Objective,
                    Rule::VerifiedUnder => AttributeRule::VerifiedUnder,
                };
                self.error(SemaError::Attribute { name: attr.name.name.clone(), span: attr.span, rule });
            }
        }
    }

    /// Checks the attributes of a declaration, whose expressions may name any constant,
    /// function or global variable.
    pub(super) fn check_decl_attrs(&mut self, attrs: &[ast::Attribute]) {
        if attrs.iter().any(|attr| !attr.args.is_empty()) {
            self.check_attrs(&mut Scope::global(super::error::OldContext::GlobalWhere), attrs);
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn attribute_expressions_are_typed() {
        accepts!("const {:c hux0 + F1(hux1)} hux0: int; function {:c F1(hux0) + hux1} F1(int): int; var hux1: int;");
        rejects!("const {:c pux0 ++ pux0} pux0: int;", "`++` cannot be applied to `int`");
        rejects!("procedure {:c !(x - x)} P(); const x: int;", "`!` cannot be applied to `int`");
        rejects!("procedure P(n: int) { assume {:hint n && true} true; }", "`&&` cannot be applied to `int`");
        accepts!("procedure P(n: int) { assert {:msg \"n\", n + 1} true; }");
    }

    #[test]
    fn objectives_and_verified_under_take_one_expression_of_their_type() {
        accepts!("procedure P(n: int) { assume {:minimize n} true; assume {:verified_under n > 0} true; }");
        rejects!("procedure P(n: int) { assume {:minimize} true; }", "`{:minimize}` takes one expression");
        rejects!("procedure P(n: int) { assume {:maximize n, n} true; }", "`{:maximize}` takes one expression");
        rejects!("procedure P(n: bool) { assume {:minimize n} true; }", "of type `int`, `real` or a bit-vector");
        rejects!("procedure P(n: int) { assert {:verified_under n} true; }", "`{:verified_under}` takes one `bool`");
    }
}
