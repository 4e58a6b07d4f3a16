//! Boogie's rules for triggers (`{ e1, e2 }` in a `forall` or `exists`), checked so that
//! every program seedgen accepts is one Boogie accepts.
//!
//! Boogie 2.4.1 rejects (verified against `boogie /noVerify`):
//! - a trigger term that is a variable by itself (bound, local or global: `{ x }`);
//! - `&&`, `||`, `!`, `==>`, `<==`, `<==>`, `==`, `<`, `<=`, `>`, `>=` anywhere in a trigger;
//! - a quantifier or `lambda` anywhere in a trigger;
//! - a trigger that does not mention every variable of its quantifier;
//! - any trigger, or `{:nopats ...}`, on a `lambda`.
//!
//! It accepts `!=`, `<:`, `if then else`, arithmetic, map selections and updates, and
//! `old`. A negative trigger `{:nopats e}` takes exactly one expression, which obeys the
//! same rules except the last two.
//!
//! The term rules look only at the syntax; mentions are looked up by name, which is exact
//! because a trigger that passes the term rules contains no binder, so a name of one of
//! the quantifier's variables refers to that variable.

use super::error::SemaError;
use super::expr::Scope;
use super::hir;
use super::Checker;
use crate::source::Span;
use crate::syntax::ast;
use std::collections::BTreeSet;

impl Checker {
    /// Checks the triggers and `{:nopats}` attributes of a quantifier whose variables
    /// `vars` are in `scope`; `vars_bound` says they bound without errors.
    #[inline(never)]
    pub(super) fn triggers(
        &mut self,
        scope: &mut Scope,
        quantifier: ast::Quantifier,
        vars: &[hir::BoundVar],
        vars_bound: bool,
        triggers: &[ast::Trigger],
        attrs: &[ast::Attribute],
    ) -> Vec<Vec<hir::Expr>> {
        if quantifier == ast::Quantifier::Lambda {
            // Not resolved either: the whole trigger is the mistake.
            self.reject_lambda_triggers(triggers, attrs);
            return Vec::new();
        }
        let mut checked = Vec::with_capacity(triggers.len());
        for trigger in triggers {
            let before = self.errors.len();
            // The term rules first, so that their error comes before any type error at
            // the same place.
            self.check_trigger_terms(&trigger.exprs);
            checked.push(self.exprs(scope, &trigger.exprs));
            if vars_bound && self.errors.len() == before {
                self.check_trigger_mentions(vars, trigger);
            }
        }
        self.check_negative_triggers(attrs);
        checked
    }

    /// Checks the terms of one trigger.
    fn check_trigger_terms(&mut self, exprs: &[ast::Expr]) {
        for expr in exprs {
            if let ast::ExprKind::Var(name) = &expr.kind {
                self.error(SemaError::TriggerBareVar { name: name.name.clone(), span: expr.span });
            } else {
                self.forbidden_in_trigger(expr);
            }
        }
    }

    /// Reports the outermost forbidden subexpressions of a trigger term (not those inside
    /// them, which would repeat the same mistake). Explicit stack: terms may be as deep
    /// as the parser allows.
    fn forbidden_in_trigger(&mut self, expr: &ast::Expr) {
        let mut pending = vec![expr];
        while let Some(expr) = pending.pop() {
            match forbidden_construct(&expr.kind) {
                Some(construct) => self.error(SemaError::NotInTrigger { construct, span: expr.span }),
                None => expr.kind.for_each_child(&mut |child| pending.push(child)),
            }
        }
    }

    /// Reports the variables of `vars` that `trigger` does not mention. Call it only for
    /// a trigger whose terms obey the rules and resolved without errors: otherwise a
    /// missing mention is a consequence of an error already reported.
    fn check_trigger_mentions(&mut self, vars: &[hir::BoundVar], trigger: &ast::Trigger) {
        let mut mentioned = BTreeSet::new();
        let mut pending: Vec<&ast::Expr> = trigger.exprs.iter().collect();
        while let Some(expr) = pending.pop() {
            if let ast::ExprKind::Var(name) = &expr.kind {
                mentioned.insert(name.name.as_str());
            }
            expr.kind.for_each_child(&mut |child| pending.push(child));
        }
        let missing: Vec<(String, Span)> = vars
            .iter()
            .filter_map(|var| var.name.as_ref().map(|name| (name, var.span)))
            .filter(|(name, _)| !mentioned.contains(name.as_str()))
            .map(|(name, span)| (name.clone(), span))
            .collect();
        if !missing.is_empty() {
            self.error(SemaError::TriggerMissingVars { span: trigger.span, missing });
        }
    }

