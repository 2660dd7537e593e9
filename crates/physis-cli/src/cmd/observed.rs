//! A model wrapper that appends state slots to the observed columns, so ensemble
//! statistics (which cover observes) also cover states: `plot --ensemble` of a model
//! without observes, or of `--y x[1]`.

use std::sync::Arc;

use physis_runtime::{
    DenseMatrix, JacobianLayout, Model, ModelInfo, ObserveInfo, SparseMatrix, SparsePattern,
    StepArgs, StepOut,
};

/// `inner` with extra observed columns copied from state slots. The inner observes keep
/// their indices (conserve clauses refer to them), the extra ones follow.
pub struct Observed<M> {
    inner: M,
    info: Arc<ModelInfo>,
    slots: Vec<usize>,
    inner_observes: usize,
}

impl<M: Model> Observed<M> {
    /// Appends one column per `(name, unit, quantity, slot)`.
    pub fn new(inner: M, extra: &[(String, String, String, usize)]) -> Self {
        let base = inner.info();
        let inner_observes = base.observes.len();
        let mut info = (*base).clone();
        info.observes
            .extend(extra.iter().map(|(n, u, q, _)| ObserveInfo {
                name: n.clone(),
                unit: u.clone(),
                quantity: q.clone(),
            }));
        Self {
            inner,
            info: Arc::new(info),
            slots: extra.iter().map(|e| e.3).collect(),
            inner_observes,
        }
    }
}

impl<M: Model> Model for Observed<M> {
    fn info(&self) -> Arc<ModelInfo> {
        self.info.clone()
    }
    fn initial(&mut self, t0: f64, y: &mut [f64]) {
        self.inner.initial(t0, y);
    }
    fn rate(&mut self, t: f64, y: &[f64], dydt: &mut [f64]) {
        self.inner.rate(t, y, dydt);
    }
    fn step(&mut self, args: &StepArgs<'_>, out: StepOut<'_>) {
        self.inner.step(args, out);
    }
    fn residual(&mut self, args: &StepArgs<'_>, next: &[f64], r: &mut [f64]) {
        self.inner.residual(args, next, r);
    }
    fn residual_jacobian(
        &mut self,
        args: &StepArgs<'_>,
        next: &[f64],
        jac: &mut DenseMatrix,
    ) -> bool {
        self.inner.residual_jacobian(args, next, jac)
    }
    fn jacobian_layout(&self) -> JacobianLayout {
        self.inner.jacobian_layout()
    }
    fn jacobian_pattern(&self) -> Option<Arc<SparsePattern>> {
        self.inner.jacobian_pattern()
    }
    fn residual_jacobian_sparse(
        &mut self,
        args: &StepArgs<'_>,
        next: &[f64],
        jac: &mut SparseMatrix,
    ) -> bool {
        self.inner.residual_jacobian_sparse(args, next, jac)
    }
    fn implicit_error(&mut self, args: &StepArgs<'_>, next: &[f64], err: &mut [f64]) {
        self.inner.implicit_error(args, next, err);
    }
    fn rate_jvp(&mut self, t: f64, y: &[f64], v: &[f64], out: &mut [f64]) -> bool {
        self.inner.rate_jvp(t, y, v, out)
    }
    fn margins(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
        self.inner.margins(t, y, dydt, out);
    }
    fn reset(&mut self, event: usize, t: f64, pre: &[f64], pre_rate: &[f64], post: &mut [f64]) {
        self.inner.reset(event, t, pre, pre_rate, post);
    }
    fn observe(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
        let (own, extra) = out.split_at_mut(self.inner_observes.min(out.len()));
        self.inner.observe(t, y, dydt, own);
        for (o, &slot) in extra.iter_mut().zip(&self.slots) {
            *o = y.get(slot).copied().unwrap_or(f64::NAN);
        }
    }
}
