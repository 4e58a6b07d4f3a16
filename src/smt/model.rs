//! z3 models → [`vc::Model`](crate::vc::Model)s.
//!
//! Input: a z3 model of an [`Encoding`]'s assertions (plus a query), and the z3 image of
//! its arena. Output: a solver-independent [`Model`]: the executed path (from `%exec@B`
//! and `%take@P@S`), the entry values, the choice trace along the path, and the tables
//! of body-less functions. Values are read with model completion, so an input the
//! solver left unconstrained still gets a (default) value.
//!
//! Value decoding: integers from z3 numerals (`5`, `(- 5)`) into `BigInt`s; reals and
//! bit-vectors from z3's exact numeral strings (`-7/2`, an unsigned value), an
//! irrational real (an algebraic number) left opaque; elements of
//! an uninterpreted sort as their position in the model's universe of that sort; maps
//! (curried, see [`super::translate`]) from `(store … ((as const …) d) …)` chains and
//! `(_ as-array f)` with `f`'s function table, and one-variable lambdas; function
//! bodies (a table's `else`, a lambda's body) when they are `ite` chains of tests
//! `(= (:var 0) k)` ending in a value, or sets (disjunctions of such tests); anything
//! else (a body computing with its variable) as [`Value::Opaque`] with z3's text.
//!
//! Without the array theory ([`super::translate::MapEncoding::Uninterpreted`]) a map is an
//! element of its level's sort, decoded from the model's table of `Select_` restricted
//! to it, the table's `else` as its default (what the model says at every other key),
//! rows of maps decoded the same way; a wished map input by its shape
//! ([`super::simple_maps`]).
//!
//! Function tables: z3's entries, plus the model's value at every argument tuple the
//! encoding applies the function to (see [`Applications`]). A function whose `else` is
//! not a constant (`grow(x) = x + 1`-like, as axioms such as `grow(x) > x` make z3 write)
//! gets the default [`Value::unspecified`]: the replay of the model's path only applies
//! the function where the encoding does, at those tuples, which the table now holds.

use super::interrupt;
use super::translate::{MapEncoding, ShapeForm, Z3Terms};
use crate::cfg::BlockId;
use crate::sema::hir::{FunctionId, TypeId};
use crate::vc::model::{self, ChoicePoint};
use crate::vc::term::{self, Term};
use crate::vc::{Assignment, Choice, Encoding, FunctionModel, MapValue, Model, Sort, SymbolId, TermId, Value};
use num_bigint::BigInt;
use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use z3::ast::{Ast, Dynamic};
use z3::{AstKind, DeclKind};

/// Decodes `model` (satisfying the encoding) into a [`Model`]; `stop` is the failing
/// check `(block, step)` of a failure query. `None` when the run's deadline cut the
/// decoding off ([`super::interrupt`]), or z3's memory bound failed an evaluation: a
/// half-read model is no test.
pub(super) fn decode(
    encoding: &Encoding,
    image: &Z3Terms,
    model: &z3::Model,
    stop: Option<(BlockId, usize)>,
) -> Option<Model> {
    let mut decoder = Decoder::new(encoding, image, model);
    decoder.window = decoder.sample_window();
    decoder.decode(stop)
}

/// [`decode`] for the model of an `unknown` answer (a candidate for replay): maps z3
/// did not write as tables stay opaque rather than being sampled, since evaluating
/// them in such a model was seen to take z3 minutes of CPU at a single key (the
/// insertion sort of corpus/sc with `--goals all --inline-depth 0`), and a candidate
/// is worth no such wait.
pub(super) fn decode_candidate(
    encoding: &Encoding,
    image: &Z3Terms,
    model: &z3::Model,
    stop: Option<(BlockId, usize)>,
) -> Option<Model> {
    Decoder::new(encoding, image, model).decode(stop)
}

impl<'a> Decoder<'a> {
    fn new(encoding: &'a Encoding, image: &'a Z3Terms, model: &'a z3::Model) -> Decoder<'a> {
        Decoder { encoding, image, model, universes: BTreeMap::new(), window: Vec::new(), cut_off: Cell::new(false) }
    }

    /// The form of the first wished shape of map input `term` whose literal holds in the
    /// model.
    fn shape(&self, term: TermId) -> Option<&'a ShapeForm> {
        let image: &'a Z3Terms = self.image;
        let holds = |literal: &z3::ast::Bool| {
            self.model.eval(literal, false).and_then(|value| value.as_bool()).unwrap_or(false)
        };
        image.shapes(term).iter().find(|shape| holds(&shape.literal)).map(|shape| &shape.form)
    }

