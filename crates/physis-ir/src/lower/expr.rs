//! Checked expressions to IR, component by component: a small model's vectors are
//! unrolled into scalars so every back end sees straight-line code.

use physis_check::{ArithOp, Builtin, CmpOp, Cond, Expr, ExprKind, Shape};
use physis_runtime::{AtomInfo, Cmp};

use super::LowerError;
use crate::builder::Builder;
use crate::ir::{BinOp, ReduceOp, Source, UnOp, ValueId};

/// What an expression may read where it is lowered.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reads {
    /// The state.
    pub state: bool,
    /// The derivative `y'` of a first-order state (conditions, observes, resets).
    pub rate: bool,
    /// White noise (laws).
    pub noise: bool,
}

/// The model's slot offsets, for loads.
pub(crate) struct Ctx<'m> {
    pub state_off: &'m [u32],
    pub param_off: &'m [u32],
    pub reads: Reads,
    pub what: &'static str,
    /// The grid, in a model that has one: a field is then one array value.
    pub grid: Option<&'m super::grid::GridCx<'m>>,
    /// What `hamiltonian` reads as here (the energy of a lagrangian or hamiltonian model,
    /// already built into this builder); `None` where there is none.
    pub energy: Option<ValueId>,
}

/// Components of a value (one for a scalar).
pub(crate) type Comps = Vec<ValueId>;

fn comps_of(cx: &Ctx<'_>, shape: Shape) -> Result<usize, LowerError> {
    match shape {
        Shape::Scalar => Ok(1),
        Shape::Vector(n) => Ok(n),
        Shape::Field if cx.grid.is_some() => Ok(1),
        Shape::Field => Err(LowerError::NotYetSupported {
            feature: "fields without a grid",
        }),
        _ => Err(LowerError::Invalid {
            problem: format!("an expression of unknown shape in {}", cx.what),
        }),
    }
}

