//! Rosenbrock methods written with the rate's Jacobian `J`, against independent truths:
//! schemes written in a `.hph` file measure their orders on closed forms (a non-autonomous
//! one, so `ft` counts, and a stiff linear system at steps 100 times its fast time
//! scale), and the built-in `rodas3` measures its order on a nonlinear closed form and
//! meets the SciPy Radau references of Robertson and Van der Pol μ = 1000 (the values of
//! issue 20, from SciPy's `solve_ivp(method="Radau", rtol=1e-12, atol=1e-14)`).

use crate::references;

use physis_runtime::RunOptions;
use references::{
    ROBERTSON, VAN_DER_POL, assert_meets_robertson, assert_meets_van_der_pol, end_state, fill,
};

const ROSENBROCK: &str = include_str!("stiff_models/rosenbrock.hph");
const PROTHERO: &str = include_str!("stiff_models/prothero.hph");
const STIFF_LINEAR: &str = include_str!("stiff_models/stiff_linear.hph");
const RICCATI: &str = include_str!("stiff_models/riccati.hph");

/// Observed orders from errors at steps halving.
fn orders(e: &[f64]) -> Vec<f64> {
    e.windows(2).map(|w| (w[0] / w[1]).log2()).collect()
}

/// The error at t = 1 s of `scheme` on the model `sim` with `steps` steps, by `error` of
/// the end state.
fn fixed_error(scheme: &str, sim: &str, steps: u32, error: impl Fn(&[f64]) -> f64) -> f64 {
    let text = fill(
        &format!("{ROSENBROCK}\n{sim}"),
        &[
            ("SCHEME", scheme),
            ("STEP", &format!("{} s", 1.0 / f64::from(steps))),
        ],
    );
    let (end, taken) = end_state(&text, &RunOptions::default());
    assert_eq!(taken, u64::from(steps), "{scheme}");
    error(&end)
}

#[test]
#[allow(clippy::print_stderr)] // the measured orders are the figures reported
fn user_written_rosenbrock_schemes_measure_their_orders_on_prothero_robinson() {
    // y(1) = cos 1 + (2 − 1)·e^{−2}.
    let exact = 1f64.cos() + (-2f64).exp();
    for (scheme, order) in [("ros2", 2.0), ("rodas3Fixed", 3.0)] {
        let e: Vec<f64> = [32, 64, 128]
            .iter()
            .map(|&n| fixed_error(scheme, PROTHERO, n, |y| (y[0] - exact).abs()))
            .collect();
        let measured = orders(&e);
        eprintln!("{scheme} on Prothero–Robinson: errors {e:?}, orders {measured:.3?}");
        assert!(
            measured.iter().all(|p| (p - order).abs() < 0.2),
            "{scheme}: measured {measured:?}, stated {order}"
        );
    }
}

#[test]
#[allow(clippy::print_stderr)] // the measured orders are the figures reported
fn user_written_rosenbrock_schemes_measure_their_orders_on_a_stiff_linear_system() {
    let v = (-1f64).exp();
    let a = 1000.0 / 999.0;
    let u = a * v + (2.0 - a) * (-1000f64).exp();
    for (scheme, order) in [("ros2", 2.0), ("rodas3Fixed", 3.0)] {
        // h·1000 from 50 down to 6.25: far outside any explicit scheme's stability.
        let e: Vec<f64> = [20, 40, 80, 160]
            .iter()
            .map(|&n| {
                fixed_error(scheme, STIFF_LINEAR, n, |y| {
                    (y[0] - u).abs().max((y[1] - v).abs())
                })
            })
            .collect();
        let measured = orders(&e);
        eprintln!("{scheme} on the stiff system: errors {e:?}, orders {measured:.3?}");
        assert!(
            measured.iter().all(|p| (p - order).abs() < 0.25),
            "{scheme}: measured {measured:?}, stated {order}"
        );
    }
}

/// `|y(1) − tan 1|` of the Riccati equation under the built-in `rodas3` held to steps of
/// exactly `h` (a first and largest step of `h`, a tolerance its estimate stays below).
fn riccati_error(h: f64) -> f64 {
    let text = fill(
        RICCATI,
        &[("SCHEME", "rodas3"), ("SETTINGS", "tolerance 1e-2")],
    );
    let out = references::held_to(&text, h);
    assert_eq!(
        out.end.stats.steps,
        (1.0 / h).round() as u64,
        "not held to h = {h}"
    );
    assert_eq!(out.end.stats.rejections, 0, "a step was rejected");
    (out.end.observe[0] - 1f64.tan()).abs()
}

