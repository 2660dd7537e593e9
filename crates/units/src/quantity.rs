//! [`Quantity`]: an exact rational value with a dimension, in SI base units.

use crate::{Dimension, Unit, UnitError};
use exact::Rational;
use std::fmt;

/// An exact value in SI base units together with its dimension.
///
/// Addition and subtraction demand equal dimensions; multiplication and division compose them.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Quantity {
    value: Rational,
    dim: Dimension,
}

impl Quantity {
    /// A quantity already in SI base units.
    pub fn new(value: Rational, dim: Dimension) -> Self {
        Quantity { value, dim }
    }

    /// A pure number.
    pub fn dimensionless(value: Rational) -> Self {
        Quantity {
            value,
            dim: Dimension::NONE,
        }
    }

    /// `value` in `unit`, converted exactly to SI base units (refuses units carrying π).
    pub fn in_unit(value: &Rational, unit: &Unit) -> Result<Self, UnitError> {
        Ok(Quantity {
            value: unit.to_si_exact(value)?,
            dim: unit.dim(),
        })
    }

    /// The value in SI base units.
    pub fn value(&self) -> &Rational {
        &self.value
    }

    /// The dimension.
    pub fn dim(&self) -> Dimension {
        self.dim
    }

    /// Fails unless the dimension is `expected`.
    pub fn expect_dim(&self, expected: Dimension) -> Result<&Rational, UnitError> {
        if self.dim == expected {
            Ok(&self.value)
        } else {
            Err(UnitError::DimensionMismatch {
                left: self.dim,
                right: expected,
            })
        }
    }

    /// Exact sum; the dimensions must agree.
    pub fn checked_add(&self, o: &Quantity) -> Result<Quantity, UnitError> {
        self.same_dim(o)?;
        Ok(Quantity {
            value: &self.value + &o.value,
            dim: self.dim,
        })
    }

    /// Exact difference; the dimensions must agree.
    pub fn checked_sub(&self, o: &Quantity) -> Result<Quantity, UnitError> {
        self.same_dim(o)?;
        Ok(Quantity {
            value: &self.value - &o.value,
            dim: self.dim,
        })
    }

    /// Exact product with composed dimension.
    pub fn mul(&self, o: &Quantity) -> Quantity {
        Quantity {
            value: &self.value * &o.value,
            dim: self.dim * o.dim,
        }
    }

    /// Exact quotient with composed dimension; `None` when dividing by zero.
    pub fn checked_div(&self, o: &Quantity) -> Option<Quantity> {
        Some(Quantity {
            value: self.value.checked_div(&o.value).ok()?,
            dim: self.dim / o.dim,
        })
    }

    /// The value expressed in another unit of the same dimension.
    pub fn value_in(&self, unit: &Unit) -> Result<Rational, UnitError> {
        Unit::si(self.dim).convert_exact(&self.value, unit)
    }

    fn same_dim(&self, o: &Quantity) -> Result<(), UnitError> {
        if self.dim == o.dim {
            Ok(())
        } else {
            Err(UnitError::DimensionMismatch {
                left: self.dim,
                right: o.dim,
            })
        }
    }
}

impl fmt::Display for Quantity {
    /// `9/2 m`, `1/10 kg*m/s`, or the bare number when dimensionless.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.dim.is_dimensionless() {
            write!(f, "{}", self.value)
        } else {
            write!(f, "{} {}", self.value, self.dim.si_unit())
        }
    }
}

impl fmt::Debug for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Quantity({self})")
    }
}
