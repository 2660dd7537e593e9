//! The drift of a rate: the rate with its white noises taken out.
//!
//! A law checked affine in its noises reads `a + Σ b_k·w_k`, and its drift is `a`.
//! Evaluating the rate with `w = 0` gives `a` as well, but still computes every `b_k·0`:
//! operations wasted in each step of a stochastic scheme (a third of a geometric Brownian
//! motion's rate), and a NaN drift wherever a `b_k` overflows. Here a noise is a
//! *structural* zero instead: products and quotients of it vanish, sums and differences
//! drop it, and only an operation with no such rule sees a literal zero.

use crate::builder::Builder;
use crate::error::IrError;
use crate::ir::{BinOp, Function, Op, ReduceOp, Source, Ty, UnOp, ValueId};
use crate::tangent::{LoadRef, Subst, live_outputs, zero};

/// A value of the drift: built, or a noise term known to be zero.
#[derive(Clone, Copy)]
enum Val {
    V(ValueId),
    Zero(Ty),
}

/// Outputs `which` of the rate `f` with its noises taken out, built into `b`; `subst`
/// gives every other load (as for [`crate::tangent::inline`]).
pub(crate) fn inline_drift(
    b: &mut Builder,
    f: &Function,
    which: &[usize],
    subst: &mut Subst<'_>,
) -> Result<Vec<ValueId>, IrError> {
    let (outs, live) = live_outputs(f, which)?;
    let mut val = vec![Val::Zero(Ty::Scalar); f.insts.len()];
    for (i, inst) in f.insts.iter().enumerate() {
        if live[i] {
            val[i] = drift_of(b, &inst.op, &val, subst)?;
        }
    }
    outs.iter()
        .map(|v| built(b, val[v.index()]))
        .collect::<Result<_, _>>()
}

/// The drift value of one operation, given its operands' (`val`, by original index).
fn drift_of(b: &mut Builder, op: &Op, val: &[Val], subst: &mut Subst<'_>) -> Result<Val, IrError> {
    let load = match *op {
        Op::Load(Source::Noise, _) => return Ok(Val::Zero(Ty::Scalar)),
        Op::LoadRange(Source::Noise, _, n) => return Ok(Val::Zero(Ty::Array(n))),
        Op::Load(s, k) => Some(LoadRef::Scalar(s, k)),
        Op::LoadRange(s, o, n) => Some(LoadRef::Range(s, o, n)),
        _ => None,
    };
    if let Some(l) = load {
        return Ok(Val::V(match subst(b, l)? {
            Some(v) => v,
            None => b.push(op.clone())?,
        }));
    }
    let at = |v: ValueId| val[v.index()];
    let mut zeros = false;
    op.for_each_operand(|v| zeros |= matches!(at(v), Val::Zero(_)));
    if !zeros {
        return literal(b, op, val);
    }
    let ty = |b: &Builder, v: Val| match v {
        Val::V(v) => b.ty(v),
        Val::Zero(t) => Ok(t),
    };
    // The shape of an elementwise result: an array if either operand is one.
    let joint = |b: &Builder, x: Val, y: Val| -> Result<Ty, IrError> {
        Ok(match (ty(b, x)?, ty(b, y)?) {
            (Ty::Array(n), _) | (_, Ty::Array(n)) => Ty::Array(n),
            _ => Ty::Scalar,
        })
    };
    Ok(match *op {
        Op::Binary(o, x, y) => {
            let (x, y) = (at(x), at(y));
            let shape = joint(b, x, y)?;
            match (o, x, y) {
                (BinOp::Mul, Val::Zero(_), _) | (BinOp::Mul, _, Val::Zero(_)) => Val::Zero(shape),
                (BinOp::Div, Val::Zero(_), Val::V(_)) => Val::Zero(shape),
                (BinOp::Add | BinOp::Sub, Val::Zero(_), Val::Zero(_)) => Val::Zero(shape),
                (BinOp::Add | BinOp::Sub, Val::V(v), Val::Zero(_)) => Val::V(fit(b, v, shape)?),
                (BinOp::Add, Val::Zero(_), Val::V(v)) => Val::V(fit(b, v, shape)?),
                (BinOp::Sub, Val::Zero(_), Val::V(v)) => {
                    let n = b.neg(v)?;
                    Val::V(fit(b, n, shape)?)
                }
                _ => literal(b, op, val)?,
            }
        }
        Op::Unary(UnOp::Neg, a) => at(a),
        Op::Splat(a, n) if matches!(at(a), Val::Zero(_)) => Val::Zero(Ty::Array(n)),
        Op::Index(a, _) if matches!(at(a), Val::Zero(_)) => Val::Zero(Ty::Scalar),
        Op::Gather(a, ref ks) if matches!(at(a), Val::Zero(_)) => {
            Val::Zero(Ty::Array(ks.len() as u32))
        }
        Op::Reduce(ReduceOp::Sum | ReduceOp::Mean, a) if matches!(at(a), Val::Zero(_)) => {
            Val::Zero(Ty::Scalar)
        }
        _ => literal(b, op, val)?,
    })
}

