//! Solver-independent models: what a satisfying assignment of an [`Encoding`] says about
//! one execution, in terms later stages (test extraction, minimization) understand.
//!
//! Input: the truth values of `%exec@B` and `%take@P@S` and the values of the inputs,
//! read by [`crate::smt`] from a solver model. Output: a [`Model`]: the executed path,
//! the entry values, the choice trace along the path, and the tables of uninterpreted
//! functions. No solver type appears here, so later stages never see z3.
//!
//! Invariants of a [`Model`] built by [`executed_path`] and [`choice_points`]:
//! - `path` starts at the entry and follows edges of the `Cfg` (encode.rs proves the
//!   executed blocks form one path prefix);
//! - `choices` lists, block by block along `path`, the block's inputs in command order,
//!   then its `goto` choice when it has several successors and the path goes on (the
//!   choices of the last block are unconstrained by a reachability query, which asks
//!   for the block's start only; a failure's model stops at the failing check);
//! - map values are canonical: entries sorted by key, none equal to the default.

use crate::cfg::BlockId;
use crate::sema::hir::{FunctionId, TypeId};
use crate::vc::encode::Encoding;
use crate::vc::passify::InputKind;
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;

/// The value of an input, a map entry or a function result.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    Bool(bool),
    Int(BigInt),
    /// An exact real.
    Real(BigRational),
    /// A bit-vector: its unsigned value, always below `2^width`.
    BitVec {
        value: BigUint,
        width: u32,
    },
    /// Element `index` of an uninterpreted type; elements are numbered per model, and
    /// different indices are different elements.
    Elem {
        ty: TypeId,
        index: u32,
    },
    Map(MapValue),
    /// A value the decoder cannot show as a finite table (e.g. a solver's lambda), as
    /// the solver printed it.
    Opaque(String),
}

/// The text of [`Value::unspecified`].
pub const UNSPECIFIED: &str = "unspecified";

impl Value {
    /// The default of a function table that a test leaves open: the function is
    /// anything the axioms allow away from the table's points, which are all its run
    /// reads (evaluating an opaque value stops a run, so a replayed test never relied
    /// on more).
    pub fn unspecified() -> Value {
        Value::Opaque(UNSPECIFIED.to_string())
    }

    /// Whether every number in the value is within `±bound` (a bit-vector read as a
    /// signed number, as [`crate::smt::minimize`] bounds it); an opaque value is not.
    pub fn is_small(&self, bound: u32) -> bool {
        match self {
            Value::Bool(_) | Value::Elem { .. } => true,
            Value::Int(value) => value.magnitude() <= &bound.into(),
            Value::Real(value) => value.numer().magnitude() <= &(value.denom().magnitude() * bound),
            Value::BitVec { value, width } => {
                let top = BigUint::from(1u8) << width;
                value <= &BigUint::from(bound) || &top - value <= BigUint::from(bound)
            }
            Value::Map(map) => {
                map.default.is_small(bound)
                    && map.entries.iter().all(|(key, value)| key.is_small(bound) && value.is_small(bound))
            }
            Value::Opaque(_) => false,
        }
    }
}

/// A total map as a finite table plus a default. A map of arity n > 1 is curried: its
/// keys are the first index, its values maps of arity n − 1 (which is exact: a flat
/// table with one default cannot express a row with its own default).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MapValue {
    /// Sorted by key; no two equal keys; no value equal to `default`.
    pub entries: Vec<(Value, Value)>,
    pub default: Box<Value>,
}

impl MapValue {
    /// A canonical map: later entries win over earlier ones with the same key.
    pub fn new(entries: Vec<(Value, Value)>, default: Value) -> MapValue {
        let mut table: std::collections::BTreeMap<Value, Value> = std::collections::BTreeMap::new();
        for (key, value) in entries {
            table.insert(key, value);
        }
        let entries = table.into_iter().filter(|(_, value)| value != &default).collect();
        MapValue { entries, default: Box::new(default) }
    }

    pub fn get(&self, key: &Value) -> &Value {
        match self.entries.binary_search_by(|(candidate, _)| candidate.cmp(key)) {
            Ok(position) => &self.entries[position].1,
            Err(_) => &self.default,
        }
    }
}

/// The table of an uninterpreted function in a model.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct FunctionModel {
    pub function: FunctionId,
    /// Argument tuples and results, sorted by arguments.
    pub entries: Vec<(Vec<Value>, Value)>,
    /// The result on every other argument tuple.
    pub default: Value,
}

/// The value of one input of the encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assignment {
    /// Index into [`Encoding::inputs`].
    pub input: usize,
    pub kind: InputKind,
    pub value: Value,
}

/// One entry of a test's choice trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// A nondeterministic value (a `havoc`, a body-less call's result).
    Value(Assignment),
    /// The target a multi-target `goto` takes.
    Goto { from: BlockId, to: BlockId },
}

