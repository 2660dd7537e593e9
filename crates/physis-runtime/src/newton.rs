//! Newton's method for implicit schemes. The driver owns it: the model supplies the
//! residual of `next` and (optionally) its Jacobian; failure to converge is reported so the
//! driver can reject the step and halve it.
//!
//! Small models use a dense Jacobian and LU, formed afresh for every solve. A model with a
//! sparse pattern ([`JacobianLayout::Sparse`]) gets a sparse Jacobian (the model's, or
//! finite differences one column colour at a time) solved by a tridiagonal elimination or
//! a sparse LU; its factorisation is kept for the next step while the step size is the
//! same and the iteration still contracts with it.
//!
//! A residual the model declares affine in `next` ([`ResidualForm`]) takes one Newton
//! update and stops: that update is the exact solution, so the convergence test (a second
//! residual and solve) would only confirm it. When its Jacobian depends on the step size
//! alone, one factorisation serves every step of that size, dense or sparse.

use std::sync::Arc;

mod affine;

use crate::matrix::DenseMatrix;
use crate::model::{JacobianLayout, Model, ResidualForm, StepArgs};
use crate::sparse::{SparseMatrix, SparsePattern};
use crate::sparse_lu::SparseLu;

/// The equations one Newton solve zeroes: the residual of `next` of an implicit scheme
/// ([`Whole`]) or of one implicit stage (`crate::driver::stages`).
pub(crate) trait System {
    /// `r(x)`.
    fn residual(&mut self, x: &[f64], r: &mut [f64]);
    /// `∂r/∂x` dense; false to fall back to finite differences.
    fn jacobian(&mut self, x: &[f64], jac: &mut DenseMatrix) -> bool;
    /// `∂r/∂x` in the model's sparse pattern; false to fall back to finite differences.
    fn jacobian_sparse(&mut self, x: &[f64], jac: &mut SparseMatrix) -> bool;
}

/// The residual of `next` of an implicit scheme.
pub(crate) struct Whole<'m, 'a, M: ?Sized> {
    pub model: &'m mut M,
    pub args: &'m StepArgs<'a>,
}

impl<M: Model + ?Sized> System for Whole<'_, '_, M> {
    fn residual(&mut self, x: &[f64], r: &mut [f64]) {
        self.model.residual(self.args, x, r);
    }
    fn jacobian(&mut self, x: &[f64], jac: &mut DenseMatrix) -> bool {
        self.model.residual_jacobian(self.args, x, jac)
    }
    fn jacobian_sparse(&mut self, x: &[f64], jac: &mut SparseMatrix) -> bool {
        self.model.residual_jacobian_sparse(self.args, x, jac)
    }
}

/// What an update is measured against when testing convergence.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Scale<'a> {
    /// `tol·(1 + |x|)` of the iterate itself.
    Own,
    /// `tol·(1 + |y|)/h`: the unknown is a rate whose update moves the state by `h` times it.
    Rate { y: &'a [f64], h: f64 },
    /// The adaptive step's own error weights (`crate::control::error_norm`), so Newton's
    /// error is measured as the step's is, in every slot: `atol_i + rtol·max(|y_i|, |z_i|)`
    /// with `z` the state the unknown stands for (the iterate itself, or `y + h·x` for a
    /// rate, whose update then counts `h` times). A slot with both zero (a state still
    /// exactly at zero) falls back to `rtol·(1 + |z_i|)`.
    Weighted {
        y: &'a [f64],
        atol: &'a [f64],
        /// `Some(h)` when the unknown is a rate.
        rate: Option<f64>,
    },
}

