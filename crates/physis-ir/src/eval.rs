//! The scalar semantics the interpreter and constant folding use, written once in
//! `physis_runtime::scalar` (which generated code calls too, so every back end computes the
//! same bits) and re-exported here.

use crate::ir::{BinOp, UnOp};
pub use physis_runtime::scalar::{
    PowRule, SOLVE_MIN_PIVOT, pow_known, pow_rule, powi, select, sign, solve_in_place,
};

/// `op a`.
#[inline]
pub fn unary(op: UnOp, a: f64) -> f64 {
    op.apply(a)
}

/// `a op b`.
#[inline]
pub fn binary(op: BinOp, a: f64, b: f64) -> f64 {
    op.apply(a, b)
}
