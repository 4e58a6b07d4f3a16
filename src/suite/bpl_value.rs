//! A suite's values as Boogie expressions, both ways (`docs/suite-format.md`, "Values
//! in the Boogie form"): [`Printer::expr`] writes the JSON of a value (the table in
//! "Values") as the Boogie expression a person reads, [`Elements::value`] reads such an
//! expression back into exactly that JSON.
//!
//! | value | Boogie |
//! |---|---|
//! | `int`, `bool` | a literal: `-5`, `true` |
//! | `real` | a decimal literal, `-3.5`, or a quotient of two, `(1.0 / 3.0)` |
//! | bit-vector | a literal: `255bv8` |
//! | element `n` of `T` | the constant `T#n`, which the suite declares |
//! | map | a lambda over its indices: `(lambda i: int :: if i == 3 then 7 else 0)` |
//!
//! A new kind of value is one arm in each direction: in [`Printer::expr`] (its JSON shape
//! → its Boogie text, and in [`Ty::of_value`] its type when no declaration gives one)
//! and in [`Elements::value`] (its expression → its JSON). A value with no Boogie
//! expression (a solver's text the decoder could not show as a table) gets `None` from
//! the printer; the Boogie form then writes it as a string holding its JSON.
//!
//! Maps are lambdas, not update chains or pointwise facts: Boogie has no map literal,
//! and a lambda is the one expression that states a whole map (entries and default)
//! where any value may stand — after `==` in an `assume` or `assert`, as an argument of
//! an attribute, inside another map. A map of several indices (`[int, int]int`, curried
//! in JSON) binds them all and tests them index by index, innermost in parentheses.
//!
//! The one place a map is not a lambda is one instance of a polymorphic map (`Heap<int>`
//! of a heap `<a>[ref, Field a]a`): no lambda stands for a polymorphic map (Boogie's
//! lambdas are not polymorphic), so [`Printer::pointwise`] states the instance's values
//! at its indices, `(forall i: ref, j: Field int :: Heap[i, j] == …)`, the same body a
//! lambda would have; [`Elements::pointwise`] reads it back.
//!
//! Reading needs no program: a lambda's bound variables are recognised by position, and
//! an element by the suite's declaration of its constant.

use super::load::LoadError;
use crate::sema::hir;
use crate::source::Span;
use crate::syntax::{ast, printer};
use num_bigint::{BigInt, BigUint};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

/// A value's type, as far as the Boogie form needs it: to declare the test's locals, a
/// lambda's bound variables and a function default's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    Int,
    Bool,
    Real,
    BitVector(u32),
    /// An uninterpreted type applied to its arguments, or a type parameter (no arguments).
    Named(String, Vec<Ty>),
    /// A map type, polymorphic when it binds `type_params` (`<a>[ref, Field a]a`).
    Map {
        type_params: Vec<String>,
        domain: Vec<Ty>,
        range: Box<Ty>,
    },
}

impl Ty {
    /// The type of a declaration of `program`.
    pub fn of(program: &hir::Program, ty: &hir::Type) -> Ty {
        let all = |types: &[hir::Type]| types.iter().map(|ty| Ty::of(program, ty)).collect();
        let param = |id: &hir::TypeParamId| program.type_params[id.index()].name.clone();
        match ty {
            hir::Type::Int => Ty::Int,
            hir::Type::Bool => Ty::Bool,
            hir::Type::Real => Ty::Real,
            hir::Type::BitVector(width) => Ty::BitVector(*width),
            hir::Type::Named(id, args) => Ty::Named(program.types[id.index()].name.clone(), all(args)),
            hir::Type::Param(id) => Ty::Named(param(id), Vec::new()),
            hir::Type::Map(map) => Ty::Map {
                type_params: map.type_params.iter().map(param).collect(),
                domain: all(&map.domain),
                range: Box::new(Ty::of(program, &map.range)),
            },
        }
    }

    /// The domain and range of a map type whose values are lambdas: one that binds no
    /// type parameters (Boogie's lambdas are not polymorphic).
    fn monomorphic_map(&self) -> Option<(Vec<Ty>, Ty)> {
        match self {
            Ty::Map { type_params, domain, range } if type_params.is_empty() => {
                Some((domain.clone(), (**range).clone()))
            }
            _ => None,
        }
    }

