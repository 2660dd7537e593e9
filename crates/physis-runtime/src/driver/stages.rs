//! A scheme with implicit stages: each stage that reads itself is solved by Newton in turn
//! (simplified Newton: the first stage's factorisation is reused by the later stages of
//! the same step while it still converges), then the model computes `next` and `error`
//! from the solved stages. Stages that read each other (Radau IIA's) are one unknown of
//! `width` blocks, solved together by a Newton of their own size, kept per width: sparse
//! over the block pattern of the model's own (`SparsePattern::blocks`) when the model has
//! one (fields on grids), dense otherwise.

use std::sync::Arc;

use crate::info::{StageInfo, StageKind};
use crate::matrix::DenseMatrix;
use crate::model::{Model, StepArgs};
use crate::newton::{Cost, Newton, Reuse, Scale, System};
use crate::sparse::{SparseMatrix, SparsePattern};

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

/// Largest Newton system of stages that read each other (`width·dim`) of a model without a
/// sparse pattern: their matrix is then dense, so a larger state is refused before the run
/// rather than factorised.
pub(crate) const COUPLED_MAX: usize = 2048;

/// The solved stages of the current step, one state-sized block each.
#[derive(Debug)]
pub(crate) struct Stages {
    /// Block `j` at `j·n..(j+1)·n` (a group of `w` stages spans `w` blocks).
    pub solved: Vec<f64>,
    n: usize,
    /// The Newton of each width above one, by width: the group's own Jacobian and
    /// factorisation, kept across steps as the state-sized one is.
    wide: Vec<(u32, Newton)>,
    /// True when some stages read each other (a collocation scheme, Radau IIA): its step
    /// is chosen by the predictive controller (`crate::control::predictive_factor`).
    pub coupled: bool,
    /// The last accepted step and its error norm (at least 1e-2), for that controller;
    /// `None` at the start and after an event.
    pub accepted: Option<(f64, f64)>,
}

impl Stages {
    /// Room for the unknowns `stages` of a state of `n` slots, whose Newton has the sparse
    /// `pattern` (of order `n`) if the model declares one.
    pub fn new(stages: &[StageInfo], n: usize, pattern: Option<&Arc<SparsePattern>>) -> Self {
        let blocks: usize = stages.iter().map(|s| s.width as usize).sum();
        let mut wide: Vec<(u32, Newton)> = Vec::new();
        for s in stages {
            let w = s.width as usize;
            if s.width > 1 && !wide.iter().any(|(x, _)| *x == s.width) {
                let newton = match pattern {
                    Some(p) => Newton::sparse(Arc::new(p.blocks(w))),
                    None => Newton::new(w * n),
                };
                wide.push((s.width, newton));
            }
        }
        Self {
            solved: vec![0.0; blocks * n],
            n,
            coupled: !wide.is_empty(),
            wide,
            accepted: None,
        }
    }

    /// Jacobians and factorisations of the wide Newtons, for the run's statistics.
    pub fn counts(&self) -> (u64, u64) {
        self.wide.iter().fold((0, 0), |(j, f), (_, nw)| {
            (j + nw.jacobians, f + nw.factorisations)
        })
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
        let mut at = 0;
        for (j, st) in stages.iter().enumerate() {
            let w = st.width as usize;
            let (done, rest) = self.solved.split_at_mut(at);
            at += w * n;
            let Some(k) = rest.get_mut(..w * n) else {
                return false;
            };
            // The safeguarded predictor: the last solved stage of the same kind (an SDIRK's
            // stages are rates at nearby times), else what the stage is at h = 0; a group
            // starts each of its blocks from the latter.
            let prev = (0..j)
                .rev()
                .find(|&i| stages[i].kind == st.kind && stages[i].width == 1)
                .filter(|_| w == 1)
                .map(|i| {
                    let off: usize = stages[..i].iter().map(|s| s.width as usize).sum();
                    off * n
                });
            let base = |k: &mut [f64]| {
                for b in k.chunks_mut(n.max(1)) {
                    match st.kind {
                        StageKind::State => b.copy_from_slice(args.y),
                        StageKind::Rate => b.copy_from_slice(args.f0),
                        _ => b.fill(0.0),
                    }
                }
            };
            match prev {
                Some(o) => k.copy_from_slice(&done[o..o + n]),
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
            let newton = match self.wide.iter_mut().find(|(x, _)| *x == st.width) {
                Some((_, wide)) => wide,
                None => &mut *newton,
            };
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
