//! The reals and the bit-vectors on values, exactly as SMT-LIB defines them: the
//! interpreter's side of [`crate::vc::theory`], whose operations the encoding hands to
//! z3.
//!
//! Reals are exact rationals. A bit-vector of width w is its unsigned value below 2^w;
//! signed operations read it in two's complement. Where SMT-LIB fixes a value that
//! arithmetic would leave open, so does this module: `bvudiv s 0` is all ones, `bvurem
//! s 0` is `s`, and the signed operations follow from their SMT-LIB definitions in
//! terms of the unsigned ones (`bvsdiv s 0` is all ones for `s >= 0` and 1 otherwise,
//! `bvsrem s 0` and `bvsmod s 0` are `s`). Where SMT-LIB leaves a value unspecified
//! (`x / 0.0`, as `x div 0`) or Boogie leaves a function uninterpreted (`**`), the
//! solver may pick any value, so a run that needs one has none: it stops with "cannot
//! evaluate" rather than guess the solver's choice.

use crate::vc::theory::{BvCmp, BvOp, BvUnary, Op};
use crate::vc::Value;
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

/// `op` applied to `operands`, or why it has no value.
pub(super) fn apply(op: Op, operands: &[Value]) -> Result<Value, String> {
    match (op, operands) {
        (Op::ToReal, [Value::Int(value)]) => Ok(Value::Real(BigRational::from_integer(value.clone()))),
        (Op::ToInt, [Value::Real(value)]) => Ok(Value::Int(value.floor().to_integer())),
        (Op::RealPow, [_, _]) => Err("`**` is uninterpreted (Boogie's `real_pow`)".to_string()),
        (Op::Bv(op), [Value::BitVec { value: s, width }, Value::BitVec { value: t, .. }]) => {
            Ok(bit_vec(bv_op(op, s, t, *width), *width))
        }
        (Op::BvUnary(op), [Value::BitVec { value, width }]) => {
            let result = match op {
                BvUnary::Not => &mask(*width) ^ value,
                BvUnary::Neg => wrap(&-BigInt::from(value.clone()), *width),
            };
            Ok(bit_vec(result, *width))
        }
        (Op::BvCmp(cmp), [Value::BitVec { value: s, width }, Value::BitVec { value: t, .. }]) => {
            Ok(Value::Bool(bv_cmp(cmp, s, t, *width)))
        }
        (Op::Extract { high, low }, [Value::BitVec { value, .. }]) => {
            Ok(bit_vec((value >> low) & mask(high - low + 1), high - low + 1))
        }
        (Op::Concat, [Value::BitVec { value: s, width: w }, Value::BitVec { value: t, width: v }]) => {
            Ok(bit_vec((s << *v) | t, w + v))
        }
        (Op::SignExtend(more), [Value::BitVec { value, width }]) => {
            Ok(bit_vec(wrap(&signed(value, *width), width + more), width + more))
        }
        (Op::ZeroExtend(more), [Value::BitVec { value, width }]) => Ok(bit_vec(value.clone(), width + more)),
        (Op::Bv2Nat, [Value::BitVec { value, .. }]) => Ok(Value::Int(BigInt::from(value.clone()))),
        (Op::Int2Bv(width), [Value::Int(value)]) => Ok(bit_vec(wrap(value, width), width)),
        _ => Err(format!("`{}` applied to values of the wrong types", op.smt_name())),
    }
}

/// `left / right` on reals; division by zero is unspecified (see the module header).
pub(super) fn real_div(left: &BigRational, right: &BigRational) -> Result<BigRational, String> {
    if right.is_zero() {
        return Err("real division by zero (unspecified in SMT-LIB)".to_string());
    }
    Ok(left / right)
}

fn bit_vec(value: BigUint, width: u32) -> Value {
    Value::BitVec { value, width }
}

/// 2^width − 1: all ones.
fn mask(width: u32) -> BigUint {
    (BigUint::one() << width) - 1u8
}

/// `value` modulo 2^width, as an unsigned value.
fn wrap(value: &BigInt, width: u32) -> BigUint {
    let modulus = BigInt::one() << width;
    floor_mod(value, &modulus).to_biguint().expect("a floored remainder is not negative")
}

