//! The interpreted operations beyond integers, Booleans and maps: SMT-LIB's reals
//! (theory Reals_Ints) and fixed-size bit-vectors, and Boogie's `{:bvbuiltin "…"}` /
//! `{:builtin "…"}` functions mapped onto them.
//!
//! One vocabulary, [`Op`], serves the encoding ([`crate::vc::term::Term::Op`], translated
//! by [`crate::smt`]) and the interpreter (`interp::theory`, which evaluates each
//! operation exactly as SMT-LIB defines it), so the two cannot disagree on which
//! operations exist. [`builtin`] says what a function's attribute binds it to; a name
//! outside this vocabulary is refused before lowering ([`crate::cfg::support`]).
//!
//! Boogie's own encoding is followed where SMT-LIB has no operation: `**` is Boogie's
//! uninterpreted `real_pow` (Boogie 2.4.1 declares `(declare-fun real_pow (Real Real)
//! Real)` and nothing more), so neither the solver nor replay knows its values.

use crate::sema::hir;
use crate::vc::term::{ArithOp, Sort};

/// An interpreted operation of the reals or the bit-vectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Op {
    /// `real(e)`: SMT-LIB `to_real`.
    ToReal,
    /// `int(e)`: SMT-LIB `to_int`, the greatest integer not above.
    ToInt,
    /// `e ** f`: Boogie's uninterpreted `real_pow`.
    RealPow,
    /// A bit-vector operation of two operands of one width, of that width.
    Bv(BvOp),
    /// `bvnot`, `bvneg`.
    BvUnary(BvUnary),
    /// A comparison of two bit-vectors of one width.
    BvCmp(BvCmp),
    /// SMT-LIB `(_ extract high low)`: bits `low..=high` (Boogie's `e[high+1:low]`).
    Extract {
        high: u32,
        low: u32,
    },
    /// SMT-LIB `concat`: the first operand the high bits (Boogie's `++`).
    Concat,
    /// `(_ sign_extend n)`, `(_ zero_extend n)`: `n` more bits.
    SignExtend(u32),
    ZeroExtend(u32),
    /// `bv2nat`: the unsigned value as an integer.
    Bv2Nat,
    /// `(_ int2bv n)`: an integer modulo `2^n`.
    Int2Bv(u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BvOp {
    Add,
    Sub,
    Mul,
    Udiv,
    Urem,
    Sdiv,
    Srem,
    Smod,
    Shl,
    Lshr,
    Ashr,
    And,
    Or,
    Xor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BvUnary {
    Not,
    Neg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BvCmp {
    Ult,
    Ule,
    Ugt,
    Uge,
    Slt,
    Sle,
    Sgt,
    Sge,
}

/// What a builtin function computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// `{:builtin "div"}`, `{:builtin "mod"}`: the integer operations.
    Arith(ArithOp),
    Op(Op),
}

const BV_OPS: [(&str, BvOp); 14] = [
    ("bvadd", BvOp::Add),
    ("bvsub", BvOp::Sub),
    ("bvmul", BvOp::Mul),
    ("bvudiv", BvOp::Udiv),
    ("bvurem", BvOp::Urem),
    ("bvsdiv", BvOp::Sdiv),
    ("bvsrem", BvOp::Srem),
    ("bvsmod", BvOp::Smod),
    ("bvshl", BvOp::Shl),
    ("bvlshr", BvOp::Lshr),
    ("bvashr", BvOp::Ashr),
    ("bvand", BvOp::And),
    ("bvor", BvOp::Or),
    ("bvxor", BvOp::Xor),
];

const BV_CMPS: [(&str, BvCmp); 8] = [
    ("bvult", BvCmp::Ult),
    ("bvule", BvCmp::Ule),
    ("bvugt", BvCmp::Ugt),
    ("bvuge", BvCmp::Uge),
    ("bvslt", BvCmp::Slt),
    ("bvsle", BvCmp::Sle),
    ("bvsgt", BvCmp::Sgt),
    ("bvsge", BvCmp::Sge),
];

impl BvOp {
    pub fn name(self) -> &'static str {
        BV_OPS.iter().find(|(_, op)| *op == self).map(|(name, _)| *name).expect("every op is listed")
    }
}

impl BvCmp {
    pub fn name(self) -> &'static str {
        BV_CMPS.iter().find(|(_, op)| *op == self).map(|(name, _)| *name).expect("every comparison is listed")
    }
}

