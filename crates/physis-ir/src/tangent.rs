//! Copying a function into a builder with its inputs replaced (inlining), and the
//! forward-mode tangent pass that rides along: each copied value gets its directional
//! derivative, built with the same builder, so derivatives are exact IR, not differences.
//! A zero tangent is `None`, which keeps untouched inputs from growing the program.
//!
//! The derivative rules here are not `physis-symbolic`'s (`diff.rs`) written again: those
//! build exact, canonicalised expressions (n-ary sums and products, rational powers) for
//! derived equations, these build IEEE operations in a fixed order for Jacobians, reusing
//! the primal result where that is cheaper (`tan' = 1 + r²`, `tanh' = 1 − r²`,
//! `√' = 1/(2r)`, `(x/y)' = (dx − r·dy)/y`, where the symbolic rules give `cos⁻²`,
//! `cosh⁻²`, `½u^(−½)` and a product rule over `y⁻¹`), and `min`/`max` follow the operand
//! `f64::min`/`max` returns where the symbolic rule averages at a tie. One table for both
//! would change the bits of every Jacobian or of every derived equation.

use crate::builder::Builder;
use crate::error::IrError;
use crate::ir::{Bc, BinOp, Function, Op, ReduceOp, Source, Stencil, Ty, UnOp, ValueId};

/// A load being inlined: what the substitution and seed callbacks are asked about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadRef {
    /// `Load(src, index)`.
    Scalar(Source, u32),
    /// `LoadRange(src, offset, len)`.
    Range(Source, u32, u32),
}

/// Replacement of a load by a value (`None` keeps the load as an input of the new function).
pub type Subst<'a> = dyn FnMut(&mut Builder, LoadRef) -> Result<Option<ValueId>, IrError> + 'a;

/// Copies the part of `f` that its outputs `which` need into `b`, replacing loads through
/// `subst`; returns the copied outputs.
pub fn inline(
    b: &mut Builder,
    f: &Function,
    which: &[usize],
    subst: &mut Subst<'_>,
) -> Result<Vec<ValueId>, IrError> {
    Ok(walk(b, f, which, subst, None)?.0)
}

/// As [`inline`], and also the tangent of each output in the direction `seed` gives for
/// each load of `f` (`None`: that input does not move).
pub fn inline_tangent(
    b: &mut Builder,
    f: &Function,
    which: &[usize],
    subst: &mut Subst<'_>,
    seed: &mut Subst<'_>,
) -> Result<(Vec<ValueId>, Vec<Option<ValueId>>), IrError> {
    walk(b, f, which, subst, Some(seed))
}

/// A zero of the given type (0, or an array of zeros).
pub fn zero(b: &mut Builder, ty: Ty) -> Result<ValueId, IrError> {
    let z = b.constant(0.0);
    match ty {
        Ty::Scalar => Ok(z),
        Ty::Array(n) => b.splat(z, n),
    }
}

type Pair = (Vec<ValueId>, Vec<Option<ValueId>>);

/// Outputs `which` of `f`, and which of its instructions they need (the rest need not be
/// inlined).
pub(crate) fn live_outputs(
    f: &Function,
    which: &[usize],
) -> Result<(Vec<ValueId>, Vec<bool>), IrError> {
    let mut outs = Vec::with_capacity(which.len());
    for &k in which {
        let v = f.outputs.get(k).ok_or(IrError::Layout {
            problem: format!("function `{}` has no output {k}", f.name),
        })?;
        outs.push(*v);
    }
    let mut live = vec![false; f.insts.len()];
    for v in &outs {
        *live.get_mut(v.index()).ok_or(IrError::UnknownValue(v.0))? = true;
    }
    for i in (0..f.insts.len()).rev() {
        if live[i] {
            f.insts[i].op.for_each_operand(|v| live[v.index()] = true);
        }
    }
    Ok((outs, live))
}

