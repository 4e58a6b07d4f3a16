//! Values in a suite file, both ways (the table in `docs/suite-format.md`).
//!
//! Decoding is untyped — a number is an `int`, `{"type": T, "elem": n}` an element of
//! `T`, `{"real": "7/2"}` a real, `{"bv": "255", "width": 8}` a bit-vector — because a trace entry may name a callee's variable whose type the loader does
//! not know; the interpreter checks every input against its declared type.

use crate::sema::hir;
use crate::syntax::lexer::MAX_LITERAL_DIGITS;
use crate::vc::{MapValue, Value};
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use serde_json::json;

/// The JSON form of `value`.
pub fn to_json(program: &hir::Program, value: &Value) -> serde_json::Value {
    match value {
        Value::Bool(value) => serde_json::Value::Bool(*value),
        Value::Int(value) => match i64::try_from(value) {
            Ok(small) => serde_json::Value::from(small),
            // JSON readers lose precision beyond 64 bits; keep big integers exact.
            Err(_) => serde_json::Value::String(value.to_string()),
        },
        // Exact: a rational as `numerator/denominator` (`-7/2`, `3`), a bit-vector's
        // unsigned value in decimal digits.
        Value::Real(value) => json!({ "real": value.to_string() }),
        Value::BitVec { value, width } => json!({ "bv": value.to_string(), "width": width }),
        Value::Elem { ty, index } => json!({ "type": program.types[ty.index()].name, "elem": index }),
        Value::Map(map) => json!({
            "entries": map.entries.iter().map(|(key, value)| vec![to_json(program, key), to_json(program, value)]).collect::<Vec<_>>(),
            "default": to_json(program, &map.default),
        }),
        Value::Opaque(text) => json!({ "opaque": text }),
    }
}

/// The value `json` stands for, or what is wrong with it.
pub fn from_json(program: &hir::Program, json: &serde_json::Value) -> Result<Value, String> {
    match json {
        serde_json::Value::Bool(value) => Ok(Value::Bool(*value)),
        serde_json::Value::Number(number) => match number.as_i64() {
            Some(value) => Ok(Value::Int(BigInt::from(value))),
            None => number
                .as_u64()
                .map(|value| Value::Int(BigInt::from(value)))
                .ok_or_else(|| format!("`{number}` is not an integer")),
        },
        // As in a program, so that converting it stays fast: the lexer's limit.
        serde_json::Value::String(digits) if digits.len() > MAX_LITERAL_DIGITS + 1 => {
            Err(format!("an integer of more than {MAX_LITERAL_DIGITS} digits"))
        }
        serde_json::Value::String(digits) => {
            digits.parse::<BigInt>().map(Value::Int).map_err(|_| format!("`\"{digits}\"` is not an integer"))
        }
        serde_json::Value::Object(object) => {
            let keys: Vec<&str> = object.keys().map(String::as_str).collect();
            match keys.as_slice() {
                ["elem", "type"] => elem(program, &object["type"], &object["elem"]),
                ["default", "entries"] => map(program, &object["entries"], &object["default"]),
                ["real"] => real(&object["real"]),
                ["bv", "width"] => bit_vec(&object["bv"], &object["width"]),
                // Kept as written: a run that uses it stops with "cannot evaluate".
                ["opaque"] => match &object["opaque"] {
                    serde_json::Value::String(text) => Ok(Value::Opaque(text.clone())),
                    other => Err(format!("`{other}` is not an opaque value's text")),
                },
                _ => Err(format!(
                    "`{json}` is not a value: expected `{{\"type\", \"elem\"}}`, `{{\"entries\", \"default\"}}`, \
                     `{{\"real\"}}` or `{{\"bv\", \"width\"}}`"
                )),
            }
        }
        serde_json::Value::Null | serde_json::Value::Array(_) => Err(format!("`{json}` is not a value")),
    }
}

/// `{"real": "n/d"}`: a rational in lowest terms or not, as `num-rational` reads it.
fn real(text: &serde_json::Value) -> Result<Value, String> {
    let text = text.as_str().filter(|text| text.len() <= 2 * MAX_LITERAL_DIGITS + 2);
    let parsed = text.and_then(|text| text.parse::<BigRational>().ok());
    parsed.map(Value::Real).ok_or_else(|| "a real is a string `numerator/denominator`, e.g. `\"-7/2\"`".to_string())
}

