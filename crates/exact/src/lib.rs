//! Exact big rationals for the exact engine.
//!
//! Takes in decimal, scientific and fraction text (`3`, `-3/4`, `0.125`, `1.5e-3`) and hands on
//! [`Rational`], an arbitrary-precision rational always kept in lowest terms, with exact ring and
//! field operations. No binary floating point ever enters a [`Rational`]: the only float-facing
//! function is the explicitly lossy [`Rational::to_f64_lossy`], meant for display and plots.
//! [`QuadraticNumber`] extends it to exact elements `a + b·√d` of a real quadratic field.
//!
//! The big-integer backend is `dashu` (MIT OR Apache-2.0), chosen by measurement (see
//! `docs/performance.md`). It is hidden behind the [`Rational`] newtype so that it can change
//! without touching the rest of the workspace.

mod affine;
mod error;
mod field;
mod parse;
mod quadratic;
mod rational;

pub use affine::{AffineMap, SharedDenominator};
pub use error::{ArithmeticError, ParseRationalError};
pub use field::Field;
pub use parse::MAX_EXPONENT;
pub use quadratic::{QuadraticNumber, SQUARE_FREE_BOUND};
pub use rational::Rational;