/// One execution (a path prefix) and the inputs that drive it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    /// The executed blocks, entry first, in execution order.
    pub path: Vec<BlockId>,
    /// Constants, in-parameters, globals at entry, initial values read before written.
    pub entry: Vec<Assignment>,
    /// The ordered choice trace along `path`.
    pub choices: Vec<Choice>,
    /// Tables of the body-less functions the solver interpreted (the others may be
    /// anything).
    pub functions: Vec<FunctionModel>,
}

impl Model {
    /// Whether the execution reaches the start of `block`.
    pub fn reaches(&self, block: BlockId) -> bool {
        self.path.contains(&block)
    }

    /// Whether every integer the test is driven by (entry values, choice values, map
    /// keys and values) is within `±bound`, and no value is opaque.
    pub fn is_small(&self, bound: u32) -> bool {
        let choices = self.choices.iter().filter_map(|choice| match choice {
            Choice::Value(assignment) => Some(&assignment.value),
            Choice::Goto { .. } => None,
        });
        self.entry.iter().map(|assignment| &assignment.value).chain(choices).all(|value| value.is_small(bound))
    }

    /// The entry value of the input of `kind`, if the model has one.
    pub fn entry_value(&self, kind: &InputKind) -> Option<&Value> {
        self.entry.iter().find(|assignment| &assignment.kind == kind).map(|assignment| &assignment.value)
    }
}

/// Where a [`Choice`] is made along a path, before its value is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChoicePoint {
    /// Index into [`Encoding::inputs`].
    Input(usize),
    Goto {
        from: BlockId,
        to: BlockId,
    },
}

/// The executed path, given the truth value of each `%exec@B` (by block) and `%take@P@S`
/// (by edge index): from the entry, follow the taken edge while its target is executed.
pub fn executed_path(encoding: &Encoding, executed: &[bool], taken: &[bool]) -> Vec<BlockId> {
    let mut path = vec![encoding.entry];
    let mut current = encoding.entry;
    // The graph is acyclic, so the walk ends; the bound guards against a bad model.
    while path.len() <= encoding.blocks.len() {
        let next = encoding.blocks[current.index()]
            .edges
            .iter()
            .map(|&index| (index, encoding.edges[index].to))
            .find(|&(index, to)| taken[index] && executed[to.index()]);
        match next {
            Some((_, to)) => {
                current = to;
                path.push(to);
            }
            None => break,
        }
    }
    path
}

/// The choice points along `path`, in trace order (see the module invariants). With
/// `stop = Some((B, k))` (a failure at step k of B, the last block of `path`), B
/// contributes only the choices made before its step k fails.
pub fn choice_points(encoding: &Encoding, path: &[BlockId], stop: Option<(BlockId, usize)>) -> Vec<ChoicePoint> {
    let mut points = Vec::new();
    for (position, &block) in path.iter().enumerate() {
        let vc = &encoding.blocks[block.index()];
        let before_stop = |input: &usize| match stop {
            Some((stop_block, step)) if stop_block == block => encoding.inputs[*input].position <= step,
            _ => true,
        };
        points.extend(vc.inputs.iter().filter(|input| before_stop(input)).map(|&input| ChoicePoint::Input(input)));
        if let (true, Some(&to)) = (vc.edges.len() > 1, path.get(position + 1)) {
            points.push(ChoicePoint::Goto { from: block, to });
        }
    }
    points
}

/// The inputs whose values are fixed before the first command: consts, parameters,
/// globals at entry, initial values of locals.
pub fn entry_inputs(encoding: &Encoding) -> impl Iterator<Item = usize> + '_ {
    encoding.inputs.iter().enumerate().filter(|(_, input)| input.block.is_none()).map(|(index, _)| index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reals_and_bit_vectors_are_small_by_magnitude() {
        let real = |n: i64, d: i64| Value::Real(BigRational::new(n.into(), d.into()));
        let bits = |value: u32| Value::BitVec { value: value.into(), width: 8 };
        assert!(real(-21, 2).is_small(11) && !real(-21, 2).is_small(10));
        assert!(bits(10).is_small(10) && bits(246).is_small(10), "246 is -10 as a signed byte");
        assert!(!bits(11).is_small(10) && !bits(245).is_small(10));
    }

    #[test]
    fn maps_are_canonical() {
        let int = |value: i64| Value::Int(BigInt::from(value));
        let map = MapValue::new(vec![(int(3), int(1)), (int(1), int(0)), (int(3), int(7)), (int(2), int(5))], int(0));
        assert_eq!(map.entries, vec![(int(2), int(5)), (int(3), int(7))]);
        assert_eq!(map.get(&int(3)), &int(7));
        assert_eq!(map.get(&int(1)), &int(0));
    }
}
