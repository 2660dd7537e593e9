//! Stochastic schemes: Euler–Maruyama on geometric Brownian motion (ANCHORS A6, fewer paths).

use crate::common;

use common::{Scheme, model};
use physis_runtime::{Cmp, Cond, RunOptions, run};

fn gbm() -> common::TestModel {
    model("Gbm", Scheme::EulerMaruyama, &[1.0], |_, y, d| d[0] = y[0])
        .noise(1, |_, y, g| g[0] = 0.5 * y[0])
        .atoms(&[Cmp::Ge], |t, _, _, m| m[0] = t - 1.0)
        .stop(Cond::Atom(0), "t ≥ 1 s", 5)
        .build()
}

#[test]
fn mean_of_geometric_brownian_motion() {
    let paths = 2000u64;
    let mut xs = Vec::new();
    for p in 0..paths {
        let o = RunOptions {
            step: Some(1e-2),
            seed: Some(42),
            stream: Some(p),
            ..Default::default()
        };
        let r = run(gbm(), &o).expect("runs");
        assert!((r.final_t() - 1.0).abs() < 1e-12);
        xs.push(r.final_state()[0]);
    }
    let mean = xs.iter().sum::<f64>() / paths as f64;
    // E = e; sd of the mean ≈ √2.0987/√2000 ≈ 0.032 (plus an O(h) bias ≈ 0.014).
    assert!((mean - std::f64::consts::E).abs() < 0.12, "{mean}");
}

#[test]
fn same_seed_same_path_other_seed_other_path() {
    let o = |seed| RunOptions {
        step: Some(1e-2),
        seed: Some(seed),
        ..Default::default()
    };
    let a = run(gbm(), &o(1)).expect("runs");
    let b = run(gbm(), &o(1)).expect("runs");
    let c = run(gbm(), &o(2)).expect("runs");
    assert_eq!(a.final_state()[0].to_bits(), b.final_state()[0].to_bits());
    assert_ne!(a.final_state()[0].to_bits(), c.final_state()[0].to_bits());
}
