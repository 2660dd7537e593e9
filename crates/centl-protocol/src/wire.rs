//! Exact values on the wire: reading `"9/2"` strings, quantities and vectors from requests, and
//! writing them back in SI units.
//!
//! Every number arrives as a JSON string so no binary float ever touches it; every quantity
//! carries its unit, is checked against the dimension its role needs, and is converted exactly
//! to SI base units before the engine sees it.

use crate::json::type_name;
use crate::{Limits, ProtocolError};
use exact::{QuadraticNumber, Rational};
use serde::Serialize;
use serde_json::Value;
use units::{Dimension, UnitError, describe, parse_unit};

/// An exact scalar quantity as sent back: `{"value": "9/2", "unit": "m"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct QuantityOut {
    /// The exact value in lowest terms.
    pub value: String,
    /// The unit it is expressed in (SI unless the request named one).
    pub unit: String,
}

/// An exact vector quantity as sent back: `{"value": ["1","0","9/2"], "unit": "m"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VectorOut {
    /// The three exact components.
    pub value: [String; 3],
    /// The unit they are expressed in (SI unless the request named one).
    pub unit: String,
}

/// A scalar in `unit`.
pub fn q(value: &Rational, unit: &str) -> QuantityOut {
    QuantityOut {
        value: value.to_string(),
        unit: unit.to_string(),
    }
}

/// A vector in `unit`.
pub fn vq(c: &[Rational; 3], unit: &str) -> VectorOut {
    VectorOut {
        value: [c[0].to_string(), c[1].to_string(), c[2].to_string()],
        unit: unit.to_string(),
    }
}

/// An element `a + b·√d` of a quadratic field as sent back:
/// `{"rational": "3/2", "sqrt_coefficient": "1/4", "radicand": "7"}` (radicand 1 and
/// coefficient 0 for a rational value).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct QuadraticOut {
    /// `a`, in lowest terms.
    pub rational: String,
    /// `b`, in lowest terms.
    pub sqrt_coefficient: String,
    /// `d`, a positive integer (1 for a rational value).
    pub radicand: String,
}

impl From<&QuadraticNumber> for QuadraticOut {
    fn from(x: &QuadraticNumber) -> Self {
        QuadraticOut {
            rational: x.rational().to_string(),
            sqrt_coefficient: x.sqrt_coefficient().to_string(),
            radicand: x.radicand().to_string(),
        }
    }
}

/// A quadratic-field scalar quantity: its exact value, its printed form (`3 - √3`) and unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct QuadraticQuantityOut {
    /// The exact value.
    pub value: QuadraticOut,
    /// The value printed, `3/2 + 1/4·√7`.
    pub text: String,
    /// The SI unit.
    pub unit: String,
}

/// A quadratic-field vector quantity.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct QuadraticVectorOut {
    /// The three exact components.
    pub value: [QuadraticOut; 3],
    /// The components printed.
    pub text: [String; 3],
    /// The SI unit.
    pub unit: String,
}

/// A quadratic-field scalar in `unit`.
pub fn qq(x: &QuadraticNumber, unit: &str) -> QuadraticQuantityOut {
    QuadraticQuantityOut {
        value: x.into(),
        text: x.to_string(),
        unit: unit.to_string(),
    }
}

/// A quadratic-field vector in `unit`.
pub fn qv(c: &[QuadraticNumber; 3], unit: &str) -> QuadraticVectorOut {
    QuadraticVectorOut {
        value: [(&c[0]).into(), (&c[1]).into(), (&c[2]).into()],
        text: [c[0].to_string(), c[1].to_string(), c[2].to_string()],
        unit: unit.to_string(),
    }
}