    /// A type of `value` as its JSON shows it, where no declaration says (a trace
    /// entry's value, an attribute argument: Boogie checks only that the expression is
    /// well-typed in itself). A map's indices are `int` when no entry shows them.
    pub fn of_value(value: &Value) -> Option<Ty> {
        match value {
            Value::Bool(_) => Some(Ty::Bool),
            Value::Number(_) | Value::String(_) => Some(Ty::Int),
            Value::Object(_) if real(value).is_some() => Some(Ty::Real),
            Value::Object(_) if bit_vec(value).is_some() => bit_vec(value).map(|(_, width)| Ty::BitVector(width)),
            Value::Object(_) => match (element(value), map(value)) {
                (Some((ty, _)), _) => Some(Ty::Named(ty.to_string(), Vec::new())),
                (_, Some((entries, default))) => {
                    let key = entries.first().map_or(Some(Ty::Int), |(key, _)| Ty::of_value(key))?;
                    let range = entries.first().map_or(default, |(_, value)| value);
                    Some(Ty::Map { type_params: Vec::new(), domain: vec![key], range: Box::new(Ty::of_value(range)?) })
                }
                _ => None,
            },
            Value::Null | Value::Array(_) => None,
        }
    }

    /// The type as Boogie writes it.
    pub fn text(&self) -> String {
        match self {
            Ty::Int => "int".to_string(),
            Ty::Bool => "bool".to_string(),
            Ty::Real => "real".to_string(),
            Ty::BitVector(width) => format!("bv{width}"),
            Ty::Named(name, args) if args.is_empty() && is_instance_name(name) => name.clone(),
            Ty::Named(name, args) if args.is_empty() => identifier(name),
            // An argument that is itself applied or a map is bracketed: `Field (Set int)`.
            Ty::Named(name, args) => {
                let args = args.iter().map(|arg| match arg {
                    Ty::Named(_, inner) if !inner.is_empty() => format!("({})", arg.text()),
                    Ty::Map { .. } => format!("({})", arg.text()),
                    _ => arg.text(),
                });
                format!("{} {}", identifier(name), args.collect::<Vec<_>>().join(" "))
            }
            Ty::Map { type_params, domain, range } => {
                let bound =
                    if type_params.is_empty() { String::new() } else { format!("<{}>", type_params.join(", ")) };
                let domain: Vec<String> = domain.iter().map(Ty::text).collect();
                format!("{bound}[{}]{}", domain.join(", "), range.text())
            }
        }
    }
}

/// The constant that stands for element `index` of the uninterpreted type `ty`.
pub fn element_name(ty: &str, index: u64) -> String {
    format!("{}#{index}", type_identifier(ty))
}

/// Whether a type's name is the Boogie text of an instance of a type constructor
/// (`Seq int`, `Field (Set ref)`: what [`crate::mono`] names them), not an identifier.
pub fn is_instance_name(name: &str) -> bool {
    name.contains([' ', '(', '[', '<'])
}

/// The identifier part of an element's name for a type: the type's name, with the
/// spaces and brackets of an instance's name made identifier characters (`Seq int` →
/// `Seq_int`, `Field (Seq int)` → `Field_$Seq_int$`).
fn type_identifier(ty: &str) -> String {
    if !is_instance_name(ty) {
        return ty.to_string();
    }
    ty.chars()
        .map(|c| match c {
            ' ' => '_',
            '(' | ')' => '$',
            '[' | ']' => '^',
            '<' | '>' => '`',
            ',' => '.',
            c => c,
        })
        .collect()
}

/// `(type, index)` of an element's JSON `{"type": T, "elem": n}`.
pub fn element(value: &Value) -> Option<(&str, u64)> {
    let object = value.as_object()?;
    match (object.len(), object.get("type").and_then(Value::as_str), object.get("elem").and_then(Value::as_u64)) {
        (2, Some(ty), Some(index)) => Some((ty, index)),
        _ => None,
    }
}

/// The rational of a real's JSON `{"real": "n/d"}`.
fn real(value: &Value) -> Option<num_rational::BigRational> {
    let object = value.as_object()?;
    (object.len() == 1).then_some(())?;
    object.get("real")?.as_str()?.parse().ok()
}

