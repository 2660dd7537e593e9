//! Motion from a lagrangian or a hamiltonian, lowered and run through the driver, against
//! independent references: the same system written as laws, closed forms, conserved
//! quantities computed by hand from the state, and finite differences of the rate.

use physis_ir::{Inputs, IrModel, LowerError, Tape, TapeModel, lower_with_source};
use physis_runtime::{Cause, ReasonKind, Run, RunOptions};

fn lowered(src: &str, name: &str) -> Result<IrModel, LowerError> {
    let checked = physis_check::check_source(src);
    assert!(!checked.has_errors(), "{name}: {:#?}", checked.diagnostics);
    lower_with_source(checked.program.model(name).expect("model"), src)
}

fn run_with(model: &IrModel, options: &RunOptions) -> Run {
    physis_runtime::run(TapeModel::new(model).unwrap(), options).unwrap()
}

fn run(model: &IrModel) -> Run {
    run_with(model, &RunOptions::default())
}

fn max_drift(col: &[f64]) -> f64 {
    col.iter().map(|x| (x - col[0]).abs()).fold(0.0, f64::max)
}

const G0: f64 = 9.80665;

#[test]
fn pendulum_from_its_lagrangian_matches_the_pendulum_as_a_law() {
    let derived = "simulate P {
  param m : Mass = 0.7 kg
  param ℓ : Length = 1.3 m
  state φ : Angle = 1.2 rad
  state φ' : AngularVelocity = 0.3 rad/s
  lagrangian ≔ 0.5·m·ℓ²·φ'² + m·g₀·ℓ·cos(φ)
  integrate rk4 step 1 ms
  observe angle ≔ φ
  observe spin ≔ φ'
  stop when t ≥ 5 s
}";
    let by_hand = "simulate P {
  param ℓ : Length = 1.3 m
  state φ : Angle = 1.2 rad
  state φ' : AngularVelocity = 0.3 rad/s
  law φ'' = −g₀/ℓ·sin(φ)
  integrate rk4 step 1 ms
  observe angle ≔ φ
  observe spin ≔ φ'
  stop when t ≥ 5 s
}";
    let a = run(&lowered(derived, "P").unwrap());
    let b = run(&lowered(by_hand, "P").unwrap());
    assert_eq!(a.time.len(), 5001);
    assert_eq!(a.time, b.time);
    for (ca, cb) in a.columns.iter().zip(&b.columns) {
        for (x, y) in ca.iter().zip(cb) {
            assert!((x - y).abs() < 1e-12, "{x} vs {y}");
        }
    }
}

const CART: &str = "simulate CartPendulum {
  param M : Mass = 2 kg
  param m : Mass = 1 kg
  param ℓ : Length = 1 m
  state s : Length = 0 m
  state s' : Velocity = 0 m/s
  state φ : Angle = 0.5 rad
  state φ' : AngularVelocity = 0 rad/s
  lagrangian ≔ 0.5·(M + m)·s'² + m·ℓ·s'·φ'·cos(φ) + 0.5·m·ℓ²·φ'² + m·g₀·ℓ·cos(φ)
  integrate rk4 step 1 ms
  observe energy ≔ hamiltonian
  observe momentum ≔ (M + m)·s' + m·ℓ·φ'·cos(φ)
  conserve energy within 1e-6
  stop when t ≥ 5 s
}";

/// The cart pendulum's energy written out by hand from its state `[s, s', φ, φ']`.
fn cart_energy(y: &[f64]) -> f64 {
    let (big_m, m, l) = (2.0, 1.0, 1.0);
    let (sd, phi, pd) = (y[1], y[2], y[3]);
    0.5 * (big_m + m) * sd * sd + m * l * sd * pd * phi.cos() + 0.5 * m * l * l * pd * pd
        - m * G0 * l * phi.cos()
}

#[test]
fn cart_pendulum_conserves_energy_over_five_thousand_rk4_steps() {
    let model = lowered(CART, "CartPendulum").unwrap();
    let r = run(&model);
    assert_eq!(r.reason.kind, ReasonKind::When, "{:?}", r.reason);
    assert_eq!(r.end.stats.steps, 5000);
    let e = r.column("energy").unwrap();
    assert!((e[0] - cart_energy(&[0.0, 0.0, 0.5, 0.0])).abs() < 1e-12);
    assert!((e[e.len() - 1] - cart_energy(r.final_state())).abs() < 1e-12);
    assert!(max_drift(e) < 1e-6 * e[0].abs().max(1.0));
    // s is cyclic: the horizontal momentum stays zero.
    let p = r.column("momentum").unwrap();
    assert!(p.iter().all(|x| x.abs() < 1e-9), "{}", max_drift(p));
    // The pendulum swings: φ goes negative somewhere.
    assert!(r.final_state()[2] < 0.5);
}