pub(crate) fn lower(b: &mut Builder, cx: &Ctx<'_>, e: &Expr) -> Result<Comps, LowerError> {
    let n = comps_of(cx, e.shape)?;
    let out = match &e.kind {
        ExprKind::Const(v) | ExprKind::Constant { value: v, .. } => vec![b.constant(*v); n],
        ExprKind::Time => vec![b.load(Source::T, 0)],
        ExprKind::Param(id) => {
            let off = *cx
                .param_off
                .get(id.0)
                .ok_or_else(|| invalid("a param that does not exist"))?;
            (0..n as u32)
                .map(|k| b.load(Source::Param, off + k))
                .collect()
        }
        ExprKind::State(id) | ExprKind::Rate(id) => {
            let is_rate = matches!(e.kind, ExprKind::Rate(_));
            let (ok, src) = if is_rate {
                (cx.reads.rate, Source::Rate)
            } else {
                (cx.reads.state, Source::State)
            };
            if !ok {
                return Err(LowerError::Invalid {
                    problem: format!(
                        "{} cannot read {}",
                        cx.what,
                        if is_rate { "a derivative" } else { "the state" }
                    ),
                });
            }
            let off = *cx
                .state_off
                .get(id.0)
                .ok_or_else(|| invalid("a state that does not exist"))?;
            match cx.grid {
                Some(g) if e.shape == Shape::Field => vec![b.load_range(src, off, g.len() as u32)],
                _ => (0..n as u32).map(|k| b.load(src, off + k)).collect(),
            }
        }
        ExprKind::Noise(id) => {
            if !cx.reads.noise {
                return Err(LowerError::Invalid {
                    problem: format!("{} cannot read noise", cx.what),
                });
            }
            vec![b.load(Source::Noise, id.0 as u32)]
        }
        ExprKind::GridCoord(axis) => match cx.grid {
            Some(g) => vec![super::grid::coord(b, g, *axis)?],
            None => {
                return Err(LowerError::NotYetSupported {
                    feature: "coordinates without a grid",
                });
            }
        },
        ExprKind::Hamiltonian => match cx.energy {
            Some(e) => vec![e],
            None => {
                return Err(LowerError::NotYetSupported {
                    feature: "the hamiltonian as an energy here",
                });
            }
        },
        ExprKind::Vector(items) => {
            let mut out = Vec::new();
            for it in items {
                out.extend(lower(b, cx, it)?);
            }
            out
        }
        ExprKind::Neg(a) => lower(b, cx, a)?
            .into_iter()
            .map(|v| b.neg(v))
            .collect::<Result<_, _>>()?,
        ExprKind::Binary { op, lhs, rhs } => {
            let op = match op {
                ArithOp::Add => BinOp::Add,
                ArithOp::Sub => BinOp::Sub,
                ArithOp::Mul => BinOp::Mul,
                ArithOp::Div => BinOp::Div,
            };
            let (l, r) = (lower(b, cx, lhs)?, lower(b, cx, rhs)?);
            zip(b, op, &l, &r)?
        }
        ExprKind::Pow { base, exponent } => {
            let base = lower(b, cx, base)?;
            let ex = lower(b, cx, exponent)?;
            let [ex] = ex[..] else {
                return Err(invalid("a power with a vector exponent"));
            };
            match b.const_of(ex) {
                Some(k) if k == k.trunc() && k.abs() <= 1024.0 => base
                    .iter()
                    .map(|v| b.powi(*v, k as i32))
                    .collect::<Result<_, _>>()?,
                _ => base
                    .iter()
                    .map(|v| b.binary(BinOp::Pow, *v, ex))
                    .collect::<Result<_, _>>()?,
            }
        }
        ExprKind::Call { func, args } => call(b, cx, *func, args)?,
        ExprKind::Index { base, index } => {
            let comps = lower(b, cx, base)?;
            if let (Some(g), Shape::Field, [u]) = (cx.grid, base.shape, &comps[..]) {
                return Ok(vec![super::grid::index(b, g, *u, index)?]);
            }
            match index[..] {
                [i] => vec![
                    *comps
                        .get(i)
                        .ok_or_else(|| invalid("an index past the end"))?,
                ],
                _ => return Err(invalid("several indices into a vector")),
            }
        }
        ExprKind::SchemeInput(_) | ExprKind::Local(_) | ExprKind::SchemeCall { .. } => {
            return Err(invalid("a scheme expression inside a model"));
        }
    };
    if out.len() != n {
        return Err(LowerError::Invalid {
            problem: format!(
                "{} has {} components where {n} were checked",
                cx.what,
                out.len()
            ),
        });
    }
    Ok(out)
}

