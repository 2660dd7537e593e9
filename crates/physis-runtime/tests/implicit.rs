//! Implicit schemes: the driver's Newton, and step halving when Newton fails.

use crate::common;

use common::{Scheme, model};
use physis_runtime::{Cmp, Cond, ReasonKind, RunOptions, run};

#[test]
fn backward_euler_matches_its_recurrence_on_a_stiff_problem() {
    // y' = −1000·y, h = 0.01 (10× Euler's limit): y_n = (1 + 1000h)^-n exactly.
    let m = model("Stiff", Scheme::BackwardEuler, &[1.0], |_, y, d| {
        d[0] = -1000.0 * y[0]
    })
    .atoms(&[Cmp::Ge], |t, _, _, m| m[0] = t - 0.1)
    .stop(Cond::Atom(0), "t ≥ 0.1 s", 3)
    .build();
    let r = run(
        m,
        &RunOptions {
            step: Some(0.01),
            ..Default::default()
        },
    )
    .expect("runs");
    assert_eq!(r.reason.kind, ReasonKind::When);
    assert_eq!(r.stats().steps, 10);
    // Linear: Newton converges at every step, so nothing is refused for it.
    assert_eq!(r.stats().rejections, 0);
    assert_eq!(r.stats().newton_rejections, 0);
    let want = 11f64.powi(-10);
    assert!(
        (r.final_state()[0] - want).abs() < 1e-12 * want.max(1e-300) + 1e-20,
        "{}",
        r.final_state()[0]
    );
}

#[test]
fn newton_failure_halves_the_step() {
    // y' = 1 + y², y(0) = 0: backward Euler's h·x² − x + y + h = 0 has no real root for
    // h = 1, so Newton fails and the driver halves until it has one.
    let m = model("Tan", Scheme::BackwardEuler, &[0.0], |_, y, d| {
        d[0] = 1.0 + y[0] * y[0]
    })
    .atoms(&[Cmp::Ge], |t, _, _, m| m[0] = t - 1.0)
    .stop(Cond::Atom(0), "t ≥ 1 s", 3)
    .build();
    let r = run(
        m,
        &RunOptions {
            step: Some(1.0),
            ..Default::default()
        },
    )
    .expect("runs");
    assert_eq!(r.reason.kind, ReasonKind::When);
    assert!(r.stats().rejections >= 1, "{:?}", r.stats());
    // A fixed step has no error test: every refusal was a Newton failure.
    assert_eq!(r.stats().newton_rejections, r.stats().rejections);
    assert!((r.final_t() - 1.0).abs() < 1e-15);
    // Backward Euler overshoots the convex tan(t); finite and in a sane range.
    let y = r.final_state()[0];
    assert!(y > 1.0f64.tan() && y < 10.0, "{y}");
}
