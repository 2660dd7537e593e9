//! Derivatives of whole functions by the tangent pass: Jacobian-vector products (any
//! layout) and dense Jacobians (small unrolled layouts), both exact.

use crate::builder::Builder;
use crate::error::IrError;
use crate::ir::{Function, Source, ValueId};
use crate::layout::Layout;
use crate::specialise::DENSE_JACOBIAN_MAX;
use crate::tangent::{LoadRef, inline_tangent, zero};

/// `(∂f/∂wrt)·seed`: a function with the same inputs as `f` plus the direction, read from
/// [`Source::Seed`] with `wrt`'s slots. One output per output of `f`.
pub fn jvp(f: &Function, layout: &Layout, wrt: Source, name: &str) -> Result<Function, IrError> {
    let _ = layout;
    let mut b = Builder::new();
    let mut keep = |_: &mut Builder, _: LoadRef| Ok(None);
    let mut seed = |b: &mut Builder, l: LoadRef| -> Result<Option<ValueId>, IrError> {
        Ok(match l {
            LoadRef::Scalar(s, k) if s == wrt => Some(b.load(Source::Seed, k)),
            LoadRef::Range(s, o, n) if s == wrt => Some(b.load_range(Source::Seed, o, n)),
            _ => None,
        })
    };
    let which: Vec<usize> = (0..f.outputs.len()).collect();
    let (_, tan) = inline_tangent(&mut b, f, &which, &mut keep, &mut seed)?;
    let outs = tan
        .into_iter()
        .zip(&f.outputs)
        .map(|(d, v)| d.map_or_else(|| zero(&mut b, f.ty(*v)), Ok))
        .collect::<Result<Vec<_>, _>>()?;
    b.finish(name, &outs)
}

/// `∂f/∂wrt` as one function returning the dense matrix row-major (`rows` = outputs of
/// `f`, columns = slots of `wrt`), when every part is a scalar and the size is at most
/// [`DENSE_JACOBIAN_MAX`]; `None` otherwise (use [`jvp`] by columns).
pub fn dense_jacobian(
    f: &Function,
    layout: &Layout,
    wrt: Source,
    name: &str,
) -> Result<Option<Function>, IrError> {
    let n = layout.dim();
    if n > DENSE_JACOBIAN_MAX
        || layout.parts.iter().any(|p| p.array)
        || f.outputs.iter().any(|v| f.ty(*v).len() != 1)
    {
        return Ok(None);
    }
    let rows = f.outputs.len();
    let mut b = Builder::new();
    let which: Vec<usize> = (0..rows).collect();
    let mut cols = Vec::with_capacity(n);
    for j in 0..n as u32 {
        let mut keep = |_: &mut Builder, _: LoadRef| Ok(None);
        let mut seed = |b: &mut Builder, l: LoadRef| -> Result<Option<ValueId>, IrError> {
            Ok(match l {
                LoadRef::Scalar(s, k) if s == wrt && k == j => Some(b.constant(1.0)),
                LoadRef::Range(s, ..) if s == wrt => {
                    return Err(IrError::NotDifferentiable {
                        op: "array load in a dense Jacobian",
                    });
                }
                _ => None,
            })
        };
        let (_, tan) = inline_tangent(&mut b, f, &which, &mut keep, &mut seed)?;
        let z = b.constant(0.0);
        cols.push(tan.into_iter().map(|d| d.unwrap_or(z)).collect::<Vec<_>>());
    }
    let mut outs = Vec::with_capacity(rows * n);
    for i in 0..rows {
        for col in &cols {
            outs.push(col[i]);
        }
    }
    b.finish(name, &outs).map(Some)
}
