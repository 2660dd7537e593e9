//! Linearly implicit stages (a Rosenbrock method's, reading the rate's Jacobian `J`): the
//! residual `A·k − b` is affine in the stage with a matrix that does not depend on it, so
//! its Jacobian formed at any point is `A` exactly and one update from zero solves it up to
//! rounding. The stages of one step usually share `A = I − γ·h·J(t, y)`: a stage whose
//! freshly formed `A` equals, bit for bit, the one the kept factorisation was made from
//! reuses that factorisation, so such a method factorises once per step, as it should.

use super::{Linear, Newton, System};
use crate::matrix::DenseMatrix;
use crate::sparse::SparseMatrix;

/// The matrix an affine stage forms before comparing it with the kept one.
#[derive(Debug, Default)]
pub(super) struct Fresh {
    dense: Option<DenseMatrix>,
    sparse: Option<SparseMatrix>,
    /// True while the kept factorisation is of a matrix an affine stage formed (a later
    /// general solve may have replaced it).
    pub(super) kept: bool,
}

impl Newton {
    /// Solves the affine system `sys` for a step of size `h`: `x` from zero by one update
    /// with the exact Jacobian. False when the matrix is singular or a value not finite.
    pub(crate) fn solve_affine<S: System + ?Sized>(
        &mut self,
        sys: &mut S,
        h: f64,
        x: &mut [f64],
        per_residual: u64,
        evals: &mut u64,
    ) -> bool {
        x.fill(0.0);
        let ok = match self.factor_affine(sys, h, x) {
            Some(ok) => ok,
            // No Jacobian from the model: finite differences, as any solve.
            None => {
                self.fresh.kept = false;
                self.factor(sys, h, x, per_residual, evals)
            }
        };
        // The kept matrix is no simplified-Newton matrix for a later general solve.
        self.fast = false;
        ok && self.linear_step(sys, x, per_residual, evals)
    }

    /// Forms the Jacobian at `x` and factorises it unless the kept factorisation is of
    /// the same matrix. `None` when the model gives no Jacobian.
    fn factor_affine<S: System + ?Sized>(
        &mut self,
        sys: &mut S,
        h: f64,
        x: &[f64],
    ) -> Option<bool> {
        let n = x.len();
        let Self {
            lin,
            pinned,
            fresh,
            jacobians,
            factorisations,
            ..
        } = self;
        match lin {
            Linear::Dense { jac, kept, raw, .. } => {
                let m = fresh.dense.get_or_insert_with(|| DenseMatrix::zeros(n));
                if !sys.jacobian(x, m) {
                    return None;
                }
                *jacobians += 1;
                if fresh.kept && kept.is_some() && m.as_slice() == raw.as_slice() {
                    return Some(true);
                }
                jac.as_mut_slice().copy_from_slice(m.as_slice());
            }
            Linear::Sparse { jac, kept, raw, .. } => {
                let m = fresh
                    .sparse
                    .get_or_insert_with(|| SparseMatrix::zeros(jac.pattern().clone()));
                if !sys.jacobian_sparse(x, m) {
                    return None;
                }
                *jacobians += 1;
                if fresh.kept && kept.is_some() && m.values() == raw.as_slice() {
                    return Some(true);
                }
                jac.values_mut().copy_from_slice(m.values());
            }
        }
        *factorisations += 1;
        let ok = lin.factor_formed(pinned, h);
        fresh.kept = ok;
        Some(ok)
    }
}