    fn decode(mut self, stop: Option<(BlockId, usize)>) -> Option<Model> {
        let (encoding, image, model) = (self.encoding, self.image, self.model);
        let decoder = &mut self;
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
        // Which functions the model interprets is read before tabulating them: evaluating
        // with model completion may give the others an interpretation.
        let interpreted: Vec<(FunctionId, SymbolId)> =
            encoding.functions.iter().copied().filter(|&(_, symbol)| model.has_interp(image.decl(symbol))).collect();
        let applications = Applications::of(encoding);
        let functions = interpreted
            .into_iter()
            .filter_map(|(function, symbol)| decoder.function(function, symbol, applications.of_symbol(symbol)))
            .collect();
        (!self.cut_off.get()).then_some(Model { path, entry, choices, functions })
    }
}

/// The applications of each body-less function in the encoding whose arguments mention
/// no bound variable, in arena order: each has one value in a model. Every application
/// with such arguments that the replay of a model's path performs is one of them, with
/// its arguments at their execution values: the blocks before the last one hold in the
/// model, and the encoding's (A7) states the last one's assignments that apply a
/// body-less function, and those their arguments need (see [`mod@crate::vc::encode`]).
struct Applications {
    by_symbol: BTreeMap<SymbolId, Vec<TermId>>,
}

impl Applications {
    fn of(encoding: &Encoding) -> Applications {
        let terms = &encoding.terms;
        let wanted: BTreeSet<SymbolId> = encoding
            .functions
            .iter()
            .filter(|&&(_, symbol)| !terms.symbol(symbol).domain.is_empty())
            .map(|&(_, symbol)| symbol)
            .collect();
        // Children come before their parents in the arena, so one forward pass knows,
        // for every term, whether a bound variable occurs in it.
        let mut open = Vec::with_capacity(terms.len());
        let mut by_symbol: BTreeMap<SymbolId, Vec<TermId>> = BTreeMap::new();
        for id in terms.ids() {
            let term = terms.get(id);
            let mentions_var =
                matches!(term, Term::Var(_)) || term::children(term).iter().any(|child| open[child.index()]);
            open.push(mentions_var);
            if let Term::App(symbol, args) = term {
                if wanted.contains(symbol) && !args.iter().any(|arg| open[arg.index()]) {
                    by_symbol.entry(*symbol).or_default().push(id);
                }
            }
        }
        Applications { by_symbol }
    }

    fn of_symbol(&self, symbol: SymbolId) -> &[TermId] {
        self.by_symbol.get(&symbol).map_or(&[], Vec::as_slice)
    }
}

struct Decoder<'a> {
    encoding: &'a Encoding,
    image: &'a Z3Terms,
    model: &'a z3::Model,
    /// The elements of each uninterpreted sort in this model, in z3's order.
    universes: BTreeMap<TypeId, Vec<Dynamic>>,
    /// The integer keys at which a map the decoder cannot read as a table is sampled.
    window: Vec<BigInt>,
    /// Whether the run's deadline stopped an evaluation: the model read is incomplete.
    cut_off: Cell<bool>,
}

/// The most keys a sampled map gets.
const MAX_WINDOW: usize = 256;

/// The most argument tuples [`Decoder::function`] adds to one function's table from the
/// encoding's applications: it keeps a model's size (and a suite file's) bounded on a
/// program applying a function at thousands of ground terms. The applications come in
/// arena order, so the first ones kept are those of the prelude and the earliest blocks.
const MAX_APPLIED: usize = 256;

