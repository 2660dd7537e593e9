//! The scalar functions compiled code calls: each one the very function of
//! `physis_runtime::scalar` that the interpreter and generated code call, behind a C calling
//! convention, registered with the JIT by name. So a sine computed natively is the sine the
//! tape computes, bit for bit, whatever libm the platform has.

use physis_runtime::scalar::{self as s, BinOp, UnOp};

/// The symbol and address of `op`'s function, or `None` for an operation compiled inline
/// (negation, absolute value, square root: exact in IEEE arithmetic, one instruction).
pub(crate) fn unary(op: UnOp) -> Option<(&'static str, *const u8)> {
    macro_rules! wrap {
        ($f:ident) => {{
            extern "C" fn $f(a: f64) -> f64 {
                s::$f(a)
            }
            Some((concat!("physis_", stringify!($f)), $f as *const u8))
        }};
    }
    // Every variant named, so a new operation is a compile error here.
    match op {
        UnOp::Neg | UnOp::Abs | UnOp::Sqrt => None,
        UnOp::Sign => wrap!(sign),
        UnOp::Exp => wrap!(exp),
        UnOp::Log => wrap!(log),
        UnOp::Log10 => wrap!(log10),
        UnOp::Floor => wrap!(floor),
        UnOp::Ceil => wrap!(ceil),
        UnOp::Sin => wrap!(sin),
        UnOp::Cos => wrap!(cos),
        UnOp::Tan => wrap!(tan),
        UnOp::Asin => wrap!(asin),
        UnOp::Acos => wrap!(acos),
        UnOp::Atan => wrap!(atan),
        UnOp::Sinh => wrap!(sinh),
        UnOp::Cosh => wrap!(cosh),
        UnOp::Tanh => wrap!(tanh),
    }
}

/// As [`unary`], for two operands: the four arithmetic operations and the comparisons are
/// compiled inline (IEEE operations and ordered compares, as Rust's), the rest called.
pub(crate) fn binary(op: BinOp) -> Option<(&'static str, *const u8)> {
    macro_rules! wrap {
        ($f:ident) => {{
            extern "C" fn $f(a: f64, b: f64) -> f64 {
                s::$f(a, b)
            }
            Some((concat!("physis_", stringify!($f)), $f as *const u8))
        }};
    }
    match op {
        BinOp::Add
        | BinOp::Sub
        | BinOp::Mul
        | BinOp::Div
        | BinOp::Lt
        | BinOp::Le
        | BinOp::Gt
        | BinOp::Ge
        | BinOp::Eq
        | BinOp::Ne => None,
        BinOp::Pow => wrap!(pow),
        BinOp::Atan2 => wrap!(atan2),
        BinOp::Hypot => wrap!(hypot),
        BinOp::Min => wrap!(min),
        BinOp::Max => wrap!(max),
    }
}

/// `aⁿ` as the tape computes it ([`s::powi`]), for a whole exponent.
pub(crate) extern "C" fn powi(a: f64, n: i32) -> f64 {
    s::powi(a, n)
}

/// The symbol [`powi`] is registered under.
pub(crate) const POWI: &str = "physis_powi";

/// Every symbol compiled code may call, with its address.
pub(crate) fn symbols() -> Vec<(&'static str, *const u8)> {
    let mut v: Vec<(&'static str, *const u8)> =
        UnOp::ALL.iter().filter_map(|op| unary(*op)).collect();
    v.extend(BinOp::ALL.iter().filter_map(|op| binary(*op)));
    v.push((POWI, powi as *const u8));
    v
}