/// The value and width of a bit-vector's JSON `{"bv": "digits", "width": w}`.
fn bit_vec(value: &Value) -> Option<(BigUint, u32)> {
    let object = value.as_object()?;
    (object.len() == 2).then_some(())?;
    let digits: BigUint = object.get("bv")?.as_str()?.parse().ok()?;
    let width = u32::try_from(object.get("width")?.as_u64()?).ok()?;
    (digits.bits() <= u64::from(width)).then_some((digits, width))
}

/// The entries and default of a map's JSON `{"entries": [[k, v], …], "default": d}`.
fn map(value: &Value) -> Option<(Vec<(&Value, &Value)>, &Value)> {
    let object = value.as_object()?;
    let (Some(entries), Some(default), 2) = (object.get("entries"), object.get("default"), object.len()) else {
        return None;
    };
    let pairs = entries.as_array()?.iter().map(|entry| match entry.as_array().map(Vec::as_slice) {
        Some([key, value]) => Some((key, value)),
        _ => None,
    });
    Some((pairs.collect::<Option<Vec<_>>>()?, default))
}

/// Every element that `value` holds, however deep, into `found`.
pub fn collect_elements(value: &Value, found: &mut BTreeSet<(String, u64)>) {
    if let Some((ty, index)) = element(value) {
        found.insert((ty.to_string(), index));
        return;
    }
    match value {
        Value::Array(items) => items.iter().for_each(|item| collect_elements(item, found)),
        Value::Object(object) => object.values().for_each(|item| collect_elements(item, found)),
        _ => {}
    }
}

/// The Boogie literal that reads back as exactly `value`, if there is one: booleans and
/// integers (beyond 64 bits the suite keeps an integer as a string of digits, and
/// reading a literal that large gives that string back), reals (a decimal literal or a
/// quotient of two) and bit-vectors.
pub fn literal(value: &Value) -> Option<String> {
    if let Some(rational) = real(value) {
        return Some(crate::cfg::print::decimal_text(&rational));
    }
    if let Some((digits, width)) = bit_vec(value) {
        return Some(format!("{digits}bv{width}"));
    }
    match value {
        Value::Bool(value) => Some(value.to_string()),
        Value::Number(number) => number.as_i64().map(|value| value.to_string()),
        Value::String(digits) => {
            let parsed: BigInt = digits.parse().ok()?;
            (i64::try_from(&parsed).is_err() && parsed.to_string() == *digits).then(|| digits.clone())
        }
        Value::Null | Value::Array(_) | Value::Object(_) => None,
    }
}

/// Writes values inside one test procedure, whose locals a bound variable must not be
/// named like (Boogie rejects a bound variable that hides a local).
pub struct Printer<'a> {
    pub locals: &'a BTreeSet<String>,
}

/// A bound variable's name: `i`, `j`, `k`, … then `i1`, `j1`, …
fn bound_name(index: usize) -> String {
    const LETTERS: [&str; 6] = ["i", "j", "k", "l", "m", "n"];
    match index / LETTERS.len() {
        0 => LETTERS[index].to_string(),
        round => format!("{}{round}", LETTERS[index % LETTERS.len()]),
    }
}