/// The remainder of floor division: its sign follows `divisor` (not zero).
fn floor_mod(value: &BigInt, divisor: &BigInt) -> BigInt {
    let remainder = value % divisor;
    if !remainder.is_zero() && remainder.is_negative() != divisor.is_negative() {
        remainder + divisor
    } else {
        remainder
    }
}

/// The two's complement reading of a `width`-bit value.
fn signed(value: &BigUint, width: u32) -> BigInt {
    let value = BigInt::from(value.clone());
    if width > 0 && value.bit(u64::from(width - 1)) {
        value - (BigInt::one() << width)
    } else {
        value
    }
}

fn bv_op(op: BvOp, s: &BigUint, t: &BigUint, width: u32) -> BigUint {
    let (ss, st) = (signed(s, width), signed(t, width));
    let shift = || u32::try_from(t).ok().filter(|&shift| shift < width);
    match op {
        BvOp::Add => wrap(&(BigInt::from(s + t)), width),
        BvOp::Sub => wrap(&(BigInt::from(s.clone()) - BigInt::from(t.clone())), width),
        BvOp::Mul => wrap(&BigInt::from(s * t), width),
        BvOp::Udiv if t.is_zero() => mask(width),
        BvOp::Udiv => s / t,
        BvOp::Urem if t.is_zero() => s.clone(),
        BvOp::Urem => s % t,
        // SMT-LIB: bvsdiv by 0 is bvudiv of the magnitudes, negated for a negative `s`.
        BvOp::Sdiv if t.is_zero() => {
            if ss.is_negative() {
                BigUint::one()
            } else {
                mask(width)
            }
        }
        // `/` and `%` on BigInt truncate toward zero, as bvsdiv and bvsrem do.
        BvOp::Sdiv => wrap(&(&ss / &st), width),
        BvOp::Srem | BvOp::Smod if t.is_zero() => s.clone(),
        BvOp::Srem => wrap(&(&ss % &st), width),
        // The sign follows the divisor.
        BvOp::Smod => wrap(&floor_mod(&ss, &st), width),
        BvOp::Shl => shift().map_or_else(BigUint::zero, |shift| (s << shift) & mask(width)),
        BvOp::Lshr => shift().map_or_else(BigUint::zero, |shift| s >> shift),
        BvOp::Ashr => {
            let shift = shift().unwrap_or(width);
            // `>>` on a BigInt rounds toward negative infinity: an arithmetic shift.
            wrap(&(ss >> shift), width)
        }
        BvOp::And => s & t,
        BvOp::Or => s | t,
        BvOp::Xor => s ^ t,
    }
}

fn bv_cmp(cmp: BvCmp, s: &BigUint, t: &BigUint, width: u32) -> bool {
    let (ss, st) = (signed(s, width), signed(t, width));
    match cmp {
        BvCmp::Ult => s < t,
        BvCmp::Ule => s <= t,
        BvCmp::Ugt => s > t,
        BvCmp::Uge => s >= t,
        BvCmp::Slt => ss < st,
        BvCmp::Sle => ss <= st,
        BvCmp::Sgt => ss > st,
        BvCmp::Sge => ss >= st,
    }
}

/// Every value of a bit-vector type of at most this many bits is enumerated by a
/// quantifier over it ([`super::quant`]).
pub(super) const ENUMERATED_WIDTH: u32 = 8;

