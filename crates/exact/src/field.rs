//! The exact field operations shared by [`Rational`] and `f64`.
//!
//! Code written against [`Field`] can run on exact rationals or, where that is wanted, on
//! floats; what needs `sqrt`, `exp` or `sin` is deliberately not here, so the exact path can
//! never reach for them by accident.

use crate::{ArithmeticError, Rational};
use std::ops::{Add, Mul, Neg, Sub};

/// Ring operations plus checked division: what exact mechanics needs of a number.
pub trait Field:
    Clone
    + PartialEq
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Neg<Output = Self>
{
    /// The additive identity.
    fn zero() -> Self;
    /// The multiplicative identity.
    fn one() -> Self;
    /// Division that refuses a zero divisor instead of producing infinity or panicking.
    fn checked_div(&self, rhs: &Self) -> Result<Self, ArithmeticError>;
}

impl Field for Rational {
    fn zero() -> Self {
        Rational::zero()
    }
    fn one() -> Self {
        Rational::one()
    }
    fn checked_div(&self, rhs: &Self) -> Result<Self, ArithmeticError> {
        Rational::checked_div(self, rhs)
    }
}

impl Field for f64 {
    fn zero() -> Self {
        0.0
    }
    fn one() -> Self {
        1.0
    }
    fn checked_div(&self, rhs: &Self) -> Result<Self, ArithmeticError> {
        if *rhs == 0.0 {
            Err(ArithmeticError::DivisionByZero)
        } else {
            Ok(self / rhs)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mean<F: Field>(a: F, b: F) -> Result<F, ArithmeticError> {
        (a + b).checked_div(&(F::one() + F::one()))
    }

    #[test]
    fn generic_code_runs_exactly_and_in_floats() {
        assert_eq!(
            mean(Rational::from(1), Rational::new(1, 3).unwrap()).unwrap(),
            Rational::new(2, 3).unwrap()
        );
        assert_eq!(mean(1.0_f64, 2.0).unwrap(), 1.5);
        assert_eq!(
            1.0_f64.checked_div(&0.0),
            Err(ArithmeticError::DivisionByZero)
        );
    }
}