fn call(b: &mut Builder, cx: &Ctx<'_>, func: Builtin, args: &[Expr]) -> Result<Comps, LowerError> {
    use Builtin as F;
    let vals = args
        .iter()
        .map(|a| lower(b, cx, a))
        .collect::<Result<Vec<_>, _>>()?;
    let unary = |op: UnOp, b: &mut Builder, vals: &[Comps]| -> Result<Comps, LowerError> {
        let [a] = vals else {
            return Err(invalid("a one-argument function with another count"));
        };
        Ok(a.iter()
            .map(|v| b.unary(op, *v))
            .collect::<Result<_, _>>()?)
    };
    let binary = |op: BinOp, b: &mut Builder, vals: &[Comps]| -> Result<Comps, LowerError> {
        let [x, y] = vals else {
            return Err(invalid("a two-argument function with another count"));
        };
        zip(b, op, x, y)
    };
    Ok(match func {
        F::Sin => unary(UnOp::Sin, b, &vals)?,
        F::Cos => unary(UnOp::Cos, b, &vals)?,
        F::Tan => unary(UnOp::Tan, b, &vals)?,
        F::Asin => unary(UnOp::Asin, b, &vals)?,
        F::Acos => unary(UnOp::Acos, b, &vals)?,
        F::Atan => unary(UnOp::Atan, b, &vals)?,
        F::Sinh => unary(UnOp::Sinh, b, &vals)?,
        F::Cosh => unary(UnOp::Cosh, b, &vals)?,
        F::Tanh => unary(UnOp::Tanh, b, &vals)?,
        F::Exp => unary(UnOp::Exp, b, &vals)?,
        F::Log => unary(UnOp::Log, b, &vals)?,
        F::Log10 => unary(UnOp::Log10, b, &vals)?,
        F::Sqrt => unary(UnOp::Sqrt, b, &vals)?,
        F::Abs => unary(UnOp::Abs, b, &vals)?,
        F::Sign => unary(UnOp::Sign, b, &vals)?,
        F::Floor => unary(UnOp::Floor, b, &vals)?,
        F::Ceil => unary(UnOp::Ceil, b, &vals)?,
        F::Min => binary(BinOp::Min, b, &vals)?,
        F::Max => binary(BinOp::Max, b, &vals)?,
        F::Atan2 => binary(BinOp::Atan2, b, &vals)?,
        F::Hypot => binary(BinOp::Hypot, b, &vals)?,
        F::Norm => {
            let [a] = &vals[..] else {
                return Err(invalid("norm with another argument count"));
            };
            let sq = a
                .iter()
                .map(|v| b.mul(*v, *v))
                .collect::<Result<Vec<_>, _>>()?;
            let s = sum(b, &sq)?;
            let s = whole(b, ReduceOp::Sum, s)?;
            vec![b.unary(UnOp::Sqrt, s)?]
        }
        F::Dot => {
            let [x, y] = &vals[..] else {
                return Err(invalid("dot with another argument count"));
            };
            if x.len() != y.len() {
                return Err(invalid("dot of vectors of different sizes"));
            }
            let p = x
                .iter()
                .zip(y)
                .map(|(a, c)| b.mul(*a, *c))
                .collect::<Result<Vec<_>, _>>()?;
            let s = sum(b, &p)?;
            vec![whole(b, ReduceOp::Sum, s)?]
        }
        F::Cross => {
            let [x, y] = &vals[..] else {
                return Err(invalid("cross with another argument count"));
            };
            let (&[a0, a1, a2], &[b0, b1, b2]) = (&x[..], &y[..]) else {
                return Err(invalid("cross of vectors not of size 3"));
            };
            let mut c =
                |p: ValueId, q: ValueId, r: ValueId, s: ValueId| -> Result<ValueId, LowerError> {
                    let l = b.mul(p, q)?;
                    let m = b.mul(r, s)?;
                    Ok(b.sub(l, m)?)
                };
            vec![c(a1, b2, a2, b1)?, c(a2, b0, a0, b2)?, c(a0, b1, a1, b0)?]
        }
        F::Sum | F::Mean | F::MaxAbs => {
            let [a] = &vals[..] else {
                return Err(invalid("a reduction with another argument count"));
            };
            let op = match func {
                F::Sum => ReduceOp::Sum,
                F::Mean => ReduceOp::Mean,
                _ => ReduceOp::MaxAbs,
            };
            match a[..] {
                // A repeating periodic field counts each distinct node once.
                [f] if b.ty(f)? != crate::ir::Ty::Scalar
                    && cx
                        .grid
                        .is_some_and(|g| args.first().is_some_and(|e| g.wraps(e))) =>
                {
                    let g = cx.grid.ok_or_else(|| invalid("a field without a grid"))?;
                    let f = super::grid::to_field(b, g, f)?;
                    let d = g.distinct(b, f)?;
                    vec![b.reduce(op, d)?]
                }
                // A field is one array already.
                [f] if b.ty(f)? != crate::ir::Ty::Scalar => vec![b.reduce(op, f)?],
                _ => {
                    let arr = b.pack(a.clone())?;
                    vec![b.reduce(op, arr)?]
                }
            }
        }
        F::Dx
        | F::Dy
        | F::DxBackward
        | F::DxForward
        | F::DyBackward
        | F::DyForward
        | F::Laplacian => super::grid::stencil(b, cx, func, args, &vals)?,
    })
}

