//! A test's entry values, checked against the program before a run starts.
//!
//! Input: a [`Machine`] and a [`TestInput`]. Output: the values a run starts from
//! ([`Entry`]), each canonical and of its variable's type, or [`Outcome::Invalid`]: a
//! test that does not fit the program is no evidence about it.

use super::eval::{admit, default_value};
use super::exec::Shape;
use super::{Machine, Outcome, Stop, TestInput};
use crate::cfg::Cfg;
use crate::sema::hir;
use crate::source::Span;
use crate::vc::{FunctionModel, Value};
use std::collections::{BTreeMap, BTreeSet};

/// The validated inputs of a run.
pub(super) struct Entry<'r> {
    pub shape: &'r Shape<'r>,
    pub implementation: &'r hir::Implementation,
    pub locals: Vec<Value>,
    pub globals: Vec<Value>,
    pub consts: Vec<Value>,
    pub functions: Vec<FunctionModel>,
}

/// The test's entry values, checked against the program.
pub(super) fn entry<'r>(machine: &'r Machine<'r>, input: &TestInput) -> Result<Entry<'r>, Outcome> {
    let program = machine.program;
    let invalid = |span, message: String| Outcome::Invalid(Stop::new(span, message));
    let Some(implementation) = program.implementations.get(input.implementation.index()) else {
        return Err(invalid(Span::default(), format!("no implementation number {}", input.implementation.0)));
    };
    let Some(shape) = machine.shapes.get(&input.implementation) else {
        return Err(invalid(implementation.span, format!("`{}` has no control-flow graph", implementation.name)));
    };
    Ok(Entry {
        shape,
        implementation,
        locals: entry_locals(shape.cfg, implementation, input)?,
        globals: entry_globals(program, input)?,
        consts: const_values(program, input)?,
        functions: function_tables(program, input)?,
    })
}

fn wrong_type(span: Span, what: &str) -> Outcome {
    Outcome::Invalid(Stop::new(span, format!("{what} has a value of the wrong type")))
}

fn entry_locals(cfg: &Cfg, implementation: &hir::Implementation, input: &TestInput) -> Result<Vec<Value>, Outcome> {
    let mut locals: Vec<Value> = cfg.locals.iter().map(|local| default_value(&local.ty)).collect();
    if input.params.len() != implementation.ins.len() {
        let message = format!(
            "`{}` takes {} parameters, the test gives {}",
            implementation.name,
            implementation.ins.len(),
            input.params.len()
        );
        return Err(Outcome::Invalid(Stop::new(implementation.span, message)));
    }
    let params = implementation.ins.iter().zip(&input.params);
    let uninitialized = input.uninitialized.iter().map(|(id, value)| (id, value));
    for (id, value) in params.chain(uninitialized) {
        let Some(local) = cfg.locals.get(id.index()) else {
            return Err(Outcome::Invalid(Stop::new(cfg.span, format!("no local number {}", id.0))));
        };
        let is_param = implementation.ins.contains(id);
        if !is_param && local.kind == hir::LocalKind::In {
            let message = format!("in-parameter `{}` is given an initial value", local.name);
            return Err(Outcome::Invalid(Stop::new(local.span, message)));
        }
        locals[id.index()] =
            admit(value, &local.ty).ok_or_else(|| wrong_type(local.span, &format!("`{}`", local.name)))?;
    }
    Ok(locals)
}

fn entry_globals(program: &hir::Program, input: &TestInput) -> Result<Vec<Value>, Outcome> {
    let mut globals: Vec<Value> = program.globals.iter().map(|global| default_value(&global.ty)).collect();
    for (id, value) in &input.globals {
        let Some(global) = program.globals.get(id.index()) else {
            return Err(Outcome::Invalid(Stop::new(Span::default(), format!("no global number {}", id.0))));
        };
        globals[id.index()] =
            admit(value, &global.ty).ok_or_else(|| wrong_type(global.span, &format!("global `{}`", global.name)))?;
    }
    Ok(globals)
}

/// The constants' values. A missing `unique` constant gets the first value of its type
/// that no other `unique` constant has (the symbolic engine asserts their
/// distinctness, so a default shared by two of them would make every test invalid).
fn const_values(program: &hir::Program, input: &TestInput) -> Result<Vec<Value>, Outcome> {
    let mut values: Vec<Option<Value>> = vec![None; program.consts.len()];
    for (id, value) in &input.consts {
        let Some(constant) = program.consts.get(id.index()) else {
            return Err(Outcome::Invalid(Stop::new(Span::default(), format!("no constant number {}", id.0))));
        };
        let admitted = admit(value, &constant.ty)
            .ok_or_else(|| wrong_type(constant.span, &format!("constant `{}`", constant.name)))?;
        values[id.index()] = Some(admitted);
    }
    // The values unique constants have so far, and per type the smallest candidate not
    // yet tried: a driver model declares a thousand unique constants and a test gives a
    // few, so each run fills in the rest (once in quadratic time per constant, it cost a
    // run of such a program a second).
    let mut taken: BTreeSet<Value> = (program.consts.iter().zip(&values))
        .filter_map(|(constant, value)| value.clone().filter(|_| constant.unique))
        .collect();
    let mut next: Vec<(&hir::Type, u32)> = Vec::new();
    for (constant, slot) in program.consts.iter().zip(values.iter_mut()) {
        if slot.is_none() {
            let value =
                if constant.unique { fresh_unique(program, (&mut taken, &mut next), &constant.ty) } else { None };
            *slot = Some(value.unwrap_or_else(|| default_value(&constant.ty)));
        }
    }
    let values: Vec<Value> = values.into_iter().map(|value| value.expect("every constant got a value")).collect();
    check_unique(program, &values)?;
    Ok(values)
}