/// All values of `width` bits, ascending.
pub(super) fn all_bit_vecs(width: u32) -> Vec<Value> {
    (0u32..1 << width).map(|value| bit_vec(BigUint::from(value), width)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bv(value: u64, width: u32) -> Value {
        bit_vec(BigUint::from(value), width)
    }

    fn run(op: Op, operands: &[Value]) -> Value {
        apply(op, operands).expect("defined")
    }

    #[test]
    fn bit_vectors_wrap_and_divide_as_smt_lib_says() {
        assert_eq!(run(Op::Bv(BvOp::Add), &[bv(250, 8), bv(10, 8)]), bv(4, 8));
        assert_eq!(run(Op::Bv(BvOp::Sub), &[bv(3, 8), bv(5, 8)]), bv(254, 8));
        assert_eq!(run(Op::Bv(BvOp::Udiv), &[bv(7, 8), bv(0, 8)]), bv(255, 8));
        assert_eq!(run(Op::Bv(BvOp::Urem), &[bv(7, 8), bv(0, 8)]), bv(7, 8));
        assert_eq!(run(Op::Bv(BvOp::Sdiv), &[bv(0xF9, 8), bv(2, 8)]), bv(0xFD, 8), "-7 / 2 = -3");
        assert_eq!(run(Op::Bv(BvOp::Srem), &[bv(0xF9, 8), bv(2, 8)]), bv(0xFF, 8), "-7 rem 2 = -1");
        assert_eq!(run(Op::Bv(BvOp::Smod), &[bv(0xF9, 8), bv(2, 8)]), bv(1, 8), "-7 smod 2 = 1");
        assert_eq!(run(Op::Bv(BvOp::Sdiv), &[bv(0xF9, 8), bv(0, 8)]), bv(1, 8));
        assert_eq!(run(Op::Bv(BvOp::Sdiv), &[bv(7, 8), bv(0, 8)]), bv(255, 8));
        assert_eq!(run(Op::Bv(BvOp::Ashr), &[bv(0x80, 8), bv(3, 8)]), bv(0xF0, 8));
        assert_eq!(run(Op::Bv(BvOp::Ashr), &[bv(0x80, 8), bv(9, 8)]), bv(0xFF, 8));
        assert_eq!(run(Op::Bv(BvOp::Shl), &[bv(0x81, 8), bv(1, 8)]), bv(2, 8));
        assert_eq!(run(Op::BvUnary(BvUnary::Neg), &[bv(1, 8)]), bv(255, 8));
        assert_eq!(run(Op::BvCmp(BvCmp::Slt), &[bv(255, 8), bv(0, 8)]), Value::Bool(true));
        assert_eq!(run(Op::Extract { high: 7, low: 4 }, &[bv(0xAB, 8)]), bv(0xA, 4));
        assert_eq!(run(Op::Concat, &[bv(0xA, 4), bv(0xB, 4)]), bv(0xAB, 8));
        assert_eq!(run(Op::SignExtend(8), &[bv(0x80, 8)]), bv(0xFF80, 16));
        assert_eq!(run(Op::Int2Bv(8), &[Value::Int((-1).into())]), bv(255, 8));
    }

    /// Operands for the comparison with z3: the edges of a width's range (0, 1, the
    /// largest positive and smallest negative signed values, all ones) and
    /// pseudo-random ones (a fixed linear congruential sequence: deterministic).
    fn operands(width: u32, count: usize) -> Vec<BigUint> {
        let top = mask(width);
        let half = BigUint::one() << (width - 1);
        let mut found = vec![BigUint::zero(), BigUint::one(), &half - 1u8, half, top.clone()];
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        while found.len() < count {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            found.push(BigUint::from(state >> 7) & &top);
        }
        found
    }

    /// Every bit-vector operation on pairs of operands, as the interpreter computes it,
    /// stated as `assert` in a program that `verify` proves with z3 on the encoding: a
    /// disagreement is a failure. Widths 8 and 40 (not a machine word).
    #[test]
    fn bit_vector_operations_agree_with_z3() {
        let binary: Vec<(&str, Op)> = crate::vc::theory::binary_builtins();
        let mut source = String::new();
        let mut body = String::new();
        for width in [8u32, 40] {
            for (name, op) in &binary {
                let result = match op {
                    Op::BvCmp(_) => "bool".to_string(),
                    _ => format!("bv{width}"),
                };
                source.push_str(&format!(
                    "function {{:bvbuiltin \"{name}\"}} {name}{width}(x: bv{width}, y: bv{width}): {result};\n"
                ));
                let values = operands(width, 12);
                for (left, right) in values.iter().zip(values.iter().rev().chain(values.iter().skip(3))) {
                    let expected = run(*op, &[bit_vec(left.clone(), width), bit_vec(right.clone(), width)]);
                    let expected = match expected {
                        Value::Bool(value) => value.to_string(),
                        Value::BitVec { value, width } => format!("{value}bv{width}"),
                        other => panic!("{other:?}"),
                    };
                    body.push_str(&format!(
                        "  assert {name}{width}({left}bv{width}, {right}bv{width}) == {expected};\n"
                    ));
                }
            }
            for (unary, op) in [("bvnot", Op::BvUnary(BvUnary::Not)), ("bvneg", Op::BvUnary(BvUnary::Neg))] {
                source.push_str(&format!(
                    "function {{:bvbuiltin \"{unary}\"}} {unary}{width}(x: bv{width}): bv{width};\n"
                ));
                for value in operands(width, 8) {
                    let Value::BitVec { value: expected, .. } = run(op, &[bit_vec(value.clone(), width)]) else {
                        panic!("a bit-vector")
                    };
                    body.push_str(&format!("  assert {unary}{width}({value}bv{width}) == {expected}bv{width};\n"));
                }
            }
            for value in operands(width, 6) {
                let slice = |high: u32, low: u32| match run(Op::Extract { high, low }, &[bit_vec(value.clone(), width)])
                {
                    Value::BitVec { value, width } => format!("{value}bv{width}"),
                    other => panic!("{other:?}"),
                };
                body.push_str(&format!("  assert {value}bv{width}[{width}:3] == {};\n", slice(width - 1, 3)));
                let Value::BitVec { value: joined, .. } =
                    run(Op::Concat, &[bit_vec(value.clone(), width), bit_vec(value.clone(), width)])
                else {
                    panic!("a bit-vector")
                };
                body.push_str(&format!("  assert {value}bv{width} ++ {value}bv{width} == {joined}bv{};\n", 2 * width));
            }
        }
        source.push_str(&format!("procedure Agree() {{\n{body}}}\n"));
        assert_verifies(&source);
    }

    /// `to_int`, `to_real` and the real operations the interpreter computes itself, on
    /// negative and positive fractions, against z3 as above.
    #[test]
    fn real_operations_agree_with_z3() {
        let values = ["-2.5", "-1.0", "-0.75", "0.0", "0.25", "1.0", "3.5"];
        let mut body = String::new();
        for text in values {
            let value = crate::sema::decimal_value(text.trim_start_matches('-')).expect("a decimal");
            let value = if text.starts_with('-') { -value } else { value };
            let Value::Int(floor) = run(Op::ToInt, &[Value::Real(value.clone())]) else { panic!("an int") };
            body.push_str(&format!("  assert int({text}) == {floor};\n"));
            body.push_str(&format!("  assert real({floor}) == {}.0;\n", floor));
            for divisor in ["-0.5", "3.0"] {
                let by = crate::sema::decimal_value(divisor.trim_start_matches('-')).expect("a decimal");
                let by = if divisor.starts_with('-') { -by } else { by };
                let quotient = real_div(&value, &by).expect("a non-zero divisor");
                let quotient = crate::cfg::print::decimal_text(&quotient);
                body.push_str(&format!("  assert {text} / {divisor} == {quotient};\n"));
            }
        }
        assert_verifies(&format!("procedure Agree() {{\n{body}}}\n"));
    }

    fn assert_verifies(source: &str) {
        let program = crate::vc::testing::program(source);
        let (cfgs, errors) = crate::cfg::lower::lower_all(&program);
        assert!(errors.is_empty(), "{errors:?}");
        let verdicts = crate::verify::verify(
            &program,
            &cfgs,
            &crate::smt::SessionOptions::default(),
            crate::verify::Confirmation::Search,
        );
        let diagnostics = crate::verify::diagnostics(&verdicts);
        let messages: Vec<String> = diagnostics.iter().map(|diagnostic| format!("{diagnostic:?}")).collect();
        assert!(
            verdicts.iter().all(|verdict| matches!(verdict.outcome, crate::verify::Outcome::Verified)),
            "{}",
            messages.join("\n")
        );
    }

    #[test]
    fn reals_are_exact_and_division_by_zero_has_no_value() {
        let half = BigRational::new(1.into(), 2.into());
        assert_eq!(run(Op::ToInt, &[Value::Real(-half.clone())]), Value::Int((-1).into()));
        assert!(real_div(&half, &BigRational::zero()).is_err());
        assert!(apply(Op::RealPow, &[Value::Real(half.clone()), Value::Real(half)]).is_err());
    }
}
