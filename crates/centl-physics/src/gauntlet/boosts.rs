//! Galilean boosts of a trajectory: under forces that do not depend on velocity or position
//! (gravity, constant forces), adding `u` to the initial velocity adds `u` to every velocity and
//! `N h u` to the position after `N` steps (`v' = v + h F/m` and `x' = x + h v'` are linear).

use super::algebra::{add, bare, expect_eq, scale};
use super::rng::Gen;
use crate::dims::{ACCELERATION, FORCE, LENGTH, MASS, TIME, VELOCITY};
use crate::{ConstantForce, ForceModel, Particle, UniformGravity, Vec3, symplectic_euler};
use exact::Rational;
use units::Quantity;

fn refused(e: crate::PhysicsError) -> String {
    format!("engine refused a valid input: {e}")
}

/// A boosted gravity run is the run boosted.
pub fn boost_gravity_run(g: &mut Gen) -> Result<(), String> {
    let m = Quantity::new(g.positive(20, 6), MASS);
    let x0 = g.triple(10, 4);
    let v0 = g.triple(10, 4);
    let u = g.triple(10, 4);
    let h = g.positive(3, 10);
    let steps = g.int(1, 40) as u64;
    let models: Vec<Box<dyn ForceModel>> = vec![
        Box::new(UniformGravity::new(g.vec3(10, 3, ACCELERATION)).map_err(refused)?),
        Box::new(ConstantForce::new(g.vec3(10, 3, FORCE)).map_err(refused)?),
    ];
    let dt = Quantity::new(h.clone(), TIME);
    let start = |v: &[Rational; 3]| {
        Particle::new(
            "p",
            &m,
            Vec3::from_components(x0.clone(), LENGTH),
            Vec3::from_components(v.clone(), VELOCITY),
        )
        .map_err(refused)
    };
    let rest = symplectic_euler(&start(&v0)?, &models, &dt, steps).map_err(refused)?;
    let moving = symplectic_euler(&start(&add(&v0, &u))?, &models, &dt, steps).map_err(refused)?;
    expect_eq(
        "velocity boosted by u",
        &bare(moving.particle.velocity()),
        &add(&bare(rest.particle.velocity()), &u),
    )?;
    expect_eq(
        "position shifted by N h u",
        &bare(moving.particle.position()),
        &add(
            &bare(rest.particle.position()),
            &scale(&(Rational::from(steps) * &h), &u),
        ),
    )
}
