//! The manual's models, checked by `physis-check`, lowered and run through the driver
//! against closed forms.

use physis_ir::{LowerError, TapeModel, lower, lower_with_source};
use physis_runtime::{ReasonKind, RunOptions};

fn lowered(src: &str, name: &str) -> Result<physis_ir::IrModel, LowerError> {
    let checked = physis_check::check_source(src);
    assert!(!checked.has_errors(), "{:#?}", checked.diagnostics);
    lower_with_source(checked.program.model(name).expect("model"), src)
}

fn run(model: &physis_ir::IrModel) -> physis_runtime::Run {
    physis_runtime::run(TapeModel::new(model).unwrap(), &RunOptions::default()).unwrap()
}

const PROJECTILE: &str = "simulate Projectile {
  param v₀ : Velocity = 30 m/s
  param α : Angle = 45 deg
  state x : Length[2] = [0 m, 0 m]
  state v : Velocity[2] = v₀·[cos(α), sin(α)]
  law x' = v
  law v' = [0 m/s², −g₀]
  integrate rk45 tolerance 1e-9
  observe height ≔ x[1]
  observe speed ≔ norm(v)
  stop when x[1] < 0 m ∧ t > 0 s
  stop when t ≥ 60 s
  run Steep with α = 70 deg
}
";

#[test]
fn projectile_lands_where_the_parabola_says() {
    let model = lowered(PROJECTILE, "Projectile").unwrap();
    assert_eq!(model.info.dim, 4);
    assert_eq!(model.info.stops.len(), 2);
    assert_eq!(model.info.integrate.as_ref().map(|i| i.line), Some(8));
    let g0 = 9.80665;
    for (params, angle) in [
        (model.default_params(), 45.0f64),
        (model.run_params("Steep").unwrap(), 70.0),
    ] {
        let r = physis_runtime::run(
            TapeModel::with_params(&model, params).unwrap(),
            &RunOptions::default(),
        )
        .unwrap();
        assert_eq!(r.reason.kind, ReasonKind::When);
        assert_eq!(r.reason.clause.as_deref(), Some("x[1] < 0 m ∧ t > 0 s"));
        let (s, c) = angle.to_radians().sin_cos();
        let flight = 2.0 * 30.0 * s / g0;
        assert!(
            (r.final_t() - flight).abs() < 1e-6,
            "{} vs {flight}",
            r.final_t()
        );
        assert!((r.final_state()[0] - 30.0 * c * flight).abs() < 1e-5);
    }
}

const BALL: &str = "simulate BouncingBall {
  param e : Dimensionless = 0.8
  state y : Length = 10 m
  state y' : Velocity = 0 m/s
  law y'' = −g₀
  on y < 0 m ∧ y' < 0 m/s do y' ≔ −e·y'
  integrate rk45 tolerance 1e-12
  observe height ≔ y
  stop when t ≥ 5 s
}
";

#[test]
fn bouncing_ball_bounces_at_the_exact_times() {
    let model = lowered(BALL, "BouncingBall").unwrap();
    assert_eq!(model.dynamics.pairs, vec![(0, 1)]);
    assert_eq!(model.resets.len(), 1);
    let r = run(&model);
    assert_eq!(r.reason.kind, ReasonKind::When);
    // Piecewise parabolas: the first bounce at √(2h/g), the next 2·e·v₁/g later.
    let g: f64 = 9.80665;
    let t1 = (2.0 * 10.0 / g).sqrt();
    let v1 = g * t1;
    let t2 = t1 + 2.0 * 0.8 * v1 / g;
    let (y, v) = (r.final_state()[0], r.final_state()[1]);
    let (dt, v2) = (5.0 - t2, 0.8 * 0.8 * v1);
    assert!(t2 < 5.0 && t2 + 2.0 * v2 / g > 5.0);
    assert!(
        (y - (v2 * dt - g * dt * dt / 2.0)).abs() < 1e-7,
        "y(5) = {y}"
    );
    assert!((v - (v2 - g * dt)).abs() < 1e-7, "v(5) = {v}");
}

/// The ball of the side-by-side anchor A3: seven bounces before t = 10 s.
const BALL_A3: &str = "simulate BouncingBall {
  param e : Dimensionless = 0.8
  param g : Acceleration = 9.81 m/s²
  state y : Length = 10 m
  state y' : Velocity = 0 m/s
  law y'' = −g
  on y < 0 m ∧ y' < 0 m/s do y' ≔ −e·y'
  integrate rk45 tolerance 1e-12
  observe height ≔ y
  stop when t ≥ 10 s
}
";