fn walk(
    b: &mut Builder,
    f: &Function,
    which: &[usize],
    subst: &mut Subst<'_>,
    mut seed: Option<&mut Subst<'_>>,
) -> Result<Pair, IrError> {
    let (outs, live) = live_outputs(f, which)?;
    let mut val = vec![ValueId(u32::MAX); f.insts.len()];
    let mut tan: Vec<Option<ValueId>> = vec![None; f.insts.len()];
    for (i, inst) in f.insts.iter().enumerate() {
        if !live[i] {
            continue;
        }
        let load = match inst.op {
            Op::Load(s, k) => Some(LoadRef::Scalar(s, k)),
            Op::LoadRange(s, o, n) => Some(LoadRef::Range(s, o, n)),
            _ => None,
        };
        if let Some(l) = load {
            val[i] = match subst(b, l)? {
                Some(v) => v,
                None => b.push(inst.op.clone())?,
            };
            if let Some(seed) = seed.as_deref_mut() {
                tan[i] = seed(b, l)?;
            }
            continue;
        }
        let op = inst.op.map_operands(|v| val[v.index()]);
        val[i] = b.push(op.clone())?;
        if seed.is_some() {
            let dop = inst.op.map_operands(|v| v);
            tan[i] = derivative(b, &op, val[i], &dop, &tan, &val)?;
        }
    }
    let primal = outs.iter().map(|v| val[v.index()]).collect();
    let tangent = outs.iter().map(|v| tan[v.index()]).collect();
    Ok((primal, tangent))
}

/// The tangent of `r = op(...)` (copied operands in `op`, original ids in `orig` to look
/// tangents up).
fn derivative(
    b: &mut Builder,
    op: &Op,
    r: ValueId,
    orig: &Op,
    tan: &[Option<ValueId>],
    _val: &[ValueId],
) -> Result<Option<ValueId>, IrError> {
    let d = |v: ValueId| tan[v.index()];
    Ok(match (op, orig) {
        (Op::Const(_) | Op::Load(..) | Op::LoadRange(..), _) => None,
        (Op::Unary(o, a), Op::Unary(_, oa)) => match d(*oa) {
            None => None,
            Some(da) => Some(unary_tangent(b, *o, *a, r, da)?),
        },
        (Op::Binary(o, x, y), Op::Binary(_, ox, oy)) => {
            binary_tangent(b, *o, *x, *y, r, d(*ox), d(*oy))?
        }
        (Op::Powi(a, n), Op::Powi(oa, _)) => match d(*oa) {
            None => None,
            Some(da) => {
                let p = b.powi(*a, n - 1)?;
                let k = b.constant(f64::from(*n));
                let kp = b.mul(k, p)?;
                Some(b.mul(kp, da)?)
            }
        },
        (Op::Select(c, _, _), Op::Select(_, ox, oy)) => match (d(*ox), d(*oy)) {
            (None, None) => None,
            (dx, dy) => {
                let ty = b.ty(r)?;
                let dx = dx.map_or_else(|| zero(b, ty), Ok)?;
                let dy = dy.map_or_else(|| zero(b, ty), Ok)?;
                Some(b.select(*c, dx, dy)?)
            }
        },
        (Op::Pack(vs), Op::Pack(ovs)) => {
            if ovs.iter().all(|v| d(*v).is_none()) {
                None
            } else {
                let z = b.constant(0.0);
                let ds = ovs.iter().map(|v| d(*v).unwrap_or(z)).collect();
                let _ = vs;
                Some(b.pack(ds)?)
            }
        }
        (Op::Splat(_, n), Op::Splat(os, _)) => d(*os).map(|ds| b.splat(ds, *n)).transpose()?,
        (Op::Index(_, k), Op::Index(oa, _)) => d(*oa).map(|da| b.index(da, *k)).transpose()?,
        (Op::Gather(_, ks), Op::Gather(oa, _)) => {
            d(*oa).map(|da| b.gather(da, ks.clone())).transpose()?
        }
        (Op::Reduce(ro, a), Op::Reduce(_, oa)) => match d(*oa) {
            None => None,
            Some(da) => Some(match ro {
                ReduceOp::Sum | ReduceOp::Mean => b.reduce(*ro, da)?,
                ReduceOp::MaxAbs => b.push(Op::PickMaxAbs(*a, da))?,
            }),
        },
        (Op::Stencil(s), Op::Stencil(os)) => stencil_tangent(b, s, os, tan)?,
        (Op::Solve(m, _), Op::Solve(om, ob)) => solve_tangent(b, *m, r, d(*om), d(*ob))?,
        (Op::PickMaxAbs(..), _) => {
            return Err(IrError::NotDifferentiable {
                op: "maxAbs tangent",
            });
        }
        _ => None,
    })
}

