//! Constant folding of checked expressions (param defaults, settings, run overrides), by the
//! same scalar functions the runs use (`physis_runtime::scalar`), so a folded value has the
//! bits a run would compute.

use crate::expr::{ArithOp, Builtin, Expr, ExprKind};
use crate::model::Value;
use physis_runtime::scalar;

/// The value of an expression that reads no param, state, time or noise; `None` otherwise
/// (or when a function has no constant rule, such as a grid operator).
pub fn constant(e: &Expr) -> Option<Value> {
    match &e.kind {
        ExprKind::Const(v) | ExprKind::Constant { value: v, .. } => Some(Value::Scalar(*v)),
        ExprKind::Vector(items) => {
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                match constant(item)? {
                    Value::Scalar(v) => out.push(v),
                    Value::Vector(_) => return None,
                }
            }
            Some(Value::Vector(out))
        }
        ExprKind::Neg(x) => Some(map(constant(x)?, scalar::neg)),
        ExprKind::Binary { op, lhs, rhs } => {
            let f = match op {
                ArithOp::Add => scalar::add,
                ArithOp::Sub => scalar::sub,
                ArithOp::Mul => scalar::mul,
                ArithOp::Div => scalar::div,
            };
            zip(constant(lhs)?, constant(rhs)?, f)
        }
        ExprKind::Pow { base, exponent } => {
            zip(constant(base)?, constant(exponent)?, scalar::pow_known)
        }
        ExprKind::Index { base, index } => match (constant(base)?, index.as_slice()) {
            (Value::Vector(v), [i]) => v.get(*i).copied().map(Value::Scalar),
            _ => None,
        },
        ExprKind::Call { func, args } => call(*func, args),
        _ => None,
    }
}

fn call(func: Builtin, args: &[Expr]) -> Option<Value> {
    use Builtin::*;
    let a = constant(args.first()?)?;
    let unary = |f: fn(f64) -> f64| Some(map(a.clone(), f));
    match func {
        Sin => unary(scalar::sin),
        Cos => unary(scalar::cos),
        Tan => unary(scalar::tan),
        Asin => unary(scalar::asin),
        Acos => unary(scalar::acos),
        Atan => unary(scalar::atan),
        Sinh => unary(scalar::sinh),
        Cosh => unary(scalar::cosh),
        Tanh => unary(scalar::tanh),
        Exp => unary(scalar::exp),
        Log => unary(scalar::log),
        Log10 => unary(scalar::log10),
        Sqrt => unary(scalar::sqrt),
        Abs => unary(scalar::abs),
        Sign => unary(scalar::sign),
        Floor => unary(scalar::floor),
        Ceil => unary(scalar::ceil),
        Min => zip(a, constant(args.get(1)?)?, scalar::min),
        Max => zip(a, constant(args.get(1)?)?, scalar::max),
        Atan2 => zip(a, constant(args.get(1)?)?, scalar::atan2),
        Hypot => zip(a, constant(args.get(1)?)?, scalar::hypot),
        Norm => Some(Value::Scalar(
            a.components().iter().map(|x| x * x).sum::<f64>().sqrt(),
        )),
        Dot => {
            let b = constant(args.get(1)?)?;
            let s = a
                .components()
                .iter()
                .zip(b.components())
                .map(|(x, y)| x * y)
                .sum();
            Some(Value::Scalar(s))
        }
        _ => None,
    }
}

fn map(v: Value, f: impl Fn(f64) -> f64) -> Value {
    match v {
        Value::Scalar(x) => Value::Scalar(f(x)),
        Value::Vector(xs) => Value::Vector(xs.into_iter().map(f).collect()),
    }
}

fn zip(a: Value, b: Value, f: impl Fn(f64, f64) -> f64) -> Option<Value> {
    Some(match (a, b) {
        (Value::Scalar(x), Value::Scalar(y)) => Value::Scalar(f(x, y)),
        (Value::Scalar(x), Value::Vector(ys)) => {
            Value::Vector(ys.into_iter().map(|y| f(x, y)).collect())
        }
        (Value::Vector(xs), Value::Scalar(y)) => {
            Value::Vector(xs.into_iter().map(|x| f(x, y)).collect())
        }
        (Value::Vector(xs), Value::Vector(ys)) => {
            if xs.len() != ys.len() {
                return None;
            }
            Value::Vector(xs.into_iter().zip(ys).map(|(x, y)| f(x, y)).collect())
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `sign(−0.0)` folds to `−0.0`, as a run computes it (it once folded to `+0.0`).
    #[test]
    fn folding_keeps_the_runtime_bits() {
        let checked = crate::check_source(
            "simulate S {\n  param a : Dimensionless = sign(-0.0)\n  param b : Dimensionless = 3^0.5\n  \
             state y : Length = 1 m\n  law y' = 0 m/s\n  stop when t > 1 s\n}\n",
        );
        assert!(!checked.has_errors(), "{:#?}", checked.diagnostics);
        let model = checked.program.model("S").unwrap();
        let value = |name: &str| {
            let p = model.params.iter().find(|p| p.name == name).unwrap();
            match p.default {
                Value::Scalar(v) => v,
                Value::Vector(_) => unreachable!(),
            }
        };
        assert_eq!(value("a").to_bits(), (-0.0f64).to_bits());
        assert_eq!(value("b").to_bits(), 3f64.sqrt().to_bits());
    }
}