    /// Checks the negative triggers `{:nopats e}` among a quantifier's attributes: Boogie
    /// wants exactly one expression in each, and applies the term rules to it, but it
    /// need not mention the bound variables.
    fn check_negative_triggers(&mut self, attrs: &[ast::Attribute]) {
        for attr in attrs.iter().filter(|attr| attr.name.name == NOPATS) {
            match attr.args.as_slice() {
                [ast::AttrArg::Expr(expr)] => self.check_trigger_terms(std::slice::from_ref(expr)),
                _ => self.error(SemaError::NopatsArgs { span: attr.span }),
            }
        }
    }

    /// A `lambda` takes no triggers, positive or negative.
    fn reject_lambda_triggers(&mut self, triggers: &[ast::Trigger], attrs: &[ast::Attribute]) {
        for trigger in triggers {
            self.error(SemaError::TriggerOnLambda { span: trigger.span });
        }
        for attr in attrs.iter().filter(|attr| attr.name.name == NOPATS) {
            self.error(SemaError::TriggerOnLambda { span: attr.span });
        }
    }
}

/// The attribute Boogie reads as a negative trigger.
const NOPATS: &str = "nopats";

/// The construct, as written, if Boogie forbids it in a trigger.
fn forbidden_construct(kind: &ast::ExprKind) -> Option<&'static str> {
    match kind {
        ast::ExprKind::Unary { op: ast::UnaryOp::Not, .. } => Some("!"),
        ast::ExprKind::Binary { op, .. } => match op {
            ast::BinaryOp::Iff
            | ast::BinaryOp::Implies
            | ast::BinaryOp::Explies
            | ast::BinaryOp::And
            | ast::BinaryOp::Or
            | ast::BinaryOp::Eq
            | ast::BinaryOp::Lt
            | ast::BinaryOp::Le
            | ast::BinaryOp::Gt
            | ast::BinaryOp::Ge => Some(op.symbol()),
            // Boogie accepts `!=` and `<:` in triggers, surprisingly, so seedgen does too.
            ast::BinaryOp::Neq
            | ast::BinaryOp::Subtype
            | ast::BinaryOp::Add
            | ast::BinaryOp::Sub
            | ast::BinaryOp::Mul
            | ast::BinaryOp::Div
            | ast::BinaryOp::Mod
            | ast::BinaryOp::Concat
            | ast::BinaryOp::RealDiv
            | ast::BinaryOp::Power => None,
        },
        ast::ExprKind::Quant { quantifier, .. } => Some(match quantifier {
            ast::Quantifier::Forall => "forall",
            ast::Quantifier::Exists => "exists",
            ast::Quantifier::Lambda => "lambda",
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::error_count;

    const DECLS: &str = "function f(int): int; function g(int, int): int; function P(int): bool; \
                         const c: int; const m: [int]int;";

    fn with_decls(axiom: &str) -> String {
        format!("{DECLS} {axiom}")
    }

    #[test]
    fn triggers_of_function_applications_selections_and_arithmetic_are_accepted() {
        accepts!(&with_decls("axiom (forall x: int :: { f(x) + 1 } f(x) > 0);"));
        accepts!(&with_decls("axiom (forall x: int :: { m[x] } m[x] > 0);"));
        accepts!(&with_decls("axiom (forall x: int :: { m[x := 1] } { -x } { x * 2 div 3 mod 4 - 1 } P(x));"));
        accepts!(&with_decls("axiom (forall x: int, y: int :: { g(x, y) } g(x, y) > 0);"));
        accepts!(&with_decls("axiom (forall x: int, y: int :: { f(x), f(y) } g(x, y) > 0);"));
        accepts!(&with_decls("axiom (exists x: int :: { f(x) } {:weight 2} P(x));"));
        accepts!("var G: [int]int; procedure Q() { assert (forall x: int :: { old(G[x]) } G[x] > 0); }");
    }

    #[test]
    fn boogie_accepts_disequality_and_if_then_else_in_triggers() {
        accepts!(&with_decls("axiom (forall x: int :: { f(x) != 3 } P(x));"));
        accepts!(&with_decls("axiom (forall x: int :: { f(if P(x) then 1 else 2) } P(x));"));
    }

    #[test]
    fn a_trigger_must_mention_every_bound_variable() {
        let source = with_decls("axiom (forall x: int, y: int :: { f(x) } f(x) + y == y + f(x));");
        rejects!(&source, "trigger does not mention bound variable `y`");
        rejects!(&source, "`y` bound here");
        rejects!(&with_decls("axiom (forall x: int :: { f(1) } P(x));"), "does not mention bound variable `x`");
        rejects!(
            &with_decls("axiom (forall x: int, y: int, z: int :: { f(1) } P(x));"),
            "does not mention bound variables `x`, `y` and `z`"
        );
        // Each trigger on its own: two triggers that together cover both are two errors.
        assert_eq!(error_count(&with_decls("axiom (forall x: int, y: int :: { f(x) } { f(y) } g(x, y) > 0);")), 2);
        // Only the trigger's own quantifier counts.
        accepts!(&with_decls("axiom (forall x: int :: (exists y: int :: { f(y) } P(y)));"));
        rejects!(&with_decls("axiom (forall x: int :: (exists y: int :: { f(x) } P(y)));"), "variable `y`");
    }

    #[test]
    fn a_trigger_term_cannot_be_a_bare_variable() {
        rejects!(&with_decls("axiom (forall x: int :: { x } x < x + 1);"), "cannot be the variable `x` by itself");
        rejects!(&with_decls("axiom (forall x: int :: { f(x), c } P(x));"), "the variable `c` by itself");
        rejects!("procedure Q() { var l: int; assert (forall x: int :: { l } x > l); }", "`l` by itself");
        // The bare variable is the one mistake: no "does not mention" on top.
        assert_eq!(error_count(&with_decls("axiom (forall x: int :: { f(1), c } P(x));")), 1);
    }

    #[test]
    fn connectives_comparisons_and_binders_are_not_allowed_in_triggers() {
        rejects!(
            &with_decls("axiom (forall x: int :: { P(x) && P(x + 1) } P(x));"),
            "`&&` is not allowed in a trigger"
        );
        for op in ["||", "==>", "<==", "<==>"] {
            let axiom = format!("axiom (forall x: int :: {{ P(x) {op} P(x) }} P(x));");
            rejects!(&with_decls(&axiom), &format!("`{op}` is not allowed in a trigger"));
        }
        rejects!(&with_decls("axiom (forall x: int :: { !P(x) } P(x));"), "`!` is not allowed");
        for op in ["==", "<", "<=", ">", ">="] {
            let axiom = format!("axiom (forall x: int :: {{ f(x) {op} 3 }} P(x));");
            rejects!(&with_decls(&axiom), &format!("`{op}` is not allowed in a trigger"));
        }
        rejects!(&with_decls("axiom (forall x: int :: { P(x == 1) } P(x));"), "`==` is not allowed");
        rejects!(&with_decls("axiom (forall x: int :: { f((exists y: int :: P(y))) } P(x));"), "`exists` is not");
        rejects!(&with_decls("axiom (forall x: int :: { (lambda y: int :: y)[x] } P(x));"), "`lambda` is not");
        // The outermost offence only, and no missing mention on top of it.
        assert_eq!(error_count(&with_decls("axiom (forall x: int :: { P(1) && f(1) == 2 } P(x));")), 1);
    }

    #[test]
    fn negative_triggers_obey_the_term_rules_only() {
        accepts!(&with_decls("axiom (forall x: int :: {:nopats f(1)} P(x));"));
        rejects!(&with_decls("axiom (forall x: int :: {:nopats x} P(x));"), "the variable `x` by itself");
        rejects!(&with_decls("axiom (forall x: int :: {:nopats P(x) && P(x)} P(x));"), "`&&` is not allowed");
        accepts!(&with_decls("axiom (forall x: int :: {:nopats f(x)} {:nopats f(1)} { f(x) } P(x));"));
        let message = "`{:nopats}` takes exactly one expression";
        rejects!(&with_decls("axiom (forall x: int :: {:nopats f(x), f(1)} P(x));"), message);
        rejects!(&with_decls("axiom (forall x: int :: {:nopats} P(x));"), message);
        rejects!(&with_decls("axiom (forall x: int :: {:nopats \"f\"} P(x));"), message);
    }

    #[test]
    fn a_lambda_has_no_triggers() {
        rejects!(
            &with_decls("axiom m == (lambda x: int :: { f(x) } f(x));"),
            "`lambda` expressions cannot have triggers"
        );
        rejects!(&with_decls("axiom m == (lambda x: int :: {:nopats f(x)} f(x));"), "cannot have triggers");
        accepts!(&with_decls("axiom m == (lambda x: int :: {:weight 1} f(x));"));
    }

    #[test]
    fn a_trigger_that_fails_to_resolve_is_not_also_missing_a_variable() {
        assert_eq!(error_count(&with_decls("axiom (forall x: int :: { h(x) } P(x));")), 1);
        assert_eq!(error_count(&with_decls("axiom (forall x: int, x: int :: { f(x) } P(x));")), 1);
    }
}
