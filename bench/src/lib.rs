//! Anchor benchmarks for the exact engine's big-rational backend.
//!
//! Takes in: the anchor problems E1 (Hooke spring with linear drag) and E2 (uniform gravity),
//! both advanced by symplectic Euler in exact rationals (see `/work/shared/ANCHORS.md`).
//! Hands on: one [`Rational`] implementation per candidate crate, a generic runner that times the
//! stepping alone, and an [`Outcome`] with the final state as canonical `p/q` strings and the
//! largest numerator/denominator bit sizes, so that every candidate (and the Python anchors) can
//! be checked for the identical final state before any time is compared.
//!
//! [`side`] is the ODE harness: ours (generated and interpreted), diffsol, a hand-written
//! Dormand–Prince and SciPy on the ODE anchors, timed side by side in one run.

pub mod candidates;
pub mod engine;
pub mod problems;
pub mod side;

pub use candidates::{Candidate, all_candidates};
pub use problems::{E1, E2, Outcome, Problem, Rational};
