//! [`Unit`]: a parsed unit expression, and exact conversion between units.

use crate::parse::parse_scale;
use crate::{Dimension, UnitError};
use exact::Rational;
use std::fmt;

/// A unit: an exact factor to SI base units (times an optional power of π) and a dimension.
///
/// `km/h` has factor 5/18 and dimension `L·T⁻¹`; `deg` has factor π/180 and no dimension.
#[derive(Clone, PartialEq, Eq)]
pub struct Unit {
    text: String,
    factor: Rational,
    pi_power: i32,
    dim: Dimension,
}

/// Parses a unit expression in ASCII or Unicode spelling (`m/s^2`, `m/s²`, `kg·m²`, `N*m/A`,
/// `mol⁻¹`, `1/mol`, `J/(kg·K)`, `s^(-1/2)`).
pub fn parse_unit(text: &str) -> Result<Unit, UnitError> {
    let s = parse_scale(text)?;
    Ok(Unit {
        text: text.trim().to_string(),
        factor: s.factor,
        pi_power: s.pi,
        dim: s.dim,
    })
}

/// True when `name` is a single catalog symbol, possibly with an SI prefix (`m`, `ms`, `Hz`,
/// `Ω`, `deg`, `kg`). Language front ends use it to decide where a unit after a number ends.
pub fn is_unit_symbol(name: &str) -> bool {
    crate::catalog::resolve(name).is_some()
}

impl Unit {
    /// The SI base unit of a dimension (factor one).
    pub fn si(dim: Dimension) -> Unit {
        Unit {
            text: dim.si_unit(),
            factor: Rational::one(),
            pi_power: 0,
            dim,
        }
    }

    /// The expression as written (trimmed).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The dimension.
    pub fn dim(&self) -> Dimension {
        self.dim
    }

    /// The exact factor to SI base units, refused when the unit carries π (e.g. `deg`).
    pub fn exact_factor(&self) -> Result<Rational, UnitError> {
        if self.pi_power == 0 {
            Ok(self.factor.clone())
        } else {
            Err(UnitError::NotExact {
                unit: self.text.clone(),
                reason: pi_reason(&self.text),
            })
        }
    }

    /// The rational part of the factor and the power of π multiplying it.
    pub fn factor_parts(&self) -> (&Rational, i32) {
        (&self.factor, self.pi_power)
    }

    /// The factor to SI base units as a float, for the floating-point half (Physis).
    pub fn scale_f64(&self) -> f64 {
        let pi = std::f64::consts::PI;
        let direct = self.factor.to_f64_lossy() * pi.powi(self.pi_power);
        if direct.is_finite() && (direct != 0.0 || self.factor.is_zero()) {
            return direct;
        }
        // A part over- or underflowed alone (`(deg^-35)^18` is 180^630 times π^-630, which as
        // separate floats is ∞·0 = NaN): take the factor's binary exponent out exactly and join
        // the parts through logarithms.
        let e = self.factor.numerator_bits() as i64 - self.factor.denominator_bits() as i64;
        let mantissa = Rational::from(2i64)
            .pow(-e)
            .map_or(f64::NAN, |two| (&self.factor * &two).to_f64_lossy());
        let log2 = e as f64 + mantissa.abs().log2() + f64::from(self.pi_power) * pi.log2();
        mantissa.signum() * log2.exp2()
    }

    /// A value in this unit expressed exactly in SI base units.
    pub fn to_si_exact(&self, value: &Rational) -> Result<Rational, UnitError> {
        Ok(value * self.exact_factor()?)
    }

    /// Exact conversion of `value` from `self` to `to`. Dimensions must agree; any scale is fine.
    /// Factors of π must cancel (`deg` to `deg` is exact, `deg` to `rad` is not).
    pub fn convert_exact(&self, value: &Rational, to: &Unit) -> Result<Rational, UnitError> {
        if self.dim != to.dim {
            return Err(UnitError::DimensionMismatch {
                left: self.dim,
                right: to.dim,
            });
        }
        if self.pi_power != to.pi_power {
            let culprit = if self.pi_power != 0 {
                &self.text
            } else {
                &to.text
            };
            return Err(UnitError::NotExact {
                unit: culprit.clone(),
                reason: pi_reason(culprit),
            });
        }
        // checked_div cannot fail: catalog factors are non-zero and products of them stay so.
        let ratio = self
            .factor
            .checked_div(&to.factor)
            .map_err(|_| UnitError::Malformed {
                text: to.text.clone(),
                reason: "zero scale factor".into(),
            })?;
        Ok(value * ratio)
    }
}

fn pi_reason(text: &str) -> String {
    format!(
        "its scale factor contains π (a `{text}` is an irrational number of radians); use it in floating-point work, or convert angles in rad"
    )
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl fmt::Debug for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Unit({} = {}·π^{} {})",
            self.text, self.factor, self.pi_power, self.dim
        )
    }
}
