//! Newton's method for implicit schemes. The driver owns it: the model supplies the
//! residual of `next` and (optionally) its Jacobian; failure to converge is reported so the
//! driver can reject the step and halve it.
//!
//! Small models use a dense Jacobian and LU, formed afresh for every solve. A model with a
//! sparse pattern ([`JacobianLayout::Sparse`]) gets a sparse Jacobian (the model's, or
//! finite differences one column colour at a time) solved by a tridiagonal elimination or
//! a sparse LU; its factorisation is kept for the next step while the step size is the
//! same and the iteration still contracts with it (a linear problem then factorises once).

use std::sync::Arc;

use crate::matrix::DenseMatrix;
use crate::model::{JacobianLayout, Model, StepArgs};
use crate::sparse::{SparseMatrix, SparsePattern};
use crate::sparse_lu::SparseLu;

/// Iterations per Jacobian before refreshing it.
const ITER_PER_JACOBIAN: usize = 7;
/// Jacobian evaluations per solve before giving up.
const MAX_JACOBIANS: usize = 3;
/// Converged when the weighted RMS of the update is below this (weights `tol·(1 + |x|)`).
const CONVERGED: f64 = 1e-2;

/// The linear algebra of one Newton.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)] // one per run; boxing would only add a pointer chase
enum Linear {
    Dense {
        jac: DenseMatrix,
        piv: Vec<usize>,
    },
    Sparse {
        jac: SparseMatrix,
        lu: SparseLu,
        /// Step size of the kept factorisation, if one is kept.
        kept: Option<f64>,
    },
}

/// Buffers for a simplified Newton iteration (one Jacobian reused across iterations).
#[derive(Debug)]
pub(crate) struct Newton {
    lin: Linear,
    r: Vec<f64>,
    r2: Vec<f64>,
    delta: Vec<f64>,
    /// The starting guess, to start again when a kept factorisation fails.
    guess: Vec<f64>,
}

impl Newton {
    /// Dense Newton of order `n`.
    pub fn new(n: usize) -> Self {
        Self {
            lin: Linear::Dense {
                jac: DenseMatrix::zeros(n),
                piv: vec![0; n],
            },
            r: vec![0.0; n],
            r2: vec![0.0; n],
            delta: vec![0.0; n],
            guess: Vec::new(),
        }
    }

    /// Sparse Newton over `pattern`.
    pub fn sparse(pattern: Arc<SparsePattern>) -> Self {
        let n = pattern.n();
        Self {
            lin: Linear::Sparse {
                lu: SparseLu::new(&pattern),
                jac: SparseMatrix::zeros(pattern),
                kept: None,
            },
            r: vec![0.0; n],
            r2: vec![0.0; n],
            delta: vec![0.0; n],
            guess: Vec::new(),
        }
    }

    /// The Newton a model asks for: sparse when it declares a sparse layout with a pattern
    /// of order `n`, dense otherwise.
    pub fn for_model<M: Model + ?Sized>(model: &M, n: usize) -> Self {
        if model.jacobian_layout() == JacobianLayout::Sparse
            && let Some(p) = model.jacobian_pattern()
            && p.n() == n
        {
            return Self::sparse(p);
        }
        Self::new(n)
    }

    /// Solves `residual(next) = 0` starting from the guess in `next`. Returns whether it
    /// converged; `evals` counts rate evaluations (`per_residual` per residual call).
    pub fn solve<M: Model + ?Sized>(
        &mut self,
        model: &mut M,
        args: &StepArgs<'_>,
        next: &mut [f64],
        tol: f64,
        per_residual: u64,
        evals: &mut u64,
    ) -> bool {
        // A kept sparse factorisation for this step size is tried first (a fixed step's
        // `h` varies in its last bits as the driver steps on the grid `t0 + k·h`).
        let reuse = matches!(self.lin, Linear::Sparse { kept: Some(h), .. }
            if (h - args.h).abs() <= 1e-9 * args.h.abs());
        if reuse {
            self.guess.clear();
            self.guess.extend_from_slice(next);
            if self.iterate(model, args, next, tol, per_residual, evals) == Some(true) {
                return true;
            }
            next.copy_from_slice(&self.guess);
        }
        for _ in 0..MAX_JACOBIANS {
            if !self.factor(model, args, next, per_residual, evals) {
                return false;
            }
            match self.iterate(model, args, next, tol, per_residual, evals) {
                Some(true) => return true,
                Some(false) => {}
                None => return false,
            }
        }
        false
    }

