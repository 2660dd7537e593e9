//! Errors of exact parsing and arithmetic.

use crate::Rational;
use thiserror::Error;

/// Why a text could not be read as an exact rational.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParseRationalError {
    /// The text was empty or only white space.
    #[error("empty number")]
    Empty,
    /// The text is not a decimal, scientific or fraction literal.
    #[error("`{text}` is not an exact number (expected forms like 3, -3/4, 0.125 or 1.5e-3)")]
    Malformed {
        /// The offending text.
        text: String,
    },
    /// A fraction whose denominator is zero.
    #[error("`{text}` divides by zero")]
    ZeroDenominator {
        /// The offending text.
        text: String,
    },
    /// A decimal exponent whose size exceeds [`crate::MAX_EXPONENT`].
    #[error("exponent {exponent} in `{text}` is too large to hold exactly (limit ±{limit})")]
    ExponentTooLarge {
        /// The offending text.
        text: String,
        /// The exponent as written, clamped to the range of `i64` when longer.
        exponent: i64,
        /// The limit in force.
        limit: u32,
    },
}

/// A failed exact arithmetic operation.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ArithmeticError {
    /// Division by an exact zero.
    #[error("division by zero")]
    DivisionByZero,
    /// A power whose result would be too large to compute.
    #[error("exponent {exponent} is too large for an exact power")]
    PowerTooLarge {
        /// The requested exponent.
        exponent: i64,
    },
    /// A square root of a negative radicand, which is not real.
    #[error("the radicand {radicand} is negative; its square root is not real")]
    NegativeRadicand {
        /// The radicand.
        radicand: Rational,
    },
    /// Two quadratic irrationals from different fields Q(√left) and Q(√right).
    #[error("√{left} and √{right} lie in different quadratic fields")]
    MixedRadicands {
        /// The radicand of the left operand.
        left: Rational,
        /// The radicand of the right operand.
        right: Rational,
    },
}