impl Scale<'_> {
    /// The weight of slot `i` at iterate value `x`, for tolerance `tol`. An unknown of
    /// several state-sized blocks (stages that read each other) weighs each block as the
    /// state: slot `i` is state slot `i mod n`.
    #[inline]
    fn weight(&self, i: usize, x: f64, tol: f64) -> f64 {
        let i = match *self {
            Scale::Own => i,
            Scale::Rate { y, .. } | Scale::Weighted { y, .. } => i % y.len().max(1),
        };
        match *self {
            Scale::Own => tol * (1.0 + x.abs()),
            Scale::Rate { y, h } => tol * (1.0 + y[i].abs()) / h,
            Scale::Weighted { y, atol, rate } => {
                let (z, h) = match rate {
                    Some(h) => (y[i] + h * x, h),
                    None => (x, 1.0),
                };
                let w = atol[i] + tol * y[i].abs().max(z.abs());
                if w > 0.0 {
                    w / h
                } else {
                    tol * (1.0 + z.abs()) / h
                }
            }
        }
    }
}

/// Iterations per Jacobian before refreshing it.
const ITER_PER_JACOBIAN: usize = 7;
/// Jacobian evaluations per solve before giving up.
const MAX_JACOBIANS: usize = 3;
/// Ratio of successive updates at which the iteration counts as diverging.
const DIVERGING: f64 = 2.0;
/// Converged when the weighted RMS of the update is below this (weights `tol·(1 + |x|)`).
const CONVERGED: f64 = 1e-2;
/// Largest contraction rate of the last solve at which the kept Jacobian may serve the next
/// step (rescaled to its step size); a slower one forms a fresh Jacobian.
const KEEP_JACOBIAN: f64 = 0.1;

/// Rows of the Jacobian with nothing off the diagonal (nodes a Dirichlet boundary pins:
/// their rate is masked to zero). Their columns are cleared from the other rows before
/// factorising and moved to the right side at every solve, so pivoting can never mix
/// another row's rounding into a pinned node: it stays exactly where its residual puts it.
#[derive(Debug, Default)]
struct Pinned {
    /// Diagonal of each pinned row (zero for the others).
    diag: Vec<f64>,
    /// Cleared entries: row, pinned column, value.
    moved: Vec<(usize, usize, f64)>,
}

impl Pinned {
    /// Clears the pinned columns of a dense matrix.
    fn dense(&mut self, jac: &mut DenseMatrix) {
        let n = jac.n();
        self.diag.clear();
        self.moved.clear();
        for i in 0..n {
            let d = jac.get(i, i);
            let alone = d != 0.0 && d.is_finite() && (0..n).all(|j| j == i || jac.get(i, j) == 0.0);
            self.diag.push(if alone { d } else { 0.0 });
        }
        for i in 0..n {
            if self.diag[i] == 0.0 {
                continue;
            }
            for k in 0..n {
                let a = jac.get(k, i);
                if k != i && a != 0.0 {
                    self.moved.push((k, i, a));
                    jac.set(k, i, 0.0);
                }
            }
        }
    }

    /// Clears the pinned columns of a sparse matrix.
    fn sparse(&mut self, jac: &mut SparseMatrix) {
        let p = jac.pattern().clone();
        let n = p.n();
        self.diag.clear();
        self.moved.clear();
        let (ptr, cols) = (p.row_ptr(), p.col_indices());
        let v = jac.values_mut();
        for i in 0..n {
            let (mut d, mut alone) = (0.0, true);
            for k in ptr[i]..ptr[i + 1] {
                if cols[k] == i {
                    d = v[k];
                } else if v[k] != 0.0 {
                    alone = false;
                }
            }
            let ok = alone && d != 0.0 && d.is_finite();
            self.diag.push(if ok { d } else { 0.0 });
        }
        for k in 0..n {
            for e in ptr[k]..ptr[k + 1] {
                let i = cols[e];
                if i != k && self.diag[i] != 0.0 && v[e] != 0.0 {
                    self.moved.push((k, i, v[e]));
                    v[e] = 0.0;
                }
            }
        }
    }

    /// Moves the cleared entries to the right side `b` of `A·x = b`.
    fn apply(&self, b: &mut [f64]) {
        for &(k, i, a) in &self.moved {
            b[k] -= a * (b[i] / self.diag[i]);
        }
    }
}

