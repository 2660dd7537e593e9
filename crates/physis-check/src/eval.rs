//! Constant folding of checked expressions (param defaults, settings, run overrides).

use crate::expr::{ArithOp, Builtin, Expr, ExprKind};
use crate::model::Value;

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
        ExprKind::Neg(x) => Some(map(constant(x)?, |v| -v)),
        ExprKind::Binary { op, lhs, rhs } => {
            let f = match op {
                ArithOp::Add => |a: f64, b: f64| a + b,
                ArithOp::Sub => |a, b| a - b,
                ArithOp::Mul => |a, b| a * b,
                ArithOp::Div => |a, b| a / b,
            };
            zip(constant(lhs)?, constant(rhs)?, f)
        }
        ExprKind::Pow { base, exponent } => zip(constant(base)?, constant(exponent)?, f64::powf),
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
        Sin => unary(f64::sin),
        Cos => unary(f64::cos),
        Tan => unary(f64::tan),
        Asin => unary(f64::asin),
        Acos => unary(f64::acos),
        Atan => unary(f64::atan),
        Sinh => unary(f64::sinh),
        Cosh => unary(f64::cosh),
        Tanh => unary(f64::tanh),
        Exp => unary(f64::exp),
        Log => unary(f64::ln),
        Log10 => unary(f64::log10),
        Sqrt => unary(f64::sqrt),
        Abs => unary(f64::abs),
        Sign => unary(|x| if x == 0.0 { 0.0 } else { x.signum() }),
        Floor => unary(f64::floor),
        Ceil => unary(f64::ceil),
        Min => zip(a, constant(args.get(1)?)?, f64::min),
        Max => zip(a, constant(args.get(1)?)?, f64::max),
        Atan2 => zip(a, constant(args.get(1)?)?, f64::atan2),
        Hypot => zip(a, constant(args.get(1)?)?, f64::hypot),
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
