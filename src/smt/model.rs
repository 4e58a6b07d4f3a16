//! z3 models → [`vc::Model`]s.
//!
//! Input: a z3 model of an [`Encoding`]'s assertions (plus a query), and the z3 image of
//! its arena. Output: a solver-independent [`Model`]: the executed path (from `%exec@B`
//! and `%take@P@S`), the entry values, the choice trace along the path, and the tables
//! of body-less functions. Values are read with model completion, so an input the
//! solver left unconstrained still gets a (default) value.
//!
//! Value decoding: integers from z3 numerals (`5`, `(- 5)`) into `BigInt`s; elements of
//! an uninterpreted sort as their position in the model's universe of that sort; maps
//! (curried, see [`super::translate`]) from `(store … ((as const …) d) …)` chains and
//! `(_ as-array f)` with `f`'s function table; anything else (a lambda the model kept
//! symbolic, a function `else` that is not a value) as [`Value::Opaque`] with z3's text.

use super::translate::Z3Terms;
use crate::cfg::BlockId;
use crate::sema::hir::{FunctionId, TypeId};
use crate::vc::model::{self, ChoicePoint};
use crate::vc::{Assignment, Choice, Encoding, FunctionModel, MapValue, Model, Sort, SymbolId, TermId, Value};
use num_bigint::BigInt;
use std::collections::BTreeMap;
use z3::ast::{Ast, Dynamic};
use z3::{AstKind, DeclKind};

/// Decodes `model` (satisfying the encoding) into a [`Model`]; `stop` is the failing
/// check `(block, step)` of a failure query.
pub(super) fn decode(encoding: &Encoding, image: &Z3Terms, model: &z3::Model, stop: Option<(BlockId, usize)>) -> Model {
    let mut decoder = Decoder { encoding, image, model, universes: BTreeMap::new() };
    let executed: Vec<bool> = encoding.blocks.iter().map(|block| decoder.truth(block.exec)).collect();
    let taken: Vec<bool> = encoding.edges.iter().map(|edge| decoder.truth(edge.take)).collect();
    let path = model::executed_path(encoding, &executed, &taken);
    let entry = model::entry_inputs(encoding).map(|input| decoder.assignment(input)).collect();
    let choices = model::choice_points(encoding, &path, stop)
        .into_iter()
        .map(|point| match point {
            ChoicePoint::Input(input) => Choice::Value(decoder.assignment(input)),
            ChoicePoint::Goto { from, to } => Choice::Goto { from, to },
        })
        .collect();
    let functions =
        encoding.functions.iter().filter_map(|&(function, symbol)| decoder.function(function, symbol)).collect();
    Model { path, entry, choices, functions }
}

struct Decoder<'a> {
    encoding: &'a Encoding,
    image: &'a Z3Terms,
    model: &'a z3::Model,
    /// The elements of each uninterpreted sort in this model, in z3's order.
    universes: BTreeMap<TypeId, Vec<Dynamic>>,
}