impl Printer<'_> {
    /// `count` names for bound variables, after the `taken` first ones of the lambdas
    /// around them (so that nested lambdas read apart), none a local of the test.
    pub fn bound_names(&self, taken: usize, count: usize) -> Vec<String> {
        (0..).map(bound_name).filter(|name| !self.locals.contains(name)).skip(taken).take(count).collect()
    }

    /// The Boogie expression of `value`, of type `ty` when a declaration says; `None`
    /// when the value has none.
    pub fn expr(&self, value: &Value, ty: Option<&Ty>) -> Option<String> {
        self.nested(value, ty, 0)
    }

    /// [`Printer::expr`] inside `depth` bound variables of enclosing lambdas.
    fn nested(&self, value: &Value, ty: Option<&Ty>, depth: usize) -> Option<String> {
        if let Some(literal) = literal(value) {
            return Some(literal);
        }
        if let Some((ty, index)) = element(value) {
            return Some(identifier(&element_name(ty, index)));
        }
        map(value)?;
        let declared = ty.and_then(Ty::monomorphic_map);
        let inferred = || Ty::of_value(value)?.monomorphic_map();
        let (domain, range) = declared.or_else(inferred)?;
        let names = self.bound_names(depth, domain.len());
        let level = Level { printer: self, names: &names, domain: &domain, range: &range, depth: depth + names.len() };
        Some(format!("(lambda {} :: {})", level.binders(), level.body(value, 0)?))
    }

    /// `(forall i: ref, j: Field int :: Heap[i, j] == v)`: the map `value`, of the
    /// monomorphic map type `ty`, stated index by index as the values of `variable` at
    /// those indices. That is how a value of one instance of a polymorphic map (`Heap<int>`
    /// of `Heap: <a>[ref, Field a]a`) is written in the program as written, where no
    /// lambda can stand for the polymorphic map. `None` when the value has no expression.
    pub fn pointwise(&self, variable: &str, value: &Value, ty: &Ty) -> Option<String> {
        map(value)?;
        let (domain, range) = ty.monomorphic_map()?;
        let names = self.bound_names(0, domain.len());
        let level = Level { printer: self, names: &names, domain: &domain, range: &range, depth: names.len() };
        let body = level.inner(value, 0)?;
        Some(format!("(forall {} :: {}[{}] == {body})", level.binders(), identifier(variable), names.join(", ")))
    }
}

/// The body of a lambda over `names` (of types `domain`), one index at a time.
struct Level<'a> {
    printer: &'a Printer<'a>,
    names: &'a [String],
    domain: &'a [Ty],
    range: &'a Ty,
    /// Bound variables in scope, the lambda's own included.
    depth: usize,
}

impl Level<'_> {
    /// `i: K1, j: K2`: the bound variables with their types.
    fn binders(&self) -> String {
        let bound: Vec<String> =
            self.names.iter().zip(self.domain).map(|(name, key)| format!("{name}: {}", key.text())).collect();
        bound.join(", ")
    }

    /// `if i == k1 then v1 else if i == k2 then v2 else d` for the map `value` at index
    /// `at`; past the last index, the value itself.
    fn body(&self, value: &Value, at: usize) -> Option<String> {
        if at == self.names.len() {
            return self.printer.nested(value, Some(self.range), self.depth);
        }
        let (entries, default) = map(value)?;
        let mut text = String::new();
        for (key, entry) in entries {
            let key = self.printer.nested(key, Some(&self.domain[at]), self.depth)?;
            let entry = self.inner(entry, at + 1)?;
            text.push_str(&format!("if {} == {key} then {entry} else ", self.names[at]));
        }
        text.push_str(&self.inner(default, at + 1)?);
        Some(text)
    }

    /// [`Level::body`] at index `at`, in parentheses when it tests an index.
    fn inner(&self, value: &Value, at: usize) -> Option<String> {
        let body = self.body(value, at)?;
        let tests_an_index = at < self.names.len() && map(value).is_some_and(|(entries, _)| !entries.is_empty());
        Some(if tests_an_index { format!("({body})") } else { body })
    }
}

/// A name as Boogie reads it back (a backslash before a keyword).
pub fn identifier(name: &str) -> String {
    let var = ast::ExprKind::Var(ast::Ident { name: name.to_string(), span: Span::default() });
    printer::print_expr(&ast::Expr { kind: var, span: Span::default() })
}

// ---------------------------------------------------------------------------------------
// Reading

type Read<T> = Result<T, LoadError>;

fn error(span: Span, message: impl Into<String>) -> LoadError {
    LoadError { message: message.into(), location: String::new(), span: Some(span.range()) }
}

/// The elements a suite declares (`const T#n: T;`), by the constant's name.
#[derive(Clone, Debug, Default)]
pub struct Elements {
    by_name: BTreeMap<String, (String, u64)>,
}

