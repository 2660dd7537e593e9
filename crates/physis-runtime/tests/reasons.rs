//! Every reason kind is reached, with its clause and line; the stability check accepts
//! explicit Euler at 0.9× its limit and refuses it at 1.1×.

use crate::common;

use common::{Scheme, model};
use physis_runtime::{Cause, Cmp, Cond, Model, ReasonKind, RunError, RunOptions, run};

fn stop_at(b: common::Builder, t_end: f64) -> common::Builder {
    b.atoms(&[Cmp::Ge], move |t, _, _, m| m[0] = t - t_end)
        .stop(Cond::Atom(0), "t ≥ end", 7)
}

/// y1' = −1000·y1 + y2, y2' = −y2: eigenvalues −1000 and −1; Euler is stable for h ≤ 2e-3.
fn stiff(scheme: Scheme) -> common::TestModel {
    stop_at(
        model("Stiff", scheme, &[1.0, 1.0], |_, y, d| {
            d[0] = -1000.0 * y[0] + y[1];
            d[1] = -y[1];
        }),
        1.0,
    )
    .build()
}

#[test]
fn stability_check_accepts_below_and_refuses_above_the_limit() {
    let ok = run(
        stiff(Scheme::Euler),
        &RunOptions {
            step: Some(0.9 * 2e-3),
            ..Default::default()
        },
    )
    .expect("runs");
    assert_eq!(ok.reason.kind, ReasonKind::When);
    assert!(ok.final_state()[0].abs() < 1e-2, "{:?}", ok.final_state());
    let bad = run(
        stiff(Scheme::Euler),
        &RunOptions {
            step: Some(1.1 * 2e-3),
            ..Default::default()
        },
    )
    .expect("runs");
    assert_eq!(bad.reason.kind, ReasonKind::Unstable);
    assert_eq!(bad.reason.clause.as_deref(), Some("Euler"));
    let Cause::Stability { rho, .. } = bad.reason.cause else {
        panic!("{:?}", bad.reason)
    };
    assert!((rho - 1000.0).abs() < 1e-3, "{rho}");
    assert_eq!(bad.stats().steps, 0);
    assert_eq!(bad.time, vec![0.0]);
}

#[test]
fn stability_check_on_the_heat_anchor() {
    // ANCHORS A4: 100 interior nodes, explicit Euler stable for dt ≤ h²/2 = 4.9015e-5.
    let n = 100;
    let dx = 1.0 / 101.0;
    let y0: Vec<f64> = (1..=n)
        .map(|i| (std::f64::consts::PI * i as f64 * dx).sin())
        .collect();
    let heat = || {
        stop_at(
            model("Heat", Scheme::Euler, &y0, move |_, u, d| {
                for i in 0..n {
                    let l = if i > 0 { u[i - 1] } else { 0.0 };
                    let r = if i + 1 < n { u[i + 1] } else { 0.0 };
                    d[i] = (l - 2.0 * u[i] + r) / (dx * dx);
                }
            }),
            0.1,
        )
        .build()
    };
    let limit = dx * dx / 2.0;
    let ok = run(
        heat(),
        &RunOptions {
            step: Some(0.9 * limit),
            ..Default::default()
        },
    )
    .expect("runs");
    assert_eq!(ok.reason.kind, ReasonKind::When);
    // Semi-discrete exact solution at T = 0.1 (Euler's error is small at this step).
    let lam = -4.0 / (dx * dx) * (std::f64::consts::PI * dx / 2.0).sin().powi(2);
    let mid = ok.final_state()[49];
    let exact = (std::f64::consts::PI * 50.0 * dx).sin() * (lam * ok.final_t()).exp();
    assert!((mid - exact).abs() < 1e-3 * exact, "{mid} vs {exact}");
    let bad = run(
        heat(),
        &RunOptions {
            step: Some(1.1 * limit),
            ..Default::default()
        },
    )
    .expect("runs");
    assert_eq!(bad.reason.kind, ReasonKind::Unstable);
}

#[test]
fn limit_ends_the_run_after_that_many_steps() {
    let r = run(
        stiff(Scheme::Rk4),
        &RunOptions {
            step: Some(1e-3),
            limit: Some(10),
            ..Default::default()
        },
    )
    .expect("runs");
    assert_eq!(r.reason.kind, ReasonKind::Limit);
    assert_eq!(r.stats().steps, 10);
    assert!((r.final_t() - 0.01).abs() < 1e-15);
    assert_eq!(r.time.len(), 11);
}

#[test]
fn blow_up_ends_as_diverged_without_panicking() {
    // y' = y², y(0) = 1 blows up at t = 1; explicit Euler overflows to infinity.
    let fixed = stop_at(
        model("BlowUp", Scheme::Euler, &[1.0], |_, y, d| {
            d[0] = y[0] * y[0]
        }),
        5.0,
    )
    .build();
    let r = run(
        fixed,
        &RunOptions {
            step: Some(0.1),
            ..Default::default()
        },
    )
    .expect("runs");
    assert_eq!(r.reason.kind, ReasonKind::Diverged);
    assert_eq!(r.reason.cause, Cause::NonFinite);
    assert!(r.final_state()[0].is_finite());
    // Adaptive: the step shrinks toward the singularity until it no longer resolves t.
    let adaptive = stop_at(
        model("BlowUp", Scheme::Dp45, &[1.0], |_, y, d| d[0] = y[0] * y[0]),
        5.0,
    )
    .build();
    let r = run(adaptive, &RunOptions::default()).expect("runs");
    assert_eq!(r.reason.kind, ReasonKind::Diverged);
    assert!((r.final_t() - 1.0).abs() < 1e-3, "{}", r.final_t());
}