/// `{"bv": "digits", "width": w}`: an unsigned value below `2^w`.
fn bit_vec(digits: &serde_json::Value, width: &serde_json::Value) -> Result<Value, String> {
    let width = width.as_u64().and_then(|width| u32::try_from(width).ok());
    let width = width.ok_or_else(|| "a bit-vector's width is a non-negative integer".to_string())?;
    let digits = digits.as_str().filter(|digits| digits.len() <= MAX_LITERAL_DIGITS);
    let value = digits.and_then(|digits| digits.parse::<BigUint>().ok());
    let value = value.ok_or_else(|| "a bit-vector's value is a string of decimal digits".to_string())?;
    if value.bits() > u64::from(width) {
        return Err(format!("{value} does not fit in {width} bits"));
    }
    Ok(Value::BitVec { value, width })
}

fn elem(program: &hir::Program, ty: &serde_json::Value, index: &serde_json::Value) -> Result<Value, String> {
    let name = ty.as_str().ok_or_else(|| format!("`{ty}` is not a type name"))?;
    let ty = program
        .types
        .iter()
        .position(|declared| declared.name == name)
        .ok_or_else(|| format!("the program declares no type `{name}`"))?;
    let index = index.as_u64().and_then(|index| u32::try_from(index).ok());
    let index = index.ok_or_else(|| "an element number is a non-negative integer".to_string())?;
    Ok(Value::Elem { ty: hir::TypeId::from_index(ty), index })
}

fn map(program: &hir::Program, entries: &serde_json::Value, default: &serde_json::Value) -> Result<Value, String> {
    let entries = entries.as_array().ok_or_else(|| "a map's `entries` is a list".to_string())?;
    let pairs = entries
        .iter()
        .map(|entry| match entry.as_array().map(Vec::as_slice) {
            Some([key, value]) => Ok((from_json(program, key)?, from_json(program, value)?)),
            _ => Err(format!("map entry `{entry}` is not a `[key, value]` pair")),
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Value::Map(MapValue::new(pairs, from_json(program, default)?)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_and_bad_ones_are_explained() {
        let program = crate::vc::testing::program("type T; var m: [int][int]bool;");
        let big: BigInt = "123456789012345678901234567890".parse().expect("digits");
        let row = Value::Map(MapValue::new(vec![(Value::Int(3.into()), Value::Bool(true))], Value::Bool(false)));
        let values = [
            Value::Bool(true),
            Value::Int((-5).into()),
            Value::Int(big),
            Value::Elem { ty: hir::TypeId(0), index: 2 },
            Value::Real(BigRational::new((-7).into(), 2.into())),
            Value::Real(BigRational::from_integer(3.into())),
            Value::BitVec { value: 255u32.into(), width: 8 },
            Value::Map(MapValue::new(vec![(Value::Int(1.into()), row.clone())], row)),
        ];
        for value in values {
            assert_eq!(from_json(&program, &to_json(&program, &value)), Ok(value));
        }
        assert!(from_json(&program, &json!({"type": "U", "elem": 0})).unwrap_err().contains("no type `U`"));
        assert!(from_json(&program, &json!(1.5)).unwrap_err().contains("not an integer"));
        assert!(from_json(&program, &json!({"entries": [[1]], "default": 0})).unwrap_err().contains("pair"));
        assert!(from_json(&program, &json!(null)).is_err());
        assert!(from_json(&program, &json!({"bv": "256", "width": 8})).unwrap_err().contains("does not fit"));
        assert!(from_json(&program, &json!({"real": 1.5})).unwrap_err().contains("numerator/denominator"));
        assert!(from_json(&program, &json!({"real": "1/0"})).is_err());
        let huge = "9".repeat(MAX_LITERAL_DIGITS + 2);
        assert!(from_json(&program, &json!(huge)).unwrap_err().contains("more than 100000 digits"));
        let negative = format!("-{}", "9".repeat(MAX_LITERAL_DIGITS));
        assert!(from_json(&program, &json!(negative)).is_ok(), "a sign is no digit");
    }
}