/// Elementwise `op` with a scalar side broadcast.
pub(crate) fn zip(
    b: &mut Builder,
    op: BinOp,
    l: &[ValueId],
    r: &[ValueId],
) -> Result<Comps, LowerError> {
    let pairs: Vec<(ValueId, ValueId)> = match (l.len(), r.len()) {
        (x, y) if x == y => l.iter().copied().zip(r.iter().copied()).collect(),
        (1, _) => r.iter().map(|v| (l[0], *v)).collect(),
        (_, 1) => l.iter().map(|v| (*v, r[0])).collect(),
        (x, y) => {
            return Err(LowerError::Invalid {
                problem: format!("operands of {x} and {y} components"),
            });
        }
    };
    Ok(pairs
        .into_iter()
        .map(|(x, y)| b.binary(op, x, y))
        .collect::<Result<_, _>>()?)
}

/// An array summed to a scalar (a scalar passes through): the end of `norm` and `dot`
/// over fields.
fn whole(b: &mut Builder, op: ReduceOp, v: ValueId) -> Result<ValueId, LowerError> {
    Ok(match b.ty(v)? {
        crate::ir::Ty::Scalar => v,
        crate::ir::Ty::Array(_) => b.reduce(op, v)?,
    })
}

/// `v₀ + v₁ + ...` in index order.
fn sum(b: &mut Builder, vs: &[ValueId]) -> Result<ValueId, LowerError> {
    let mut acc = *vs.first().ok_or_else(|| invalid("a sum of nothing"))?;
    for v in &vs[1..] {
        acc = b.add(acc, *v)?;
    }
    Ok(acc)
}

/// A condition as atoms (margins `lhs − rhs` pushed to `margins`) and their combination.
pub(crate) fn cond(
    b: &mut Builder,
    cx: &Ctx<'_>,
    c: &Cond,
    margins: &mut Vec<ValueId>,
    atoms: &mut Vec<AtomInfo>,
) -> Result<physis_runtime::Cond, LowerError> {
    use physis_runtime::Cond as RC;
    Ok(match c {
        Cond::Compare { op, lhs, rhs } => {
            let (l, r) = (lower(b, cx, lhs)?, lower(b, cx, rhs)?);
            let ([l], [r]) = (&l[..], &r[..]) else {
                return Err(invalid("a comparison of vectors"));
            };
            margins.push(b.sub(*l, *r)?);
            let op = match op {
                CmpOp::Lt => Cmp::Lt,
                CmpOp::Le => Cmp::Le,
                CmpOp::Gt => Cmp::Gt,
                CmpOp::Ge => Cmp::Ge,
                CmpOp::Eq => Cmp::Eq,
                CmpOp::Ne => Cmp::Ne,
            };
            // `time_only` is worked out from the margin's IR by `assemble`.
            atoms.push(AtomInfo {
                op,
                time_only: false,
                affine: false,
            });
            RC::Atom(atoms.len() - 1)
        }
        Cond::And(x, y) => {
            let mut all = Vec::new();
            for side in [x, y] {
                match cond(b, cx, side, margins, atoms)? {
                    RC::All(cs) => all.extend(cs),
                    other => all.push(other),
                }
            }
            RC::All(all)
        }
        Cond::Or(x, y) => {
            let mut any = Vec::new();
            for side in [x, y] {
                match cond(b, cx, side, margins, atoms)? {
                    RC::Any(cs) => any.extend(cs),
                    other => any.push(other),
                }
            }
            RC::Any(any)
        }
        Cond::Not(x) => RC::Not(Box::new(cond(b, cx, x, margins, atoms)?)),
    })
}

fn invalid(problem: &str) -> LowerError {
    LowerError::Invalid {
        problem: problem.to_string(),
    }
}
