//! The exact engine: dimension-checked particle mechanics in exact rational arithmetic.
//!
//! Takes in exact rationals ([`exact::Rational`]) with SI dimensions ([`units::Dimension`]) and
//! hands on particles, worlds, forces, symplectic Euler trajectories, diagnostics, sphere
//! contacts, elastic collision responses and certified continuous-contact verdicts. Nothing on
//! this path is a binary float: every result is exact, and every mismatch of dimensions is an
//! error rather than a coercion.

pub mod constants;