impl Elements {
    /// Records the constant `name: ty` of an element declaration, or says why it is
    /// none: its name is its type's, `#` and the element's number.
    pub fn declare(&mut self, name: &ast::Ident, ty: &ast::Type) -> Read<()> {
        let ast::TypeKind::Named { .. } = &ty.kind else {
            return Err(error(ty.span, "an element is a constant of an uninterpreted type"));
        };
        // An instance of a constructor (`Seq int`) is named as Boogie writes the type.
        let type_name = printer::print_type(ty);
        let number = name.name.strip_prefix(&format!("{}#", type_identifier(&type_name)));
        let index = number.filter(|digits| digits.bytes().all(|byte| byte.is_ascii_digit())).and_then(|digits| {
            digits.parse::<u64>().ok().filter(|index| element_name(&type_name, *index) == name.name)
        });
        let index = index.ok_or_else(|| {
            let shown = element_name(&type_name, 0);
            error(
                name.span,
                format!(
                    "an element of `{type_name}` is named `{}#` and its number, e.g. `{shown}`",
                    type_identifier(&type_name)
                ),
            )
        })?;
        if self.by_name.insert(name.name.clone(), (type_name, index)).is_some() {
            return Err(error(name.span, format!("`{}` is declared twice", name.name)));
        }
        Ok(())
    }

    /// Whether `name` is a declared element.
    pub fn contains(&self, name: &str) -> bool {
        self.by_name.contains_key(name)
    }

    /// The JSON of the value `expr` states, as [`Printer::expr`] writes it.
    pub fn value(&self, expr: &ast::Expr) -> Read<Value> {
        match &expr.kind {
            ast::ExprKind::Bool(value) => Ok(Value::Bool(*value)),
            ast::ExprKind::Int(magnitude) => Ok(integer(magnitude, false)),
            ast::ExprKind::Unary { op: ast::UnaryOp::Neg, operand } => match &operand.kind {
                ast::ExprKind::Int(magnitude) => Ok(integer(magnitude, true)),
                ast::ExprKind::Real(_) | ast::ExprKind::Binary { op: ast::BinaryOp::RealDiv, .. } => {
                    Ok(real_json(-real_expr(operand)?))
                }
                _ => Err(not_a_value(expr.span)),
            },
            ast::ExprKind::Real(_) | ast::ExprKind::Binary { op: ast::BinaryOp::RealDiv, .. } => {
                Ok(real_json(real_expr(expr)?))
            }
            ast::ExprKind::BitVector { value, width } => Ok(json!({"bv": value.to_string(), "width": width})),
            ast::ExprKind::Var(name) => match self.by_name.get(&name.name) {
                Some((ty, index)) => Ok(json!({"type": ty, "elem": index})),
                None => Err(error(
                    name.span,
                    format!("`{}` is not an element the suite declares (`const {}: T;`)", name.name, name.name),
                )),
            },
            ast::ExprKind::Quant { quantifier: ast::Quantifier::Lambda, type_params, vars, attrs, triggers, body }
                if type_params.is_empty() && attrs.is_empty() && triggers.is_empty() =>
            {
                let names: Vec<&str> =
                    vars.iter().flat_map(|group| &group.names).map(|name| name.name.as_str()).collect();
                self.level(body, &names)
            }
            _ => Err(not_a_value(expr.span)),
        }
    }

    /// The variable and the map that a [`Printer::pointwise`] statement `(forall i: K1,
    /// … :: m[i, …] == body)` states: `m` selected at the bound variables in order.
    pub fn pointwise<'e>(&self, expr: &'e ast::Expr) -> Read<(&'e ast::Ident, Value)> {
        let shape = "expected a map stated index by index: `(forall i: K1, j: K2 :: m[i, j] == value)`";
        let ast::ExprKind::Quant { quantifier: ast::Quantifier::Forall, type_params, vars, attrs, triggers, body } =
            &expr.kind
        else {
            return Err(error(expr.span, shape));
        };
        if !type_params.is_empty() || !attrs.is_empty() || !triggers.is_empty() {
            return Err(error(expr.span, shape));
        }
        let names: Vec<&str> = vars.iter().flat_map(|group| &group.names).map(|name| name.name.as_str()).collect();
        let ast::ExprKind::Binary { op: ast::BinaryOp::Eq, lhs, rhs } = &body.kind else {
            return Err(error(body.span, shape));
        };
        let ast::ExprKind::Select { map, indices } = &lhs.kind else { return Err(error(lhs.span, shape)) };
        let ast::ExprKind::Var(variable) = &map.kind else { return Err(error(map.span, shape)) };
        let at_bound = indices.iter().map(|index| match &index.kind {
            ast::ExprKind::Var(name) => Some(name.name.as_str()),
            _ => None,
        });
        if at_bound.collect::<Vec<_>>() != names.iter().map(|name| Some(*name)).collect::<Vec<_>>() {
            return Err(error(lhs.span, "a map stated index by index is selected at its bound variables, in order"));
        }
        Ok((variable, self.level(rhs, &names)?))
    }

    /// The map a lambda's `body` states over the bound variables `names`, curried.
    fn level(&self, body: &ast::Expr, names: &[&str]) -> Read<Value> {
        let Some((index, inner)) = names.split_first() else { return self.value(body) };
        let mut entries = Vec::new();
        let mut rest = body;
        while let ast::ExprKind::IfThenElse { cond, then_expr, else_expr } = &rest.kind {
            let ast::ExprKind::Binary { op: ast::BinaryOp::Eq, lhs, rhs } = &cond.kind else { break };
            if !matches!(&lhs.kind, ast::ExprKind::Var(tested) if tested.name == *index) {
                break;
            }
            entries.push(json!([self.value(rhs)?, self.level(then_expr, inner)?]));
            rest = else_expr;
        }
        Ok(json!({"entries": entries, "default": self.level(rest, inner)?}))
    }
}