#[test]
fn drifting_energy_ends_as_violated() {
    // Explicit Euler on an oscillator gains energy by (1 + h²) per step.
    let m = stop_at(
        model("Osc", Scheme::Euler, &[1.0, 0.0], |_, y, d| {
            d[0] = y[1];
            d[1] = -y[0];
        }),
        100.0,
    )
    .observes(&["energy"], |_, y, _, o| {
        o[0] = 0.5 * (y[0] * y[0] + y[1] * y[1])
    })
    .conserve(0, 1e-3, "conserve energy within 1e-3", 11)
    .build();
    let r = run(
        m,
        &RunOptions {
            step: Some(0.01),
            ..Default::default()
        },
    )
    .expect("runs");
    assert_eq!(r.reason.kind, ReasonKind::Violated);
    assert_eq!(r.reason.line, Some(11));
    // E_n = 0.5·(1 + h²)^n and the drift is relative to max(|E₀|, 1) = 1:
    // first n with 0.5·((1 + h²)^n − 1) > 1e-3 is n = 20.
    assert_eq!(r.stats().steps, 20);
    let e = r.column("energy").expect("energy");
    assert!((e[e.len() - 1] - 0.5).abs() > 0.5e-3);
}

#[test]
fn a_stop_holding_at_t0_ends_the_run_at_once() {
    let m = stop_at(
        model("Now", Scheme::Dp45, &[1.0], |_, _, d| d[0] = 1.0),
        0.0,
    )
    .build();
    let r = run(m, &RunOptions::default()).expect("runs");
    assert_eq!(r.reason.kind, ReasonKind::When);
    assert_eq!((r.time.len(), r.stats().steps, r.final_t()), (1, 0, 0.0));
}

#[test]
fn bad_settings_are_typed_errors() {
    let e = run(stiff(Scheme::Rk4), &RunOptions::default()).err();
    assert!(matches!(e, Some(RunError::MissingStep { .. })), "{e:?}");
    let e = run(
        stiff(Scheme::Rk4),
        &RunOptions {
            step: Some(-1.0),
            ..Default::default()
        },
    )
    .err();
    assert!(
        matches!(
            e,
            Some(RunError::BadSetting {
                setting: "step",
                ..
            })
        ),
        "{e:?}"
    );
    let e = run(
        stiff(Scheme::Dp45),
        &RunOptions {
            tolerance: Some(f64::NAN),
            ..Default::default()
        },
    )
    .err();
    assert!(
        matches!(
            e,
            Some(RunError::BadSetting {
                setting: "tolerance",
                ..
            })
        ),
        "{e:?}"
    );
    let mut m = stiff(Scheme::Dp45);
    m.info = std::sync::Arc::new(physis_runtime::ModelInfo {
        atoms: vec![],
        ..(*m.info).clone()
    });
    let e = run(m, &RunOptions::default()).err();
    assert!(matches!(e, Some(RunError::BadModel { .. })), "{e:?}");
}

/// `y' = 1` from 0 whose rate turns infinite once `y > 0.45`: explicit Euler with h = 0.1
/// reaches 0.5 at its fifth step, where the rate is not finite, so the run ends `diverged`
/// at the last finite state, t = 0.4 after 4 steps. Dormand–Prince (FSAL: the end rate is a
/// stage, seen by the error norm) shrinks its step against y = 0.45 until it no longer
/// resolves t.
#[test]
fn a_non_finite_rate_ends_the_run_at_the_last_finite_state() {
    let rate =
        |_: f64, y: &[f64], d: &mut [f64]| d[0] = if y[0] > 0.45 { f64::INFINITY } else { 1.0 };
    for scheme in [Scheme::Euler, Scheme::Rk4] {
        let m = stop_at(model("Wall", scheme, &[0.0], rate), 5.0).build();
        let opts = RunOptions {
            step: Some(0.1),
            ..Default::default()
        };
        let r = run(m, &opts).expect("runs");
        assert_eq!(r.reason.kind, ReasonKind::Diverged, "{scheme:?}");
        assert_eq!(r.reason.cause, Cause::NonFinite, "{scheme:?}");
        assert_eq!(r.stats().steps, 4, "{scheme:?}");
        assert!((r.final_t() - 0.4).abs() < 1e-15, "{}", r.final_t());
        assert!(
            (r.final_state()[0] - 0.4).abs() < 1e-15,
            "{:?}",
            r.final_state()
        );
    }
    let m = stop_at(model("Wall", Scheme::Dp45, &[0.0], rate), 5.0).build();
    let r = run(m, &RunOptions::default()).expect("runs");
    assert_eq!(r.reason.kind, ReasonKind::Diverged);
    assert!(
        matches!(r.reason.cause, Cause::StepTooSmall { .. }),
        "{:?}",
        r.reason
    );
    assert!((r.final_t() - 0.45).abs() < 1e-9, "{}", r.final_t());
    assert!(r.final_state()[0] <= 0.45);
}