impl Decoder<'_> {
    /// The model's value of `term`, with model completion; the term itself (which
    /// decodes as opaque) once the deadline has cut the decoding off.
    fn eval(&self, term: TermId) -> Dynamic {
        let ast = self.image.ast(term);
        if let Some(value) = self.constant(term) {
            return value;
        }
        self.eval_ast(ast).unwrap_or_else(|| ast.clone())
    }

    /// The model's own interpretation of a map-valued constant (a heap `H`, a set input),
    /// when it has one. Evaluating such a constant instead makes z3 expand the tables
    /// and lambdas of every map it holds into one term: on a heap of sets (Boogie's
    /// `Test/textbook/BQueue.bpl`, `H[o, footprint]: [ref]bool`) a single evaluation
    /// of `H` took z3 11 s and 3 GB, for a value the interpretation gives at once.
    fn constant(&self, term: TermId) -> Option<Dynamic> {
        let terms = &self.encoding.terms;
        let is_constant = matches!(terms.get(term), Term::App(_, args) if args.is_empty());
        if !is_constant || !matches!(terms.sort(term), Sort::Array(_)) {
            return None;
        }
        self.model.get_const_interp(self.image.ast(term))
    }

    /// The model's value of `ast`, with model completion; `None` once the run's deadline
    /// has passed (z3 was interrupted, or would be), the evaluation budget ran out or z3
    /// ran out of the memory it may use, which marks the decoding cut off.
    fn eval_ast(&self, ast: &Dynamic) -> Option<Dynamic> {
        if self.cut_off.get() {
            return None;
        }
        let value = if interrupt::passed() { None } else { self.model.eval(ast, true) };
        // Model completion evaluates every term; only an interruption (the deadline, the
        // evaluation budget) or z3's memory bound makes it fail.
        if value.is_none() {
            self.cut_off.set(true);
        }
        value
    }

    fn truth(&self, term: TermId) -> bool {
        self.eval(term).as_bool().and_then(|value| value.as_bool()).unwrap_or(false)
    }

    fn assignment(&mut self, input: usize) -> Assignment {
        let declared = &self.encoding.inputs[input];
        if self.image.maps() == MapEncoding::Uninterpreted {
            let sort = self.encoding.terms.sort(declared.term);
            if let Some(value) = self.shaped_value(declared.term, sort) {
                return Assignment { input, kind: declared.kind.clone(), value };
            }
        }
        // The model's own interpretation keeps maps as tables; evaluating them instead
        // may turn a table into a lambda. Inputs the model leaves free get completed.
        let value = self.shaped(declared.term).unwrap_or_else(|| {
            self.model.get_const_interp(self.image.ast(declared.term)).unwrap_or_else(|| self.eval(declared.term))
        });
        let value = self.value(&value, self.encoding.terms.sort(declared.term));
        Assignment { input, kind: declared.kind.clone(), value }
    }

    /// The value of map input `term` by the first of its wished shapes whose literal
    /// holds in the model ([`super::translate::Shape`]): the value before, stored at the
    /// change's index and value, built from the model's values rather than evaluated (a
    /// heap's evaluation may expand all of its tables).
    fn shaped(&self, term: TermId) -> Option<Dynamic> {
        let ShapeForm::Changed { before, change } = self.shape(term)? else { return None };
        // The value before may be a call's choice wished in turn.
        let before = (self.shaped(*before)).or_else(|| self.constant(*before)).unwrap_or_else(|| self.eval(*before));
        let Some((index, value)) = change else { return Some(before) };
        let index = self.eval_ast(index)?;
        let value = self.model.get_const_interp(value).or_else(|| self.eval_ast(value))?;
        Some(before.as_array()?.store(&index, &value).into())
    }

    /// [`Decoder::shaped`] under [`MapEncoding::Uninterpreted`], on decoded values: a
    /// map element has no z3 `store` to build, and a constant map's table is whole only
    /// as its shape says.
    fn shaped_value(&mut self, term: TermId, sort: &Sort) -> Option<Value> {
        let range = || match sort {
            Sort::Array(array) => Some(super::translate::levels(sort, 1).pop()?.1).filter(|_| !array.domain.is_empty()),
            _ => None,
        };
        let (before, change) = match self.shape(term)? {
            ShapeForm::Constant { value, change } => {
                let value = self.model.get_const_interp(value).or_else(|| self.eval_ast(value))?;
                let value = self.value(&value, &range()?);
                (Value::Map(MapValue::new(Vec::new(), value)), change)
            }
            ShapeForm::Changed { before, change } => {
                let before = match self.shaped_value(*before, sort) {
                    Some(value) => value,
                    None => self.eval_value(*before),
                };
                (before, change)
            }
        };
        let Some((index, value)) = change else { return Some(before) };
        let (Value::Map(map), Sort::Array(array)) = (before, sort) else { return None };
        let index = self.eval_ast(index)?;
        let index = self.value(&index, &array.domain[0]);
        let value = self.model.get_const_interp(value).or_else(|| self.eval_ast(value))?;
        let value = self.value(&value, &range()?);
        let mut entries = map.entries;
        entries.push((index, value));
        Some(Value::Map(MapValue::new(entries, *map.default)))
    }

    fn value(&mut self, ast: &Dynamic, sort: &Sort) -> Value {
        let decoded = match sort {
            Sort::Bool => ast.as_bool().and_then(|value| value.as_bool()).map(Value::Bool),
            Sort::Int => integer(ast).map(Value::Int),
            Sort::Real => numeral(ast).and_then(|text| text.parse().ok()).map(Value::Real),
            Sort::BitVec(width) => {
                numeral(ast).and_then(|text| text.parse().ok()).map(|value| Value::BitVec { value, width: *width })
            }
            Sort::Named(ty) => self.element(*ty, ast),
            Sort::Array(array) => {
                let (key_sort, value_sort) = match &array.domain[..] {
                    [key] => (key.clone(), array.range.clone()),
                    [key, rest @ ..] => (key.clone(), Sort::array(rest.to_vec(), array.range.clone())),
                    // A nullary map (`[]int`) has its range's sort: one value, its default.
                    [] => return Value::Map(MapValue::new(Vec::new(), self.value(ast, &array.range))),
                };
                self.map(ast, &key_sort, &value_sort).map(Value::Map)
            }
        };
        decoded.unwrap_or_else(|| opaque(ast))
    }

    fn element(&mut self, ty: TypeId, ast: &Dynamic) -> Option<Value> {
        let model = self.model;
        let universe = self.universes.entry(ty).or_insert_with(|| {
            model.get_sort_universe(&ast.get_sort()).map(|elements| elements.to_vec()).unwrap_or_default()
        });
        let index = match universe.iter().position(|element| element.ast_eq(ast)) {
            Some(index) => index,
            // Model completion names an element of a sort the model lists no universe
            // for (a constant no assertion mentions, such as a field only a pruned
            // axiom uses): a fresh element of its own, found again by the same name.
            None if is_fresh_element(ast) => {
                universe.push(ast.clone());
                universe.len() - 1
            }
            None => return None,
        };
        Some(Value::Elem { ty, index: u32::try_from(index).expect("fewer than 2^32 elements") })
    }

    /// A (curried, one-index) map value: read as a table when z3 wrote one, else
    /// sampled.
    fn map(&mut self, ast: &Dynamic, key_sort: &Sort, value_sort: &Sort) -> Option<MapValue> {
        if self.image.maps() == MapEncoding::Uninterpreted {
            return self.selected(ast, key_sort, value_sort);
        }
        // An empty window: a candidate's map, not sampled (see `decode_candidate`).
        let sample = !self.window.is_empty();
        self.table(ast, key_sort, value_sort)
            .or_else(|| sample.then(|| self.sampled(ast, key_sort, value_sort)).flatten())
    }

    /// A map z3 wrote as a table: a `store` chain over a constant array, an `as-array`
    /// or a lambda whose bodies are `ite` chains of key tests.
    fn table(&mut self, ast: &Dynamic, key_sort: &Sort, value_sort: &Sort) -> Option<MapValue> {
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
                let mut entries: Vec<(Value, Value)> = table
                    .get_entries()
                    .iter()
                    .map(|entry| {
                        (self.value(&entry.get_args()[0], key_sort), self.value(&entry.get_value(), value_sort))
                    })
                    .collect();
                let (mut else_entries, default) = self.body(&table.get_else()?, key_sort, value_sort)?;
                // Table entries take precedence over the `else` body: they go last.
                else_entries.append(&mut entries);
                (else_entries, default)
            }
            _ => self.body(&lambda_body(&base)?, key_sort, value_sort)?,
        };
        // The outermost store wins: apply the innermost first.
        for (key, value) in stores.iter().rev() {
            entries.push((self.value(key, key_sort), self.value(value, value_sort)));
        }
        Some(MapValue::new(entries, default))
    }

    /// A map element of [`MapEncoding::Uninterpreted`]: the model's table of `Select`
    /// at the element (its entries whose map is `ast`), and as default the table's
    /// `else`, which is the model's value at every other key (of every map of the
    /// level). An `else` computing with its arguments is read with the map fixed to
    /// `ast`, as a body over the key ([`Decoder::body`]); one that still computes
    /// with the key leaves the map opaque.
    fn selected(&mut self, ast: &Dynamic, key_sort: &Sort, value_sort: &Sort) -> Option<MapValue> {
        let (select, key) = self.image.select_decl(key_sort, value_sort)?;
        let Some(table) = self.model.get_func_interp(select) else {
            // No map of the level is read in the model: its value anywhere is the same.
            let anywhere = select.apply(&[ast, &Dynamic::fresh_const("%key", key)]);
            let default = self.eval_ast(&anywhere)?;
            return Some(MapValue::new(Vec::new(), self.value(&default, value_sort)));
        };
        let rows: Vec<(Dynamic, Dynamic)> = (table.get_entries().iter())
            .filter_map(|entry| match &entry.get_args()[..] {
                [map, key] if map.ast_eq(ast) => Some((key.clone(), entry.get_value())),
                _ => None,
            })
            .collect();
        let otherwise = fix_first_argument(&table.get_else()?, ast, key)?;
        let (mut entries, default) = if mentions_var(&otherwise) {
            self.body(&otherwise, key_sort, value_sort)?
        } else {
            (Vec::new(), self.value(&otherwise, value_sort))
        };
        // Table entries take precedence over the `else` body: they go last.
        for (key, value) in rows {
            entries.push((self.value(&key, key_sort), self.value(&value, value_sort)));
        }
        Some(MapValue::new(entries, default))
    }

    /// A map z3 writes as a lambda over ranges (`(ite (<= 0 x) 4 5)`, as quantified
    /// invariants make it do), read as a finite table: its values at the keys of
    /// [`Decoder::window`], and as default its value far beyond them. Exact on the
    /// window only, which is where tests over small inputs read; replay measures what
    /// the table really covers.
    fn sampled(&mut self, ast: &Dynamic, key_sort: &Sort, value_sort: &Sort) -> Option<MapValue> {
        if *key_sort != Sort::Int {
            return None;
        }
        let array = ast.as_array()?;
        let at = |decoder: &mut Self, key: &BigInt| -> Option<Value> {
            let key = <z3::ast::Int as std::str::FromStr>::from_str(&key.to_string()).ok()?;
            let value = decoder.eval_ast(&array.select(&key))?;
            let value = decoder.value(&value, value_sort);
            (!matches!(value, Value::Opaque(_))).then_some(value)
        };
        let far = self.window.last().cloned().unwrap_or_default() + BigInt::from(1_000_000);
        let default = at(self, &far)?;
        let window = self.window.clone();
        let entries =
            window.iter().map(|key| Some((Value::Int(key.clone()), at(self, key)?))).collect::<Option<_>>()?;
        Some(MapValue::new(entries, default))
    }

    /// The keys to sample maps at: -1, 0 up to the largest small integer input, and
    /// every integer input with its neighbours; sorted, at most [`MAX_WINDOW`].
    fn sample_window(&self) -> Vec<BigInt> {
        let inputs: Vec<BigInt> = model::entry_inputs(self.encoding)
            .filter(|&input| *self.encoding.terms.sort(self.encoding.inputs[input].term) == Sort::Int)
            .filter_map(|input| integer(&self.eval(self.encoding.inputs[input].term)))
            .collect();
        let small = BigInt::from(MAX_WINDOW / 2);
        let top = inputs.iter().filter(|value| **value <= small).max().cloned().unwrap_or_default();
        let mut keys: BTreeSet<BigInt> = (-1..=i64::try_from(&top).unwrap_or(0)).map(BigInt::from).collect();
        for value in &inputs {
            keys.extend([value - 1, value.clone(), value + 1]);
        }
        keys.into_iter().take(MAX_WINDOW).collect()
    }

    /// A one-argument function body over `(:var 0)` as z3 writes them in models: an
    /// `ite` chain of tests `(= (:var 0) k)` ending in a value, or, for a Boolean range,
    /// a set written as a disjunction of such tests. Returns the entries (later ones
    /// win) and the default.
    fn body(&mut self, body: &Dynamic, key_sort: &Sort, value_sort: &Sort) -> Option<(Vec<(Value, Value)>, Value)> {
        let mut entries = Vec::new();
        let mut rest = body.clone();
        while decl_kind(&rest) == Some(DeclKind::Ite) {
            let children = rest.children();
            let key = tested_key(&children[0])?;
            entries.push((self.value(&key, key_sort), self.value(&children[1], value_sort)));
            rest = children[2].clone();
        }
        // In an `ite` chain the first test wins.
        entries.reverse();
        if !mentions_var(&rest) {
            return Some((entries, self.value(&rest, value_sort)));
        }
        if *value_sort != Sort::Bool || !entries.is_empty() {
            return None;
        }
        let members = match decl_kind(&rest) {
            Some(DeclKind::Or) => rest.children().iter().map(tested_key).collect::<Option<Vec<_>>>()?,
            _ => vec![tested_key(&rest)?],
        };
        let entries = members.iter().map(|key| (self.value(key, key_sort), Value::Bool(true))).collect();
        Some((entries, Value::Bool(false)))
    }

    /// The table of a body-less function the model interprets: z3's entries, and the
    /// model's value at each of `applied` (applications of `symbol` in the encoding, at
    /// most [`MAX_APPLIED`] new argument tuples).
    fn function(&mut self, function: FunctionId, symbol: SymbolId, applied: &[TermId]) -> Option<FunctionModel> {
        let declared = self.encoding.terms.symbol(symbol);
        let decl = self.image.decl(symbol);
        if declared.domain.is_empty() {
            let value = self.eval_ast(&decl.apply(&[]))?;
            let default = self.value(&value, &declared.range);
            return Some(FunctionModel { function, entries: Vec::new(), default });
        }
        let table = self.model.get_func_interp(decl)?;
        let mut entries: Vec<(Vec<Value>, Value)> = table
            .get_entries()
            .iter()
            .map(|entry| {
                let args =
                    entry.get_args().iter().zip(&declared.domain).map(|(arg, sort)| self.value(arg, sort)).collect();
                (args, self.value(&entry.get_value(), &declared.range))
            })
            .collect();
        // An `else` z3 computes from the arguments (`(ite (= (:var 0) 0) 1 (+ (:var 0) 7))`)
        // is left unspecified: a test's run never reads it (it reads the table, which
        // holds every applied tuple), and after bounded model-based instantiation it
        // may well break the axioms (`grow(x) > x` at a point no query looked at), so
        // stating it would give the test an environment no program can have.
        let default = match table.get_else().map(|value| self.value(&value, &declared.range)) {
            Some(Value::Opaque(_)) | None => Value::unspecified(),
            Some(value) => value,
        };
        entries.retain(|(_, value)| value != &default);
        entries.sort();
        entries.dedup_by(|later, earlier| later.0 == earlier.0);
        // z3's own entries are the same function, at other tuples or the same ones; they
        // go in last, so should two decodings ever disagree, the model's table wins.
        // In a candidate's model (an `unknown` answer) a function whose values are maps
        // is not evaluated at its applications: z3 evaluates it by expanding lambdas,
        // which took minutes and gigabytes at a single application of `union(s, t)` of
        // `Set a = [a]bool` (Boogie's `Test/test20/TypeSynonyms2.bpl`), for a candidate
        // replay may well reject. One taking maps to scalars (`Set#Card`) stays cheap.
        let gives_maps = matches!(declared.range, Sort::Array(_));
        let applied = if self.window.is_empty() && gives_maps { &[] } else { applied };
        let mut rows = self.applied(applied);
        rows.extend(entries);
        if default == Value::unspecified() {
            self.tabulate_over_universes(symbol, &mut rows);
        }
        let entries = rows.into_iter().filter(|(_, value)| value != &default).collect();
        Some(FunctionModel { function, entries, default })
    }

    /// A function of elements only (`type_of(o)`, the order `<:` of a type) whose `else`
    /// z3 computes: its value at every tuple of the elements the model has (at most
    /// [`MAX_APPLIED`] tuples), so that a run quantifying over the test's elements (an
    /// invariant `(forall o: ref :: … type_of(o) <: T …)`) finds every value it reads.
    fn tabulate_over_universes(&mut self, symbol: SymbolId, rows: &mut BTreeMap<Vec<Value>, Value>) {
        let declared = self.encoding.terms.symbol(symbol);
        let universes: Option<Vec<(TypeId, Vec<Dynamic>)>> = (declared.domain.iter())
            .map(|sort| match sort {
                Sort::Named(ty) => self.universes.get(ty).map(|universe| (*ty, universe.clone())),
                _ => None,
            })
            .collect();
        let Some(universes) = universes else { return };
        let count = universes.iter().try_fold(1usize, |product, (_, universe)| product.checked_mul(universe.len()));
        if count.is_none_or(|count| count == 0 || count > MAX_APPLIED) {
            return;
        }
        let decl = self.image.decl(symbol);
        let range = declared.range.clone();
        let mut tuple = vec![0usize; universes.len()];
        loop {
            let args: Vec<Value> = (universes.iter().zip(&tuple))
                .map(|((ty, _), &index)| Value::Elem { ty: *ty, index: index as u32 })
                .collect();
            if let std::collections::btree_map::Entry::Vacant(slot) = rows.entry(args) {
                let asts: Vec<&dyn Ast> =
                    universes.iter().zip(&tuple).map(|((_, universe), &index)| &universe[index] as &dyn Ast).collect();
                if let Some(result) = self.eval_ast(&decl.apply(&asts)) {
                    let value = self.value(&result, &range);
                    if !has_opaque(&value) {
                        slot.insert(value);
                    }
                }
            }
            // The next tuple, the last position fastest; done after the last one.
            let Some(position) = (0..tuple.len()).rev().find(|&at| tuple[at] + 1 < universes[at].1.len()) else {
                return;
            };
            tuple[position] += 1;
            tuple[position + 1..].iter_mut().for_each(|index| *index = 0);
        }
    }

    /// The model's value of each application in `applied` (all of one symbol), by
    /// argument tuple: the arguments evaluated, then the application itself, both with
    /// model completion. A tuple or result with an opaque part says nothing a lookup
    /// could use, so it is left out; at most [`MAX_APPLIED`] tuples.
    fn applied(&mut self, applied: &[TermId]) -> BTreeMap<Vec<Value>, Value> {
        let terms = &self.encoding.terms;
        let mut rows = BTreeMap::new();
        for &application in applied {
            if rows.len() >= MAX_APPLIED {
                break;
            }
            let Term::App(_, args) = terms.get(application) else { continue };
            let args: Vec<Value> = args.iter().map(|&arg| self.eval_value(arg)).collect();
            if args.iter().any(has_opaque) || rows.contains_key(&args) {
                continue;
            }
            let value = self.eval_value(application);
            if !has_opaque(&value) {
                rows.insert(args, value);
            }
        }
        rows
    }

    /// The decoded value of a ground term in the model.
    fn eval_value(&mut self, term: TermId) -> Value {
        let ast = self.eval(term);
        self.value(&ast, self.encoding.terms.sort(term))
    }
}