fn real_json(value: num_rational::BigRational) -> Value {
    json!({"real": value.to_string()})
}

/// The rational a real literal, or a quotient of two as [`literal`] writes it (the
/// numerator possibly negated), states.
fn real_expr(expr: &ast::Expr) -> Read<num_rational::BigRational> {
    let decimal = |expr: &ast::Expr| match &expr.kind {
        ast::ExprKind::Real(text) => crate::sema::decimal_value(text).ok_or_else(|| not_a_value(expr.span)),
        _ => Err(not_a_value(expr.span)),
    };
    match &expr.kind {
        ast::ExprKind::Binary { op: ast::BinaryOp::RealDiv, lhs, rhs } => {
            let numerator = match &lhs.kind {
                ast::ExprKind::Unary { op: ast::UnaryOp::Neg, operand } => -decimal(operand)?,
                _ => decimal(lhs)?,
            };
            let denominator = decimal(rhs)?;
            if denominator == num_rational::BigRational::from_integer(0.into()) {
                return Err(error(rhs.span, "a real's denominator is not zero"));
            }
            Ok(numerator / denominator)
        }
        _ => decimal(expr),
    }
}

fn integer(magnitude: &BigUint, negative: bool) -> Value {
    let value = BigInt::from(magnitude.clone());
    let value = if negative { -value } else { value };
    i64::try_from(&value).map_or_else(|_| Value::String(value.to_string()), Value::from)
}

