//! The manual's mechanics examples, checked by physis-check and lowered here: the derived
//! equations must match the textbook ones numerically.

use physis_symbolic::{
    Acceleration, Bindings, DerivedMotion, Graph, Kinks, Lowering, Symbol, Value,
};

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
  conserve energy within 1e-6
  stop when t ≥ 5 s
}
";

const MOTOR: &str = "simulate DcMotor {
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
}
";

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

fn checked(src: &str) -> physis_check::CheckedModel {
    let c = physis_check::check_source(src);
    assert!(!c.has_errors(), "{:?}", c.diagnostics);
    c.program.models.into_iter().next().expect("one model")
}

/// Bind every param to its default and every state to `values[state]` (scalars only).
fn bind(model: &physis_check::CheckedModel, low: &Lowering, states: &[f64]) -> Bindings {
    let mut b = Bindings::new();
    for (i, p) in model.params.iter().enumerate() {
        let id = low.param(physis_check::ParamId(i)).unwrap();
        b.set_all(id, p.default.components());
    }
    for (i, v) in states.iter().enumerate() {
        let id = low.state(physis_check::StateId(i)).unwrap();
        b.set(Symbol { id, component: 0 }, *v);
    }
    b
}

#[test]
fn cart_pendulum_from_source() {
    let model = checked(CART);
    let mut low = Lowering::new(&model);
    let Some(DerivedMotion::Lagrange {
        coordinates,
        equations,
        ..
    }) = low.motion().unwrap()
    else {
        panic!("a lagrangian model");
    };
    assert_eq!(coordinates.len(), 2);
    assert_eq!(equations.acceleration, Acceleration::Solve);
    let (s, sd, phi, phid) = (0.3, -0.4, 0.5, 1.7);
    let b = bind(&model, &low, &[s, sd, phi, phid]);
    let g = low.graph();
    let (mc, m, l, g0) = (2.0, 1.0, 1.0, 9.80665);
    let ev = |x| g.eval(x, &b).unwrap();
    let close = |a: f64, w: f64| (a - w).abs() < 1e-12 * (1.0 + w.abs());
    assert!(close(ev(equations.mass[0][0]), mc + m));
    assert!(close(ev(equations.mass[0][1]), m * l * phi.cos()));
    assert!(close(ev(equations.mass[1][1]), m * l * l));
    assert!(close(
        ev(equations.force[0]),
        m * l * phid * phid * phi.sin()
    ));
    assert!(close(ev(equations.force[1]), -m * g0 * l * phi.sin()));
    // `observe energy ≔ hamiltonian` reads the energy.
    let obs = model.observes[0].expr.clone();
    let e = low.expr(&obs).unwrap();
    let Value::Scalar(e) = e else {
        panic!("scalar energy")
    };
    let want =
        0.5 * (mc + m) * sd * sd + m * l * sd * phid * phi.cos() + 0.5 * m * l * l * phid * phid
            - m * g0 * l * phi.cos();
    assert!(close(low.graph().eval(e, &b).unwrap(), want));
}

#[test]
fn dc_motor_from_source_settles_at_the_textbook_speed() {
    let model = checked(MOTOR);
    let mut low = Lowering::new(&model);
    let Some(DerivedMotion::Lagrange { equations, .. }) = low.motion().unwrap() else {
        panic!("a lagrangian model");
    };
    let Acceleration::Explicit(a) = &equations.acceleration else {
        panic!("diagonal mass matrix");
    };
    let (v, r, bd, k) = (12.0, 1.0, 0.001, 0.05);
    let omega = k * v / (k * k + r * bd);
    let current = bd * omega / k;
    let b = bind(&model, &low, &[0.0, current, 0.0, omega]);
    for x in a {
        assert!(low.graph().eval(*x, &b).unwrap().abs() < 1e-9);
    }
}

#[test]
fn euler_equations_lower_as_one_vector_law() {
    let model = checked(FREE_BODY);
    let mut low = Lowering::new(&model);
    let rhs = low.expr(&model.laws[0].rhs).unwrap();
    assert_eq!(rhs.len(), 3);
    let w = [0.3, -1.1, 2.0];
    let inertia = [1.0, 1.5, 2.0];
    let mut b = Bindings::new();
    b.set_all(low.param(physis_check::ParamId(0)).unwrap(), &inertia);
    b.set_all(low.state(physis_check::StateId(0)).unwrap(), &w);
    let got = low.graph().eval_many(rhs.components(), &b).unwrap();
    // I₁ω̇₁ = (I₂ − I₃)ω₂ω₃ and cyclic.
    let want = [
        (inertia[1] - inertia[2]) * w[1] * w[2] / inertia[0],
        (inertia[2] - inertia[0]) * w[2] * w[0] / inertia[1],
        (inertia[0] - inertia[1]) * w[0] * w[1] / inertia[2],
    ];
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() < 1e-12, "{got:?} vs {want:?}");
    }
    // Each component of Euler's equations reads the other two components of ω, not its own.
    let omega = low.state(physis_check::StateId(0)).unwrap();
    let vars: Vec<_> = (0..3)
        .map(|c| {
            Symbol {
                id: omega,
                component: c,
            }
            .into()
        })
        .collect();
    let g: &mut Graph = low.graph_mut();
    let pattern = g.sparsity(rhs.components(), &vars);
    assert_eq!(pattern.row(0), &[1, 2]);
    let jac = g.jacobian(rhs.components(), &vars, Kinks::Refuse).unwrap();
    assert_eq!(jac[0][0], Graph::ZERO);
}

const OSCILLATOR: &str = "simulate Oscillator {
  param m : Mass = 2 kg
  param k : Stiffness = 8 N/m
  state q : Length = 1 m
  state p : Momentum conjugate q = 0 kg·m/s
  hamiltonian ≔ p²/(2·m) + 0.5·k·q²
  effort q ≔ −0.1 N
  integrate rk4 step 1 ms
  observe energy ≔ hamiltonian
  stop when t ≥ 1 s
}
";

#[test]
fn hamiltonian_from_source_with_an_effort() {
    let model = checked(OSCILLATOR);
    let mut low = Lowering::new(&model);
    let Some(DerivedMotion::Hamilton {
        positions,
        momenta,
        equations,
    }) = low.motion().unwrap()
    else {
        panic!("a hamiltonian model");
    };
    assert_eq!((positions.len(), momenta.len()), (1, 1));
    let b = bind(&model, &low, &[0.7, 3.0]);
    let g = low.graph();
    let qdot = g.eval(equations.position_rates[0], &b).unwrap();
    let pdot = g.eval(equations.momentum_rates[0], &b).unwrap();
    assert!((qdot - 3.0 / 2.0).abs() < 1e-12);
    assert!((pdot - (-8.0 * 0.7 - 0.1)).abs() < 1e-12);
    assert_eq!(g.to_unicode(equations.position_rates[0]), "p/m");
}
