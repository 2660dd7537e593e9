//! Runs that once gave wrong answers (issue 19), each named after its failure and checked
//! against a closed form, through both back ends: the interpreter (the library's front door:
//! check, lower, `TapeModel`) and the generated code of `tests/models/driver_regressions.hph`.

use std::path::PathBuf;

use physis_ir::{TapeModel, lower_with_source};
use physis_runtime::{Collect, OwnedSample, ReasonKind, RunEnd, RunOptions, SampleKind};

#[allow(dead_code)]
mod test_models {
    include!(concat!(env!("OUT_DIR"), "/test_models.rs"));
}

const FILE: &str = "tests/models/driver_regressions.hph";
const G0: f64 = 9.80665;

/// One run of model `name` through one back end.
struct Run {
    back_end: &'static str,
    samples: Vec<OwnedSample>,
    end: RunEnd,
}

impl Run {
    /// Observe `k` of the last sample.
    fn last(&self, k: usize) -> f64 {
        self.end.observe[k]
    }

    /// Times of the samples of `kind`.
    fn times(&self, kind: SampleKind) -> Vec<f64> {
        self.samples
            .iter()
            .filter(|s| s.kind == kind)
            .map(|s| s.t)
            .collect()
    }
}

/// Model `name` run by the interpreter and by its generated code, with `options`.
fn both(name: &str, options: &RunOptions) -> [Run; 2] {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(FILE);
    let source = std::fs::read_to_string(path).expect("model file");
    let checked = physis_check::check_source(&source);
    assert!(!checked.has_errors(), "{FILE} checks");
    let m = checked
        .program
        .models
        .iter()
        .find(|m| m.name == name)
        .unwrap_or_else(|| panic!("{name} in {FILE}"));
    let ir = lower_with_source(m, &source).unwrap_or_else(|e| panic!("{name}: {e}"));
    let params = ir.default_params();
    let mut tape = Collect::default();
    let model = TapeModel::with_params(&ir, params.clone()).expect("tape model");
    let tape_end = physis_runtime::run_into(model, options, &mut tape).expect("interpreter runs");
    let (_, generated) = test_models::MODELS
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("{name} generated"));
    let mut out = Collect::default();
    let gen_end = generated(&params, options, &mut out)
        .expect("parameters fit")
        .expect("generated code runs");
    [
        Run {
            back_end: "interpreter",
            samples: tape.0,
            end: tape_end,
        },
        Run {
            back_end: "generated",
            samples: out.0,
            end: gen_end,
        },
    ]
}

fn defaults(name: &str) -> [Run; 2] {
    both(name, &RunOptions::default())
}

#[test]
fn first_order_slot_beside_second_order_keeps_its_rate() {
    for r in defaults("MixedOrderRk45") {
        let who = r.back_end;
        assert_eq!(r.end.reason.kind, ReasonKind::When, "{who}");
        assert!((r.end.t - 1.0).abs() < 1e-12, "{who}: {}", r.end.t);
        // Default tolerance 1e-6: z is linear, so only y's error counts.
        assert!(
            (r.last(1) - 1.0).abs() < 1e-9,
            "{who}: z(1 s) = {}",
            r.last(1)
        );
        assert!(
            (r.last(0) - 1f64.cos()).abs() < 1e-5,
            "{who}: y = {}",
            r.last(0)
        );
        assert!(
            r.end.stats.steps < 100,
            "{who}: {} steps",
            r.end.stats.steps
        );
    }
}

#[test]
fn constant_first_order_state_beside_an_oscillator_stays_constant() {
    for r in defaults("ConstantBesideOscillator") {
        let who = r.back_end;
        assert_eq!(r.end.reason.kind, ReasonKind::When, "{who}");
        assert!((r.end.t - 2.0).abs() < 1e-12, "{who}: {}", r.end.t);
        for s in &r.samples {
            assert_eq!(s.observe[1], 1.0, "{who}: n at t = {}", s.t);
        }
        assert!(
            (r.last(0) - 2f64.cos()).abs() < 1e-5,
            "{who}: x = {}",
            r.last(0)
        );
        assert!(
            r.end.stats.steps < 200,
            "{who}: {} steps",
            r.end.stats.steps
        );
    }
}