/// Every bit-vector builtin of two operands of one width, by its SMT-LIB name.
pub fn binary_builtins() -> Vec<(&'static str, Op)> {
    let ops = BV_OPS.iter().map(|&(name, op)| (name, Op::Bv(op)));
    ops.chain(BV_CMPS.iter().map(|&(name, cmp)| (name, Op::BvCmp(cmp)))).collect()
}

/// The builtin a function's `{:bvbuiltin "…"}` or `{:builtin "…"}` attribute names:
/// `None` without one, `Some(Err(name))` for a name outside [`Op`]'s vocabulary.
pub fn builtin(function: &hir::Function) -> Option<Result<Builtin, String>> {
    let name = function.attrs.iter().find_map(|attr| {
        if attr.name.name != "bvbuiltin" && attr.name.name != "builtin" {
            return None;
        }
        attr.args.iter().find_map(|arg| match arg {
            crate::syntax::ast::AttrArg::Str { value, .. } => Some(value.clone()),
            crate::syntax::ast::AttrArg::Expr(_) => None,
        })
    })?;
    Some(parse(&name).ok_or(name))
}

/// The builtin of each function of `program`, by `FunctionId` (`None`: uninterpreted or
/// defined by its body; an unknown name, which [`crate::cfg::support`] refuses before
/// any stage that calls this, counts as none).
pub fn builtins(program: &hir::Program) -> Vec<Option<Builtin>> {
    program.functions.iter().map(|function| builtin(function).and_then(Result::ok)).collect()
}

/// A builtin's name as Boogie front ends write it: `bvadd`, `sign_extend 16` (SMACK's
/// spelling) or `(_ sign_extend 16)` (SMT-LIB's), `(_ int2bv 64)`, `bv2nat`, `div`,
/// `mod`, `to_real`, `to_int`.
fn parse(name: &str) -> Option<Builtin> {
    let name = name.trim();
    let words: Vec<&str> = match name.strip_prefix("(_").and_then(|rest| rest.strip_suffix(')')) {
        Some(indexed) => indexed.split_whitespace().collect(),
        None => name.split_whitespace().collect(),
    };
    let op = match words.as_slice() {
        ["div"] => return Some(Builtin::Arith(ArithOp::Div)),
        ["mod"] => return Some(Builtin::Arith(ArithOp::Mod)),
        ["to_real"] => Op::ToReal,
        ["to_int"] => Op::ToInt,
        ["bvnot"] => Op::BvUnary(BvUnary::Not),
        ["bvneg"] => Op::BvUnary(BvUnary::Neg),
        ["bv2nat"] => Op::Bv2Nat,
        ["concat"] => Op::Concat,
        ["sign_extend", n] => Op::SignExtend(n.parse().ok()?),
        ["zero_extend", n] => Op::ZeroExtend(n.parse().ok()?),
        ["int2bv", n] => Op::Int2Bv(n.parse().ok()?),
        [single] => {
            if let Some((_, op)) = BV_OPS.iter().find(|(known, _)| known == single) {
                Op::Bv(*op)
            } else {
                Op::BvCmp(BV_CMPS.iter().find(|(known, _)| known == single)?.1)
            }
        }
        _ => return None,
    };
    Some(Builtin::Op(op))
}