#[test]
fn coupled_mass_matrix_is_solved_and_its_tangent_matches_differences() {
    let model = lowered(CART, "CartPendulum").unwrap();
    let p = model.default_params();
    let rate = Tape::compile(&model.rate).unwrap();
    let jvp = Tape::compile(&model.rate_jvp).unwrap();
    let eval = |tape: &Tape, y: &[f64], seed: &[f64]| {
        let mut regs = tape.registers();
        let inp = Inputs {
            y,
            p: &p,
            seed,
            ..Inputs::default()
        };
        tape.run(&mut regs, &inp);
        let mut out = vec![0.0; tape.output_len()];
        tape.write(&regs, 0, &mut out);
        out
    };
    let y = [0.3, -0.4, 0.7, 1.1];
    // The accelerations against the 2×2 system solved by hand (Cramer's rule).
    let f = eval(&rate, &y, &[]);
    let (big_m, m, l) = (2.0, 1.0, 1.0);
    let (c, s) = (y[2].cos(), y[2].sin());
    let (m11, m12, m22) = (big_m + m, m * l * c, m * l * l);
    let b1 = m * l * y[3] * y[3] * s;
    let b2 = -m * G0 * l * s;
    let det = m11 * m22 - m12 * m12;
    let a1 = (b1 * m22 - m12 * b2) / det;
    let a2 = (m11 * b2 - m12 * b1) / det;
    assert_eq!(f[0], y[1]);
    assert_eq!(f[2], y[3]);
    assert!(
        (f[1] - a1).abs() < 1e-13 && (f[3] - a2).abs() < 1e-13,
        "{f:?}"
    );
    // (∂f/∂y)·eⱼ against central differences.
    for j in 0..4 {
        let mut e = [0.0; 4];
        e[j] = 1.0;
        let col = eval(&jvp, &y, &e);
        let h = 1e-6;
        let (mut yp, mut ym) = (y, y);
        yp[j] += h;
        ym[j] -= h;
        let (fp, fm) = (eval(&rate, &yp, &[]), eval(&rate, &ym, &[]));
        for i in 0..4 {
            let fd = (fp[i] - fm[i]) / (2.0 * h);
            assert!(
                (col[i] - fd).abs() < 1e-7,
                "J[{i}][{j}] = {} vs {fd}",
                col[i]
            );
        }
    }
}

#[test]
fn implicit_scheme_steps_the_coupled_cart_pendulum_through_newton() {
    // Crank–Nicolson needs ∂rate/∂y, which goes through the tangent of the solve.
    let src = CART
        .replace(
            "integrate rk4 step 1 ms",
            "integrate crankNicolson step 1 ms",
        )
        .replace("conserve energy within 1e-6", "")
        .replace("t ≥ 5 s", "t ≥ 1 s");
    let implicit = run(&lowered(&src, "CartPendulum").unwrap());
    let reference = run(&lowered(&CART.replace("t ≥ 5 s", "t ≥ 1 s"), "CartPendulum").unwrap());
    assert_eq!(
        implicit.reason.kind,
        ReasonKind::When,
        "{:?}",
        implicit.reason
    );
    for (x, y) in implicit.final_state().iter().zip(reference.final_state()) {
        assert!((x - y).abs() < 1e-5, "{x} vs {y}");
    }
}

#[test]
fn dc_motor_settles_at_the_speed_reciprocity_predicts() {
    let src = "simulate DcMotor {
  param V : Voltage = 12 V
  param R : Resistance = 1 Ω
  param L : Inductance = 0.5 mH
  param J : MomentOfInertia = 0.01 kg·m²
  param b : RotationalDrag = 0.001 N·m·s
  param k : TorqueConstant = 0.05 N·m/A
  state q : Charge = 0 C
  state q' : Current = 0 A
  state θ : Angle = 0 rad
  state θ' : AngularVelocity = 0 rad/s
  lagrangian ≔ 0.5·L·q'² + 0.5·J·θ'²
  dissipation ≔ 0.5·R·q'² + 0.5·b·θ'²
  effort q ≔ V − k·θ'
  effort θ ≔ k·q'
  integrate rk45 tolerance 1e-9
  observe speed ≔ θ'
  stop when t ≥ 60 s
}";
    let r = run(&lowered(src, "DcMotor").unwrap());
    assert_eq!(r.reason.kind, ReasonKind::When);
    let (v, res, b, k) = (12.0, 1.0, 0.001, 0.05);
    let omega = k * v / (k * k + res * b);
    let y = r.final_state();
    assert!(((y[3] - omega) / omega).abs() < 1e-6, "{} vs {omega}", y[3]);
    // The steady current carries the drag torque: k·i = b·ω.
    let current = b * omega / k;
    assert!(
        ((y[1] - current) / current).abs() < 1e-6,
        "{} vs {current}",
        y[1]
    );
}