/// Whether `ast` is an element z3 names (`T!val!0`, an application of no arguments of
/// an uninterpreted sort), not a term built of the program's symbols.
fn is_fresh_element(ast: &Dynamic) -> bool {
    ast.kind() == AstKind::App
        && ast.num_children() == 0
        && ast.safe_decl().is_ok_and(|decl| decl.name().contains("!val!"))
}

/// Whether a decoded value has an opaque part.
fn has_opaque(value: &Value) -> bool {
    match value {
        Value::Opaque(_) => true,
        Value::Map(map) => {
            has_opaque(&map.default) || map.entries.iter().any(|(key, value)| has_opaque(key) || has_opaque(value))
        }
        Value::Bool(_) | Value::Int(_) | Value::Real(_) | Value::BitVec { .. } | Value::Elem { .. } => false,
    }
}

/// The body of a one-variable lambda, over `(:var 0)`: z3 4.8.12 writes some map values
/// (Boolean ranges, curried rows) as lambdas, and the z3 crate has no safe accessor.
fn lambda_body(ast: &Dynamic) -> Option<Dynamic> {
    if ast.kind() != AstKind::Quantifier {
        return None;
    }
    let context = ast.get_ctx().get_z3_context();
    let raw = ast.get_z3_ast();
    // SAFETY: `raw` is a live quantifier AST of `context` (its kind was just checked), which
    // is what these three functions require; the body they return belongs to the same
    // context, and `Dynamic::wrap` takes its own reference to it.
    unsafe {
        if !z3_sys::Z3_is_lambda(context, raw) || z3_sys::Z3_get_quantifier_num_bound(context, raw) != 1 {
            return None;
        }
        let body = z3_sys::Z3_get_quantifier_body(context, raw)?;
        Some(Dynamic::wrap(ast.get_ctx(), body))
    }
}

