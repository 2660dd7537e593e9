//! Turning a specialised scheme body into the functions the driver calls: an explicit
//! `step` (with `error` and, when the body already computed it, `f(t + h, next)`), or an
//! implicit `residual` with its exact Jacobian.

use crate::error::IrError;
use crate::ir::Source;
use crate::layout::Dynamics;
use crate::scheme::{Role, SchemeDef};

use crate::specialise::{SVal, SchemeCtx, Stages};

/// The functions a scheme specialises into. Exhaustive, so a new kind is a compile error
/// in every back end.
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)] // one per model; boxing would buy nothing
pub enum SchemeFns {
    /// An explicit scheme: one `step(t, h, y, f0, dW) -> next ++ error? ++ f1? ++ dense?`.
    Explicit {
        /// The step; outputs `next` per part, then `error` per part when adaptive, then
        /// `f(t + h, next)` per part when `fsal`, then the continuous extension's `q`
        /// (see [`SchemeDef::dense`]) per part when `dense`.
        step: crate::ir::Function,
        /// True when `error` is among the outputs.
        adaptive: bool,
        /// True when `f1` is among the outputs.
        fsal: bool,
        /// True when the continuous extension's `q` is among the outputs.
        dense: bool,
    },
    /// An implicit scheme: Newton solves `residual(t, h, y, f0, next) = 0`.
    Implicit {
        /// `next − (the scheme's right side)` per part.
        residual: crate::ir::Function,
        /// `∂residual/∂next` row-major, by forward-mode differentiation (scalar layouts).
        jacobian: Option<crate::ir::Function>,
        /// `(∂residual/∂next)·seed` per part (any layout).
        jvp: crate::ir::Function,
        /// The embedded error at the solved `next`, for an adaptive implicit scheme.
        error: Option<crate::ir::Function>,
    },
    /// A scheme with implicit stages: Newton solves each stage in turn, then `finish`
    /// computes `next` (and `error`) from them (see [`crate::staged`]).
    Staged {
        /// One per unknown, in the order they are solved.
        stages: Vec<crate::staged::StageFns>,
        /// `finish(t, h, y, f0, stages) -> next ++ error?`.
        finish: crate::ir::Function,
        /// True when `error` is among `finish`'s outputs.
        adaptive: bool,
    },
}

/// A scheme specialised onto a model.
#[derive(Clone, Debug, PartialEq)]
pub struct Specialised {
    /// The functions.
    pub fns: SchemeFns,
    /// Distinct rate evaluations per step (or per residual).
    pub stages: Stages,
    /// True when the scheme reads `dW`.
    pub stochastic: bool,
}

/// Largest dimension for which the implicit Jacobian is unrolled into one dense function;
/// beyond it the interpreter takes columns of the JVP.
pub const DENSE_JACOBIAN_MAX: usize = 64;

/// Specialises `scheme` onto `dynamics`.
pub fn specialise(scheme: &SchemeDef, dynamics: &Dynamics) -> Result<Specialised, IrError> {
    let name = scheme.name.clone();
    let second = scheme.is_second_order();
    let bindings_err = |expected| IrError::SchemeBindings {
        scheme: name.clone(),
        expected,
    };
    if second
        && (scheme.binds(Role::Next) || !scheme.binds(Role::NextX) || !scheme.binds(Role::NextV))
    {
        return Err(bindings_err("both `nextX` and `nextV`, and no `next`"));
    }
    if !second && !scheme.binds(Role::Next) {
        return Err(bindings_err("`next`"));
    }
    if scheme.is_adaptive() && scheme.order.is_none() {
        return Err(bindings_err("an order `<p>` with `error`"));
    }
    if second && dynamics.pairs.len() * 2 != dynamics.layout.parts.len() {
        return Err(IrError::SchemeReads {
            scheme: name,
            what: "a(·,·)",
            why: "needs every law to be second order",
        });
    }
    if !scheme.implicit_stages().is_empty() {
        if scheme.is_stochastic() || second {
            return Err(IrError::SchemeReads {
                scheme: name,
                what: "its own stages",
                why: "a stochastic or second-order scheme cannot solve",
            });
        }
        return crate::staged::specialise_staged(scheme, dynamics);
    }
    let mut ctx = SchemeCtx::new(&scheme.name, dynamics);
    let mut vars: Vec<Option<SVal>> = vec![None; scheme.bindings.len()];
    let (mut next, mut error, mut nx, mut nv) = (None, None, None, None);
    let parts = dynamics.layout.parts.len();
    for (i, bnd) in scheme.bindings.iter().enumerate() {
        let v = ctx.eval(&bnd.value, &vars)?;
        match bnd.role {
            Role::Next => next = Some(ctx.state(&v, parts, "`next`")?),
            Role::Error => error = Some(ctx.state(&v, parts, "`error`")?),
            Role::NextX => nx = Some(ctx.state(&v, dynamics.pairs.len(), "`nextX`")?),
            Role::NextV => nv = Some(ctx.state(&v, dynamics.pairs.len(), "`nextV`")?),
            Role::Local => {}
        }
        vars[i] = Some(v);
    }
    let next = match (next, nx, nv) {
        (Some(n), _, _) => n,
        (None, Some(xs), Some(vs)) => {
            let mut n = ctx.own_y().to_vec();
            for (k, (xp, vp)) in ctx.pair_parts().into_iter().enumerate() {
                n[xp] = xs[k];
                n[vp] = vs[k];
            }
            n
        }
        _ => return Err(bindings_err("`next`")),
    };
    let stochastic = scheme.is_stochastic();
    let stages = ctx.stages();
    if !scheme.is_implicit() {
        let dense = match &scheme.dense {
            Some(q) => {
                let v = ctx.eval(q, &vars)?;
                Some(ctx.state(&v, parts, "the continuous extension")?)
            }
            None => None,
        };
        let fsal = ctx.probe_fsal(&next)?;
        let mut outs = next.clone();
        if let Some(e) = &error {
            outs.extend(e);
        }
        if let Some(f1) = &fsal {
            outs.extend(f1);
        }
        if let Some(q) = &dense {
            outs.extend(q);
        }
        let step = ctx.into_builder().finish("step", &outs)?;
        return Ok(Specialised {
            fns: SchemeFns::Explicit {
                step,
                adaptive: error.is_some(),
                fsal: fsal.is_some(),
                dense: dense.is_some(),
            },
            stages,
            stochastic,
        });
    }
    let guess = dynamics.layout.load(ctx.builder(), Source::Guess);
    let b = ctx.builder();
    let res = guess
        .iter()
        .zip(&next)
        .map(|(g, n)| b.sub(*g, *n))
        .collect::<Result<Vec<_>, _>>()?;
    let error_fn = match &error {
        Some(e) => Some(ctx.builder().clone().finish("implicit_error", e)?),
        None => None,
    };
    let residual = ctx.into_builder().finish("residual", &res)?;
    let jvp = crate::derive::jvp(&residual, &dynamics.layout, Source::Guess, "residual_jvp")?;
    let jacobian = crate::derive::dense_jacobian(
        &residual,
        &dynamics.layout,
        Source::Guess,
        "residual_jacobian",
    )?;
    Ok(Specialised {
        fns: SchemeFns::Implicit {
            residual,
            jacobian,
            jvp,
            error: error_fn,
        },
        stages,
        stochastic,
    })
}