/// `y' = 1` from 0 observed as `y` with `conserve y within 0.25` (drift relative to
/// max(|y₀|, 1) = 1): Euler with h = 0.1 first drifts past 0.25 at y = 0.3, the third step,
/// whether or not a sink takes the step samples.
#[test]
fn a_conserve_violation_ends_the_run_at_the_first_drifting_step() {
    let build = || {
        stop_at(
            model("Climb", Scheme::Euler, &[0.0], |_, _, d| d[0] = 1.0),
            5.0,
        )
        .observes(&["y"], |_, y, _, o| o[0] = y[0])
        .conserve(0, 0.25, "conserve y within 0.25", 9)
        .build()
    };
    let opts = RunOptions {
        step: Some(0.1),
        ..Default::default()
    };
    let r = run(build(), &opts).expect("runs");
    assert_eq!(r.reason.kind, ReasonKind::Violated);
    assert_eq!(r.reason.line, Some(9));
    assert_eq!(r.stats().steps, 3);
    assert!((r.final_t() - 0.3).abs() < 1e-15, "{}", r.final_t());
    /// Takes nothing but the first sample and the end.
    struct Nothing;
    impl physis_runtime::SampleSink for Nothing {
        fn sample(&mut self, _: &physis_runtime::Sample<'_>) -> std::io::Result<()> {
            Ok(())
        }
        fn wants(&self, _: physis_runtime::SampleKind) -> bool {
            false
        }
    }
    let end = physis_runtime::run_into(build(), &opts, &mut Nothing).expect("runs");
    assert_eq!(end.reason.kind, ReasonKind::Violated);
    assert_eq!(end.stats.steps, 3);
    assert!((end.t - 0.3).abs() < 1e-15, "{}", end.t);
}

/// The model wrapped, counting calls of the whole observe function and of the conserved
/// observes.
struct Counting {
    inner: common::TestModel,
    observes: u64,
    conserved: u64,
}

impl physis_runtime::Wraps for Counting {
    type Inner = common::TestModel;
    fn inner(&self) -> &common::TestModel {
        &self.inner
    }
    fn inner_mut(&mut self) -> &mut common::TestModel {
        &mut self.inner
    }
    fn wrapper_observe(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
        self.observes += 1;
        self.inner.observe(t, y, dydt, out);
    }
    fn wrapper_conserved(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
        self.conserved += 1;
        self.inner.conserved(t, y, dydt, out);
    }
}

/// The oscillator of `drifting_energy_ends_as_violated` with a second, unconserved observe:
/// with no sink taking the step samples, the drift check after each of the 20 steps asks for
/// the conserved observes only, and the whole observe function runs for the first sample and
/// the end alone; with every sample taken, the samples' own observes serve the check.
#[test]
fn a_conserve_check_nobody_samples_for_asks_only_for_the_conserved_observes() {
    struct Nothing;
    impl physis_runtime::SampleSink for Nothing {
        fn sample(&mut self, _: &physis_runtime::Sample<'_>) -> std::io::Result<()> {
            Ok(())
        }
        fn wants(&self, _: physis_runtime::SampleKind) -> bool {
            false
        }
    }
    let build = || Counting {
        inner: stop_at(
            model("Osc", Scheme::Euler, &[1.0, 0.0], |_, y, d| {
                d[0] = y[1];
                d[1] = -y[0];
            }),
            100.0,
        )
        .observes(&["x", "energy"], |_, y, _, o| {
            o[0] = y[0];
            o[1] = 0.5 * (y[0] * y[0] + y[1] * y[1]);
        })
        .conserve(1, 1e-3, "conserve energy within 1e-3", 11)
        .build(),
        observes: 0,
        conserved: 0,
    };
    let opts = RunOptions {
        step: Some(0.01),
        ..Default::default()
    };
    let mut counts = Vec::new();
    let mut ends = Vec::new();
    for take in [false, true] {
        let mut sim = physis_runtime::Simulation::new(build(), &opts).expect("valid");
        let end = if take {
            sim.run_in_place(&mut physis_runtime::Collect::default())
        } else {
            sim.run_in_place(&mut Nothing)
        }
        .expect("runs");
        let m = sim.into_model();
        counts.push((m.observes, m.conserved));
        assert_eq!(end.reason.kind, ReasonKind::Violated);
        assert_eq!(end.stats.steps, 20);
        ends.push(end);
    }
    assert_eq!(counts[0], (2, 20), "no sink: the first sample and the end");
    assert_eq!(counts[1], (22, 0), "21 samples and the end");
    assert_eq!(ends[0].t.to_bits(), ends[1].t.to_bits());
    assert_eq!(ends[0].state, ends[1].state);
    assert_eq!(ends[0].observe, ends[1].observe);
}