/// A two-argument function body over `(:var 0)` and `(:var 1)` (a `Select` table's
/// `else`) with the first argument fixed to `first`: a body over `(:var 0)` (of
/// `key_sort`) standing for the second, simplified (tests of the map against other
/// elements fall away).
fn fix_first_argument(body: &Dynamic, first: &Dynamic, key_sort: &z3::Sort) -> Option<Dynamic> {
    if !mentions_var(body) {
        return Some(body.clone());
    }
    let context = body.get_ctx().get_z3_context();
    // SAFETY: `body`, `first` and the sort are live ASTs of `context`, and the variable
    // made here is too; `Z3_substitute_vars` returns a term of the same context, which
    // `Dynamic::wrap` takes its own reference to before any other z3 call.
    let fixed = unsafe {
        let key = z3_sys::Z3_mk_bound(context, 0, key_sort.get_z3_sort())?;
        let key = Dynamic::wrap(body.get_ctx(), key);
        let to = [first.get_z3_ast(), key.get_z3_ast()];
        let fixed = z3_sys::Z3_substitute_vars(context, body.get_z3_ast(), 2, to.as_ptr())?;
        Dynamic::wrap(body.get_ctx(), fixed)
    };
    simplified(&fixed)
}

/// `term` simplified by z3; `None` when z3 returns no term (its context interrupted at
/// the run's time limit, where the crate's `simplify` would panic).
pub(super) fn simplified(term: &Dynamic) -> Option<Dynamic> {
    // SAFETY: `term` is a live AST of its context; `Z3_simplify` returns a term of the
    // same context (or null, checked), which `Dynamic::wrap` takes its own reference to
    // before any other z3 call.
    unsafe {
        let context = term.get_ctx().get_z3_context();
        let simple = z3_sys::Z3_simplify(context, term.get_z3_ast())?;
        Some(Dynamic::wrap(term.get_ctx(), simple))
    }
}