    /// Forms and factorises the Jacobian at `next`.
    fn factor<M: Model + ?Sized>(
        &mut self,
        model: &mut M,
        args: &StepArgs<'_>,
        next: &mut [f64],
        per_residual: u64,
        evals: &mut u64,
    ) -> bool {
        let n = next.len();
        let Self {
            lin, r, r2, delta, ..
        } = self;
        match lin {
            Linear::Dense { jac, piv } => {
                // Jacobian at the current iterate: the model's, or finite differences.
                if !model.residual_jacobian(args, next, jac) {
                    model.residual(args, next, r);
                    *evals += per_residual;
                    for j in 0..n {
                        let xj = next[j];
                        let dx = f64::EPSILON.sqrt() * xj.abs().max(1.0);
                        next[j] = xj + dx;
                        let dx = next[j] - xj;
                        model.residual(args, next, r2);
                        *evals += per_residual;
                        next[j] = xj;
                        for i in 0..n {
                            jac.set(i, j, (r2[i] - r[i]) / dx);
                        }
                    }
                }
                jac.lu_in_place(piv)
            }
            Linear::Sparse { jac, lu, kept } => {
                *kept = None;
                if !model.residual_jacobian_sparse(args, next, jac) {
                    // Finite differences along each colour's columns at once.
                    model.residual(args, next, r);
                    *evals += per_residual;
                    let scale = next.iter().fold(1.0f64, |m, x| m.max(x.abs()));
                    let eps = f64::EPSILON.sqrt() * scale;
                    let mut failed = false;
                    jac.fill_by_colours(delta, r2, |seed, out| {
                        let tmp: Vec<f64> =
                            next.iter().zip(seed).map(|(x, s)| x + eps * s).collect();
                        model.residual(args, &tmp, out);
                        *evals += per_residual;
                        for (o, r0) in out.iter_mut().zip(r.iter()) {
                            *o = (*o - r0) / eps;
                        }
                        failed |= out.iter().any(|v| !v.is_finite());
                    });
                    if failed {
                        return false;
                    }
                }
                let ok = lu.factor(jac);
                if ok {
                    *kept = Some(args.h);
                }
                ok
            }
        }
    }

    /// Simplified Newton iterations with the current factorisation: `Some(true)` when
    /// converged, `Some(false)` when it stopped contracting (refresh the Jacobian), `None`
    /// when the iterate is no longer finite.
    fn iterate<M: Model + ?Sized>(
        &mut self,
        model: &mut M,
        args: &StepArgs<'_>,
        next: &mut [f64],
        tol: f64,
        per_residual: u64,
        evals: &mut u64,
    ) -> Option<bool> {
        let n = next.len();
        let mut last = f64::INFINITY;
        for _ in 0..ITER_PER_JACOBIAN {
            model.residual(args, next, &mut self.r);
            *evals += per_residual;
            for (d, r) in self.delta.iter_mut().zip(&self.r) {
                *d = -r;
            }
            match &mut self.lin {
                Linear::Dense { jac, piv } => jac.lu_solve(piv, &mut self.delta),
                Linear::Sparse { lu, .. } => lu.solve(&mut self.delta),
            }
            let mut s = 0.0;
            for (x, d) in next.iter_mut().zip(&self.delta) {
                *x += d;
                let w = tol * (1.0 + x.abs());
                s += (d / w).powi(2);
            }
            let size = if n == 0 { 0.0 } else { (s / n as f64).sqrt() };
            if !size.is_finite() {
                return None;
            }
            if size <= CONVERGED {
                return Some(true);
            }
            if size > 0.9 * last {
                // Not contracting: refresh the Jacobian at this iterate.
                return Some(false);
            }
            last = size;
        }
        Some(false)
    }
}
