//! ANCHORS A3: bounce times to 1e-10 and no fall-through up to the Zeno point.

use crate::common;

use common::{Scheme, all, model};
use physis_runtime::{Cause, Cmp, Collect, Cond, ReasonKind, RunOptions, SampleKind, run_into};

const G: f64 = 9.81;
const H: f64 = 10.0;
const E: f64 = 0.8;

fn ball(t_end: f64, guard: bool) -> common::TestModel {
    let b = model("BouncingBall", Scheme::Dp45, &[H, 0.0], |_, y, d| {
        d[0] = y[1];
        d[1] = -G;
    })
    .states(&[("y", vec![]), ("y'", vec![])])
    .settings(|s| s.tolerance = 1e-12)
    .observes(&["height"], |_, y, _, o| o[0] = y[0])
    .atoms(&[Cmp::Lt, Cmp::Lt, Cmp::Ge], move |t, y, _, m| {
        m[0] = y[0];
        m[1] = y[1];
        m[2] = t - t_end;
    })
    .reset(|_, _, pre, post| post[1] = -E * pre[1])
    .stop(Cond::Atom(2), "t ≥ end", 8);
    if guard {
        b.event(all(&[0, 1]), "y < 0 m ∧ y' < 0 m/s", 6)
    } else {
        b.event(Cond::Atom(0), "y < 0 m", 6)
    }
    .build()
}

fn exact_bounces(n: usize) -> Vec<f64> {
    let v1 = (2.0 * G * H).sqrt();
    let mut t = (2.0 * H / G).sqrt();
    let mut out = vec![t];
    for k in 1..n {
        t += 2.0 * E.powi(k as i32) * v1 / G;
        out.push(t);
    }
    out
}

fn bounces(samples: &Collect) -> Vec<f64> {
    samples
        .0
        .iter()
        .filter(|s| s.kind == SampleKind::BeforeEvent)
        .map(|s| s.t)
        .collect()
}

#[test]
fn seven_bounces_at_the_exact_times() {
    let mut sink = Collect::default();
    let end = run_into(ball(10.0, true), &RunOptions::default(), &mut sink).expect("runs");
    assert_eq!(end.reason.kind, ReasonKind::When);
    assert_eq!(end.t, 10.0);
    let got = bounces(&sink);
    let want = exact_bounces(7);
    assert_eq!(got.len(), 7, "{got:?}");
    for (g, w) in got.iter().zip(&want) {
        assert!((g - w).abs() < 1e-10, "{g} vs {w}");
    }
    // The anchor's printed values.
    assert!((want[1] - 3.7123921196).abs() < 1e-9 && (want[6] - 9.8561840454).abs() < 1e-9);
    assert_eq!(end.stats.events, 7);
}

#[test]
fn an_unguarded_condition_does_not_refire_after_its_reset() {
    // `on y < 0` without the velocity guard: right after the reset y < 0 still holds, which
    // is not a new crossing; the bounces are the same.
    let mut sink = Collect::default();
    run_into(ball(10.0, false), &RunOptions::default(), &mut sink).expect("runs");
    let got = bounces(&sink);
    assert_eq!(got.len(), 7, "{got:?}");
    for (g, w) in got.iter().zip(exact_bounces(7)) {
        assert!((g - w).abs() < 1e-10, "{g} vs {w}");
    }
}

#[test]
fn to_fifteen_seconds_never_falls_through_and_ends_at_the_zeno_point() {
    let v1 = (2.0 * G * H).sqrt();
    let t_inf = (2.0 * H / G).sqrt() + 2.0 * E * v1 / (G * (1.0 - E));
    assert!((t_inf - 12.8505881063).abs() < 1e-9);
    for guard in [true, false] {
        let mut sink = Collect::default();
        let end = run_into(ball(15.0, guard), &RunOptions::default(), &mut sink).expect("runs");
        for s in &sink.0 {
            assert!(
                s.state[0] >= -1e-9,
                "guard {guard}: fell through at t = {}: {}",
                s.t,
                s.state[0]
            );
        }
        assert_eq!(end.reason.kind, ReasonKind::Diverged);
        assert!(
            matches!(end.reason.cause, Cause::Zeno { index: 0 }),
            "{:?}",
            end.reason
        );
        assert_eq!(end.reason.line, Some(6));
        assert!((end.t - t_inf).abs() < 1e-9, "{} vs {t_inf}", end.t);
        assert!(end.stats.events < 1000, "{:?}", end.stats);
    }
}

#[test]
fn a_ball_released_on_the_floor_does_not_bounce_at_t0() {
    // Condition already true at t0 (y = 0, v < 0 with ≤): it has not turned true, so it
    // does not fire (as SciPy's events and Modelica's `when`); the ball falls on.
    let m = model("Drop", Scheme::Dp45, &[0.0, -2.0], |_, y, d| {
        d[0] = y[1];
        d[1] = -G;
    })
    .atoms(&[Cmp::Le, Cmp::Lt, Cmp::Ge], |t, y, _, m| {
        m[0] = y[0];
        m[1] = y[1];
        m[2] = t - 0.3;
    })
    .reset(|_, _, pre, post| post[1] = -pre[1])
    .event(all(&[0, 1]), "y ≤ 0 ∧ y' < 0", 3)
    .stop(Cond::Atom(2), "t ≥ 0.3 s", 4)
    .build();
    let mut sink = Collect::default();
    let end = run_into(m, &RunOptions::default(), &mut sink).expect("runs");
    assert_eq!(end.stats.events, 0);
    assert!(sink.0.iter().all(|s| s.kind != SampleKind::AfterEvent));
    // y(0.3) = −2·0.3 − g·0.09/2.
    assert!((end.state[0] - (-0.6 - G * 0.045)).abs() < 1e-12);
}

#[test]
fn an_event_true_at_t0_fires_once_it_turns_true_again() {
    // Thrown up from the floor: `y ≤ 0` holds at t0, turns false, and turns true at 2v/g.
    let m = model("Throw", Scheme::Dp45, &[0.0, 2.0], |_, y, d| {
        d[0] = y[1];
        d[1] = -G;
    })
    .atoms(&[Cmp::Le, Cmp::Ge], |t, y, _, m| {
        m[0] = y[0];
        m[1] = t - 0.5;
    })
    .reset(|_, _, pre, post| post[1] = -pre[1])
    .event(Cond::Atom(0), "y ≤ 0", 3)
    .stop(Cond::Atom(1), "t ≥ 0.5 s", 4)
    .build();
    let mut sink = Collect::default();
    let end = run_into(m, &RunOptions::default(), &mut sink).expect("runs");
    assert_eq!(end.stats.events, 1);
    assert!(
        (bounces(&sink)[0] - 4.0 / G).abs() < 1e-10,
        "{:?}",
        bounces(&sink)
    );
}
