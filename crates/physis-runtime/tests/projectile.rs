//! The manual's projectile with linear drag stops at the ground, located to 1e-9 s.

use crate::common;

use common::{Scheme, all, model};
use physis_runtime::{Cmp, ReasonKind, RunOptions, SampleKind, run};

const G: f64 = 9.80665;
const K: f64 = 0.1;

fn v0() -> (f64, f64) {
    let a = 45f64.to_radians();
    (30.0 * a.cos(), 30.0 * a.sin())
}

/// Height in closed form and its derivative.
fn height(t: f64) -> (f64, f64) {
    let (_, vy) = v0();
    let c = vy + G / K;
    (
        c * (1.0 - (-K * t).exp()) / K - G * t / K,
        c * (-K * t).exp() - G / K,
    )
}

/// Ground time by Newton on the closed form.
fn ground_time() -> f64 {
    let mut t = 4.0;
    for _ in 0..50 {
        let (y, dy) = height(t);
        t -= y / dy;
    }
    t
}

fn projectile() -> common::TestModel {
    let (vx, vy) = v0();
    model(
        "Projectile",
        Scheme::Dp45,
        &[0.0, 0.0, vx, vy],
        |_, y, d| {
            d[0] = y[2];
            d[1] = y[3];
            d[2] = -K * y[2];
            d[3] = -G - K * y[3];
        },
    )
    .states(&[("x", vec![2]), ("v", vec![2])])
    .settings(|s| {
        s.tolerance = 1e-9;
        s.record_every = Some(0.01);
    })
    .observes(&["height", "speed"], |_, y, _, o| {
        o[0] = y[1];
        o[1] = y[2].hypot(y[3]);
    })
    .atoms(&[Cmp::Lt, Cmp::Gt], |t, y, _, m| {
        m[0] = y[1];
        m[1] = t;
    })
    .stop(all(&[0, 1]), "x[1] < 0 m ∧ t > 0 s", 14)
    .build()
}

#[test]
fn stops_at_the_closed_form_ground_time() {
    let tg = ground_time();
    let opts = RunOptions {
        tolerance: Some(1e-12),
        ..Default::default()
    };
    let r = run(projectile(), &opts).expect("runs");
    assert_eq!(r.reason.kind, ReasonKind::When);
    assert_eq!(r.reason.clause.as_deref(), Some("x[1] < 0 m ∧ t > 0 s"));
    assert_eq!(r.reason.line, Some(14));
    // The absolute tolerance is the relative one times the state's scale (the position's
    // largest component, about 60 m), so the time is good to about 60·1e-12·(steps) s.
    assert!((r.final_t() - tg).abs() < 1e-9, "{} vs {tg}", r.final_t());
    // At the ground, not a step below it: the condition just holds.
    let y = r.final_state()[1];
    assert!(y < 0.0 && y > -1e-9, "{y}");
    // The record grid, then the stop time as the last sample.
    assert_eq!(*r.time.last().unwrap_or(&0.0), r.final_t());
    assert_eq!(r.time.len(), (tg / 0.01).floor() as usize + 2);
    assert!(
        r.column("height")
            .is_some_and(|h| h.iter().all(|&v| v >= -1e-9))
    );
}

#[test]
fn declared_tolerance_is_accurate_too() {
    let r = run(projectile(), &RunOptions::default()).expect("runs");
    assert!(
        (r.final_t() - ground_time()).abs() < 1e-6,
        "{}",
        r.final_t()
    );
}

#[test]
fn fixed_rk4_stops_inside_a_step_not_at_its_end() {
    let mut m = projectile();
    m.info = std::sync::Arc::new(physis_runtime::ModelInfo {
        scheme: common::scheme_info(Scheme::Rk4),
        ..(*m.info).clone()
    });
    let mut sink = physis_runtime::Collect::default();
    let opts = RunOptions {
        step: Some(0.25),
        record_every: Some(0.25),
        ..Default::default()
    };
    let end = physis_runtime::run_into(m, &opts, &mut sink).expect("runs");
    let tg = ground_time();
    // rk4 with h = 0.25 is accurate to ~1e-5 here; the stop is between grid points.
    assert!((end.t - tg).abs() < 1e-4, "{} vs {tg}", end.t);
    assert!((end.t / 0.25).fract() > 0.01);
    assert_eq!(sink.0.last().map(|s| s.kind), Some(SampleKind::Final));
}
