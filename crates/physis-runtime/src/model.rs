//! The [`Model`] trait: the numeric functions a back end supplies to the driver.
//!
//! Every slice has the length its name implies: states and rates `dim`, `dw` `noises`,
//! margins `atoms.len()`, observes `observes.len()`. The driver guarantees these lengths
//! and never allocates per step, so an implementation can index freely within them.

use std::sync::Arc;

use crate::info::ModelInfo;
use crate::lanes::LaneKernel;
use crate::matrix::DenseMatrix;
use crate::sparse::{SparseMatrix, SparsePattern};

/// Inputs of one explicit step from `t` to `t + h`.
#[derive(Debug, Clone, Copy)]
pub struct StepArgs<'a> {
    /// Time at the start of the step.
    pub t: f64,
    /// Step size (positive).
    pub h: f64,
    /// State at `t`.
    pub y: &'a [f64],
    /// `f(t, y)`, already evaluated by the driver (reused from the previous step's end).
    pub f0: &'a [f64],
    /// Wiener increments for this step, one per noise, each `N(0, h)` (empty if none).
    pub dw: &'a [f64],
}

/// Outputs of one explicit step.
#[derive(Debug)]
pub struct StepOut<'a> {
    /// The state at `t + h` (the scheme's `next`).
    pub next: &'a mut [f64],
    /// The embedded error estimate (the scheme's `error`), present for adaptive schemes.
    pub err: Option<&'a mut [f64]>,
    /// `f(t + h, next)`, present when the scheme declares `fsal`; the step must fill it.
    pub f1: Option<&'a mut [f64]>,
    /// The continuous extension's `q`, present when the scheme has one
    /// ([`crate::SchemeInfo::dense`]): the state at `t + θh` is the cubic Hermite
    /// interpolant of the step's ends plus `θ²(1−θ)²·q`. A step asked for it without
    /// having one writes zeros.
    pub dense: Option<&'a mut [f64]>,
}

/// The kind of Jacobian a model supplies for Newton.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum JacobianLayout {
    /// Row-major `dim × dim` through [`Model::residual_jacobian`].
    Dense,
    /// The entries of [`Model::jacobian_pattern`] through
    /// [`Model::residual_jacobian_sparse`] (big models: fields on grids). Newton solves
    /// with a tridiagonal elimination when the pattern allows, else a sparse LU.
    Sparse,
}

/// How an implicit scheme's residual depends on `next`, so Newton can take shortcuts.
///
/// A back end that cannot tell says [`ResidualForm::General`] (the default), which is
/// always correct; the other forms must be exact properties of the residual. Exhaustive:
/// every back end matches on it (the workspace is its only user), so a new form is a compile
/// error wherever it must be handled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ResidualForm {
    /// Anything: simplified Newton, iterating until the update is small.
    #[default]
    General,
    /// Affine in `next` (`r = A·next − b`): one Newton step from any guess solves it, so
    /// Newton stops after one update and never evaluates the residual a second time.
    Affine,
    /// Affine in `next` with a Jacobian `A` that depends on nothing but the step size and
    /// the parameters (a linear model with constant coefficients): one factorisation
    /// serves every step of the same size.
    AffineInStep,
}

/// A model as the driver sees it: a back end (tape interpreter, generated Rust, a JIT)
/// implements this for one simulation with its parameters already bound.
///
/// Methods take `&mut self` so an implementation can keep scratch registers; the driver
/// owns the model for the length of a run.
pub trait Model {
    /// The static description (names, scheme, settings, clauses).
    fn info(&self) -> Arc<ModelInfo>;

    /// Writes the initial state at `t0` (may read params).
    fn initial(&mut self, t0: f64, y: &mut [f64]);

    /// The rate `dydt = f(t, y)` (for a second-order state, its velocity and acceleration).
    fn rate(&mut self, t: f64, y: &[f64], dydt: &mut [f64]);

    /// One step of an explicit scheme, specialised to this model. Never called for an
    /// implicit scheme. An adaptive scheme must fill `out.err`.
    fn step(&mut self, args: &StepArgs<'_>, out: StepOut<'_>);

    /// Residual `r(next)` of an implicit scheme (zero at the solution), e.g. for backward
    /// Euler `next − y − h·f(t + h, next)`. Called by the driver's Newton iteration.
    /// The default (for explicit schemes) writes zeros.
    fn residual(&mut self, args: &StepArgs<'_>, next: &[f64], r: &mut [f64]) {
        let _ = (args, next);
        r.fill(0.0);
    }

    /// The Jacobian `∂r/∂next` of the residual, dense row-major. Return `false` (the
    /// default) to let the driver form it by finite differences of [`Model::residual`].
    fn residual_jacobian(
        &mut self,
        args: &StepArgs<'_>,
        next: &[f64],
        jac: &mut DenseMatrix,
    ) -> bool {
        let _ = (args, next, jac);
        false
    }

    /// How the residual depends on `next` (see [`ResidualForm`]); the default claims
    /// nothing.
    fn residual_form(&self) -> ResidualForm {
        ResidualForm::General
    }

    /// Storage the model uses for the residual's Jacobian.
    fn jacobian_layout(&self) -> JacobianLayout {
        JacobianLayout::Dense
    }