impl Op {
    /// The sort of the operation applied to operands of `operands`' sorts, or why they
    /// do not fit it (their number, their sorts, the widths of the bit-vector
    /// operations on two operands of one width).
    pub fn sort(self, operands: &[&Sort]) -> Result<Sort, String> {
        let misfit = || format!("{} does not apply to {operands:?}", self.smt_name());
        let width = |index: usize| match operands.get(index) {
            Some(Sort::BitVec(width)) => Ok(*width),
            _ => Err(misfit()),
        };
        let arity = match self {
            Op::RealPow | Op::Bv(_) | Op::BvCmp(_) | Op::Concat => 2,
            _ => 1,
        };
        if operands.len() != arity {
            return Err(misfit());
        }
        let all = |sort: Sort| operands.iter().all(|operand| **operand == sort);
        Ok(match self {
            Op::ToReal if all(Sort::Int) => Sort::Real,
            Op::RealPow if all(Sort::Real) => Sort::Real,
            Op::ToInt if all(Sort::Real) => Sort::Int,
            Op::Int2Bv(width) if all(Sort::Int) => Sort::BitVec(width),
            Op::ToReal | Op::RealPow | Op::ToInt | Op::Int2Bv(_) => return Err(misfit()),
            Op::Bv2Nat => {
                width(0)?;
                Sort::Int
            }
            Op::Bv(_) | Op::BvCmp(_) if width(0)? != width(1)? => return Err(misfit()),
            Op::Bv(_) | Op::BvUnary(_) => Sort::BitVec(width(0)?),
            Op::BvCmp(_) => Sort::Bool,
            Op::Extract { high, low } => {
                if high < low || high >= width(0)? {
                    return Err(format!("bits {high}..{low} of a bv{}", width(0)?));
                }
                Sort::BitVec(high - low + 1)
            }
            Op::Concat => Sort::BitVec(width(0)? + width(1)?),
            Op::SignExtend(more) | Op::ZeroExtend(more) => Sort::BitVec(width(0)? + more),
        })
    }

    /// The operation's SMT-LIB name (indexed operations with their indices), for dumps.
    pub fn smt_name(self) -> String {
        match self {
            Op::ToReal => "to_real".into(),
            Op::ToInt => "to_int".into(),
            Op::RealPow => "real_pow".into(),
            Op::Bv(op) => op.name().into(),
            Op::BvUnary(BvUnary::Not) => "bvnot".into(),
            Op::BvUnary(BvUnary::Neg) => "bvneg".into(),
            Op::BvCmp(cmp) => cmp.name().into(),
            Op::Extract { high, low } => format!("(_ extract {high} {low})"),
            Op::Concat => "concat".into(),
            Op::SignExtend(more) => format!("(_ sign_extend {more})"),
            Op::ZeroExtend(more) => format!("(_ zero_extend {more})"),
            Op::Bv2Nat => "bv2nat".into(),
            Op::Int2Bv(width) => format!("(_ int2bv {width})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_names_as_front_ends_spell_them() {
        assert_eq!(parse("bvadd"), Some(Builtin::Op(Op::Bv(BvOp::Add))));
        assert_eq!(parse("bvsge"), Some(Builtin::Op(Op::BvCmp(BvCmp::Sge))));
        assert_eq!(parse("sign_extend 16"), Some(Builtin::Op(Op::SignExtend(16))));
        assert_eq!(parse("(_ zero_extend 8)"), Some(Builtin::Op(Op::ZeroExtend(8))));
        assert_eq!(parse("(_ int2bv 64)"), Some(Builtin::Op(Op::Int2Bv(64))));
        assert_eq!(parse("div"), Some(Builtin::Arith(ArithOp::Div)));
        assert_eq!(parse("fp.add"), None);
        assert_eq!(parse("sign_extend x"), None);
        for (name, op) in BV_OPS {
            assert_eq!(op.name(), name);
        }
    }

    #[test]
    fn sorts_follow_the_widths() {
        let (b8, b4) = (Sort::BitVec(8), Sort::BitVec(4));
        assert_eq!(Op::Concat.sort(&[&b8, &b4]), Ok(Sort::BitVec(12)));
        assert_eq!(Op::Extract { high: 7, low: 4 }.sort(&[&b8]), Ok(Sort::BitVec(4)));
        assert!(Op::Extract { high: 8, low: 4 }.sort(&[&b8]).is_err());
        assert_eq!(Op::SignExtend(24).sort(&[&b8]), Ok(Sort::BitVec(32)));
        assert_eq!(Op::BvCmp(BvCmp::Ult).sort(&[&b8, &b8]), Ok(Sort::Bool));
        assert!(Op::BvCmp(BvCmp::Ult).sort(&[&b8, &b4]).is_err(), "one width");
        assert!(Op::Bv(BvOp::Add).sort(&[&b8]).is_err(), "two operands");
        assert!(Op::ToReal.sort(&[&Sort::Real]).is_err());
        assert_eq!(Op::Int2Bv(16).sort(&[&Sort::Int]), Ok(Sort::BitVec(16)));
    }
}