#[test]
fn first_order_slot_beside_second_order_under_rk4_is_exact_for_polynomials() {
    for r in defaults("MixedOrderRk4") {
        let who = r.back_end;
        assert_eq!(r.end.stats.steps, 10, "{who}");
        assert!(
            (r.last(1) - 1.0).abs() < 1e-14,
            "{who}: z(1 s) = {}",
            r.last(1)
        );
        let y = 10.0 - G0 / 2.0;
        assert!(
            (r.last(0) - y).abs() < 1e-13,
            "{who}: y(1 s) = {}",
            r.last(0)
        );
    }
}

#[test]
fn hit_counter_beside_a_bouncing_ball_stops_at_the_second_bounce() {
    let v1 = (2.0 * G0 * 10.0).sqrt();
    let t1 = v1 / G0;
    let t2 = t1 + 2.0 * 0.8 * v1 / G0;
    for r in defaults("CountedBounces") {
        let who = r.back_end;
        assert_eq!(r.end.reason.kind, ReasonKind::When, "{who}");
        assert_eq!(r.end.reason.clause.as_deref(), Some("hits ≥ 2"), "{who}");
        assert!((r.end.t - t2).abs() < 1e-8, "{who}: {} vs {t2}", r.end.t);
        assert_eq!(r.last(0), 2.0, "{who}: the counter holds whole numbers");
        assert_eq!(r.end.stats.events, 2, "{who}");
        let bounces = r.times(SampleKind::BeforeEvent);
        assert!((bounces[0] - t1).abs() < 1e-8, "{who}: {bounces:?}");
    }
}

/// Gaps between consecutive samples of a run, with the later sample's time.
fn gaps(r: &Run) -> Vec<(f64, f64)> {
    r.samples
        .windows(2)
        .map(|w| (w[1].t, w[1].t - w[0].t))
        .collect()
}

#[test]
fn fixed_step_cut_by_an_event_returns_to_its_grid() {
    let h = 0.3;
    for r in defaults("CutFixedStep") {
        let who = r.back_end;
        assert_eq!(r.times(SampleKind::BeforeEvent), vec![1.0], "{who}");
        for (t, gap) in gaps(&r) {
            assert!(gap <= h * (1.0 + 1e-12), "{who}: a {gap} s step to {t}");
        }
        let steps = r.times(SampleKind::Step);
        for t in &steps {
            let k = (t / h).round();
            assert!(
                (t - k * h).abs() < 1e-12,
                "{who}: step sample off the grid at {t}"
            );
        }
        assert!(
            steps.iter().any(|t| (t - 1.2).abs() < 1e-12),
            "{who}: {steps:?}"
        );
        assert!((r.end.t - 2.0).abs() < 1e-12, "{who}");
        assert!(
            (r.end.state[0] - 2.0).abs() < 1e-12,
            "{who}: x(2 s) = {:?}",
            r.end.state
        );
    }
}

#[test]
fn fixed_step_near_stability_is_not_oversized_after_an_event() {
    let h = 0.01;
    for r in defaults("CutNearStability") {
        let who = r.back_end;
        assert_eq!(
            r.end.reason.kind,
            ReasonKind::When,
            "{who}: {:?}",
            r.end.reason
        );
        assert_eq!(r.end.stats.events, 1, "{who}");
        for (t, gap) in gaps(&r) {
            assert!(gap <= h * (1.0 + 1e-9), "{who}: a {gap} s step to {t}");
        }
        // rk4's amplification at hλ = 2.7 is below one: u decays, never grows.
        assert!(r.samples.iter().all(|s| s.observe[0].abs() <= 1.0), "{who}");
        assert!(r.last(0).abs() < 1e-3, "{who}: u(1 s) = {}", r.last(0));
    }
}

#[test]
fn event_already_true_at_t0_does_not_fire_there() {
    let v0 = 2.0;
    let period = 2.0 * v0 / G0;
    for r in defaults("ThrownFromTheFloor") {
        let who = r.back_end;
        let bounces = r.times(SampleKind::BeforeEvent);
        assert_eq!(bounces.len(), 2, "{who}: {bounces:?}");
        assert!((bounces[0] - period).abs() < 1e-8, "{who}: {bounces:?}");
        assert!(
            (bounces[1] - 2.0 * period).abs() < 1e-8,
            "{who}: {bounces:?}"
        );
        assert_eq!(r.last(1), 2.0, "{who}");
        let s = 1.0 - 2.0 * period;
        let y = v0 * s - G0 * s * s / 2.0;
        assert!(
            (r.last(0) - y).abs() < 1e-7,
            "{who}: y(1 s) = {} vs {y}",
            r.last(0)
        );
    }
}