    /// Where `∂r/∂next` may be non-zero, for [`JacobianLayout::Sparse`] (the same for
    /// every step; the diagonal is always included). `None` (the default) means dense.
    fn jacobian_pattern(&self) -> Option<Arc<SparsePattern>> {
        None
    }

    /// The Jacobian `∂r/∂next` of the residual in the storage of
    /// [`Model::jacobian_pattern`]. Return `false` (the default) to let the driver form
    /// it by finite differences of [`Model::residual`], one per column colour.
    /// [`SparseMatrix::fill_by_colours`] fills it from Jacobian-vector products.
    fn residual_jacobian_sparse(
        &mut self,
        args: &StepArgs<'_>,
        next: &[f64],
        jac: &mut SparseMatrix,
    ) -> bool {
        let _ = (args, next, jac);
        false
    }

    /// Error estimate of an adaptive implicit scheme once `next` is solved. Called only
    /// when the scheme is both adaptive and implicit; the default writes zeros.
    fn implicit_error(&mut self, args: &StepArgs<'_>, next: &[f64], err: &mut [f64]) {
        let _ = (args, next);
        err.fill(0.0);
    }

    /// Residual of implicit stage `stage` ([`crate::SchemeInfo::implicit_stages`]) at the
    /// unknown `k` (`width·dim` slots: one block per stage of a group that reads each
    /// other), given the blocks solved before it in `solved` (block `j` at
    /// `j·dim..(j+1)·dim`). The default writes zeros.
    fn stage_residual(
        &mut self,
        stage: usize,
        args: &StepArgs<'_>,
        solved: &[f64],
        k: &[f64],
        r: &mut [f64],
    ) {
        let _ = (stage, args, solved, k);
        r.fill(0.0);
    }

    /// The Jacobian `∂r/∂k` of [`Model::stage_residual`], dense row-major. Return `false`
    /// (the default) to let the driver form it by finite differences.
    fn stage_jacobian(
        &mut self,
        stage: usize,
        args: &StepArgs<'_>,
        solved: &[f64],
        k: &[f64],
        jac: &mut DenseMatrix,
    ) -> bool {
        let _ = (stage, args, solved, k, jac);
        false
    }

    /// The Jacobian `∂r/∂k` of [`Model::stage_residual`] in the storage of
    /// [`Model::jacobian_pattern`]. Return `false` (the default) for finite differences.
    fn stage_jacobian_sparse(
        &mut self,
        stage: usize,
        args: &StepArgs<'_>,
        solved: &[f64],
        k: &[f64],
        jac: &mut SparseMatrix,
    ) -> bool {
        let _ = (stage, args, solved, k, jac);
        false
    }

    /// `next` (and `error` when adaptive) from every solved stage, once all are solved.
    /// The default leaves a non-finite state.
    fn stage_finish(&mut self, args: &StepArgs<'_>, solved: &[f64], out: StepOut<'_>) {
        let _ = (args, solved);
        out.next.fill(f64::NAN);
    }

    /// Jacobian-vector product `out = (∂f/∂y)(t, y)·v` of the rate, for the stability check.
    /// Return `false` (the default) to let the driver use a finite difference.
    fn rate_jvp(&mut self, t: f64, y: &[f64], v: &[f64], out: &mut [f64]) -> bool {
        let _ = (t, y, v, out);
        false
    }

    /// Margins `lhs − rhs` of every atom of [`ModelInfo::atoms`] at `(t, y)`; `dydt` holds
    /// the derivative for atoms that read one (see [`ModelInfo::conditions_read_rate`]).
    fn margins(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
        let _ = (t, y, dydt);
        out.fill(0.0);
    }

    /// Applies event `event`'s resets: `post` starts as a copy of the state and the model
    /// writes the reset slots, computing every value from `pre` (and its rate `pre_rate`),
    /// so all resets of the event act simultaneously.
    fn reset(&mut self, event: usize, t: f64, pre: &[f64], pre_rate: &[f64], post: &mut [f64]) {
        let _ = (event, t, pre, pre_rate, post);
    }

    /// Observed columns at `(t, y)` with derivative `dydt`.
    fn observe(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
        let _ = (t, y, dydt);
        out.fill(0.0);
    }

    /// The observes conserve clauses name ([`ModelInfo::conserves`]) at `(t, y)` with
    /// derivative `dydt`, each into its own slot of `out` (`observes.len()` slots); the
    /// other slots may be left as they were. The driver calls it for the drift check after
    /// a step whose sample nobody reads, so a back end that can evaluate fewer observes
    /// than [`Model::observe`] saves the rest. Each value written must be the very bits
    /// [`Model::observe`] computes there. The default computes every observe.
    fn conserved(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
        self.observe(t, y, dydt, out);
    }

    /// A [`LaneKernel`] computing for the members `batch` (models of one simulation with
    /// their own parameters) what each one's methods compute, all lanes in one loop the
    /// compiler can vectorise. `None` (the default) has
    /// [`ModelLaneFactory`](crate::ModelLaneFactory) call each model lane by lane.
    /// Generated models provide one.
    fn lane_kernel(batch: &[Self]) -> Option<Box<dyn LaneKernel>>
    where
        Self: Sized,
    {
        let _ = batch;
        None
    }
}