#[test]
fn hamiltonian_oscillator_follows_the_cosine() {
    let src = "simulate Osc {
  param m : Mass = 2 kg
  param k : Stiffness = 8 N/m
  state q : Length = 1 m
  state p : Momentum conjugate q = 0 kg·m/s
  hamiltonian ≔ p²/(2·m) + 0.5·k·q²
  integrate rk4 step 1 ms
  observe energy ≔ hamiltonian
  stop when t ≥ 10 s
}";
    let r = run(&lowered(src, "Osc").unwrap());
    let w = 2.0f64; // √(k/m)
    let y = r.final_state();
    assert!((y[0] - (w * 10.0).cos()).abs() < 1e-9, "{y:?}");
    assert!((y[1] + 2.0 * w * (w * 10.0).sin()).abs() < 1e-9, "{y:?}");
    let e = r.column("energy").unwrap();
    assert!((e[0] - 4.0).abs() < 1e-15);
    assert!(max_drift(e) < 1e-10, "{}", max_drift(e));
}

#[test]
fn hamiltonian_effort_adds_to_the_momentum_rate() {
    // A constant force F on a free mass: p(t) = F·t, q(t) = F·t²/(2m).
    let src = "simulate Pushed {
  param m : Mass = 2 kg
  state q : Length = 0 m
  state p : Momentum conjugate q = 0 kg·m/s
  hamiltonian ≔ p²/(2·m)
  effort q ≔ 3 N
  integrate rk4 step 10 ms
  stop when t ≥ 2 s
}";
    let r = run(&lowered(src, "Pushed").unwrap());
    let y = r.final_state();
    assert!(
        (y[1] - 6.0).abs() < 1e-12 && (y[0] - 3.0).abs() < 1e-12,
        "{y:?}"
    );
}

/// Kepler (ANCHORS A5) as a hamiltonian: e = 0.6, period 2π.
fn kepler_hamiltonian(orbits: u32) -> String {
    format!(
        "simulate Kepler {{
  param m : Mass = 1 kg
  param μ : Dimensionless = 1
  state q : Length[2] = [0.4 m, 0 m]
  state p : Momentum[2] conjugate q = [0 kg·m/s, 2 kg·m/s]
  hamiltonian ≔ dot(p, p)/(2·m) − μ·1 J·m/norm(q)
  integrate rk4 step {} s
  observe energy ≔ hamiltonian
  observe angular ≔ q[0]·p[1] − q[1]·p[0]
  stop when t ≥ {} s
}}",
        std::f64::consts::TAU / 400.0,
        std::f64::consts::TAU * f64::from(orbits)
    )
}

/// Kepler as a lagrangian, steppable by velocity Verlet (its acceleration reads no velocity).
fn kepler_lagrangian(orbits: u32) -> String {
    format!(
        "simulate Kepler {{
  param m : Mass = 1 kg
  state q : Length[2] = [0.4 m, 0 m]
  state q' : Velocity[2] = [0 m/s, 2 m/s]
  lagrangian ≔ 0.5·m·dot(q', q') + 1 J·m/norm(q)
  integrate verlet step {} s
  observe energy ≔ hamiltonian
  observe angular ≔ m·(q[0]·q'[1] − q[1]·q'[0])
  stop when t ≥ {} s
}}",
        std::f64::consts::TAU / 400.0,
        std::f64::consts::TAU * f64::from(orbits)
    )
}

#[test]
fn kepler_rk4_drifts_slowly_and_keeps_its_orbit() {
    let r = run(&lowered(&kepler_hamiltonian(10), "Kepler").unwrap());
    assert_eq!(r.reason.kind, ReasonKind::When);
    let e = r.column("energy").unwrap();
    // H = |p|²/2 − 1/|q| = 2 − 2.5.
    assert!((e[0] + 0.5).abs() < 1e-15);
    let drift = max_drift(e);
    assert!(drift > 0.0 && drift < 1e-5, "{drift}");
    let l = r.column("angular").unwrap();
    assert!((l[0] - 0.8).abs() < 1e-15 && max_drift(l) < 1e-5);
    // After ten periods the body is back near perihelion (0.4, 0).
    let y = r.final_state();
    assert!((y[0] - 0.4).abs() < 1e-3 && y[1].abs() < 1e-2, "{y:?}");
}