/// `k` of a test `(= (:var 0) k)` (either side), `k` free of variables.
fn tested_key(test: &Dynamic) -> Option<Dynamic> {
    if decl_kind(test) != Some(DeclKind::Eq) {
        return None;
    }
    match &test.children()[..] {
        [var, key] | [key, var] if var.kind() == AstKind::Var && !mentions_var(key) => Some(key.clone()),
        _ => None,
    }
}

fn mentions_var(ast: &Dynamic) -> bool {
    match ast.kind() {
        AstKind::Var => true,
        AstKind::App => ast.children().iter().any(mentions_var),
        _ => false,
    }
}

fn decl_kind(ast: &Dynamic) -> Option<DeclKind> {
    if ast.kind() != AstKind::App {
        return None;
    }
    ast.safe_decl().ok().map(|decl| decl.kind())
}

/// The exact text of a z3 numeral: a rational `-7/2` (`3` when integral), a bit-vector's
/// unsigned value in decimal. An irrational real (an algebraic number, which nonlinear
/// constraints can make z3 choose) is no numeral: it stays opaque.
fn numeral(ast: &Dynamic) -> Option<String> {
    if ast.kind() != z3::AstKind::Numeral {
        return None;
    }
    let context = ast.get_ctx().get_z3_context();
    // SAFETY: `ast` is a live numeral AST of `context` (its kind was just checked), which
    // is what `Z3_get_numeral_string` requires; the string it returns is owned by the
    // context and copied before any other z3 call.
    unsafe {
        let text = z3_sys::Z3_get_numeral_string(context, ast.get_z3_ast());
        (!text.is_null()).then(|| std::ffi::CStr::from_ptr(text).to_string_lossy().into_owned())
    }
}

