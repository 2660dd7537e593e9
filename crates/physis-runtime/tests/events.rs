//! The event bugs peers have (ANCHORS): crossings at a step end, inside one step twice,
//! two events in one step, simultaneous events, and event order.

use crate::common;

use common::{Scheme, model};
use physis_runtime::{Cmp, Collect, Cond, ReasonKind, RunOptions, SampleKind, run_into};

fn events_at(c: &Collect) -> Vec<f64> {
    c.0.iter()
        .filter(|s| s.kind == SampleKind::AfterEvent)
        .map(|s| s.t)
        .collect()
}

#[test]
fn a_crossing_exactly_at_a_step_end_fires_once() {
    // Sawtooth `on x ≥ 1 do x ≔ x − 1, c ≔ c + 1` with x' = 1 and Euler step 0.25:
    // x reaches 1 exactly at the step ends t = 1, 2, 3; each crossing fires exactly once.
    let m = model("Saw", Scheme::Euler, &[0.0, 0.0], |_, _, d| {
        d[0] = 1.0;
        d[1] = 0.0;
    })
    .atoms(&[Cmp::Ge, Cmp::Ge], |t, y, _, m| {
        m[0] = y[0] - 1.0;
        m[1] = t - 3.5;
    })
    .event(Cond::Atom(0), "x ≥ 1", 4)
    .reset(|_, _, pre, post| {
        post[0] = pre[0] - 1.0;
        post[1] = pre[1] + 1.0;
    })
    .stop(Cond::Atom(1), "t ≥ 3.5 s", 5)
    .build();
    let mut sink = Collect::default();
    let end = run_into(
        m,
        &RunOptions {
            step: Some(0.25),
            ..Default::default()
        },
        &mut sink,
    )
    .expect("runs");
    assert_eq!(events_at(&sink), vec![1.0, 2.0, 3.0]);
    assert_eq!(end.state[1], 3.0);
    assert_eq!(end.t, 3.5);
    assert!((end.state[0] - 0.5).abs() < 1e-15);
    // The grid is kept: 14 steps of 0.25.
    assert_eq!(end.stats.steps, 14);
}

#[test]
fn a_condition_that_stays_true_fires_once() {
    let m = model("Once", Scheme::Dp45, &[0.0, 0.0], |_, _, d| {
        d[0] = 1.0;
        d[1] = 0.0;
    })
    .atoms(&[Cmp::Ge, Cmp::Ge], |t, y, _, m| {
        m[0] = y[0] - 1.0;
        m[1] = t - 5.0;
    })
    .event(Cond::Atom(0), "x ≥ 1", 4)
    .reset(|_, _, pre, post| post[1] = pre[1] + 1.0)
    .stop(Cond::Atom(1), "t ≥ 5 s", 5)
    .build();
    let mut sink = Collect::default();
    let end = run_into(m, &RunOptions::default(), &mut sink).expect("runs");
    assert_eq!(end.stats.events, 1);
    assert_eq!(events_at(&sink).len(), 1);
    assert!((events_at(&sink)[0] - 1.0).abs() < 1e-14);
}

/// x = (t − 0.5)², so `x < 0.02` holds only on 0.5 ± √0.02: inside one rk4 step of 1 s,
/// false at both ends.
fn dip(stop: bool) -> common::TestModel {
    let b = model("Dip", Scheme::Rk4, &[0.25, 0.0], |t, _, d| {
        d[0] = 2.0 * (t - 0.5);
        d[1] = 0.0;
    })
    .atoms(&[Cmp::Lt, Cmp::Ge], |t, y, _, m| {
        m[0] = y[0] - 0.02;
        m[1] = t - 3.0;
    })
    .stop(Cond::Atom(1), "t ≥ 3 s", 9)
    .reset(|_, _, pre, post| post[1] = pre[1] + 1.0);
    if stop {
        b.stop(Cond::Atom(0), "x < 0.02", 3)
    } else {
        b.event(Cond::Atom(0), "x < 0.02", 3)
    }
    .build()
}

#[test]
fn a_dip_inside_one_step_is_seen() {
    let opts = RunOptions {
        step: Some(1.0),
        ..Default::default()
    };
    let mut sink = Collect::default();
    let end = run_into(dip(false), &opts, &mut sink).expect("runs");
    let ev = events_at(&sink);
    assert_eq!(ev.len(), 1, "{ev:?}");
    let t_in = 0.5 - 0.02f64.sqrt();
    assert!((ev[0] - t_in).abs() < 1e-12, "{}", ev[0]);
    assert_eq!(end.state[1], 1.0);
    // The step cut by the event at 0.36 s is followed by one back to the grid point 1 s,
    // then 2 s and 3 s (never a step past the fixed step).
    assert_eq!(end.stats.steps, 4);
    let end = run_into(dip(true), &opts, &mut Collect::default()).expect("runs");
    assert_eq!(end.reason.line, Some(3));
    assert!((end.t - t_in).abs() < 1e-12, "{}", end.t);
}

