//! Whether an implicit residual is affine in `next`, found by walking its IR once: Newton
//! then takes one exact update per step, and when the Jacobian reads nothing but the step
//! size and parameters one factorisation serves every step of that size
//! ([`physis_runtime::ResidualForm`]).
//!
//! The walk is structural, not numeric: `x·y` of two values that both depend on `next` is
//! never affine even if it happens to cancel, and a piecewise function of `next` (`abs`,
//! `floor`, a comparison) is never affine even where its derivative is constant, so the
//! claim is only made when it holds for every `next`.

use physis_runtime::ResidualForm;

use crate::ir::{Bc, BinOp, Function, Op, ReduceOp, Source, UnOp, ValueId};

/// How a value depends on `next`, from least to most.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// Not at all.
    Free,
    /// Affine.
    Affine,
    /// Anything else.
    Other,
}

/// Per value of `f`, how it depends on the loads from `wrt`.
fn kinds(f: &Function, wrt: Source) -> Vec<Kind> {
    let mut k: Vec<Kind> = Vec::with_capacity(f.insts.len());
    for inst in &f.insts {
        let of = |v: ValueId| k.get(v.index()).copied().unwrap_or(Kind::Other);
        // Affine when the coefficients (`free`) do not depend on `next` and the rest does at
        // most affinely (free when nothing does); a coefficient that does is not affine.
        let linear = |free: &[ValueId], rest: &[ValueId]| -> Kind {
            let top = rest.iter().map(|v| of(*v)).max().unwrap_or(Kind::Free);
            if free.iter().all(|v| of(*v) == Kind::Free) {
                top
            } else {
                Kind::Other
            }
        };
        // Free when every operand is, else not affine.
        let nonlinear = |ops: &[ValueId]| -> Kind {
            if ops.iter().all(|v| of(*v) == Kind::Free) {
                Kind::Free
            } else {
                Kind::Other
            }
        };
        let kind = match &inst.op {
            Op::Const(_) => Kind::Free,
            Op::Load(s, _) | Op::LoadRange(s, _, _) => {
                if *s == wrt {
                    Kind::Affine
                } else {
                    Kind::Free
                }
            }
            Op::Unary(UnOp::Neg, a) => of(*a),
            Op::Unary(_, a) => nonlinear(&[*a]),
            Op::Binary(BinOp::Add | BinOp::Sub, a, b) => linear(&[], &[*a, *b]),
            Op::Binary(BinOp::Mul, a, b) => match (of(*a), of(*b)) {
                (Kind::Free, x) | (x, Kind::Free) => x,
                _ => Kind::Other,
            },
            Op::Binary(BinOp::Div, a, b) => linear(&[*b], &[*a]),
            Op::Binary(_, a, b) => nonlinear(&[*a, *b]),
            Op::Powi(a, 1) => of(*a),
            Op::Powi(a, _) => nonlinear(&[*a]),
            Op::Select(c, a, b) => linear(&[*c], &[*a, *b]),
            Op::Pack(vs) => linear(&[], vs),
            Op::Splat(a, _) | Op::Index(a, _) | Op::Gather(a, _) => of(*a),
            Op::Stencil(s) => {
                // Linear in the field and the boundary value together; the spacing scales.
                let mut rest = vec![s.u];
                if let Bc::Dirichlet(v) | Bc::Neumann(v) = s.bc {
                    rest.push(v);
                }
                linear(&s.spacing, &rest)
            }
            Op::Reduce(ReduceOp::Sum | ReduceOp::Mean, a) => of(*a),
            Op::Reduce(ReduceOp::MaxAbs, a) => nonlinear(&[*a]),
            Op::PickMaxAbs(a, b) => nonlinear(&[*a, *b]),
            Op::Solve(m, b) => linear(&[*m], &[*b]),
        };
        k.push(kind);
    }
    k
}

/// The form of an implicit residual `residual(…, next)` whose Jacobian-vector product is
/// `jvp` (and dense Jacobian `jacobian`, when unrolled).
pub fn residual_form(
    residual: &Function,
    jvp: &Function,
    jacobian: Option<&Function>,
) -> ResidualForm {
    let k = kinds(residual, Source::Guess);
    let outs: Vec<Kind> = residual
        .outputs
        .iter()
        .map(|v| k.get(v.index()).copied().unwrap_or(Kind::Other))
        .collect();
    // A residual that does not read `next` at all has a singular Jacobian: no claim.
    if outs.contains(&Kind::Other) || !outs.contains(&Kind::Affine) {
        return ResidualForm::General;
    }
    let step_only = |f: &Function| {
        [
            Source::T,
            Source::State,
            Source::F0,
            Source::Dw,
            Source::Noise,
            Source::Guess,
            Source::Rate,
        ]
        .iter()
        .all(|s| !f.reads(*s))
    };
    if step_only(jvp) && jacobian.is_none_or(step_only) {
        ResidualForm::AffineInStep
    } else {
        ResidualForm::Affine
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::Builder;

    /// `next − y − h·g(next)` for the `g` built by `rhs`, with its form.
    fn form(rhs: impl Fn(&mut Builder, ValueId, ValueId) -> ValueId) -> ResidualForm {
        let mut b = Builder::new();
        let x = b.load_range(Source::Guess, 0, 4);
        let y = b.load_range(Source::State, 0, 4);
        let h = b.load(Source::H, 0);
        let g = rhs(&mut b, x, y);
        let hg = b.mul(h, g).unwrap();
        let r = b.sub(x, y).unwrap();
        let r = b.sub(r, hg).unwrap();
        let f = b.finish("residual", &[r]).unwrap();
        // The JVP's coefficients are those of `g`: rebuild them by hand for the test.
        let mut b = Builder::new();
        let s = b.load_range(Source::Seed, 0, 4);
        let y = b.load_range(Source::State, 0, 4);
        let jg = rhs(&mut b, s, y);
        let jvp = b.finish("jvp", &[jg]).unwrap();
        residual_form(&f, &jvp, None)
    }

    #[test]
    fn constant_coefficients_are_affine_in_the_step() {
        let f = form(|b, x, _| {
            let k = b.constant(-3.0);
            b.mul(k, x).unwrap()
        });
        assert_eq!(f, ResidualForm::AffineInStep);
    }

    #[test]
    fn state_dependent_coefficients_are_affine_only() {
        // g = y·x + y: linear in x with a coefficient that changes every step.
        let f = form(|b, x, y| {
            let m = b.mul(y, x).unwrap();
            b.add(m, y).unwrap()
        });
        assert_eq!(f, ResidualForm::Affine);
    }

    #[test]
    fn products_and_piecewise_functions_are_general() {
        let sq = form(|b, x, _| b.mul(x, x).unwrap());
        assert_eq!(sq, ResidualForm::General);
        let abs = form(|b, x, _| b.unary(UnOp::Abs, x).unwrap());
        assert_eq!(abs, ResidualForm::General);
        let div = form(|b, x, y| b.div(y, x).unwrap());
        assert_eq!(div, ResidualForm::General);
        let cmp = form(|b, x, y| {
            let c = b.binary(BinOp::Lt, x, y).unwrap();
            b.select(c, x, y).unwrap()
        });
        assert_eq!(cmp, ResidualForm::General);
    }
}