/// The first `int`, `real`, bit-vector or element of `ty` no `unique` constant has yet
/// (`None` for other types, which keep their default), then taken; `next` says where
/// the search for `ty` starts (every candidate below was taken).
fn fresh_unique<'p>(
    program: &hir::Program,
    (taken, next): (&mut BTreeSet<Value>, &mut Vec<(&'p hir::Type, u32)>),
    ty: &'p hir::Type,
) -> Option<Value> {
    let candidate = |n: u32| match ty {
        hir::Type::Int => Some(Value::Int(n.into())),
        hir::Type::Named(id, _) => Some(Value::Elem { ty: *id, index: n }),
        hir::Type::Real => Some(Value::Real(num_rational::BigRational::from_integer(n.into()))),
        hir::Type::BitVector(width) => {
            let value = num_bigint::BigUint::from(n);
            (value.bits() <= u64::from(*width)).then_some(Value::BitVec { value, width: *width })
        }
        hir::Type::Bool | hir::Type::Map(_) => None,
        hir::Type::Param(_) => unreachable!("{}", crate::cfg::support::OUTSIDE_ENGINE),
    };
    let start = match next.iter().position(|(seen, _)| *seen == ty) {
        Some(position) => next[position].1,
        None => {
            next.push((ty, 0));
            0
        }
    };
    // Fewer constants than candidates are taken, so the search ends.
    let last = u32::try_from(program.consts.len()).unwrap_or(u32::MAX);
    let (n, value) =
        (start..=last).find_map(|n| candidate(n).filter(|value| !taken.contains(value)).map(|value| (n, value)))?;
    taken.insert(value.clone());
    if let Some(slot) = next.iter_mut().find(|(seen, _)| *seen == ty) {
        slot.1 = n + 1;
    }
    Some(value)
}

fn check_unique(program: &hir::Program, values: &[Value]) -> Result<(), Outcome> {
    // Per value, the unique constants seen with it, in order: the first clash is the
    // one a pairwise search in declaration order finds.
    let mut seen: BTreeMap<&Value, Vec<usize>> = BTreeMap::new();
    for second in (0..values.len()).filter(|&index| program.consts[index].unique) {
        let earlier = seen.entry(&values[second]).or_default();
        let clash = earlier.iter().find(|&&first| program.consts[first].ty == program.consts[second].ty);
        if let Some(&first) = clash {
            let (first, second) = (&program.consts[first], &program.consts[second]);
            let message = format!("unique constants `{}` and `{}` have the same value", first.name, second.name);
            return Err(Outcome::Invalid(Stop::new(second.span, message)));
        }
        earlier.push(second);
    }
    Ok(())
}

/// The tables of body-less functions, canonical and checked against the signatures.
fn function_tables(program: &hir::Program, input: &TestInput) -> Result<Vec<FunctionModel>, Outcome> {
    input.functions.iter().map(|table| function_table(program, table)).collect()
}

fn function_table(program: &hir::Program, table: &FunctionModel) -> Result<FunctionModel, Outcome> {
    let Some(function) = program.functions.get(table.function.index()) else {
        return Err(Outcome::Invalid(Stop::new(Span::default(), format!("no function number {}", table.function.0))));
    };
    let invalid =
        |what: &str| Outcome::Invalid(Stop::new(function.span, format!("the table of `{}` {what}", function.name)));
    if function.body.is_some() {
        return Err(invalid("is given, but the function has a body"));
    }
    let row = |(args, result): &(Vec<Value>, Value)| {
        if args.len() != function.params.len() {
            return None;
        }
        let args: Option<Vec<Value>> =
            args.iter().zip(&function.params).map(|(arg, param)| admit(arg, &param.ty)).collect();
        Some((args?, admit(result, &function.result)?))
    };
    let entries = table.entries.iter().map(row).collect::<Option<Vec<_>>>().ok_or_else(|| invalid("has a bad row"))?;
    let default = admit(&table.default, &function.result).ok_or_else(|| invalid("has a default of the wrong type"))?;
    Ok(FunctionModel { function: table.function, entries, default })
}