#[test]
fn two_events_in_one_step_fire_earliest_first() {
    // x' = 1; A at x ≥ 0.3 and B at x ≥ 0.2 inside one step of 1 s; each records its time
    // and the number of events seen before it.
    let m = model("Two", Scheme::Rk4, &[0.0, -1.0, -1.0, 0.0], |_, _, d| {
        d.fill(0.0);
        d[0] = 1.0;
    })
    .atoms(&[Cmp::Ge, Cmp::Ge, Cmp::Ge], |t, y, _, m| {
        m[0] = y[0] - 0.3;
        m[1] = y[0] - 0.2;
        m[2] = t - 2.0;
    })
    .event(Cond::Atom(0), "x ≥ 0.3", 3)
    .event(Cond::Atom(1), "x ≥ 0.2", 4)
    .reset(|e, t, pre, post| {
        post[1 + e] = t;
        post[3] = pre[3] + 1.0;
        if e == 0 {
            post[3] += 10.0 * pre[3];
        }
    })
    .stop(Cond::Atom(2), "t ≥ 2 s", 5)
    .build();
    let end = run_into(
        m,
        &RunOptions {
            step: Some(1.0),
            ..Default::default()
        },
        &mut Collect::default(),
    )
    .expect("runs");
    assert!((end.state[2] - 0.2).abs() < 1e-14, "B at {}", end.state[2]);
    assert!((end.state[1] - 0.3).abs() < 1e-14, "A at {}", end.state[1]);
    // B first (count 1), then A saw 1 before it: 1 + 1 + 10.
    assert_eq!(end.state[3], 12.0);
}

#[test]
fn simultaneous_events_fire_together_reading_the_pre_event_state() {
    // Both at x = 0.5: p ≔ p + 1 and q ≔ p + 10 read p = 0 before the instant.
    let m = model("Same", Scheme::Dp45, &[0.0, 0.0, 0.0], |_, _, d| {
        d.fill(0.0);
        d[0] = 1.0;
    })
    .atoms(&[Cmp::Ge, Cmp::Ge, Cmp::Ge], |t, y, _, m| {
        m[0] = y[0] - 0.5;
        m[1] = 0.5 - y[0];
        m[2] = t - 1.0;
    })
    .event(Cond::Atom(0), "x ≥ 0.5", 3)
    .event(Cond::Not(Box::new(Cond::Atom(1))), "¬(x ≤ 0.5)", 4)
    .reset(|e, _, pre, post| {
        if e == 0 {
            post[1] = pre[1] + 1.0;
        } else {
            post[2] = pre[1] + 10.0;
        }
    })
    .stop(Cond::Atom(2), "t ≥ 1 s", 5)
    .build();
    let mut sink = Collect::default();
    let end = run_into(m, &RunOptions::default(), &mut sink).expect("runs");
    assert_eq!(end.reason.kind, ReasonKind::When, "{:?}", end.reason);
    assert_eq!((end.state[1], end.state[2]), (1.0, 10.0));
    assert_eq!(end.stats.events, 2);
    assert_eq!(events_at(&sink).len(), 1);
}

#[test]
fn accumulating_events_end_at_the_zeno_point() {
    // `on x ≥ 1 do x ≔ x − d, d ≔ d/2` with x' = 1, d = 0.1: firings at 1, 1.1, 1.15, ...
    // accumulate at t = 1.2; the run must end there, not loop forever.
    let m = model("Chatter", Scheme::Dp45, &[0.0, 0.1], |_, _, d| {
        d[0] = 1.0;
        d[1] = 0.0;
    })
    .atoms(&[Cmp::Ge, Cmp::Ge], |t, y, _, m| {
        m[0] = y[0] - 1.0;
        m[1] = t - 2.0;
    })
    .event(Cond::Atom(0), "x ≥ 1", 3)
    .reset(|_, _, pre, post| {
        post[0] = pre[0] - pre[1];
        post[1] = 0.5 * pre[1];
    })
    .stop(Cond::Atom(1), "t ≥ 2 s", 5)
    .build();
    let end = run_into(m, &RunOptions::default(), &mut Collect::default()).expect("runs");
    assert_eq!(end.reason.kind, ReasonKind::Diverged);
    assert_eq!(end.reason.clause.as_deref(), Some("x ≥ 1"));
    assert!((end.t - 1.2).abs() < 1e-12, "{}", end.t);
    assert!(
        end.stats.events > 40 && end.stats.events < 60,
        "{:?}",
        end.stats
    );
}

#[test]
fn a_time_window_inside_one_step_fires() {
    // `on t > 1 ∧ t < 1.5` with steps of 2 s: affine time atoms are probed at their roots
    // and between them, so the window is found though both step ends are outside it.
    let m = model("Window", Scheme::Rk4, &[0.0], |_, _, d| d[0] = 0.0)
        .atoms(&[Cmp::Gt, Cmp::Lt, Cmp::Ge], |t, _, _, m| {
            m[0] = t - 1.0;
            m[1] = t - 1.5;
            m[2] = t - 4.0;
        })
        .time_only(&[true, true, true])
        .event(common::all(&[0, 1]), "t > 1 s ∧ t < 1.5 s", 3)
        .reset(|_, _, pre, post| post[0] = pre[0] + 1.0)
        .stop(Cond::Atom(2), "t ≥ 4 s", 4)
        .build();
    let mut sink = Collect::default();
    let end = run_into(
        m,
        &RunOptions {
            step: Some(2.0),
            ..Default::default()
        },
        &mut sink,
    )
    .expect("runs");
    assert_eq!(end.state[0], 1.0);
    let ev = events_at(&sink);
    assert!(
        ev.len() == 1 && (ev[0] - 1.0).abs() < 1e-15 && ev[0] > 1.0,
        "{ev:?}"
    );
    assert_eq!(end.t, 4.0);
}