/// The linear algebra of one Newton.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)] // one per run; boxing would only add a pointer chase
enum Linear {
    Dense {
        jac: DenseMatrix,
        piv: Vec<usize>,
        /// Step size of the kept factorisation, if one is kept.
        kept: Option<f64>,
        /// The last Jacobian formed, before pinning and factorising, and the step size it
        /// was formed at: rescaled to later step sizes (see [`Newton::rescale`]).
        raw: DenseMatrix,
        raw_h: Option<f64>,
    },
    Sparse {
        jac: SparseMatrix,
        lu: SparseLu,
        /// Step size of the kept factorisation, if one is kept.
        kept: Option<f64>,
        /// The last Jacobian's values, before pinning and factorising, and the step size
        /// it was formed at, as the dense `raw`.
        raw: Vec<f64>,
        raw_h: Option<f64>,
    },
}

impl Linear {
    /// Pins and factorises the Jacobian just formed in `jac` (the dense one kept unpinned
    /// in `raw` first, for [`Newton::rescale`]); `kept` records `h` when it succeeds.
    fn factor_formed(&mut self, pinned: &mut Pinned, h: f64) -> bool {
        match self {
            Linear::Dense {
                jac,
                piv,
                kept,
                raw,
                raw_h,
            } => {
                raw.as_mut_slice().copy_from_slice(jac.as_slice());
                *raw_h = Some(h);
                pinned.dense(jac);
                let ok = jac.lu_in_place(piv);
                *kept = ok.then_some(h);
                ok
            }
            Linear::Sparse {
                jac,
                lu,
                kept,
                raw,
                raw_h,
            } => {
                raw.clear();
                raw.extend_from_slice(jac.values());
                *raw_h = Some(h);
                pinned.sparse(jac);
                let ok = lu.factor(jac);
                *kept = ok.then_some(h);
                ok
            }
        }
    }
}

/// What a solve may take over from the solves before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reuse {
    /// Nothing: a fresh Jacobian.
    Nothing,
    /// The kept factorisation when it is for the same step size.
    Factorisation,
    /// The kept factorisation for the same step size, else the last dense Jacobian
    /// rescaled to this step size and factorised anew; a fresh Jacobian only when Newton
    /// with it fails or contracts too slowly.
    Jacobian,
}

/// How the rate evaluations of a solve are counted.
pub(crate) struct Cost<'a> {
    /// Rate evaluations per residual call.
    pub per_residual: u64,
    /// The run's counter.
    pub evals: &'a mut u64,
}

/// The pattern a model declares for its Newton, when it asks for a sparse one of order `n`.
pub(crate) fn sparse_pattern<M: Model + ?Sized>(model: &M, n: usize) -> Option<Arc<SparsePattern>> {
    model
        .jacobian_pattern()
        .filter(|p| model.jacobian_layout() == JacobianLayout::Sparse && p.n() == n)
}

/// Buffers for a simplified Newton iteration (one Jacobian reused across iterations).
#[derive(Debug)]
pub(crate) struct Newton {
    /// Jacobians formed (the model's or by finite differences) since the run started.
    pub jacobians: u64,
    /// LU factorisations since the run started.
    pub factorisations: u64,
    lin: Linear,
    pinned: Pinned,
    form: ResidualForm,
    r: Vec<f64>,
    r2: Vec<f64>,
    delta: Vec<f64>,
    /// The starting guess, to start again when a kept factorisation fails.
    guess: Vec<f64>,
    /// The last solve converged with every contraction rate below [`KEEP_JACOBIAN`].
    fast: bool,
    /// Perturbed iterate for finite-difference Jacobians.
    probe: Vec<f64>,
    /// What linearly implicit stages keep (`affine`).
    fresh: affine::Fresh,
}