#[test]
fn kepler_verlet_keeps_energy_bounded_and_angular_momentum_exact() {
    let r = run(&lowered(&kepler_lagrangian(10), "Kepler").unwrap());
    assert_eq!(r.reason.kind, ReasonKind::When);
    let e = r.column("energy").unwrap();
    let drift = max_drift(e);
    // A5: |ΔH| ≈ 8.9e-4 at dt = 2π/400, bounded.
    assert!(drift > 1e-4 && drift < 1.5e-3, "{drift}");
    // Velocity Verlet conserves angular momentum of a central force to rounding.
    let l = r.column("angular").unwrap();
    assert!(max_drift(l) < 1e-12, "{}", max_drift(l));
}

#[test]
#[ignore = "10,000 Kepler orbits (4·10⁶ verlet steps, 64 MB of samples): seconds"]
fn kepler_verlet_stays_bounded_over_ten_thousand_orbits() {
    let r = run(&lowered(&kepler_lagrangian(10_000), "Kepler").unwrap());
    let e = r.column("energy").unwrap();
    let drift = max_drift(e);
    assert!(drift < 1.5e-3, "{drift}");
}

#[test]
#[ignore = "1,000 Kepler orbits with rk4 (4·10⁵ steps): a second or two"]
fn kepler_rk4_drift_grows_with_time() {
    let r = run(&lowered(&kepler_hamiltonian(1000), "Kepler").unwrap());
    let e = r.column("energy").unwrap();
    let n = e.len();
    let early = (e[n / 10] - e[0]).abs();
    let late = (e[n - 1] - e[0]).abs();
    // A5: about 1e-4 after 1,000 orbits, growing.
    assert!(
        late > 2e-5 && late < 5e-4 && late > 3.0 * early,
        "{early} {late}"
    );
}

#[test]
fn free_body_keeps_spin_energy_and_angular_momentum() {
    let src = "simulate FreeBody {
  param I : MomentOfInertia[3] = [1 kg·m², 1 kg·m², 2 kg·m²]
  state ω : AngularVelocity[3] = [1 rad/s, 0 rad/s, 2 rad/s]
  law ω' = cross(I·ω, ω) / I
  integrate rk45 tolerance 1e-11
  observe energy ≔ 0.5·dot(I·ω, ω)
  observe momentum ≔ norm(I·ω)
  conserve energy within 1e-8
  stop when t ≥ 10 s
}";
    let r = run(&lowered(src, "FreeBody").unwrap());
    assert_eq!(r.reason.kind, ReasonKind::When, "{:?}", r.reason);
    let y = r.final_state();
    assert!((y[2] - 2.0).abs() < 1e-12);
    let e = r.column("energy").unwrap();
    assert!((e[0] - 4.5).abs() < 1e-15 && max_drift(e) < 1e-8);
    let l = r.column("momentum").unwrap();
    assert!((l[0] - 17f64.sqrt()).abs() < 1e-14 && max_drift(l) < 1e-8);
}

#[test]
fn fast_heavy_top_precesses_at_the_gyroscopic_rate() {
    // Released with no precession, a fast top nutates at I₃ω₃/I₁ = 100 rad/s about a
    // mean precession Ω ≈ m·g·ℓ/(I₃·ω₃).
    let src = "simulate HeavyTop {
  param m : Mass = 1 kg
  param ℓ : Length = 0.2 m
  param I₁ : MomentOfInertia = 0.02 kg·m²
  param I₃ : MomentOfInertia = 0.01 kg·m²
  state ψ : Angle = 0 rad
  state ψ' : AngularVelocity = 0 rad/s
  state θ : Angle = 0.3 rad
  state θ' : AngularVelocity = 0 rad/s
  state φ : Angle = 0 rad
  state φ' : AngularVelocity = 200 rad/s
  lagrangian ≔ 0.5·I₁·(θ'² + ψ'²·sin(θ)²) + 0.5·I₃·(φ' + ψ'·cos(θ))² − m·g₀·ℓ·cos(θ)
  integrate rk45 tolerance 1e-10
  observe energy ≔ hamiltonian
  observe spin ≔ φ' + ψ'·cos(θ)
  stop when t ≥ 2 s
}";
    let r = run(&lowered(src, "HeavyTop").unwrap());
    assert_eq!(r.reason.kind, ReasonKind::When);
    let omega = 1.0 * G0 * 0.2 / (0.01 * 200.0);
    let mean = r.final_state()[0] / 2.0;
    assert!(((mean - omega) / omega).abs() < 0.03, "{mean} vs {omega}");
    // The spin about the figure axis (p_φ/I₃) and the energy are conserved.
    assert!(max_drift(r.column("spin").unwrap()) < 1e-6);
    let e = r.column("energy").unwrap();
    assert!(max_drift(e) < 1e-6 * e[0].abs());
    // The nutation stays small for a fast top.
    let th = r.final_state()[2];
    assert!((th - 0.3).abs() < 0.01, "{th}");
}