#[test]
fn the_ball_bounces_within_1e_13_s_of_the_closed_form() {
    // Both atoms are affine in the state: the locator finds the crossings from the step's
    // polynomials (`physis-runtime/src/locate/affine.rs`); this holds it to the closed form.
    let model = lowered(BALL_A3, "BouncingBall").unwrap();
    let atoms = &model.info.atoms;
    assert!(atoms.iter().all(|a| a.affine), "{atoms:?}");
    assert!(!atoms.iter().all(|a| a.time_only), "{atoms:?}");
    let mut sink = physis_runtime::Collect::default();
    let tape = TapeModel::new(&model).unwrap();
    let end = physis_runtime::run_into(tape, &RunOptions::default(), &mut sink).unwrap();
    assert_eq!(end.reason.kind, ReasonKind::When);
    let got: Vec<f64> = sink
        .0
        .iter()
        .filter(|s| s.kind == physis_runtime::SampleKind::BeforeEvent)
        .map(|s| s.t)
        .collect();
    // Drop from 10 m: t₁ = √(2h/g), v₁ = g·t₁; each flight after lasts 2·eᵏ·v₁/g.
    let (g, e) = (9.81f64, 0.8f64);
    let t1 = (2.0 * 10.0 / g).sqrt();
    let v1 = g * t1;
    let mut want = vec![t1];
    let mut v = v1;
    while want.len() < 7 {
        v *= e;
        want.push(want[want.len() - 1] + 2.0 * v / g);
    }
    assert_eq!(got.len(), 7, "{got:?}");
    for (k, (a, b)) in got.iter().zip(&want).enumerate() {
        assert!((a - b).abs() < 1e-13, "bounce {k}: {a} against {b}");
    }
}

#[test]
fn margins_that_are_not_affine_in_the_state_are_not_marked_so() {
    let src = "simulate Ring {
  state x : Length = 1 m
  state x' : Velocity = 0 m/s
  law x'' = −x·1 Hz²
  on x·x < 0.25 m² ∧ x' < 0 m/s do x' ≔ −x'
  integrate rk45 tolerance 1e-9
  stop when floor(t / 1 s) ≥ 3
}
";
    let model = lowered(src, "Ring").unwrap();
    let affine: Vec<bool> = model.info.atoms.iter().map(|a| a.affine).collect();
    // x·x < 0.25 m² (quadratic) and floor(t/1 s) ≥ 3 (a step in t) are not; x' < 0 m/s is.
    assert_eq!(affine.len(), 3);
    assert_eq!(affine.iter().filter(|&&a| a).count(), 1, "{affine:?}");
}

#[test]
fn a_floor_of_time_is_not_affine_and_its_stop_lands_on_the_jump() {
    // floor(t/1 s) ≥ 3 changes side at t = 3 s exactly; a line through a step's ends would
    // put the crossing anywhere inside the step that holds the jump.
    let src = "simulate Clock {
  state x : Length = 1 m
  law x' = 0.3 m/s
  integrate rk4 step 0.7 s
  stop when floor(t / 1 s) ≥ 3
}
";
    let model = lowered(src, "Clock").unwrap();
    assert!(model.info.atoms.iter().all(|a| !a.time_only && !a.affine));
    let r = run(&model);
    assert_eq!(r.reason.kind, ReasonKind::When, "{:?}", r.reason);
    let t = r.final_t();
    assert!((t - 3.0).abs() < 1e-12, "ended at {t}");
    let x = r.final_state()[0];
    assert!((x - 1.9).abs() < 1e-12, "x = {x}");
}

const LV: &str = "simulate LotkaVolterra {
  param a : Frequency = 0.6666666666666666 Hz
  param b : Frequency = 1.3333333333333333 Hz
  state x : Dimensionless = 1
  state y : Dimensionless = 1
  law x' = a·x − b·x·y
  law y' = −y·1 Hz + x·y·1 Hz
  integrate rk45 tolerance 1e-8
  stop when t ≥ 10 s
}

scheme heun stable 2 {
  k₁ ≔ f(t, y)
  k₂ ≔ f(t + h, y + h·k₁)
  next ≔ y + h/2·(k₁ + k₂)
}

simulate Heun {
  state x : Dimensionless = 1
  law x' = −x·1 Hz
  integrate heun step 1 ms
  stop when t ≥ 1 s
}
";

#[test]
fn lotka_volterra_from_source_matches_the_anchor() {
    let model = lowered(LV, "LotkaVolterra").unwrap();
    let r = run(&model);
    let y = r.final_state();
    assert!(
        (y[0] - 0.48914918).abs() < 1e-7 && (y[1] - 0.48439503).abs() < 1e-7,
        "{y:?}"
    );
    assert!(model.info.scheme.fsal && model.info.scheme.stages == 6);
}