impl Newton {
    /// Dense Newton of order `n`.
    pub fn new(n: usize) -> Self {
        Self {
            jacobians: 0,
            factorisations: 0,
            lin: Linear::Dense {
                jac: DenseMatrix::zeros(n),
                piv: vec![0; n],
                kept: None,
                raw: DenseMatrix::zeros(n),
                raw_h: None,
            },
            form: ResidualForm::General,
            pinned: Pinned::default(),
            r: vec![0.0; n],
            r2: vec![0.0; n],
            delta: vec![0.0; n],
            guess: Vec::new(),
            fast: false,
            probe: Vec::new(),
            fresh: affine::Fresh::default(),
        }
    }

    /// Sparse Newton over `pattern`.
    pub fn sparse(pattern: Arc<SparsePattern>) -> Self {
        let n = pattern.n();
        Self {
            jacobians: 0,
            factorisations: 0,
            lin: Linear::Sparse {
                lu: SparseLu::new(&pattern),
                jac: SparseMatrix::zeros(pattern),
                kept: None,
                raw: Vec::new(),
                raw_h: None,
            },
            form: ResidualForm::General,
            pinned: Pinned::default(),
            r: vec![0.0; n],
            r2: vec![0.0; n],
            delta: vec![0.0; n],
            guess: Vec::new(),
            fast: false,
            probe: vec![0.0; n],
            fresh: affine::Fresh::default(),
        }
    }

    /// The Newton a model asks for: sparse when it declares a sparse layout with a pattern
    /// of order `n`, dense otherwise, with the shortcuts its [`ResidualForm`] allows.
    pub fn for_model<M: Model + ?Sized>(model: &M, n: usize) -> Self {
        let mut newton = match sparse_pattern(model, n) {
            Some(p) => Self::sparse(p),
            None => Self::new(n),
        };
        newton.form = model.residual_form();
        newton
    }

    /// True when a factorisation for step size `h` is kept.
    fn kept_for(&self, h: f64) -> bool {
        // A fixed step's `h` varies in its last bits as the driver steps on `t0 + k·h`.
        let kept = match self.lin {
            Linear::Dense { kept, .. } | Linear::Sparse { kept, .. } => kept,
        };
        kept.is_some_and(|k| (k - h).abs() <= 1e-9 * h.abs())
    }

    /// Solves `residual(next) = 0` starting from the guess in `next`. Returns whether it
    /// converged; `evals` counts rate evaluations (`per_residual` per residual call). With
    /// `atol` (an adaptive step's absolute tolerances) convergence is measured in the step's
    /// error weights, else beside the iterate.
    pub fn solve<M: Model + ?Sized>(
        &mut self,
        model: &mut M,
        args: &StepArgs<'_>,
        next: &mut [f64],
        (tol, atol): (f64, Option<&[f64]>),
        per_residual: u64,
        evals: &mut u64,
    ) -> bool {
        let reuse = if matches!(self.lin, Linear::Sparse { .. }) {
            Reuse::Factorisation
        } else {
            Reuse::Nothing
        };
        let mut sys = Whole { model, args };
        let cost = Cost {
            per_residual,
            evals,
        };
        let scale = match atol {
            Some(atol) => Scale::Weighted {
                y: args.y,
                atol,
                rate: None,
            },
            None => Scale::Own,
        };
        self.solve_system(&mut sys, args.h, next, (tol, scale), reuse, cost)
    }

