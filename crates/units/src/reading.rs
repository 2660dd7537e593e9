//! Reading a typed quantity such as `50 m/s`, `70 deg` or a bare `0.5` as a float in SI base
//! units of an expected dimension: the one rule behind the CLI's `--set`, `--step` and sweeps
//! and the Python keywords.

use crate::{Dimension, UnitError, describe, parse_unit};
use thiserror::Error;

/// Why a typed quantity could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ReadError {
    /// The text does not start with a decimal number.
    #[error("`{text}` does not start with a number")]
    NotANumber {
        /// The text as typed (trimmed).
        text: String,
    },
    /// The number itself overflows a 64-bit float.
    #[error("`{text}` is not a finite number")]
    NotFinite {
        /// The text as typed (trimmed).
        text: String,
    },
    /// The unit after the number does not parse.
    #[error("{source}")]
    Unit {
        /// The text as typed (trimmed).
        text: String,
        /// The unit parser's error.
        source: UnitError,
    },
    /// The quantity has another dimension than the one expected.
    #[error(
        "`{text}` is {}, expected {}{}",
        describe(.found),
        describe(.expected),
        if *.bare { " (write the value with its unit)" } else { "" }
    )]
    WrongDimension {
        /// The text as typed (trimmed).
        text: String,
        /// Its dimension.
        found: Dimension,
        /// The dimension expected.
        expected: Dimension,
        /// Whether the text had no unit at all.
        bare: bool,
    },
    /// Finite as typed, but not once converted to SI.
    #[error("`{text}` is beyond the range of a 64-bit float once converted to SI")]
    BeyondRange {
        /// The text as typed (trimmed).
        text: String,
    },
}

/// Reads `text` (a number, then optionally a unit) as a finite SI value of dimension `dim`.
/// (The error is boxed: it carries two dimensions and the text, and the value is one float.)
pub fn read_si(text: &str, dim: Dimension) -> Result<f64, Box<ReadError>> {
    read(text, dim).map_err(Box::new)
}

// Boxed once, at the public boundary.
#[allow(clippy::result_large_err)]
fn read(text: &str, dim: Dimension) -> Result<f64, ReadError> {
    let text = text.trim();
    let owned = || text.to_string();
    let (number, unit) = text.split_at(number_prefix_len(text));
    let value: f64 = number
        .parse()
        .map_err(|_| ReadError::NotANumber { text: owned() })?;
    if !value.is_finite() {
        return Err(ReadError::NotFinite { text: owned() });
    }
    let unit = unit.trim();
    let (scale, found) = if unit.is_empty() {
        (1.0, Dimension::NONE)
    } else {
        let u = parse_unit(unit).map_err(|source| ReadError::Unit {
            text: owned(),
            source,
        })?;
        (u.scale_f64(), u.dim())
    };
    if found != dim {
        return Err(ReadError::WrongDimension {
            text: owned(),
            found,
            expected: dim,
            bare: unit.is_empty(),
        });
    }
    let si = value * scale;
    if !si.is_finite() {
        return Err(ReadError::BeyondRange { text: owned() });
    }
    Ok(si)
}

/// Length in bytes of the leading decimal number of `text` (sign, digits, point, exponent).
pub fn number_prefix_len(text: &str) -> usize {
    let b = text.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
        i += 1;
    }
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
        i += 1;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if j < b.len() && (b[j] == b'-' || b[j] == b'+') {
            j += 1;
        }
        if j < b.len() && b[j].is_ascii_digit() {
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            i = j;
        }
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dims;

    #[allow(clippy::result_large_err)]
    fn read_si(text: &str, dim: Dimension) -> Result<f64, ReadError> {
        super::read_si(text, dim).map_err(|e| *e)
    }

    #[test]
    fn quantities_are_read_in_si_of_their_dimension() {
        assert_eq!(read_si("50 m/s", dims::VELOCITY), Ok(50.0));
        let kmh = read_si(" 36 km/h ", dims::VELOCITY).unwrap_or(f64::NAN);
        assert!((kmh - 10.0).abs() < 1e-12);
        assert_eq!(read_si("1e-3 s", dims::TIME), Ok(1e-3));
        let deg = read_si("90 deg", Dimension::NONE).unwrap_or(f64::NAN);
        assert!((deg - std::f64::consts::FRAC_PI_2).abs() < 1e-15);
        assert_eq!(read_si("-2.5e+2", Dimension::NONE), Ok(-250.0));
    }

    #[test]
    fn each_way_of_failing_has_its_error() {
        let v = dims::VELOCITY;
        assert!(matches!(
            read_si("abc", v),
            Err(ReadError::NotANumber { .. })
        ));
        assert!(matches!(
            read_si("1e999 m/s", v),
            Err(ReadError::NotFinite { .. })
        ));
        assert!(matches!(
            read_si("1 furlong", v),
            Err(ReadError::Unit { .. })
        ));
        let bare = read_si("50", v).unwrap_err();
        assert!(
            bare.to_string()
                .ends_with("(write the value with its unit)")
        );
        assert!(matches!(
            read_si("50 s", v),
            Err(ReadError::WrongDimension { bare: false, .. })
        ));
        assert!(matches!(
            read_si("1e308 Qm/s", v),
            Err(ReadError::BeyondRange { .. })
        ));
    }

    #[test]
    fn the_number_prefix_stops_before_the_unit() {
        assert_eq!(number_prefix_len("12.5e-3 m"), 7);
        assert_eq!(number_prefix_len("3 e"), 1);
        assert_eq!(number_prefix_len("2em"), 1);
        assert_eq!(number_prefix_len("m"), 0);
    }
}