#[test]
fn a_user_scheme_is_specialised_like_the_prelude() {
    let model = lowered(LV, "Heun").unwrap();
    assert_eq!(model.info.scheme.name, "heun");
    assert_eq!(model.info.scheme.stability_radius, Some(2.0));
    let r = run(&model);
    // Heun's error at h = 1 ms is about h²/6·e^{-1} ≈ 6e-8.
    assert!(
        (r.final_state()[0] - (-1.0f64).exp()).abs() < 2e-7,
        "{:?}",
        r.final_state()
    );
    assert!((r.final_t() - 1.0).abs() < 1e-9);
}

const FREE_BODY: &str = "simulate FreeBody {
  param I : MomentOfInertia[3] = [1 kg·m², 1 kg·m², 2 kg·m²]
  state ω : AngularVelocity[3] = [1 rad/s, 0 rad/s, 2 rad/s]
  law ω' = cross(I·ω, ω) / I
  integrate rk45 tolerance 1e-11
  observe energy ≔ 0.5·dot(I·ω, ω)
  conserve energy within 1e-8
  stop when t ≥ 10 s
}
";

#[test]
fn free_rigid_body_precesses_and_keeps_its_energy() {
    let model = lowered(FREE_BODY, "FreeBody").unwrap();
    assert_eq!(model.info.conserves.len(), 1);
    let r = run(&model);
    assert_eq!(r.reason.kind, ReasonKind::When);
    // Symmetric top (I₁ = I₂): ω₃ is constant, (ω₁, ω₂) turns at Ω = (I₃ − I₁)/I₁·ω₃ = 2.
    let w = r.final_state();
    let phase = -2.0 * 10.0f64;
    assert!((w[2] - 2.0).abs() < 1e-9);
    assert!(
        (w[0] - phase.cos()).abs() < 1e-7 && (w[1] + phase.sin()).abs() < 1e-7,
        "{w:?}"
    );
    let e = r.column("energy").unwrap();
    assert!(e.iter().all(|x| (x - 4.5).abs() < 1e-8));
}

#[test]
fn unsupported_features_are_refused_not_panicked() {
    // Fields lower (tests/grids.rs, periodic beside fields with ends included), but not a
    // stencil of an expression over a field with a non-zero Neumann gradient.
    let heat = "simulate HeatedRod {
  param α : Diffusivity = 0.01 m²/s
  grid (x) : Length[51] from 0 m to 1 m
  field u : Temperature = 0 K
  boundary u neumann 1 K/m
  law u' = α·laplacian(u·u/1 K)
  integrate backwardEuler step 10 s
  stop when t ≥ 100 s
}
";
    // Lagrangian and hamiltonian mechanics lower too: see tests/mechanics.rs. The checker
    // refuses the construct itself (PH0120, issue 27) so that `physis check` reports it
    // without lowering the grid; lowering still refuses it, with the same code.
    let checked = physis_check::check_source(heat);
    let codes: Vec<_> = checked.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, [physis_syntax::Code::NotYetSupported]);
    let model = checked.program.model("HeatedRod").unwrap();
    let e = lower(model).unwrap_err();
    assert!(matches!(e, LowerError::NotYetSupported { .. }), "{e}");
    assert_eq!(
        e.to_diagnostic(model).code,
        physis_syntax::Code::NotYetSupported
    );
}

#[test]
fn ornstein_uhlenbeck_splits_drift_and_diffusion() {
    let src = "simulate OrnsteinUhlenbeck {
  param γ : Frequency = 1 Hz
  param σ : Velocity = 1 m/s
  state v : Velocity = 0 m/s
  noise w
  law v' = −γ·v + σ·√γ·w
  integrate eulerMaruyama step 10 ms
  stop when t ≥ 10 s
}
";
    let model = lowered(src, "OrnsteinUhlenbeck").unwrap();
    assert!(model.info.scheme.stochastic);
    let mut m = TapeModel::new(&model).unwrap();
    use physis_runtime::{Model, StepArgs, StepOut};
    // next = v − γ·v·h + σ·√γ·dW exactly.
    let (y, mut f0, mut next) = ([0.5], [0.0], [0.0]);
    m.rate(0.0, &y, &mut f0);
    assert_eq!(f0[0], -0.5);
    m.step(
        &StepArgs {
            t: 0.0,
            h: 0.01,
            y: &y,
            f0: &f0,
            dw: &[0.2],
        },
        StepOut {
            next: &mut next,
            err: None,
            f1: None,
            dense: None,
        },
    );
    assert!(
        (next[0] - (0.5 - 0.5 * 0.01 + 0.2)).abs() < 1e-15,
        "{next:?}"
    );
}
