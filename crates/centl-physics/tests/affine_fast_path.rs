//! The fast exact path for affine forces must give exactly the rationals of step-by-step
//! stepping: the same particle, bit for bit, for random springs, drags, gravity and constants.

use centl_physics::dims::{ACCELERATION, DRAG, FORCE, LENGTH, MASS, STIFFNESS, TIME, VELOCITY};
use centl_physics::{
    ConstantForce, ForceModel, HookeSpring, LinearDrag, Particle, UniformGravity, Vec3, World,
    evolve_world_symplectic_euler, symplectic_euler, symplectic_euler_general,
};
use exact::Rational;
use proptest::prelude::*;
use units::Quantity;

fn r(n: i64, d: i64) -> Rational {
    Rational::new(n, d).unwrap()
}

fn vec3(v: [(i64, i64); 3], dim: units::Dimension) -> Vec3 {
    Vec3::new(r(v[0].0, v[0].1), r(v[1].0, v[1].1), r(v[2].0, v[2].1), dim)
}

fn component() -> impl Strategy<Value = (i64, i64)> {
    (-50i64..50, 1i64..20)
}

fn triple() -> impl Strategy<Value = [(i64, i64); 3]> {
    [component(), component(), component()]
}

fn models(
    k: (i64, i64),
    b: (i64, i64),
    g: [(i64, i64); 3],
    c: [(i64, i64); 3],
    anchor: [(i64, i64); 3],
    which: u8,
) -> Vec<Box<dyn ForceModel>> {
    let mut m: Vec<Box<dyn ForceModel>> = Vec::new();
    if which & 1 != 0 {
        let k = Quantity::new(r(k.0.abs(), k.1), STIFFNESS);
        let zero = Quantity::new(Rational::zero(), LENGTH);
        m.push(Box::new(
            HookeSpring::new(vec3(anchor, LENGTH), &k, &zero).unwrap(),
        ));
    }
    if which & 2 != 0 {
        m.push(Box::new(
            LinearDrag::new(&Quantity::new(r(b.0.abs(), b.1), DRAG)).unwrap(),
        ));
    }
    if which & 4 != 0 {
        m.push(Box::new(
            UniformGravity::new(vec3(g, ACCELERATION)).unwrap(),
        ));
    }
    if which & 8 != 0 {
        m.push(Box::new(ConstantForce::new(vec3(c, FORCE)).unwrap()));
    }
    m
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn fast_path_equals_step_by_step(
        mass in (1i64..30, 1i64..10),
        x in triple(), v in triple(), g in triple(), c in triple(), anchor in triple(),
        k in (0i64..20, 1i64..5), b in (0i64..10, 1i64..7),
        dt in (1i64..5, 1i64..200),
        which in 0u8..16,
        steps in 0u64..40,
    ) {
        let p = Particle::new(
            "p",
            &Quantity::new(r(mass.0, mass.1), MASS),
            vec3(x, LENGTH),
            vec3(v, VELOCITY),
        ).unwrap();
        let forces = models(k, b, g, c, anchor, which);
        let dt = Quantity::new(r(dt.0, dt.1), TIME);
        let fast = symplectic_euler(&p, &forces, &dt, steps).unwrap();
        let slow = symplectic_euler_general(&p, &forces, &dt, steps).unwrap();
        prop_assert_eq!(&fast, &slow);
        let twin = Particle::new("q", &p.mass_quantity(), p.position().clone(), vec3(c, VELOCITY)).unwrap();
        let world = World::new(vec![p.clone(), twin]).unwrap();
        let w = evolve_world_symplectic_euler(&world, &forces, &dt, steps).unwrap();
        prop_assert_eq!(&w.world.particles()[0], &fast.particle);
        prop_assert_eq!(&w.time, &fast.time);
    }
}

/// ANCHORS E1 (spring with drag) at 200 steps through both paths.
#[test]
fn spring_with_drag_matches_reference_path() {
    let p = Particle::new(
        "p",
        &Quantity::new(7.into(), MASS),
        Vec3::new(r(1, 1), r(1, 2), r(-1, 3), LENGTH),
        Vec3::new(r(0, 1), r(1, 1), r(1, 4), VELOCITY),
    )
    .unwrap();
    let zero = Quantity::new(Rational::zero(), LENGTH);
    let forces: Vec<Box<dyn ForceModel>> = vec![
        Box::new(
            HookeSpring::new(
                Vec3::zero(LENGTH),
                &Quantity::new(3.into(), STIFFNESS),
                &zero,
            )
            .unwrap(),
        ),
        Box::new(LinearDrag::new(&Quantity::new(r(1, 5), DRAG)).unwrap()),
    ];
    let dt = Quantity::new(r(1, 100), TIME);
    let fast = symplectic_euler(&p, &forces, &dt, 200).unwrap();
    let slow = symplectic_euler_general(&p, &forces, &dt, 200).unwrap();
    assert_eq!(fast, slow);
    // Bit growth is ~16 bits per step whichever path computed it.
    let bits = fast.particle.position().max_bits();
    assert!((3000..3500).contains(&bits), "{bits}");
}
