//! Global errors against closed forms shrink with the tolerance (rk45) and the step (rk4).

use crate::common;

use common::{Scheme, model};
use physis_runtime::{Cmp, Cond, ReasonKind, RunOptions, run};

fn decay(scheme: Scheme) -> common::TestModel {
    model("Decay", scheme, &[1.0], |_, y, d| d[0] = -y[0])
        .atoms(&[Cmp::Ge], |t, _, _, m| m[0] = t - 5.0)
        .time_only(&[true])
        .stop(Cond::Atom(0), "t ≥ 5 s", 9)
        .build()
}

fn oscillator(scheme: Scheme) -> common::TestModel {
    // x'' = −ω²x, ω = 3, x(0) = 1, v(0) = 0, to t = 10.
    model("Oscillator", scheme, &[1.0, 0.0], |_, y, d| {
        d[0] = y[1];
        d[1] = -9.0 * y[0];
    })
    .atoms(&[Cmp::Ge], |t, _, _, m| m[0] = t - 10.0)
    .stop(Cond::Atom(0), "t ≥ 10 s", 9)
    .build()
}

#[test]
fn decay_error_shrinks_with_tolerance() {
    let mut last = f64::INFINITY;
    for tol in [1e-4, 1e-6, 1e-8, 1e-10] {
        let r = run(
            decay(Scheme::Dp45),
            &RunOptions {
                tolerance: Some(tol),
                ..Default::default()
            },
        )
        .expect("runs");
        assert_eq!(r.reason.kind, ReasonKind::When);
        assert!((r.final_t() - 5.0).abs() < 1e-13, "{}", r.final_t());
        let err = (r.final_state()[0] - (-5.0f64).exp()).abs();
        assert!(err < 50.0 * tol, "tol {tol}: error {err}");
        assert!(err < last, "tol {tol}: {err} ≥ {last}");
        last = err;
    }
}

#[test]
fn oscillator_error_shrinks_with_tolerance() {
    let mut last = f64::INFINITY;
    for tol in [1e-5, 1e-7, 1e-9, 1e-11] {
        let r = run(
            oscillator(Scheme::Dp45),
            &RunOptions {
                tolerance: Some(tol),
                ..Default::default()
            },
        )
        .expect("runs");
        let (x, v) = (r.final_state()[0], r.final_state()[1]);
        let err = (x - 30f64.cos()).abs().max((v + 3.0 * 30f64.sin()).abs());
        assert!(err < 1e3 * tol, "tol {tol}: {err}");
        assert!(err < last, "tol {tol}: {err} ≥ {last}");
        last = err;
        assert!(r.stats().rejections < r.stats().steps, "{:?}", r.stats());
    }
}

#[test]
fn rk4_converges_at_fourth_order() {
    let err = |h: f64| {
        let r = run(
            oscillator(Scheme::Rk4),
            &RunOptions {
                step: Some(h),
                ..Default::default()
            },
        )
        .expect("runs");
        assert!((r.final_t() - 10.0).abs() < 1e-12);
        (r.final_state()[0] - 30f64.cos()).abs()
    };
    let (e1, e2) = (err(0.01), err(0.005));
    let ratio = e1 / e2;
    assert!((ratio - 16.0).abs() < 1.0, "ratio {ratio}");
}

#[test]
fn coarse_and_fine_record_grids_agree_where_they_meet() {
    let sample_x = |d: f64| {
        let m = model("O", Scheme::Dp45, &[1.0, 0.0], |_, y, dd| {
            dd[0] = y[1];
            dd[1] = -9.0 * y[0];
        })
        .atoms(&[Cmp::Ge], |t, _, _, m| m[0] = t - 10.0)
        .stop(Cond::Atom(0), "t ≥ 10 s", 9)
        .observes(&["x"], |_, y, _, o| o[0] = y[0])
        .build();
        run(
            m,
            &RunOptions {
                record_every: Some(d),
                tolerance: Some(1e-9),
                ..Default::default()
            },
        )
        .expect("runs")
    };
    let (coarse, fine) = (sample_x(0.5), sample_x(0.1));
    let xc = coarse.column("x").expect("x");
    let xf = fine.column("x").expect("x");
    for (k, t) in coarse.time.iter().enumerate() {
        if let Some(j) = fine.time.iter().position(|u| u == t) {
            assert_eq!(xc[k].to_bits(), xf[j].to_bits(), "t = {t}");
            // Dense output is accurate, not merely consistent.
            assert!((xc[k] - (3.0 * t).cos()).abs() < 1e-6, "t = {t}");
        }
    }
    assert!(coarse.time.len() >= 20);
}