#[test]
fn newton_from_an_explicit_guess_no_longer_reaches_a_negative_root() {
    // Reference: SciPy's Radau at rtol 1e-10 gives a(1e11 s) = 2.08334e-8,
    // c = 0.999999979; backward Euler's own recurrence at h = 1e9 s (full Newton from the
    // previous state, numpy) gives a = 2.26451e-8: the O(h) error of the scheme. Newton
    // stops at weights tol·(1 + |x|), so a ≈ 2e-8 is resolved to a few per cent only.
    for r in defaults("RobertsonBackwardEuler") {
        let who = r.back_end;
        assert_eq!(
            r.end.reason.kind,
            ReasonKind::When,
            "{who}: {:?}",
            r.end.reason
        );
        for s in &r.samples {
            assert!(
                s.observe.iter().all(|&c| c >= 0.0),
                "{who}: negative concentration at t = {}: {:?}",
                s.t,
                s.observe
            );
            let total: f64 = s.observe.iter().sum();
            assert!((total - 1.0).abs() < 1e-12, "{who}: mass {total}");
        }
        let a = r.last(0);
        assert!((a - 2.26451e-8).abs() < 0.03 * 2.26451e-8, "{who}: a = {a}");
        assert!((a - 2.08334e-8).abs() < 0.1 * 2.08334e-8, "{who}: a = {a}");
        assert!((r.last(2) - 0.999_999_979).abs() < 1e-8, "{who}");
    }
}

#[test]
fn stop_true_only_strictly_inside_one_step_is_found() {
    // r[1] > 8 m ∧ v[1] < 0 m/s ∧ t > 1 s first holds at the apex t = vy/g₀ (height
    // vy²/2g₀ = 8.09 m) and only for 0.14 s; rk45 crosses it inside one step.
    let vy = 12.6;
    for r in defaults("BriefWindow") {
        let who = r.back_end;
        assert_eq!(
            r.end.reason.clause.as_deref(),
            Some("r[1] > 8 m ∧ v[1] < 0 m/s ∧ t > 1 s"),
            "{who}: {:?} at {}",
            r.end.reason,
            r.end.t
        );
        assert!(
            (r.end.t - vy / G0).abs() < 1e-9,
            "{who}: {} vs {}",
            r.end.t,
            vy / G0
        );
    }
}

#[test]
fn user_scheme_without_stable_is_checked_against_its_own_radius() {
    for r in defaults("UndeclaredRadius") {
        let who = r.back_end;
        assert_eq!(
            r.end.reason.kind,
            ReasonKind::Unstable,
            "{who}: {:?}",
            r.end.reason
        );
        assert_eq!(r.end.t, 0.0, "{who}");
        match r.end.reason.cause {
            physis_runtime::Cause::Stability { rho, h, radius } => {
                assert!((radius - 2.0).abs() < 1e-9, "{who}: radius {radius}");
                assert!((rho * h - 10.0).abs() < 1e-6, "{who}: ρ·h = {}", rho * h);
            }
            ref other => panic!("{who}: {other:?}"),
        }
    }
}

#[test]
fn user_scheme_declaring_a_radius_past_its_own_is_refused() {
    // Heun's method is stable to h·|λ| = 2 on the negative real axis; `stable 3` overclaims.
    let source = "scheme boldHeun stable 3 {\n  k₁ ≔ f(t, y)\n  k₂ ≔ f(t + h, y + h·k₁)\n  \
                  next ≔ y + h/2·(k₁ + k₂)\n}\n\nsimulate Decay {\n  state n : Dimensionless = 1\n  \
                  law n' = −2 Hz·n\n  integrate boldHeun step 10 ms\n  stop when t ≥ 1 s\n}\n";
    let checked = physis_check::check_source(source);
    assert!(!checked.has_errors());
    let err = lower_with_source(&checked.program.models[0], source).expect_err("refused");
    match err {
        physis_ir::LowerError::Symbolic { diagnostic } => {
            assert_eq!(diagnostic.code.as_str(), "PH0105");
            assert!(
                diagnostic.message.contains("stable 3"),
                "{}",
                diagnostic.message
            );
            assert!(
                diagnostic.message.contains("2.000000"),
                "{}",
                diagnostic.message
            );
        }
        other => panic!("{other}"),
    }
    // Declaring its true radius (or less) is accepted.
    let honest = source.replace("stable 3", "stable 2");
    let checked = physis_check::check_source(&honest);
    assert!(lower_with_source(&checked.program.models[0], &honest).is_ok());
}
