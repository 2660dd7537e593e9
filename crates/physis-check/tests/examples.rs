//! Every bundled example and every example of the manual checks clean, and the checked models
//! carry what a run needs.

use physis_check::{Checked, ExprKind, LawOrder, Motion, Shape, Value, check_source};
use physis_syntax::render::render_text;

fn example(name: &str) -> (String, Checked) {
    let path = format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).unwrap();
    let checked = check_source(&src);
    assert!(
        checked.diagnostics.is_empty(),
        "{name}:\n{}",
        render_text(&checked.diagnostics, name, &src)
    );
    (src, checked)
}

#[test]
fn every_example_checks_clean() {
    let dir = format!("{}/../../examples", env!("CARGO_MANIFEST_DIR"));
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "hph") {
            example(path.file_name().unwrap().to_str().unwrap());
            n += 1;
        }
    }
    assert!(n >= 11, "only {n} examples");
}

#[test]
fn projectile_is_resolved_and_in_si() {
    let (_, checked) = example("projectile.hph");
    let m = checked.program.model("Projectile").unwrap();
    let alpha = m.param("α").unwrap();
    // 45 deg is π/4 rad; 30 m/s stays 30.
    assert_eq!(
        m.params[alpha.0].default,
        Value::Scalar(std::f64::consts::FRAC_PI_4)
    );
    assert_eq!(m.param("v0"), m.param("v₀"));
    let x = m.state("x").unwrap();
    assert_eq!(m.states[x.0].shape, Shape::Vector(2));
    assert_eq!(m.record_every, Some(0.01));
    assert_eq!(m.integrate.scheme.name, "rk45");
    assert_eq!(m.integrate.tolerance, Some(1e-9));
    assert_eq!(m.stops[0].text, "x[1] < 0 m ∧ t > 0 s");
    assert_eq!(m.stops[0].line, 14);
    assert_eq!(m.observes.len(), 2);
    assert_eq!(m.runs[0].name, "Steep");
    match &m.runs[0].overrides[..] {
        [(id, Value::Scalar(v))] => {
            assert_eq!(*id, alpha);
            assert!((v - 70f64.to_radians()).abs() < 1e-15);
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(m.states[x.0].motion, Motion::Law(0)));
    assert_eq!(m.laws[1].order, LawOrder::First);
}

#[test]
fn second_order_and_lagrangian_relations() {
    let (_, checked) = example("bouncing_ball.hph");
    let m = &checked.program.models[0];
    let (y, v) = (m.state("y").unwrap(), m.state("y'").unwrap());
    assert_eq!(m.states[v.0].velocity_of, Some(y));
    assert_eq!(m.states[y.0].motion, Motion::Kinematic(v));
    assert_eq!(m.laws[0].order, LawOrder::Second);
    assert_eq!((m.laws[0].target, m.laws[0].coordinate), (v, y));
    assert_eq!(m.events[0].resets[0].state, v);

    let (_, checked) = example("cart_pendulum.hph");
    let m = &checked.program.models[0];
    let s_dot = m.state("s'").unwrap();
    assert_eq!(m.states[s_dot.0].motion, Motion::Lagrangian);
    assert_eq!(m.integrate.step, Some(0.001));
    assert!(m.mechanics.lagrangian.is_some());
    assert!(matches!(m.observes[0].expr.kind, ExprKind::Hamiltonian));
    assert_eq!(m.conserves[0].within, 1e-6);
}

#[test]
fn motor_fields_noise_and_user_schemes() {
    let (_, checked) = example("dc_motor.hph");
    let m = &checked.program.models[0];
    assert_eq!(m.mechanics.efforts.len(), 2);
    let l = m.param("L").unwrap();
    assert_eq!(m.params[l.0].default, Value::Scalar(0.5e-3));

    let (_, checked) = example("heated_rod.hph");
    let m = &checked.program.models[0];
    let grid = m.grid.as_ref().unwrap();
    assert_eq!(
        (grid.sizes.clone(), grid.from.clone(), grid.to.clone()),
        (vec![51], vec![0.0], vec![1.0])
    );
    let u = m.state("u").unwrap();
    assert!(m.states[u.0].is_field);
    assert_eq!(m.state_len(u), 51);

    let (_, checked) = example("ornstein_uhlenbeck.hph");
    let m = &checked.program.models[0];
    assert_eq!(m.noises.len(), 1);
    assert!(m.integrate.scheme.stochastic);
    assert_eq!(m.integrate.seed, Some(42));

    let (_, checked) = example("heun.hph");
    let m = &checked.program.models[0];
    assert_eq!(m.integrate.scheme.name, "heun");
    assert!(!m.integrate.scheme.builtin);
    assert_eq!(m.integrate.scheme.stable, Some(2.0));
}