fn unary_tangent(
    b: &mut Builder,
    o: UnOp,
    a: ValueId,
    r: ValueId,
    da: ValueId,
) -> Result<ValueId, IrError> {
    let one = b.constant(1.0);
    let k = match o {
        UnOp::Neg => return b.neg(da),
        UnOp::Abs => b.unary(UnOp::Sign, a)?,
        UnOp::Sign | UnOp::Floor | UnOp::Ceil => return zero(b, b.ty(r)?),
        UnOp::Log10 => {
            let l = b.constant(std::f64::consts::LN_10);
            let al = b.mul(a, l)?;
            return b.div(da, al);
        }
        UnOp::Sqrt => {
            let two = b.constant(2.0);
            let tr = b.mul(two, r)?;
            return b.div(da, tr);
        }
        UnOp::Exp => r,
        UnOp::Log => return b.div(da, a),
        UnOp::Sin => b.unary(UnOp::Cos, a)?,
        UnOp::Cos => {
            let s = b.unary(UnOp::Sin, a)?;
            b.neg(s)?
        }
        UnOp::Tan => {
            let r2 = b.mul(r, r)?;
            b.add(one, r2)?
        }
        UnOp::Asin | UnOp::Acos => {
            let a2 = b.mul(a, a)?;
            let q = b.sub(one, a2)?;
            let s = b.unary(UnOp::Sqrt, q)?;
            let inv = b.div(da, s)?;
            return if o == UnOp::Asin { Ok(inv) } else { b.neg(inv) };
        }
        UnOp::Atan => {
            let a2 = b.mul(a, a)?;
            let q = b.add(one, a2)?;
            return b.div(da, q);
        }
        UnOp::Sinh => b.unary(UnOp::Cosh, a)?,
        UnOp::Cosh => b.unary(UnOp::Sinh, a)?,
        UnOp::Tanh => {
            let r2 = b.mul(r, r)?;
            b.sub(one, r2)?
        }
    };
    b.mul(k, da)
}

fn binary_tangent(
    b: &mut Builder,
    o: BinOp,
    x: ValueId,
    y: ValueId,
    r: ValueId,
    dx: Option<ValueId>,
    dy: Option<ValueId>,
) -> Result<Option<ValueId>, IrError> {
    if dx.is_none() && dy.is_none() {
        return Ok(None);
    }
    let ty = b.ty(r)?;
    Ok(match o {
        BinOp::Add => match (dx, dy) {
            (Some(p), Some(q)) => Some(b.add(p, q)?),
            (Some(p), None) => Some(widen(b, p, ty)?),
            (None, Some(q)) => Some(widen(b, q, ty)?),
            (None, None) => None,
        },
        BinOp::Sub => match (dx, dy) {
            (Some(p), Some(q)) => Some(b.sub(p, q)?),
            (Some(p), None) => Some(widen(b, p, ty)?),
            (None, Some(q)) => {
                let n = b.neg(q)?;
                Some(widen(b, n, ty)?)
            }
            (None, None) => None,
        },
        BinOp::Mul => {
            let p = dx.map(|p| b.mul(p, y)).transpose()?;
            let q = dy.map(|q| b.mul(x, q)).transpose()?;
            sum(b, p, q)?
        }
        BinOp::Div => {
            // (dx − r·dy) / y
            let rdy = dy.map(|q| b.mul(r, q)).transpose()?;
            let num = match (dx, rdy) {
                (Some(p), Some(q)) => b.sub(p, q)?,
                (Some(p), None) => p,
                (None, Some(q)) => b.neg(q)?,
                (None, None) => return Ok(None),
            };
            Some(b.div(num, y)?)
        }
        BinOp::Pow => {
            // d(xʸ) = y·x^(y−1)·dx + xʸ·ln x·dy
            let p = match dx {
                Some(p) => {
                    let one = b.constant(1.0);
                    let ym1 = b.sub(y, one)?;
                    let xp = b.binary(BinOp::Pow, x, ym1)?;
                    let k = b.mul(y, xp)?;
                    Some(b.mul(k, p)?)
                }
                None => None,
            };
            let q = match dy {
                Some(q) => {
                    let l = b.unary(UnOp::Log, x)?;
                    let k = b.mul(r, l)?;
                    Some(b.mul(k, q)?)
                }
                None => None,
            };
            sum(b, p, q)?
        }
        BinOp::Atan2 => {
            // atan2(x, y): (y·dx − x·dy) / (x² + y²)
            let x2 = b.mul(x, x)?;
            let y2 = b.mul(y, y)?;
            let den = b.add(x2, y2)?;
            let p = dx.map(|p| b.mul(y, p)).transpose()?;
            let q = dy.map(|q| b.mul(x, q)).transpose()?;
            let num = match (p, q) {
                (Some(p), Some(q)) => b.sub(p, q)?,
                (Some(p), None) => p,
                (None, Some(q)) => b.neg(q)?,
                (None, None) => return Ok(None),
            };
            Some(b.div(num, den)?)
        }
        BinOp::Hypot => {
            // (x·dx + y·dy) / r
            let p = dx.map(|p| b.mul(x, p)).transpose()?;
            let q = dy.map(|q| b.mul(y, q)).transpose()?;
            match sum(b, p, q)? {
                Some(n) => Some(b.div(n, r)?),
                None => None,
            }
        }
        BinOp::Min | BinOp::Max => {
            // The operand `f64::min`/`max` returns: y when it is strictly better, else x.
            let cmp = if o == BinOp::Min {
                BinOp::Lt
            } else {
                BinOp::Gt
            };
            let c = b.binary(cmp, y, x)?;
            let dx = dx.map_or_else(|| zero(b, ty), Ok)?;
            let dy = dy.map_or_else(|| zero(b, ty), Ok)?;
            Some(b.select(c, dy, dx)?)
        }
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne => None,
    })
}