#[test]
fn the_bundled_heavy_top_conserves_its_energy() {
    let src = include_str!("../../../examples/heavy_top.hph");
    let r = run(&lowered(src, "HeavyTop").unwrap());
    assert_eq!(r.reason.kind, ReasonKind::When, "{:?}", r.reason);
}

#[test]
fn singular_mass_matrix_ends_as_diverged() {
    // M = [[1, cos y], [cos y, 1]] is singular at y = 0.
    for scheme in ["rk4 step 1 ms", "rk45 tolerance 1e-8"] {
        let src = format!(
            "simulate S {{
  param m : Mass = 1 kg
  state x : Length = 0 m
  state x' : Velocity = 0 m/s
  state y : Angle = 0 rad
  state y' : AngularVelocity = 1 rad/s
  lagrangian ≔ 0.5·m·x'² + m·1 m·x'·y'·cos(y) + 0.5·m·1 m²·y'² − 0.5·m·1 m²/s²·y²
  integrate {scheme}
  stop when t ≥ 1 s
}}"
        );
        let r = run(&lowered(&src, "S").unwrap());
        assert_eq!(r.reason.kind, ReasonKind::Diverged, "{scheme}");
        assert_eq!(r.reason.cause, Cause::NonFinite, "{scheme}");
        assert_eq!(r.final_t(), 0.0);
    }
    // Singular everywhere but no row is zero: M = m·[[1, 1], [1, 1]].
    let src = "simulate S {
  param m : Mass = 1 kg
  state x : Length = 0 m
  state x' : Velocity = 1 m/s
  state y : Length = 0 m
  state y' : Velocity = 0 m/s
  lagrangian ≔ 0.5·m·(x' + y')² − 0.5·m·1 s^-2·x²
  integrate rk4 step 1 ms
  stop when t ≥ 1 s
}";
    let r = run(&lowered(src, "S").unwrap());
    assert_eq!(r.reason.kind, ReasonKind::Diverged);
}

#[test]
fn derivation_failures_are_diagnostics_with_spans() {
    // The lagrangian never reads y': its mass matrix has a zero row (PH0115).
    let src = "simulate S {
  state x : Length = 0 m
  state x' : Velocity = 1 m/s
  state y : Length = 0 m
  state y' : Velocity = 0 m/s
  lagrangian ≔ 0.5·1 kg·x'² − 0.5·1 kg/s²·y²
  integrate rk4 step 1 ms
  stop when t ≥ 1 s
}";
    let e = lowered(src, "S").unwrap_err();
    let LowerError::Symbolic { diagnostic } = e else {
        panic!("{e}");
    };
    assert_eq!(diagnostic.code.as_str(), "PH0115");
    let at = diagnostic.primary.span.text(src);
    assert!(at.starts_with("0.5·1 kg·x'²"), "{at}");
    assert!(
        diagnostic.message.contains("velocity of `y`"),
        "{}",
        diagnostic.message
    );

    // Verlet needs an acceleration that reads no velocity (PH0102).
    let src = "simulate S {
  state x : Length = 1 m
  state x' : Velocity = 0 m/s
  lagrangian ≔ 0.5·1 kg/m²·(1 m² + x²)·x'²
  integrate verlet step 1 ms
  stop when t ≥ 1 s
}";
    let e = lowered(src, "S").unwrap_err();
    let LowerError::Symbolic { diagnostic } = e else {
        panic!("{e}");
    };
    assert_eq!(diagnostic.code.as_str(), "PH0102");
}

#[test]
fn a_kink_in_the_lagrangian_is_ph0112_from_the_checker() {
    let src = "simulate S {
  state x : Length = 1 m
  state x' : Velocity = 0 m/s
  lagrangian ≔ 0.5·1 kg·x'² − 1 N·abs(x)
  integrate rk4 step 1 ms
  stop when t ≥ 1 s
}";
    let checked = physis_check::check_source(src);
    let codes: Vec<&str> = checked
        .diagnostics
        .iter()
        .map(|d| d.code.as_str())
        .collect();
    assert!(codes.contains(&"PH0112"), "{codes:?}");
}