/// A z3 integer numeral (`5` or `(- 5)`) as a `BigInt`.
fn integer(ast: &Dynamic) -> Option<BigInt> {
    // Only a literal is an integer value; printing any other term (a function table's
    // `ite` chain) just to fail the parse was a third of a run on `types_axioms`.
    if ast.kind() != z3::AstKind::Numeral {
        return None;
    }
    let text = ast.as_int()?.to_string();
    match text.strip_prefix("(- ").and_then(|rest| rest.strip_suffix(')')) {
        Some(magnitude) => magnitude.parse::<BigInt>().ok().map(|value| -value),
        None => text.parse::<BigInt>().ok(),
    }
}

/// The most nodes an opaque value's text may have. z3 prints a term as a tree, while a
/// model holds it as a graph with sharing: a function interpretation over a prelude's
/// uninterpreted types (`Test/textbook/BQueue.bpl`) printed for minutes.
const MAX_OPAQUE_NODES: usize = 20_000;

/// An opaque value: the term's text, or for a term too large to print, its size bound
/// and z3's structural hash (equal terms stay equal, different ones almost surely differ).
fn opaque(ast: &Dynamic) -> Value {
    if tree_size(ast, 0, &mut std::collections::HashMap::new()) <= MAX_OPAQUE_NODES {
        return Value::Opaque(ast.to_string());
    }
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    ast.hash(&mut hasher);
    Value::Opaque(format!("(a term of more than {MAX_OPAQUE_NODES} nodes, hash {:016x})", hasher.finish()))
}

/// The size of `ast` as a tree, counted up to just past [`MAX_OPAQUE_NODES`] (deeper than
/// that counts as past it too, which bounds the recursion).
fn tree_size(ast: &Dynamic, depth: usize, memo: &mut std::collections::HashMap<Dynamic, usize>) -> usize {
    if depth > MAX_OPAQUE_NODES / 20 {
        return MAX_OPAQUE_NODES + 1;
    }
    if let Some(&size) = memo.get(ast) {
        return size;
    }
    let mut size = 1usize;
    // Only an application has arguments (z3 answers garbage for the others).
    let children = if ast.kind() == AstKind::App { ast.children() } else { Vec::new() };
    for child in children {
        size = size.saturating_add(tree_size(&child, depth + 1, memo));
        if size > MAX_OPAQUE_NODES {
            break;
        }
    }
    memo.insert(ast.clone(), size);
    size
}
