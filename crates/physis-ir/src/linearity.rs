//! Is a rate linear in its white noises? The build splits each law into drift (noise at
//! zero) and diffusion (`∂f/∂w`, also at noise zero); the split is exact only when `f` is
//! affine in every noise, i.e. when each `∂f/∂w_k` reads no noise at all (that is
//! `∂²f/∂w_j∂w_k ≡ 0` for every pair, so squares, functions of noise and products of two
//! noises are all caught). The derivative is taken on the IR by the tangent pass, and
//! "reads no noise" is decided on the derivative's own program, so `w − w` or `x·w/x`
//! count as linear while `w·w` or `sin(w)` do not.

use crate::builder::Builder;
use crate::error::IrError;
use crate::ir::{Function, Source, ValueId};
use crate::layout::Dynamics;
use crate::lower::LowerError;
use crate::tangent::{LoadRef, inline, inline_tangent};
use physis_check::{CheckedModel, StateId};
use physis_syntax::{Code, Diagnostic};

/// An output of a rate that is not linear in a noise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NonLinear {
    /// The rate's output (a layout part: a state slot for scalar models).
    pub output: usize,
    /// The noise it is not linear in.
    pub noise: u32,
}

/// The first output of `rate` (in output order, then noise order) whose derivative in one
/// of the `noises` white noises still reads a noise; `None` when `rate` is affine in them.
pub fn first_nonlinear(rate: &Function, noises: u32) -> Result<Option<NonLinear>, IrError> {
    let outputs: Vec<usize> = (0..rate.outputs.len()).collect();
    for k in 0..noises {
        let mut b = Builder::new();
        let mut keep = |_: &mut Builder, _: LoadRef| Ok(None);
        let mut seed = |b: &mut Builder, l: LoadRef| -> Result<Option<ValueId>, IrError> {
            Ok(matches!(l, LoadRef::Scalar(Source::Noise, j) if j == k).then(|| b.constant(1.0)))
        };
        let (_, tangents) = inline_tangent(&mut b, rate, &outputs, &mut keep, &mut seed)?;
        let with_primal = b.finish(
            "tangent",
            &tangents.iter().flatten().copied().collect::<Vec<_>>(),
        )?;
        let mut slot = 0;
        for (output, tangent) in tangents.iter().enumerate() {
            if tangent.is_none() {
                continue;
            }
            // Copy the derivative alone: the builder also holds the primal, which reads
            // the noise whenever the law has any.
            let Some(&value) = with_primal.outputs.get(slot) else {
                break;
            };
            slot += 1;
            let alone = Function {
                name: with_primal.name.clone(),
                insts: with_primal.insts.clone(),
                outputs: vec![value],
            };
            let mut b = Builder::new();
            let mut keep = |_: &mut Builder, _: LoadRef| Ok(None);
            let out = inline(&mut b, &alone, &[0], &mut keep)?;
            if b.finish("derivative", &out)?.reads(Source::Noise) {
                return Ok(Some(NonLinear { output, noise: k }));
            }
        }
    }
    Ok(None)
}

/// PH0114 at the law whose rate is not linear in a noise: output `j` of the rate is layout
/// part `j` (a slot of a scalar or vector, a whole field on a grid), and `first_part[i]` the
/// first part of state `i`.
pub(crate) fn check_laws(
    m: &CheckedModel,
    dynamics: &Dynamics,
    first_part: &[usize],
) -> Result<(), LowerError> {
    if dynamics.noises == 0 {
        return Ok(());
    }
    let Some(found) = first_nonlinear(&dynamics.rate, dynamics.noises)? else {
        return Ok(());
    };
    let state = first_part
        .iter()
        .rposition(|&part| part <= found.output)
        .unwrap_or(0);
    let noise = m.noises.get(found.noise as usize);
    let noise_name = noise.map_or("w", |n| n.name.as_str());
    let law = m.laws.iter().find(|l| l.target == StateId(state));
    let span = law
        .map(|l| l.rhs.span)
        .or(noise.map(|n| n.span))
        .unwrap_or_default();
    let state_name = m.states.get(state).map_or("?", |s| s.name.as_str());
    let diagnostic = Diagnostic::error(
        Code::Noise,
        span,
        format!("the law of `{state_name}` is not linear in the noise `{noise_name}`"),
    )
    .with_label(format!(
        "its derivative in `{noise_name}` still depends on noise"
    ))
    .with_hint("write the law as drift + diffusion·w, with no product or function of noises");
    Err(LowerError::Symbolic {
        diagnostic: Box::new(diagnostic),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::UnOp;

    /// `rate = [x', ...]` built by `f` from the loads `x` (state 0), `w1`, `w2`.
    fn check(
        f: impl Fn(&mut Builder, ValueId, ValueId, ValueId) -> Result<Vec<ValueId>, IrError>,
    ) -> Option<NonLinear> {
        let mut b = Builder::new();
        let x = b.load(Source::State, 0);
        let w1 = b.load(Source::Noise, 0);
        let w2 = b.load(Source::Noise, 1);
        let outs = f(&mut b, x, w1, w2).expect("builds");
        let rate = b.finish("rate", &outs).expect("finishes");
        first_nonlinear(&rate, 2).expect("differentiates")
    }

    #[test]
    fn affine_forms_pass() {
        // x' = −x + σ·x·w1 (state-dependent diffusion), and a second law in w2.
        let found = check(|b, x, w1, w2| {
            let s = b.constant(0.3);
            let sx = b.mul(s, x)?;
            let d = b.mul(sx, w1)?;
            let nx = b.neg(x)?;
            let first = b.add(nx, d)?;
            let half = b.constant(0.5);
            let second = b.mul(half, w2)?;
            let sin_x = b.unary(UnOp::Sin, x)?;
            let second = b.add(second, sin_x)?;
            Ok(vec![first, second])
        });
        assert_eq!(found, None);
        // w − w and x·w/x are affine too.
        let found = check(|b, x, w1, _| {
            let zero = b.sub(w1, w1)?;
            let xw = b.mul(x, w1)?;
            let back = b.div(xw, x)?;
            Ok(vec![zero, back])
        });
        assert_eq!(found, None);
    }

    #[test]
    fn non_linear_forms_are_found() {
        let square = check(|b, x, w1, _| {
            let sq = b.mul(w1, w1)?;
            Ok(vec![x, sq])
        });
        assert_eq!(
            square,
            Some(NonLinear {
                output: 1,
                noise: 0
            })
        );
        let sine = check(|b, _, w1, _| Ok(vec![b.unary(UnOp::Sin, w1)?]));
        assert_eq!(
            sine,
            Some(NonLinear {
                output: 0,
                noise: 0
            })
        );
        let product = check(|b, x, w1, w2| {
            let p = b.mul(w1, w2)?;
            Ok(vec![b.add(x, p)?])
        });
        assert_eq!(
            product,
            Some(NonLinear {
                output: 0,
                noise: 0
            })
        );
        let power = check(|b, _, _, w2| Ok(vec![b.powi(w2, 3)?]));
        assert_eq!(
            power,
            Some(NonLinear {
                output: 0,
                noise: 1
            })
        );
        let quotient = check(|b, x, w1, _| Ok(vec![b.div(x, w1)?]));
        assert_eq!(
            quotient,
            Some(NonLinear {
                output: 0,
                noise: 0
            })
        );
    }
}