fn not_a_value(span: Span) -> LoadError {
    error(
        span,
        "expected a value: a boolean, integer, real or bit-vector literal, an element the suite declares, \
         or a map's `(lambda i: K :: if i == k then v else default)`",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FileId;

    fn read(elements: &Elements, text: &str) -> Read<Value> {
        let expr = crate::syntax::parse_expr(FileId(0), text).expect("an expression");
        elements.value(&expr)
    }

    fn elements() -> Elements {
        let mut elements = Elements::default();
        for (name, ty) in [("T#0", "T"), ("T#12", "T")] {
            let ident = ast::Ident { name: name.to_string(), span: Span::default() };
            let ty = ast::Type {
                kind: ast::TypeKind::Named {
                    name: ast::Ident { name: ty.to_string(), span: Span::default() },
                    args: Vec::new(),
                },
                span: Span::default(),
            };
            elements.declare(&ident, &ty).expect("an element");
        }
        elements
    }

    #[test]
    fn values_are_written_as_boogie_and_read_back_exactly() {
        let locals: BTreeSet<String> = ["i".to_string()].into();
        let printer = Printer { locals: &locals };
        let row = json!({"entries": [[3, true]], "default": false});
        let int_map =
            |key: Ty, range: Ty| Ty::Map { type_params: Vec::new(), domain: vec![key], range: Box::new(range) };
        let cases = [
            (json!(true), None, "true"),
            (json!(-5), None, "-5"),
            (json!("123456789012345678901234567890"), None, "123456789012345678901234567890"),
            (json!({"type": "T", "elem": 12}), None, "T#12"),
            (json!({"real": "7/2"}), None, "3.5"),
            (json!({"real": "-1/4"}), None, "-0.25"),
            (json!({"real": "3"}), None, "3.0"),
            (json!({"real": "-2/3"}), None, "(-2.0 / 3.0)"),
            (json!({"bv": "255", "width": 8}), None, "255bv8"),
            (
                json!({"entries": [[{"bv": "1", "width": 4}, {"real": "1/3"}]], "default": {"real": "0"}}),
                None,
                "(lambda j: bv4 :: if j == 1bv4 then (1.0 / 3.0) else 0.0)",
            ),
            (json!({"entries": [], "default": 0}), None, "(lambda j: int :: 0)"),
            (json!({"entries": [], "default": 0}), Some(int_map(Ty::Bool, Ty::Int)), "(lambda j: bool :: 0)"),
            (
                json!({"entries": [[-1, 7], [3, {"type": "T", "elem": 0}]], "default": 0}),
                None,
                "(lambda j: int :: if j == -1 then 7 else if j == 3 then T#0 else 0)",
            ),
            (
                json!({"entries": [[1, row]], "default": {"entries": [], "default": true}}),
                Some(Ty::Map { type_params: Vec::new(), domain: vec![Ty::Int, Ty::Int], range: Box::new(Ty::Bool) }),
                "(lambda j: int, k: int :: if j == 1 then (if k == 3 then true else false) else true)",
            ),
            (
                json!({"entries": [[1, row]], "default": row}),
                Some(int_map(Ty::Int, int_map(Ty::Int, Ty::Bool))),
                "(lambda j: int :: if j == 1 then (lambda k: int :: if k == 3 then true else false) \
                 else (lambda k: int :: if k == 3 then true else false))",
            ),
        ];
        for (value, ty, text) in cases {
            assert_eq!(printer.expr(&value, ty.as_ref()).as_deref(), Some(text), "{value}");
            assert_eq!(read(&elements(), text), Ok(value), "{text}");
        }
        for no_expression in [json!({"opaque": "x"}), json!(1.5), json!(null), json!("5"), json!({"entries": 1})] {
            assert_eq!(printer.expr(&no_expression, None), None, "{no_expression}");
        }
    }

    #[test]
    fn types_are_written_as_declared() {
        let program = crate::vc::testing::program(
            "type ref; type Field _; var m: [int, bool][ref]bv8; var h: <a>[ref, Field a]a; \
             var s: [Field (Field int)][int]real;",
        );
        let texts: Vec<String> = program.globals.iter().map(|global| Ty::of(&program, &global.ty).text()).collect();
        assert_eq!(texts, ["[int, bool][ref]bv8", "<a>[ref, Field a]a", "[Field (Field int)][int]real"]);
    }

    #[test]
    fn what_is_no_value_is_an_error_at_its_span() {
        let elements = elements();
        let cases = [
            ("U#0", "not an element the suite declares"),
            ("x + 1", "expected a value"),
            ("(lambda i: int :: if i == 1 then x else 0)", "not an element"),
            ("(forall i: int :: true)", "expected a value"),
        ];
        for (text, message) in cases {
            let error = read(&elements, text).expect_err(text);
            assert!(error.message.contains(message), "{text}: {}", error.message);
            assert!(error.span.is_some(), "{text}");
        }
    }

    #[test]
    fn element_declarations_are_checked() {
        let mut elements = Elements::default();
        let named = |name: &str| ast::Ident { name: name.to_string(), span: Span::default() };
        let ty = |name: &str| ast::Type {
            kind: ast::TypeKind::Named { name: named(name), args: Vec::new() },
            span: Span::default(),
        };
        assert!(elements.declare(&named("T#1"), &ty("T")).is_ok());
        assert!(elements.declare(&named("T#1"), &ty("T")).unwrap_err().message.contains("twice"));
        for bad in ["U#1", "T#01", "T#", "T#x", "T1"] {
            assert!(elements.declare(&named(bad), &ty("T")).unwrap_err().message.contains("named `T#`"), "{bad}");
        }
        let int = ast::Type { kind: ast::TypeKind::Int, span: Span::default() };
        assert!(elements.declare(&named("int#0"), &int).is_err());
    }
}