    /// Solves `sys` from the guess in `x` for a step of size `h`. What `reuse` allows is
    /// tried first, then a fresh Jacobian from the same guess.
    pub(crate) fn solve_system<S: System + ?Sized>(
        &mut self,
        sys: &mut S,
        h: f64,
        x: &mut [f64],
        (tol, scale): (f64, Scale<'_>),
        reuse: Reuse,
        cost: Cost<'_>,
    ) -> bool {
        let Cost {
            per_residual,
            evals,
        } = cost;
        match self.form {
            ResidualForm::Affine | ResidualForm::AffineInStep => {
                let reuse = self.form == ResidualForm::AffineInStep && self.kept_for(h);
                if !reuse && !self.factor(sys, h, x, per_residual, evals) {
                    return false;
                }
                return self.linear_step(sys, x, per_residual, evals);
            }
            ResidualForm::General => {}
        }
        if reuse == Reuse::Jacobian && !self.kept_for(h) && self.fast {
            self.rescale(h);
        }
        if reuse != Reuse::Nothing && self.kept_for(h) {
            self.guess.clear();
            self.guess.extend_from_slice(x);
            if self.iterate(sys, x, (tol, scale), per_residual, evals) == Some(true) {
                return true;
            }
            x.copy_from_slice(&self.guess);
        }
        for _ in 0..MAX_JACOBIANS {
            if !self.factor(sys, h, x, per_residual, evals) {
                return false;
            }
            match self.iterate(sys, x, (tol, scale), per_residual, evals) {
                Some(true) => return true,
                Some(false) => {}
                None => return false,
            }
        }
        false
    }

    /// Factorises the kept Jacobian rescaled from its step size `h₀` to `h`:
    /// `I + (h/h₀)·(A − I)`, exact for a residual `x − φ(h·g(x))` whose Jacobian is
    /// `I − c·h·J` (an implicit stage, `next` of a one-step scheme, a group of stages
    /// that read each other: `I − h·A⊗J`); for any other, an approximation the
    /// convergence test judges like any simplified Newton's matrix. The Jacobian is not
    /// formed again, dense or sparse.
    fn rescale(&mut self, h: f64) {
        match &mut self.lin {
            Linear::Dense {
                jac,
                piv,
                kept,
                raw,
                raw_h: Some(h0),
            } => {
                let (n, ratio) = (raw.n(), h / *h0);
                for (k, (a, r)) in jac
                    .as_mut_slice()
                    .iter_mut()
                    .zip(raw.as_slice())
                    .enumerate()
                {
                    let d = if k % (n + 1) == 0 { 1.0 } else { 0.0 };
                    *a = d + ratio * (r - d);
                }
                self.pinned.dense(jac);
                *kept = jac.lu_in_place(piv).then_some(h);
            }
            Linear::Sparse {
                jac,
                lu,
                kept,
                raw,
                raw_h: Some(h0),
            } => {
                let ratio = h / *h0;
                let p = Arc::clone(jac.pattern());
                let (ptr, cols) = (p.row_ptr(), p.col_indices());
                let v = jac.values_mut();
                for i in 0..p.n() {
                    for e in ptr[i]..ptr[i + 1] {
                        let d = if cols[e] == i { 1.0 } else { 0.0 };
                        v[e] = d + ratio * (raw[e] - d);
                    }
                }
                self.pinned.sparse(jac);
                *kept = lu.factor(jac).then_some(h);
            }
            _ => return,
        }
        self.factorisations += 1;
        self.fresh.kept = false;
    }

    /// Forms and factorises the Jacobian at `next`.
    fn factor<S: System + ?Sized>(
        &mut self,
        sys: &mut S,
        h: f64,
        next: &mut [f64],
        per_residual: u64,
        evals: &mut u64,
    ) -> bool {
        let n = next.len();
        self.jacobians += 1;
        self.factorisations += 1;
        self.fresh.kept = false;
        let Self {
            lin,
            pinned,
            r,
            r2,
            delta,
            probe,
            ..
        } = self;
        match lin {
            Linear::Dense { jac, kept, .. } => {
                *kept = None;
                // Jacobian at the current iterate: the model's, or finite differences.
                if !sys.jacobian(next, jac) {
                    sys.residual(next, r);
                    *evals += per_residual;
                    for j in 0..n {
                        let xj = next[j];
                        let dx = f64::EPSILON.sqrt() * xj.abs().max(1.0);
                        next[j] = xj + dx;
                        let dx = next[j] - xj;
                        sys.residual(next, r2);
                        *evals += per_residual;
                        next[j] = xj;
                        for i in 0..n {
                            jac.set(i, j, (r2[i] - r[i]) / dx);
                        }
                    }
                }
            }
            Linear::Sparse { jac, kept, .. } => {
                *kept = None;
                if !sys.jacobian_sparse(next, jac) {
                    // Finite differences along each colour's columns at once.
                    sys.residual(next, r);
                    *evals += per_residual;
                    let scale = next.iter().fold(1.0f64, |m, x| m.max(x.abs()));
                    let eps = f64::EPSILON.sqrt() * scale;
                    let mut failed = false;
                    jac.fill_by_colours(delta, r2, |seed, out| {
                        for ((p, x), s) in probe.iter_mut().zip(next.iter()).zip(seed) {
                            *p = x + eps * s;
                        }
                        sys.residual(probe, out);
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
            }
        }
        lin.factor_formed(pinned, h)
    }

    /// `delta ← A⁻¹·delta` with the current factorisation.
    fn solve_delta(&mut self) {
        self.pinned.apply(&mut self.delta);
        match &mut self.lin {
            Linear::Dense { jac, piv, .. } => jac.lu_solve(piv, &mut self.delta),
            Linear::Sparse { lu, .. } => lu.solve(&mut self.delta),
        }
    }

    /// One Newton update of an affine residual with the current factorisation: the
    /// solution up to rounding. False when it is not finite.
    fn linear_step<S: System + ?Sized>(
        &mut self,
        sys: &mut S,
        next: &mut [f64],
        per_residual: u64,
        evals: &mut u64,
    ) -> bool {
        sys.residual(next, &mut self.delta);
        *evals += per_residual;
        for d in self.delta.iter_mut() {
            *d = -*d;
        }
        self.solve_delta();
        let mut finite = true;
        for (x, d) in next.iter_mut().zip(&self.delta) {
            *x += d;
            finite &= x.is_finite();
        }
        finite
    }

    /// Simplified Newton iterations with the current factorisation: `Some(true)` when
    /// converged, `Some(false)` when it contracts too slowly (refresh the Jacobian), `None`
    /// when the iterate is no longer finite or the updates grow (the contraction rate
    /// `‖δₖ‖/‖δₖ₋₁‖` reached [`DIVERGING`]): then the step is cut.
    fn iterate<S: System + ?Sized>(
        &mut self,
        sys: &mut S,
        next: &mut [f64],
        (tol, scale): (f64, Scale<'_>),
        per_residual: u64,
        evals: &mut u64,
    ) -> Option<bool> {
        let n = next.len();
        let mut last = f64::INFINITY;
        let mut slowest = 0.0f64;
        // In a step's error weights the error left is judged from the contraction rate θ
        // (Hairer & Wanner, Solving ODEs II, §IV.8): `θ/(1 − θ)·‖δ‖`, not `‖δ‖` alone.
        let weighted = matches!(scale, Scale::Weighted { .. });
        self.fast = false;
        for _ in 0..ITER_PER_JACOBIAN {
            sys.residual(next, &mut self.r);
            *evals += per_residual;
            for (d, r) in self.delta.iter_mut().zip(&self.r) {
                *d = -r;
            }
            self.solve_delta();
            let mut s = 0.0;
            for (i, (x, d)) in next.iter_mut().zip(&self.delta).enumerate() {
                *x += d;
                s += (d / scale.weight(i, *x, tol)).powi(2);
            }
            let size = if n == 0 { 0.0 } else { (s / n as f64).sqrt() };
            if !size.is_finite() {
                return None;
            }
            let theta = size / last;
            slowest = slowest.max(theta);
            let left = if weighted && theta < 1.0 {
                size * theta / (1.0 - theta)
            } else {
                size
            };
            if size <= CONVERGED && left <= CONVERGED {
                self.fast = slowest <= KEEP_JACOBIAN;
                return Some(true);
            }
            if size >= DIVERGING * last {
                // Growing updates: the iterate is leaving the root's basin. Going on (with
                // a fresh Jacobian there) can land on a non-physical root; the driver cuts
                // the step instead.
                return None;
            }
            if size > 0.9 * last {
                // Contracting too slowly: refresh the Jacobian at this iterate.
                return Some(false);
            }
            last = size;
        }
        Some(false)
    }
}