/// `op` with its noise operands as literal zeros.
fn literal(b: &mut Builder, op: &Op, val: &[Val]) -> Result<Val, IrError> {
    let mut err = None;
    let op = op.map_operands(|v| match built(b, val[v.index()]) {
        Ok(v) => v,
        Err(e) => {
            err = Some(e);
            v
        }
    });
    match err {
        Some(e) => Err(e),
        None => Ok(Val::V(b.push(op)?)),
    }
}

/// A value built (a zero as a literal zero of its shape).
fn built(b: &mut Builder, v: Val) -> Result<ValueId, IrError> {
    match v {
        Val::V(v) => Ok(v),
        Val::Zero(t) => zero(b, t),
    }
}

/// `v` in the shape `ty`: a scalar kept where the dropped operand made the result an array
/// is repeated into one.
fn fit(b: &mut Builder, v: ValueId, ty: Ty) -> Result<ValueId, IrError> {
    match (b.ty(v)?, ty) {
        (Ty::Scalar, Ty::Array(n)) => b.splat(v, n),
        _ => Ok(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interpreter::tape::{Inputs, Tape};
    use crate::specialise::rate_subst;

    /// A one-slot rate `law(x, w, p)` and its drift, both as tapes.
    fn rate_and_drift(
        law: impl Fn(&mut Builder, ValueId, ValueId, ValueId) -> Result<ValueId, IrError>,
    ) -> Result<(Function, Function), IrError> {
        let mut b = Builder::new();
        let (x, w, p) = (
            b.load(Source::State, 0),
            b.load(Source::Noise, 0),
            b.load(Source::Param, 0),
        );
        let out = law(&mut b, x, w, p)?;
        let rate = b.finish("rate", &[out])?;
        let mut b = Builder::new();
        let t = b.load(Source::T, 0);
        let y = [b.load(Source::State, 0)];
        let layout = crate::layout::Layout::scalars(1);
        let mut subst = rate_subst(&layout, t, &y);
        let d = inline_drift(&mut b, &rate, &[0], &mut subst)?;
        Ok((rate, b.finish("drift", &d)?))
    }

    fn eval(f: &Function, x: f64, p: f64) -> Result<f64, IrError> {
        let tape = Tape::compile(f)?;
        let mut regs = tape.registers();
        let (y, ps) = ([x], [p]);
        tape.run(
            &mut regs,
            &Inputs {
                y: &y,
                p: &ps,
                ..Inputs::default()
            },
        );
        let mut out = [0.0];
        tape.write(&regs, 0, &mut out);
        Ok(out[0])
    }

    #[test]
    fn noise_terms_leave_no_operation_behind() -> Result<(), IrError> {
        // μ·x + 0.5·x·w: the drift is μ·x, one multiply.
        let (rate, drift) = rate_and_drift(|b, x, w, p| {
            let half = b.constant(0.5);
            let hx = b.mul(half, x)?;
            let g = b.mul(hx, w)?;
            let a = b.mul(p, x)?;
            b.add(a, g)
        })?;
        let muls = |f: &Function| {
            f.insts
                .iter()
                .filter(|i| matches!(i.op, Op::Binary(BinOp::Mul, ..)))
                .count()
        };
        assert_eq!((muls(&rate), muls(&drift)), (3, 1));
        assert!(!drift.reads(Source::Noise));
        for (x, p) in [(1.5, 2.0), (-3.0, 0.25), (0.0, 7.0)] {
            assert_eq!(eval(&drift, x, p)?, p * x);
        }
        Ok(())
    }

    #[test]
    fn the_drift_is_the_rate_at_zero_noise() -> Result<(), IrError> {
        // θ·(1 − x) − w/p − (x·w)/2 + (−w) and a function of a noise-free part.
        let (rate, drift) = rate_and_drift(|b, x, w, p| {
            let one = b.constant(1.0);
            let two = b.constant(2.0);
            let d = b.sub(one, x)?;
            let a = b.mul(p, d)?;
            let wp = b.div(w, p)?;
            let s = b.sub(a, wp)?;
            let xw = b.mul(x, w)?;
            let h = b.div(xw, two)?;
            let s = b.sub(s, h)?;
            let nw = b.neg(w)?;
            let s = b.add(s, nw)?;
            let e = b.unary(UnOp::Exp, x)?;
            let z = b.sub(w, w)?;
            let ez = b.mul(e, z)?;
            b.add(s, ez)
        })?;
        for (x, p) in [(0.3, 2.0), (-1.25, 0.5), (4.0, -3.0)] {
            let want = eval(&rate, x, p)?;
            assert_eq!(eval(&drift, x, p)?, want, "x {x} p {p}");
        }
        // A function of a noise (refused by the linearity check) still sees a zero.
        let (_, drift) = rate_and_drift(|b, x, w, _| {
            let c = b.unary(UnOp::Cos, w)?;
            b.mul(c, x)
        })?;
        assert_eq!(eval(&drift, 2.5, 0.0)?, 2.5);
        Ok(())
    }
}
