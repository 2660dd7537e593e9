//! The built-in variable-order BDF (`integrate bdf`) against independent truths: closed
//! forms (a stiff linear system, a decay stopped at `ln 2`, a bouncing ball's impact
//! times, the semi-discrete heat equation A4) and the SciPy Radau references of Robertson
//! and Van der Pol μ = 1000 (issue 20, `solve_ivp(method="Radau", rtol=1e-12,
//! atol=1e-14)`, committed in `crates/physis-cli/tests/stiff/refs.txt`).

use crate::references;

use physis_oracle::front::Outcome;
use physis_runtime::{RunOptions, SampleKind};
use references::{ROBERTSON, VAN_DER_POL, assert_meets_robertson, assert_meets_van_der_pol};

const LINEAR: &str = include_str!("bdf_models/linear.hph");
const DECAY_STOP: &str = include_str!("bdf_models/decay_stop.hph");
const BOUNCE: &str = include_str!("bdf_models/bounce.hph");
const HEAT: &str = include_str!("bdf_models/heat.hph");

/// `text`'s run with `TOL` (and `SCHEME`) replaced, which must end on its stop clause.
fn run(text: &str, tol: &str) -> Outcome {
    let text = text.replace("SCHEME", "bdf").replace("TOL", tol);
    references::ends_on_stop(&text, &RunOptions::default())
}

#[test]
#[allow(clippy::print_stderr)] // the figures reported
fn a_stiff_linear_system_meets_its_closed_form_at_every_tolerance() {
    let exact = [(-1f64).exp() + (-1000f64).exp(), (-1f64).exp()];
    let mut last = f64::INFINITY;
    for tol in [1e-4, 1e-6, 1e-8, 1e-10] {
        let out = run(LINEAR, &format!("{tol:e}"));
        assert_eq!(out.end.t, 1.0, "lands on the stop");
        let err = (0..2)
            .map(|i| ((out.end.observe[i] - exact[i]) / exact[i]).abs())
            .fold(0.0, f64::max);
        let s = out.end.stats;
        eprintln!(
            "linear tol {tol:e}: error {err:.2e} in {} steps ({} rejected)",
            s.steps, s.rejections
        );
        // A global error within a small multiple of the tolerance (BDF's, like SciPy's,
        // is 1-40× it here), falling with it.
        assert!(err < 50.0 * tol, "tol {tol:e}: error {err:e}");
        assert!(err < last, "tol {tol:e}: error {err:e} not below {last:e}");
        last = err;
        // Stiff: nowhere near the ~1000 steps an explicit scheme's stability would take.
        assert!(s.steps < 400, "{} steps", s.steps);
    }
}

#[test]
fn a_stop_lands_on_ln_2_and_recorded_samples_lie_on_the_exponential() {
    let tol = 1e-8;
    let out = run(DECAY_STOP, "1e-8");
    let ln2 = 2f64.ln();
    assert!(
        (out.end.t - ln2).abs() < 10.0 * tol,
        "stopped at {}",
        out.end.t
    );
    assert!((out.end.observe[0] - 0.5).abs() < 10.0 * tol);
    let records: Vec<_> = out
        .samples
        .iter()
        .filter(|s| s.kind == SampleKind::Record)
        .collect();
    assert_eq!(records.len(), 2, "0.25 and 0.5 s: {records:?}");
    for s in records {
        let want = (-s.t).exp();
        assert!(
            ((s.observe[0] - want) / want).abs() < 20.0 * tol,
            "{}: {} vs {want}",
            s.t,
            s.observe[0]
        );
    }
}

#[test]
fn events_fire_at_the_closed_form_impact_times() {
    let out = run(BOUNCE, "1e-8");
    let t1 = 0.2f64.sqrt();
    let t2 = t1 + 20f64.sqrt() / 10.0;
    let hits: Vec<f64> = out
        .samples
        .iter()
        .filter(|s| s.kind == SampleKind::BeforeEvent)
        .map(|s| s.t)
        .collect();
    assert_eq!(hits.len(), 2, "{hits:?}");
    assert!((hits[0] - t1).abs() < 1e-7, "{} vs {t1}", hits[0]);
    assert!((hits[1] - t2).abs() < 1e-7, "{} vs {t2}", hits[1]);
    // Piecewise quadratic: at the end, z = v₂·(T − t₂) − 5·(T − t₂)², v₂ = √20/4.
    let dt = 1.0 - t2;
    let z = 20f64.sqrt() / 4.0 * dt - 5.0 * dt * dt;
    assert!(
        (out.end.observe[0] - z).abs() < 1e-7,
        "{:?}",
        out.end.observe
    );
}

#[test]
#[allow(clippy::print_stderr)] // the figures reported
fn heat_a4_meets_the_semi_discrete_closed_form() {
    let dx = 1.0 / 101.0;
    let lambda = 4.0 / (dx * dx) * (std::f64::consts::PI * dx / 2.0).sin().powi(2);
    for tol in [1e-4, 1e-6, 1e-8] {
        let out = run(HEAT, &format!("{tol:e}"));
        let decay = (-lambda * 0.1).exp();
        let mut worst = 0.0f64;
        for (col, node) in [(0usize, 25.0), (1, 50.0)] {
            let want = (std::f64::consts::PI * node * dx).sin() * decay;
            worst = worst.max(((out.end.observe[col] - want) / want).abs());
        }
        let s = out.end.stats;
        eprintln!(
            "heat tol {tol:e}: error {worst:.2e} in {} steps, {} jacobians, {} factorisations",
            s.steps, s.jacobians, s.factorisations
        );
        assert!(worst < 20.0 * tol, "tol {tol:e}: error {worst:e}");
    }
}

#[test]
#[allow(clippy::print_stderr)] // the figures reported
fn robertson_meets_the_reference_at_1e11_seconds() {
    // y₂ ≈ 8e-14 at the end: an absolute tolerance far below it on every species.
    let out = run(ROBERTSON, "1e-8 abs 1e-20");
    assert_meets_robertson("bdf", &out.end.observe, out.end.stats.steps);
}

#[test]
#[allow(clippy::print_stderr)] // the figures reported
fn van_der_pol_meets_the_reference_at_mu_1000() {
    let out = run(VAN_DER_POL, "1e-8");
    assert_meets_van_der_pol("bdf", &out.end.observe, out.end.stats.steps);
}

#[test]
#[allow(clippy::print_stderr)] // the figures reported
fn bdf_meets_robertson_and_hires_with_and_without_abs() {
    references::meets_the_references_with_and_without_abs("bdf");
}
