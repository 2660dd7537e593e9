//! A scheme with implicit stages: each stage that reads itself is solved by Newton in turn
//! (simplified Newton: the first stage's factorisation is reused by the later stages of
//! the same step while it still converges), then the model computes `next` and `error`
//! from the solved stages.

use crate::info::{StageInfo, StageKind};
use crate::matrix::DenseMatrix;
use crate::model::{Model, StepArgs};
use crate::newton::{Cost, Newton, Reuse, Scale, System};
use crate::sparse::SparseMatrix;

/// The residual of one implicit stage, given the stages solved before it.
struct Stage<'m, 'a, M: ?Sized> {
    model: &'m mut M,
    args: &'m StepArgs<'a>,
    stage: usize,
    solved: &'m [f64],
}

impl<M: Model + ?Sized> System for Stage<'_, '_, M> {
    fn residual(&mut self, x: &[f64], r: &mut [f64]) {
        self.model
            .stage_residual(self.stage, self.args, self.solved, x, r);
    }
    fn jacobian(&mut self, x: &[f64], jac: &mut DenseMatrix) -> bool {
        self.model
            .stage_jacobian(self.stage, self.args, self.solved, x, jac)
    }
    fn jacobian_sparse(&mut self, x: &[f64], jac: &mut SparseMatrix) -> bool {
        self.model
            .stage_jacobian_sparse(self.stage, self.args, self.solved, x, jac)
    }
}

/// The solved stages of the current step, one state-sized block each.
#[derive(Debug)]
pub(crate) struct Stages {
    /// Stage `j` at `j·n..(j+1)·n`.
    pub solved: Vec<f64>,
    n: usize,
}

impl Stages {
    /// Room for `count` stages of a state of `n` slots.
    pub fn new(count: usize, n: usize) -> Self {
        Self {
            solved: vec![0.0; count * n],
            n,
        }
    }

    /// Solves every stage of the step `args` in order. False when one does not converge
    /// (the driver then cuts the step). With `atol` (an adaptive step's absolute
    /// tolerances, `tol` its relative one) Newton's convergence is measured in the step's
    /// error weights; a state-sized stage of another kind keeps the test beside itself.
    pub fn solve<M: Model + ?Sized>(
        &mut self,
        model: &mut M,
        newton: &mut Newton,
        args: &StepArgs<'_>,
        stages: &[StageInfo],
        (tol, atol): (f64, Option<&[f64]>),
        evals: &mut u64,
    ) -> bool {
        let n = self.n;
        for (j, st) in stages.iter().enumerate() {
            let (done, rest) = self.solved.split_at_mut(j * n);
            let Some(k) = rest.get_mut(..n) else {
                return false;
            };
            // The safeguarded predictor: the last solved stage of the same kind (an SDIRK's
            // stages are rates at nearby times), else what the stage is at h = 0.
            let prev = (0..j).rev().find(|&i| stages[i].kind == st.kind);
            let base = |k: &mut [f64]| match st.kind {
                StageKind::State => k.copy_from_slice(args.y),
                StageKind::Rate => k.copy_from_slice(args.f0),
                _ => k.fill(0.0),
            };
            match prev {
                Some(i) => k.copy_from_slice(&done[i * n..(i + 1) * n]),
                None => base(k),
            }
            let scale = match (st.kind, atol) {
                (StageKind::Rate, Some(atol)) => Scale::Weighted {
                    y: args.y,
                    atol,
                    rate: Some(args.h),
                },
                (StageKind::State, Some(atol)) => Scale::Weighted {
                    y: args.y,
                    atol,
                    rate: None,
                },
                (StageKind::Rate, None) => Scale::Rate {
                    y: args.y,
                    h: args.h,
                },
                _ => Scale::Own,
            };
            let per = u64::from(st.residual_evals);
            let mut sys = Stage {
                model: &mut *model,
                args,
                stage: j,
                solved: done,
            };
            if st.affine {
                // A linearly implicit stage: one update with its exact Jacobian.
                if !newton.solve_affine(&mut sys, args.h, k, per, evals)
                    || !k.iter().all(|v| v.is_finite())
                {
                    return false;
                }
                continue;
            }
            let cost = Cost {
                per_residual: per,
                evals: &mut *evals,
            };
            // Simplified Newton across stages and steps: the kept factorisation while `h`
            // stays, else the kept Jacobian refactorised for this `h`; a fresh one only
            // when that fails or contracts too slowly.
            let reuse = Reuse::Jacobian;
            let mut ok = newton.solve_system(&mut sys, args.h, k, (tol, scale), reuse, cost);
            if !ok && prev.is_some() {
                // The predictor led Newton astray: start again from the plain one.
                base(k);
                let cost = Cost {
                    per_residual: per,
                    evals: &mut *evals,
                };
                let reuse = Reuse::Nothing;
                ok = newton.solve_system(&mut sys, args.h, k, (tol, scale), reuse, cost);
            }
            if !ok || !k.iter().all(|v| v.is_finite()) {
                return false;
            }
        }
        true
    }
}
