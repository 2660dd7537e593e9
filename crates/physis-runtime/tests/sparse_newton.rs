//! Newton with a sparse Jacobian: a model that declares a pattern but no Jacobian gets
//! finite differences one column colour at a time, solved by the tridiagonal path or the
//! sparse LU, and must agree with the dense Newton.

use crate::common;

use std::sync::Arc;

use common::{Scheme, TestModel, model};
use physis_runtime::{
    Cmp, Cond, JacobianLayout, Model, ModelInfo, ReasonKind, RunOptions, SparsePattern, StepArgs,
    StepOut, run,
};

/// A test model with a declared sparse pattern (everything else delegated).
struct Sparse(TestModel, Arc<SparsePattern>);

impl Model for Sparse {
    fn info(&self) -> Arc<ModelInfo> {
        self.0.info()
    }
    fn initial(&mut self, t0: f64, y: &mut [f64]) {
        self.0.initial(t0, y);
    }
    fn rate(&mut self, t: f64, y: &[f64], dydt: &mut [f64]) {
        self.0.rate(t, y, dydt);
    }
    fn step(&mut self, a: &StepArgs<'_>, out: StepOut<'_>) {
        self.0.step(a, out);
    }
    fn residual(&mut self, a: &StepArgs<'_>, next: &[f64], r: &mut [f64]) {
        self.0.residual(a, next, r);
    }
    fn margins(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
        self.0.margins(t, y, dydt, out);
    }
    fn jacobian_layout(&self) -> JacobianLayout {
        JacobianLayout::Sparse
    }
    fn jacobian_pattern(&self) -> Option<Arc<SparsePattern>> {
        Some(self.1.clone())
    }
}

/// Nonlinear heat on a ring or a rod: `y' = k·Δy − y³`.
fn heat(n: usize, periodic: bool) -> TestModel {
    let k = (n * n) as f64;
    let y0: Vec<f64> = (0..n)
        .map(|i| (6.0 * std::f64::consts::PI * i as f64 / n as f64).sin() + 0.5)
        .collect();
    model("Heat", Scheme::BackwardEuler, &y0, move |_, y, d| {
        for i in 0..n {
            let l = match (i, periodic) {
                (0, true) => y[n - 1],
                (0, false) => y[0],
                _ => y[i - 1],
            };
            let r = match (i + 1 == n, periodic) {
                (true, true) => y[0],
                (true, false) => y[n - 1],
                _ => y[i + 1],
            };
            d[i] = k * (l - 2.0 * y[i] + r) - y[i].powi(3);
        }
    })
    .atoms(&[Cmp::Ge], |t, _, _, m| m[0] = t - 0.05)
    .stop(Cond::Atom(0), "t ≥ 0.05 s", 3)
    .build()
}

#[test]
fn sparse_newton_agrees_with_dense() {
    let n = 80;
    let opts = RunOptions {
        step: Some(1e-3),
        tolerance: Some(1e-10),
        ..Default::default()
    };
    for periodic in [false, true] {
        let pattern = SparsePattern::from_rows(
            n,
            (0..n).map(|i| {
                if periodic {
                    vec![(i + n - 1) % n, (i + 1) % n]
                } else {
                    [i.wrapping_sub(1), i + 1]
                        .into_iter()
                        .filter(|j| *j < n)
                        .collect()
                }
            }),
        )
        .unwrap();
        assert_eq!(pattern.is_tridiagonal(), !periodic);
        let dense = run(heat(n, periodic), &opts).unwrap();
        let sparse = run(Sparse(heat(n, periodic), Arc::new(pattern)), &opts).unwrap();
        assert_eq!(sparse.reason.kind, ReasonKind::When);
        assert_eq!(sparse.stats().steps, dense.stats().steps);
        // Colours: 3 residual evaluations per Jacobian instead of 80.
        assert!(sparse.stats().evaluations < dense.stats().evaluations / 4);
        for (a, b) in sparse.final_state().iter().zip(dense.final_state()) {
            assert!((a - b).abs() < 1e-8, "{a} vs {b} (periodic {periodic})");
        }
    }
}