/// Reads an exact number from a JSON string, holding it to the digit limit.
pub fn exact(v: &Value, path: &str, limits: &Limits) -> Result<Rational, ProtocolError> {
    let text = v.as_str().ok_or_else(|| ProtocolError::WrongType {
        path: path.to_string(),
        expected: "an exact number written as a string".into(),
        found: type_name(v),
    })?;
    let too_large = |digits| ProtocolError::NumberTooLarge {
        path: path.to_string(),
        digits,
        limit: limits.max_number_digits,
    };
    // Cheap guard before parsing: the text of a number within the limit is not much longer
    // than its two parts (sign, point, slash, exponent marks).
    let text_limit = 2 * limits.max_number_digits + 16;
    if text.len() > text_limit {
        return Err(too_large(text.len()));
    }
    let r: Rational = text.parse().map_err(|e| ProtocolError::InvalidNumber {
        path: path.to_string(),
        reason: format!("{e}"),
    })?;
    // `1e999` is short text but a long number: the limit applies to the value too.
    let (n, d) = r.decimal_digits();
    if n.max(d) > limits.max_number_digits {
        return Err(too_large(n.max(d)));
    }
    check_input(&r, path, limits)?;
    Ok(r)
}

/// Holds a value read from a request (after conversion to SI units) to the bit limit, so no
/// action starts work on a number larger than it may produce.
fn check_input(r: &Rational, path: &str, limits: &Limits) -> Result<(), ProtocolError> {
    let bits = r.bits();
    if bits > limits.max_rational_bits {
        return Err(ProtocolError::RationalTooLarge {
            bits,
            step: 0,
            limit: limits.max_rational_bits,
            path: Some(path.to_string()),
        });
    }
    Ok(())
}

/// Maps a unit parser or converter error to the protocol's codes.
pub fn unit_error(path: &str, e: UnitError) -> ProtocolError {
    let path = path.to_string();
    let reason = e.to_string();
    match e {
        UnitError::Unknown { .. } => ProtocolError::UnknownUnit { path, reason },
        UnitError::NotExact { .. } => ProtocolError::InexactUnit { path, reason },
        UnitError::FactorTooLarge { bits, limit, .. } => ProtocolError::UnitFactorTooLarge {
            path,
            reason,
            bits,
            limit,
        },
        UnitError::DimensionMismatch { left, right } => ProtocolError::DimensionMismatch {
            path,
            expected: describe(&right),
            found: describe(&left),
        },
        // Empty, malformed, power out of range, and any later parse refusal.
        _ => ProtocolError::MalformedUnit { path, reason },
    }
}

/// Reads `{"value","unit"}` and returns the value converted exactly to SI base units, after
/// checking the unit's dimension is `dim`.
pub fn quantity(
    v: &Value,
    path: &str,
    dim: Dimension,
    limits: &Limits,
) -> Result<Rational, ProtocolError> {
    let (value, unit_v) = parts(v, path)?;
    let value = exact(value, &format!("{path}.value"), limits)?;
    convert_in(&[value], unit_v, path, dim, limits).map(|mut v| v.remove(0))
}

/// Reads `{"value":[x,y,z],"unit"}` and returns the components in SI base units.
pub fn vector(
    v: &Value,
    path: &str,
    dim: Dimension,
    limits: &Limits,
) -> Result<[Rational; 3], ProtocolError> {
    let (value, unit_v) = parts(v, path)?;
    let items = value.as_array().ok_or_else(|| ProtocolError::WrongType {
        path: format!("{path}.value"),
        expected: "an array of three exact numbers".into(),
        found: type_name(value),
    })?;
    if items.len() != 3 {
        return Err(ProtocolError::InvalidValue {
            path: format!("{path}.value"),
            reason: format!("a vector has 3 components, got {}", items.len()),
        });
    }
    let mut comps = Vec::with_capacity(3);
    for (i, x) in items.iter().enumerate() {
        comps.push(exact(x, &format!("{path}.value[{i}]"), limits)?);
    }
    let si = convert_in(&comps, unit_v, path, dim, limits)?;
    let [x, y, z]: [Rational; 3] = si.try_into().map_err(|_| ProtocolError::InvalidValue {
        path: format!("{path}.value"),
        reason: "a vector has 3 components".into(),
    })?;
    Ok([x, y, z])
}

fn parts<'a>(v: &'a Value, path: &str) -> Result<(&'a Value, &'a Value), ProtocolError> {
    let m = v.as_object().ok_or_else(|| ProtocolError::WrongType {
        path: path.to_string(),
        expected: "a quantity object {\"value\",\"unit\"}".into(),
        found: type_name(v),
    })?;
    let get = |k: &str| {
        m.get(k).ok_or_else(|| ProtocolError::MissingArgument {
            path: format!("{path}.{k}"),
        })
    };
    Ok((get("value")?, get("unit")?))
}

