//! `simulate` takes the exact affine fast path (issue 26 item 6). Regression for the failure
//! named in the issue: the E1 spring with drag over JSON Lines stepped one reduced rational at
//! a time and needed 32 s to reach the 65,536-bit limit at step 4,072; it must refuse at that
//! same step (the step the stepwise path gave), and a sampled run must give the rationals of
//! the library's own fast evolution.

use centl_physics::dims::{DRAG, LENGTH, MASS, STIFFNESS, TIME, VELOCITY};
use centl_physics::{ForceModel, HookeSpring, LinearDrag, Particle, Vec3, symplectic_euler};
use centl_protocol::{Limits, ProtocolError, dispatch};
use exact::Rational;
use serde_json::{Value, json};
use units::Quantity;

fn q(v: &str, u: &str) -> Value {
    json!({"value": v, "unit": u})
}

fn e1(steps: u64, stride: Option<u64>) -> Value {
    let mut args = json!({
        "particle": {"id": "p", "mass": q("7", "kg"),
                     "position": {"value": ["1", "0", "0"], "unit": "m"},
                     "velocity": {"value": ["0", "1", "0"], "unit": "m/s"}},
        "forces": [
            {"kind": "spring", "anchor": {"value": ["0", "0", "0"], "unit": "m"}, "stiffness": q("3", "N/m")},
            {"kind": "drag", "coefficient": q("1/5", "kg/s")},
        ],
        "dt": q("1/100", "s"),
        "steps": steps,
    });
    if let Some(s) = stride {
        args["stride"] = json!(s);
    }
    args
}

#[test]
fn e1_spring_with_drag_reaches_the_bit_limit_at_step_4072() {
    let err = dispatch("simulate", Some(&e1(5000, None)), &Limits::default()).unwrap_err();
    match err {
        ProtocolError::RationalTooLarge { step, bits, .. } => {
            assert_eq!(step, 4072);
            assert_eq!(bits, 65542);
        }
        other => panic!("expected rational_too_large, got {other:?}"),
    }
}

#[test]
fn sampled_e1_matches_the_library_run() {
    let out = dispatch("simulate", Some(&e1(300, Some(100))), &Limits::default()).unwrap();
    let r = |s: &str| s.parse::<Rational>().unwrap();
    let p = Particle::new(
        "p",
        &Quantity::new(r("7"), MASS),
        Vec3::new(r("1"), r("0"), r("0"), LENGTH),
        Vec3::new(r("0"), r("1"), r("0"), VELOCITY),
    )
    .unwrap();
    let zero = Quantity::new(Rational::zero(), LENGTH);
    let models: Vec<Box<dyn ForceModel>> = vec![
        Box::new(
            HookeSpring::new(
                Vec3::new(r("0"), r("0"), r("0"), LENGTH),
                &Quantity::new(r("3"), STIFFNESS),
                &zero,
            )
            .unwrap(),
        ),
        Box::new(LinearDrag::new(&Quantity::new(r("1/5"), DRAG)).unwrap()),
    ];
    let dt = Quantity::new(r("1/100"), TIME);
    for (i, steps) in [0u64, 100, 200, 300].into_iter().enumerate() {
        let want = symplectic_euler(&p, &models, &dt, steps).unwrap().particle;
        let got = &out["trajectory"][i]["particles"][0];
        assert_eq!(out["trajectory"][i]["step"], json!(steps));
        let comps = |v: &Vec3| v.components().clone().map(|c| c.to_string());
        assert_eq!(got["position"]["value"], json!(comps(want.position())));
        assert_eq!(got["velocity"]["value"], json!(comps(want.velocity())));
    }
}
