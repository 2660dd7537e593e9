//! A model wrapper that appends state slots to the observed columns, so ensemble
//! statistics (which cover observes) also cover states: `plot --ensemble` of a model
//! without observes, or of `--y x[1]`.

use std::sync::Arc;

use physis_runtime::{Model, ModelInfo, ObserveInfo, Wraps};

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

// Everything but the description and the observes is the inner model's: `Wraps` forwards
// it (residual form, Jacobian layout and all), so nothing can be left out here.
impl<M: Model> Wraps for Observed<M> {
    type Inner = M;
    fn inner(&self) -> &M {
        &self.inner
    }
    fn inner_mut(&mut self) -> &mut M {
        &mut self.inner
    }
    fn wrapper_info(&self) -> Arc<ModelInfo> {
        self.info.clone()
    }
    fn wrapper_observe(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
        let (own, extra) = out.split_at_mut(self.inner_observes.min(out.len()));
        self.inner.observe(t, y, dydt, own);
        for (o, &slot) in extra.iter_mut().zip(&self.slots) {
            *o = y.get(slot).copied().unwrap_or(f64::NAN);
        }
    }
    fn wrapper_conserved(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
        // Conserve clauses name inner observes only; the extra columns are not needed.
        let own = self.inner_observes.min(out.len());
        self.inner.conserved(t, y, dydt, &mut out[..own]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn observed_wrapper_keeps_the_residual_form() {
        // An affine implicit model: `plot --ensemble` must keep its one-update Newton path.
        let source = "simulate Cool {\n  param k : Frequency = 2 Hz\n  state u : Dimensionless = 1\n  \
                      law u' = −k·u\n  integrate backwardEuler step 10 ms\n  stop when t ≥ 1 s\n}\n";
        let checked = physis_check::check_source(source);
        let ir = physis_ir::lower_with_source(&checked.program.models[0], source).expect("lowers");
        let inner = physis_ir::TapeModel::new(&ir).expect("binds");
        let form = inner.residual_form();
        assert_ne!(form, physis_runtime::ResidualForm::General);
        let wrapped = Observed::new(inner, &[("u".into(), String::new(), String::new(), 0)]);
        assert_eq!(wrapped.residual_form(), form);
        assert_eq!(wrapped.info().observes.len(), 1);
    }
}