impl Decoder<'_> {
    fn eval(&self, term: TermId) -> Dynamic {
        self.model.eval(self.image.ast(term), true).expect("model completion evaluates every term")
    }

    fn truth(&self, term: TermId) -> bool {
        self.eval(term).as_bool().and_then(|value| value.as_bool()).unwrap_or(false)
    }

    fn assignment(&mut self, input: usize) -> Assignment {
        let declared = &self.encoding.inputs[input];
        let value = self.eval(declared.term);
        let value = self.value(&value, self.encoding.terms.sort(declared.term));
        Assignment { input, kind: declared.kind.clone(), value }
    }

    fn value(&mut self, ast: &Dynamic, sort: &Sort) -> Value {
        let decoded = match sort {
            Sort::Bool => ast.as_bool().and_then(|value| value.as_bool()).map(Value::Bool),
            Sort::Int => integer(ast).map(Value::Int),
            Sort::Named(ty) => self.element(*ty, ast),
            Sort::Array(array) => {
                let (key_sort, value_sort) = match &array.domain[..] {
                    [key] => (key.clone(), array.range.clone()),
                    [key, rest @ ..] => (key.clone(), Sort::array(rest.to_vec(), array.range.clone())),
                    [] => panic!("a map has at least one index"),
                };
                self.map(ast, &key_sort, &value_sort).map(Value::Map)
            }
        };
        decoded.unwrap_or_else(|| Value::Opaque(ast.to_string()))
    }

    fn element(&mut self, ty: TypeId, ast: &Dynamic) -> Option<Value> {
        let model = self.model;
        let universe = self.universes.entry(ty).or_insert_with(|| {
            model.get_sort_universe(&ast.get_sort()).map(|elements| elements.to_vec()).unwrap_or_default()
        });
        let index = universe.iter().position(|element| element.ast_eq(ast))?;
        Some(Value::Elem { ty, index: u32::try_from(index).expect("fewer than 2^32 elements") })
    }

    /// A (curried, one-index) map value: a `store` chain over a constant array or an
    /// `as-array`.
    fn map(&mut self, ast: &Dynamic, key_sort: &Sort, value_sort: &Sort) -> Option<MapValue> {
        let mut stores = Vec::new();
        let mut base = ast.clone();
        while decl_kind(&base) == Some(DeclKind::Store) {
            let children = base.children();
            stores.push((children[1].clone(), children[2].clone()));
            base = children[0].clone();
        }
        let (mut entries, default) = match decl_kind(&base) {
            Some(DeclKind::ConstArray) => (Vec::new(), self.value(&base.children()[0], value_sort)),
            Some(DeclKind::AsArray) => {
                let function = base.as_array()?.as_array_func_decl()?;
                let table = self.model.get_func_interp(&function)?;
                let entries = table
                    .get_entries()
                    .iter()
                    .map(|entry| (self.value(&entry.get_args()[0], key_sort), self.value(&entry.get_value(), value_sort)))
                    .collect();
                (entries, self.value(&table.get_else()?, value_sort))
            }
            _ => return None,
        };
        // The outermost store wins: apply the innermost first.
        for (key, value) in stores.iter().rev() {
            entries.push((self.value(key, key_sort), self.value(value, value_sort)));
        }
        Some(MapValue::new(entries, default))
    }

    /// The table of a body-less function, if the model interprets it.
    fn function(&mut self, function: FunctionId, symbol: SymbolId) -> Option<FunctionModel> {
        let declared = self.encoding.terms.symbol(symbol);
        let decl = self.image.decl(symbol);
        if !self.model.has_interp(decl) {
            return None;
        }
        if declared.domain.is_empty() {
            let value = self.model.eval(&decl.apply(&[]), true)?;
            let default = self.value(&value, &declared.range);
            return Some(FunctionModel { function, entries: Vec::new(), default });
        }
        let table = self.model.get_func_interp(decl)?;
        let mut entries: Vec<(Vec<Value>, Value)> = table
            .get_entries()
            .iter()
            .map(|entry| {
                let args = entry.get_args().iter().zip(&declared.domain).map(|(arg, sort)| self.value(arg, sort)).collect();
                (args, self.value(&entry.get_value(), &declared.range))
            })
            .collect();
        let default = match table.get_else() {
            Some(value) => self.value(&value, &declared.range),
            None => Value::Opaque("unspecified".to_string()),
        };
        entries.retain(|(_, value)| value != &default);
        entries.sort();
        entries.dedup_by(|later, earlier| later.0 == earlier.0);
        Some(FunctionModel { function, entries, default })
    }
}

fn decl_kind(ast: &Dynamic) -> Option<DeclKind> {
    if ast.kind() != AstKind::App {
        return None;
    }
    ast.safe_decl().ok().map(|decl| decl.kind())
}

/// A z3 integer numeral (`5` or `(- 5)`) as a `BigInt`.
fn integer(ast: &Dynamic) -> Option<BigInt> {
    let text = ast.as_int()?.to_string();
    match text.strip_prefix("(- ").and_then(|rest| rest.strip_suffix(')')) {
        Some(magnitude) => magnitude.parse::<BigInt>().ok().map(|value| -value),
        None => text.parse::<BigInt>().ok(),
    }
}