/// A scalar tangent of a broadcast operation must become an array.
fn widen(b: &mut Builder, v: ValueId, ty: Ty) -> Result<ValueId, IrError> {
    match (b.ty(v)?, ty) {
        (Ty::Scalar, Ty::Array(n)) => b.splat(v, n),
        _ => Ok(v),
    }
}

fn sum(
    b: &mut Builder,
    p: Option<ValueId>,
    q: Option<ValueId>,
) -> Result<Option<ValueId>, IrError> {
    Ok(match (p, q) {
        (Some(p), Some(q)) => Some(b.add(p, q)?),
        (p, None) => p,
        (None, q) => q,
    })
}

/// `x = M⁻¹b` moves as `dx = M⁻¹(db − dM·x)`: one more solve with the same matrix.
fn solve_tangent(
    b: &mut Builder,
    m: ValueId,
    x: ValueId,
    dm: Option<ValueId>,
    db: Option<ValueId>,
) -> Result<Option<ValueId>, IrError> {
    if dm.is_none() && db.is_none() {
        return Ok(None);
    }
    let n = b.ty(x)?.len() as u32;
    let mut rhs = Vec::with_capacity(n as usize);
    for i in 0..n {
        let mut acc = match db {
            Some(db) => Some(b.index(db, i)?),
            None => None,
        };
        if let Some(dm) = dm {
            for j in 0..n {
                let mij = b.index(dm, i * n + j)?;
                let xj = b.index(x, j)?;
                let p = b.mul(mij, xj)?;
                acc = Some(match acc {
                    Some(a) => b.sub(a, p)?,
                    None => b.neg(p)?,
                });
            }
        }
        let zero = b.constant(0.0);
        rhs.push(acc.unwrap_or(zero));
    }
    let rhs = b.pack(rhs)?;
    Ok(Some(b.push(Op::Solve(m, rhs))?))
}

/// A stencil is linear in its field and its boundary value jointly, so its tangent is the
/// same stencil over the tangents.
fn stencil_tangent(
    b: &mut Builder,
    s: &Stencil,
    os: &Stencil,
    tan: &[Option<ValueId>],
) -> Result<Option<ValueId>, IrError> {
    if tan[os.spacing[0].index()].is_some() || tan[os.spacing[1].index()].is_some() {
        return Err(IrError::NotDifferentiable {
            op: "stencil with a moving spacing",
        });
    }
    let du = tan[os.u.index()];
    let (bc, dbc) = match os.bc {
        Bc::Dirichlet(v) => (Some(Bc::Dirichlet as fn(ValueId) -> Bc), tan[v.index()]),
        Bc::Neumann(v) => (Some(Bc::Neumann as fn(ValueId) -> Bc), tan[v.index()]),
        Bc::Periodic => (None, None),
    };
    if du.is_none() && dbc.is_none() {
        return Ok(None);
    }
    let du = du.map_or_else(|| zero(b, Ty::Array(s.grid.len() as u32)), Ok)?;
    let z = b.constant(0.0);
    let bc = match bc {
        Some(make) => make(dbc.unwrap_or(z)),
        None => Bc::Periodic,
    };
    Ok(Some(b.stencil(Stencil {
        op: s.op,
        grid: s.grid,
        u: du,
        spacing: s.spacing,
        bc,
    })?))
}