#[test]
#[allow(clippy::print_stderr)] // the measured orders are the figures reported
fn rodas3_measures_order_three_on_a_nonlinear_closed_form() {
    let e: Vec<f64> = [16.0, 32.0, 64.0]
        .iter()
        .map(|n| riccati_error(1.0 / n))
        .collect();
    let measured = orders(&e);
    eprintln!("rodas3 on tan t: errors {e:?}, orders {measured:?}");
    assert!(
        measured.iter().all(|p| (p - 3.0).abs() < 0.3),
        "measured {measured:?}"
    );
}

#[test]
#[allow(clippy::print_stderr)] // the figures reported
fn rodas3_meets_the_robertson_reference_at_1e11_seconds() {
    // An absolute tolerance below y₂'s 8e-14: without one, y₂ and y₃, which start at
    // exactly zero, get an absolute tolerance of zero at the first step, and Rodas3's
    // estimate of a component growing from zero is of its own size, so no first step is
    // accepted (the run ends as diverged at t = 0).
    let text = fill(
        ROBERTSON,
        &[("SCHEME", "rodas3"), ("TOL", "1e-8 abs 1e-14")],
    );
    let (end, steps) = end_state(&text, &RunOptions::default());
    assert_meets_robertson("rodas3", &end, steps);
}

#[test]
#[allow(clippy::print_stderr)] // the figures reported
fn rodas3_meets_the_van_der_pol_reference_at_mu_1000() {
    let text = fill(VAN_DER_POL, &[("SCHEME", "rodas3"), ("TOL", "1e-8")]);
    let (end, steps) = end_state(&text, &RunOptions::default());
    assert_meets_van_der_pol("rodas3", &end, steps);
}

#[test]
#[allow(clippy::print_stderr)] // the figures reported
fn rodas3_meets_robertson_and_hires_with_and_without_abs() {
    references::meets_the_references_with_and_without_abs("rodas3");
}

#[test]
#[allow(clippy::print_stderr)] // the figures reported
fn rodas3_meets_robertson_without_abs_at_every_tolerance() {
    // Linearly implicit with the exact Jacobian, rodas3 keeps y₁ on its slow manifold even
    // where its absolute tolerance (the tolerance times y₁'s scale, 1) is above y₁ itself.
    for tol in ["1e-4", "1e-6", "1e-8"] {
        references::robertson_under("rodas3", tol);
    }
}

/// Accepted steps of the built-in `rodas3` on the Riccati equation (`tan t` on [0, 1 s],
/// not stiff) at tolerance `tol`, and its error there.
fn rodas3_riccati_steps(tol: &str) -> (u64, f64) {
    let text = fill(
        RICCATI,
        &[
            ("SCHEME", "rodas3"),
            ("SETTINGS", &format!("tolerance {tol}")),
        ],
    );
    let out = references::ends_on_stop(&text, &RunOptions::default());
    let err = (out.end.observe[0] - 1f64.tan()).abs();
    (out.end.stats.steps, err)
}

#[test]
#[allow(clippy::print_stderr)] // the measured growth is the figure reported
fn rodas3_steps_grow_as_tolerance_to_the_minus_one_third_on_a_non_stiff_problem() {
    // Rodas3's embedded estimate is of order 2, so its error per step goes like h³ and the
    // controller's step like tol^(1/3): 100× tighter is 100^(1/3) ≈ 4.64× the steps
    // (docs/rosenbrock.md). Where the problem is not stiff there is no order reduction, so
    // the growth must be that: a controller exponent of 1/4 would give 3.2×, a wrong
    // coefficient that lowers the estimate's order 10× or more.
    let runs: Vec<(u64, f64)> = ["1e-6", "1e-8", "1e-10"]
        .iter()
        .map(|t| rodas3_riccati_steps(t))
        .collect();
    let growth: Vec<f64> = runs
        .windows(2)
        .map(|w| w[1].0 as f64 / w[0].0 as f64)
        .collect();
    eprintln!("rodas3 on tan t at 1e-6, 1e-8, 1e-10: (steps, error) {runs:?}, growth {growth:.3?}");
    assert!(
        runs[0].0 >= 50,
        "too few steps to measure a ratio: {runs:?}"
    );
    assert!(
        growth.iter().all(|g| (4.0..=5.4).contains(g)),
        "growth per 100× tighter {growth:?}, expected ≈ 4.64"
    );
}