fn convert_in(
    values: &[Rational],
    unit_v: &Value,
    path: &str,
    dim: Dimension,
    limits: &Limits,
) -> Result<Vec<Rational>, ProtocolError> {
    let unit_path = format!("{path}.unit");
    let text = unit_v.as_str().ok_or_else(|| ProtocolError::WrongType {
        path: unit_path.clone(),
        expected: "a unit string".into(),
        found: type_name(unit_v),
    })?;
    let unit = parse_unit(text).map_err(|e| unit_error(&unit_path, e))?;
    if unit.dim() != dim {
        return Err(ProtocolError::DimensionMismatch {
            path: unit_path,
            expected: describe(&dim),
            found: describe(&unit.dim()),
        });
    }
    let value_path = format!("{path}.value");
    values
        .iter()
        .map(|x| {
            let si = unit.to_si_exact(x).map_err(|e| unit_error(&unit_path, e))?;
            check_input(&si, &value_path, limits)?;
            Ok(si)
        })
        .collect()
}

/// [`check_bits`] over both rational parts of quadratic-field values.
pub fn check_quadratic_bits<'a>(
    values: impl IntoIterator<Item = &'a QuadraticNumber>,
    limits: &Limits,
) -> Result<(), ProtocolError> {
    let parts: Vec<&Rational> = values
        .into_iter()
        .flat_map(|x| [x.rational(), x.sqrt_coefficient()])
        .collect();
    check_bits(parts, 0, limits)
}

/// Fails with `rational_too_large` when any value has more bits than the limit allows.
pub fn check_bits<'a>(
    values: impl IntoIterator<Item = &'a Rational>,
    step: u64,
    limits: &Limits,
) -> Result<(), ProtocolError> {
    let bits = values.into_iter().map(Rational::bits).max().unwrap_or(0);
    if bits > limits.max_rational_bits {
        return Err(ProtocolError::RationalTooLarge {
            bits,
            step,
            limit: limits.max_rational_bits,
            path: None,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const LENGTH: Dimension = Dimension::from_ints([1, 0, 0, 0, 0, 0, 0]);

    fn r(s: &str) -> Rational {
        s.parse().unwrap()
    }

    #[test]
    fn quantities_are_converted_exactly_to_si() {
        let l = Limits::default();
        let got = quantity(&json!({"value": "0.1", "unit": "km"}), "args.x", LENGTH, &l).unwrap();
        assert_eq!(got, r("100"));
        let v = vector(
            &json!({"value": ["1", "-1/3", "2.5"], "unit": "cm"}),
            "args.p",
            LENGTH,
            &l,
        )
        .unwrap();
        assert_eq!(v, [r("1/100"), r("-1/300"), r("1/40")]);
    }

    #[test]
    fn each_refusal_has_its_code() {
        let l = Limits::default();
        let code = |v: Value| quantity(&v, "args.x", LENGTH, &l).unwrap_err().code();
        assert_eq!(
            code(json!({"value": "1", "unit": "s"})),
            "dimension_mismatch"
        );
        assert_eq!(code(json!({"value": "1", "unit": "mtr"})), "unknown_unit");
        assert_eq!(code(json!({"value": "1", "unit": "m^"})), "malformed_unit");
        assert_eq!(code(json!({"value": "x", "unit": "m"})), "invalid_number");
        assert_eq!(code(json!({"value": 1, "unit": "m"})), "wrong_type");
        assert_eq!(
            code(json!({"value": "1e2000", "unit": "m"})),
            "number_too_large"
        );
        let long = "9".repeat(5_000);
        assert_eq!(
            code(json!({"value": long, "unit": "m"})),
            "number_too_large"
        );
        let e = vector(&json!({"value": ["1", "2"], "unit": "m"}), "p", LENGTH, &l);
        assert_eq!(e.unwrap_err().code(), "invalid_value");
    }

    #[test]
    fn digit_limit_is_inclusive() {
        let l = Limits {
            max_number_digits: 3,
            ..Limits::default()
        };
        assert!(exact(&json!("999/100"), "x", &l).is_ok());
        assert_eq!(
            exact(&json!("1000"), "x", &l).unwrap_err().code(),
            "number_too_large"
        );
    }
}
