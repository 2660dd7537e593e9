//! The meaning of every scalar operation, in one place: constant folding and the
//! interpreter both call these, and the Rust code generator must emit the same formulas,
//! so every back end computes the same bits.

use crate::ir::{BinOp, UnOp};
pub use physis_runtime::scalar::{SOLVE_MIN_PIVOT, powi, select, sign, solve_in_place};

/// `op a`.
#[inline]
pub fn unary(op: UnOp, a: f64) -> f64 {
    match op {
        UnOp::Neg => -a,
        UnOp::Abs => a.abs(),
        UnOp::Sign => sign(a),
        UnOp::Sqrt => a.sqrt(),
        UnOp::Exp => a.exp(),
        UnOp::Log => a.ln(),
        UnOp::Log10 => a.log10(),
        UnOp::Floor => a.floor(),
        UnOp::Ceil => a.ceil(),
        UnOp::Sin => a.sin(),
        UnOp::Cos => a.cos(),
        UnOp::Tan => a.tan(),
        UnOp::Asin => a.asin(),
        UnOp::Acos => a.acos(),
        UnOp::Atan => a.atan(),
        UnOp::Sinh => a.sinh(),
        UnOp::Cosh => a.cosh(),
        UnOp::Tanh => a.tanh(),
    }
}

/// `a op b`.
#[inline]
pub fn binary(op: BinOp, a: f64, b: f64) -> f64 {
    match op {
        BinOp::Add => a + b,
        BinOp::Sub => a - b,
        BinOp::Mul => a * b,
        BinOp::Div => a / b,
        BinOp::Pow => a.powf(b),
        BinOp::Atan2 => a.atan2(b),
        BinOp::Hypot => a.hypot(b),
        BinOp::Min => a.min(b),
        BinOp::Max => a.max(b),
        BinOp::Lt => truth(a < b),
        BinOp::Le => truth(a <= b),
        BinOp::Gt => truth(a > b),
        BinOp::Ge => truth(a >= b),
        BinOp::Eq => truth(a == b),
        BinOp::Ne => truth(a != b),
    }
}

fn truth(b: bool) -> f64 {
    if b { 1.0 } else { 0.0 }
}
