//! Ensembles of stochastic runs against closed forms: Ornstein–Uhlenbeck variance,
//! geometric Brownian motion moments (ANCHORS A6), and the strong (½) and weak (1) orders
//! of Euler–Maruyama. The heavier versions are `#[ignore]`d (run them with
//! `cargo test -p physis-runtime --release --test integration ensemble_sde:: -- --ignored`).

use crate::common;

use common::{Scheme, TestModel, model};
use physis_runtime::{Cmp, Cond, Ensemble, EnsembleResult, ParamSet, RunOptions};

/// `v' = −γ·v + σ·√γ·w`, v(0) = 0, Euler–Maruyama step 10 ms, stop at t ≥ 10 s.
fn ou(gamma: f64, sigma: f64) -> TestModel {
    model(
        "OrnsteinUhlenbeck",
        Scheme::EulerMaruyama,
        &[0.0],
        move |_, y, d| {
            d[0] = -gamma * y[0];
        },
    )
    .states(&[("v", vec![])])
    .noise(1, move |_, _, g| g[0] = sigma * gamma.sqrt())
    .atoms(&[Cmp::Ge], |t, _, _, m| m[0] = t - 10.0)
    .time_only(&[true])
    .stop(Cond::Atom(0), "t ≥ 10 s", 7)
    .observes(&["v"], |_, y, _, o| o[0] = y[0])
    .settings(|s| s.step = Some(0.01))
    .build()
}

/// GBM `dX = μX dt + σX dW` with the Wiener path itself as a second state `w`
/// (`dw = dW`), so the exact solution on the same path is `exp((μ − σ²/2)T + σ·w(T))`.
fn gbm(mu: f64, sigma: f64, dt: f64) -> TestModel {
    model("Gbm", Scheme::EulerMaruyama, &[1.0, 0.0], move |_, y, d| {
        d[0] = mu * y[0];
        d[1] = 0.0;
    })
    .states(&[("x", vec![]), ("w", vec![])])
    .noise(1, move |_, y, g| {
        g[0] = sigma * y[0];
        g[1] = 1.0;
    })
    .atoms(&[Cmp::Ge], |t, _, _, m| m[0] = t - 1.0)
    .time_only(&[true])
    .stop(Cond::Atom(0), "t ≥ 1 s", 9)
    .observes(&["x"], |_, y, _, o| o[0] = y[0])
    .settings(|s| s.step = Some(dt))
    .build()
}

const MU: f64 = 1.0;
const SIGMA: f64 = 0.5;

fn gbm_ensemble(paths: usize, dt: f64, seed: u64) -> EnsembleResult {
    Ensemble::new(|_: &ParamSet| Ok(gbm(MU, SIGMA, dt)), paths)
        .seed(seed)
        .run()
        .expect("runs")
}

fn exact_on_path(m: &physis_runtime::MemberResult) -> f64 {
    let w = m.end.state[1];
    ((MU - 0.5 * SIGMA * SIGMA) * m.end.t + SIGMA * w).exp()
}

/// Least-squares slope of `log y` against `log x`.
fn slope(x: &[f64], y: &[f64]) -> f64 {
    let lx: Vec<f64> = x.iter().map(|v| v.ln()).collect();
    let ly: Vec<f64> = y.iter().map(|v| v.ln()).collect();
    let (mx, my) = (
        lx.iter().sum::<f64>() / lx.len() as f64,
        ly.iter().sum::<f64>() / ly.len() as f64,
    );
    let sxy: f64 = lx.iter().zip(&ly).map(|(a, b)| (a - mx) * (b - my)).sum();
    let sxx: f64 = lx.iter().map(|a| (a - mx) * (a - mx)).sum();
    sxy / sxx
}

#[test]
fn ornstein_uhlenbeck_reaches_half_sigma_squared() {
    let members = 3000;
    let r = Ensemble::new(|_: &ParamSet| Ok(ou(1.0, 1.0)), members)
        .options(RunOptions {
            record_every: Some(1.0),
            ..Default::default()
        })
        .seed(42)
        .run()
        .expect("runs");
    let s = r.series().expect("record grid");
    assert_eq!(s.t.len(), 11);
    assert_eq!(s.t[10], 10.0);
    // Euler–Maruyama's own variance after n steps, v_{n+1} = a·v_n + c·ΔW with
    // a = 1 − γh, c = σ√γ: c²h(1 − a^{2n})/(1 − a²), which tends to σ²/(2 − γh) = 0.5025
    // (the SDE's σ²/2 = 0.5 up to O(h)).
    let (h, a) = (0.01f64, 0.99f64);
    let n = members as f64;
    for (k, &t) in s.t.iter().enumerate() {
        assert_eq!(s.n[k], members);
        let steps = (t / h).round() as i32;
        let var = h * (1.0 - a.powi(2 * steps)) / (1.0 - a * a);
        let got = s.columns[0].std[k].powi(2);
        if k == 0 {
            assert_eq!(got, 0.0);
            continue;
        }
        // Standard error of a sample variance of normals: var·√(2/(n − 1)).
        let se = var * (2.0 / (n - 1.0)).sqrt();
        assert!((got - var).abs() < 4.0 * se, "t = {t}: {got} vs {var}");
        let mean = s.columns[0].mean[k];
        assert!(mean.abs() < 4.0 * (var / n).sqrt(), "t = {t}: mean {mean}");
    }
    // The final values agree with the last grid point, and with σ²/2.
    let fin = &r.finals.state[0];
    assert_eq!(fin.std, s.columns[0].std[10]);
    let se = 0.5 * (2.0 / (n - 1.0)).sqrt();
    assert!(
        (fin.std.powi(2) - 0.5).abs() < 4.0 * se + 0.0025,
        "{}",
        fin.std
    );
    assert_eq!(r.reasons()[0].1, members);
}

