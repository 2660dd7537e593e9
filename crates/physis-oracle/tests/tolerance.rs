//! The accuracy of an adaptive run does not depend on the unit a state is written in: the
//! same decay `y' = −λ·y` from 1 km, 1 mm and 1 µm, against its closed form `y₀·e^{−λt}`.

use physis_oracle::front::run_text;
use physis_runtime::{ReasonKind, RunOptions};

/// Relative error at `t = 5 s` (and the accepted steps) of the decay from `start`
/// (`1 km`) at relative tolerance `tol`.
fn decay(start: &str, y0: f64, tol: &str) -> (f64, u64) {
    let text = format!(
        "simulate Decay {{\n  param λ : Frequency = 1.5 Hz\n  state y : Length = {start}\n  \
         law y' = −λ·y\n  integrate rk45 tolerance {tol}\n  stop when t ≥ 5 s\n}}\n"
    );
    let out = run_text(&text, None, &RunOptions::default()).expect("runs");
    assert_eq!(out.end.reason.kind, ReasonKind::When);
    let exact = y0 * (-1.5 * out.end.t).exp();
    (
        ((out.end.state[0] - exact) / exact).abs(),
        out.end.stats.steps,
    )
}

#[test]
#[allow(clippy::print_stderr)] // the figures reported in docs/oracle.md
fn decay_from_1_km_1_mm_1_um_has_the_same_relative_error() {
    for tol in ["1e-6", "1e-9"] {
        let km = decay("1 km", 1e3, tol);
        let mm = decay("1 mm", 1e-3, tol);
        let um = decay("1 µm", 1e-6, tol);
        eprintln!(
            "tolerance {tol}: relative error (steps) {km:?} from 1 km, {mm:?} from 1 mm, {um:?} from 1 µm"
        );
        for other in [mm, um] {
            // The same steps; errors equal up to the rounding of the scaled values.
            assert_eq!(other.1, km.1, "{tol}: {km:?} {mm:?} {um:?}");
            assert!(
                (other.0 - km.0).abs() <= 1e-6 * km.0 + 1e-15,
                "{tol}: {km:?} {mm:?} {um:?}"
            );
        }
        let t: f64 = tol.parse().expect("number");
        // The absolute tolerance is the relative one times the state's scale (its start, the
        // largest it gets), so after 7.5 e-folds the error is within `tol·y₀`, not `tol·y`.
        let absolute = km.0 * (-1.5f64 * 5.0).exp();
        assert!(absolute < t, "{tol}: {km:?}");
        assert!(
            km.0 > 1e-3 * t,
            "{tol}: an error this small would mean a step rule change"
        );
    }
}