fn check_gbm_moments(paths: usize) {
    let r = gbm_ensemble(paths, 1e-3, 7);
    let e = std::f64::consts::E;
    let var = e * e * (0.25f64.exp() - 1.0);
    let x = &r.finals.state[0];
    assert_eq!(r.finals.n, paths);
    let n = paths as f64;
    // sd of the mean √(var/n); of the sample variance var·√((κ + 2)/n) with the
    // lognormal's excess kurtosis κ = e^{4s²} + 2e^{3s²} + 3e^{2s²} − 6, s² = σ²T.
    let s2 = SIGMA * SIGMA;
    let kurt = (4.0 * s2).exp() + 2.0 * (3.0 * s2).exp() + 3.0 * (2.0 * s2).exp() - 6.0;
    // Euler–Maruyama's mean is (1 + h)^{1/h} = e − 0.0014 here: inside the tolerance.
    assert!(
        (x.mean - e).abs() < 4.0 * (var / n).sqrt(),
        "mean {} vs {e}",
        x.mean
    );
    let got = x.std * x.std;
    assert!(
        (got - var).abs() < 4.0 * var * ((kurt + 2.0) / n).sqrt(),
        "var {got} vs {var}"
    );
    // The median of the lognormal is exp((μ − σ²/2)T) = e^{0.875}.
    let med = x.quantiles[1];
    assert!((med / 0.875f64.exp() - 1.0).abs() < 0.06, "median {med}");
}

#[test]
fn geometric_brownian_motion_mean_and_variance() {
    check_gbm_moments(2000);
}

#[test]
#[ignore = "10,000 paths of 1,000 steps: about 10 s in a debug build"]
fn geometric_brownian_motion_ten_thousand_paths() {
    check_gbm_moments(10_000);
}

/// Strong error `E|X_T − X(T)|` against the exact solution on the same Wiener path.
fn strong_errors(paths: usize, dts: &[f64]) -> Vec<f64> {
    dts.iter()
        .map(|&dt| {
            let r = gbm_ensemble(paths, dt, 11);
            let sum: f64 = r
                .members
                .iter()
                .map(|m| (m.end.state[0] - exact_on_path(m)).abs())
                .sum();
            sum / paths as f64
        })
        .collect()
}

/// Weak error `E[X_T] − e`, estimated as `E[X_T − X(T)]` (the exact solution on the same
/// path is a control variate with known mean e), with its standard error.
fn weak_errors(paths: usize, dts: &[f64]) -> Vec<(f64, f64)> {
    dts.iter()
        .map(|&dt| {
            let r = gbm_ensemble(paths, dt, 13);
            let d: Vec<f64> = r
                .members
                .iter()
                .map(|m| m.end.state[0] - exact_on_path(m))
                .collect();
            let mean = physis_runtime::stats::mean(&d);
            let se = physis_runtime::stats::std_dev(&d) / (paths as f64).sqrt();
            (mean, se)
        })
        .collect()
}

fn check_orders(strong_paths: usize, weak_paths: usize, finest: i32) {
    let dts: Vec<f64> = (finest - 4..=finest).map(|k| 0.5f64.powi(k)).collect();
    let strong = strong_errors(strong_paths, &dts);
    let p = slope(&dts, &strong);
    assert!((p - 0.5).abs() < 0.15, "strong order {p}: {strong:?}");

    let dts: Vec<f64> = (finest - 5..=finest - 2).map(|k| 0.5f64.powi(k)).collect();
    let weak = weak_errors(weak_paths, &dts);
    // E[X_T] of Euler–Maruyama is exactly (1 + μh)^{T/h}.
    for (&dt, &(w, se)) in dts.iter().zip(&weak) {
        let exact = (1.0 + MU * dt).powf(1.0 / dt) - std::f64::consts::E;
        assert!(
            (w - exact).abs() < 4.0 * se,
            "dt {dt}: {w} vs {exact} (se {se})"
        );
    }
    let mags: Vec<f64> = weak.iter().map(|w| w.0.abs()).collect();
    let q = slope(&dts, &mags);
    assert!((q - 1.0).abs() < 0.15, "weak order {q}: {weak:?}");
}

#[test]
fn euler_maruyama_orders_on_gbm() {
    check_orders(1000, 4000, 9);
}

#[test]
#[ignore = "10,000 and 40,000 paths down to dt = 2^-11: about a minute in a debug build"]
fn euler_maruyama_orders_on_gbm_heavy() {
    check_orders(10_000, 40_000, 11);
}
