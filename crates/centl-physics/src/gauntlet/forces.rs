//! Superposition of forces, drag's geometric law and the closed form of a constant force, each
//! derived by hand from the step `v' = v + h F/m`, `x' = x + h v'`.
//!
//! - Superposition: the net force of gravity `g`, a constant force `F`, a spring (`k`, anchor
//!   `a`) and drag `b` is `m g + F − k(x − a) − b v`, whatever their order.
//! - Constant total force `F = F₁ + F₂ + m g` on every particle of a world: `v_N = v₀ + N h F/m`,
//!   `x_N = x₀ + N h v₀ + h² (F/m) N(N+1)/2`, so the world's momentum grows by `N h Σ F`.
//! - Drag alone, `r = 1 − hb/m`: `v_N = rᴺ v₀` and `x_N = x₀ + h v₀ (r + r² + … + rᴺ)`, the sum
//!   taken in closed form `r(1 − rᴺ)/(1 − r)`.

use super::algebra::{R3, add, bare, div, expect_eq, power, scale, sub};
use super::rng::Gen;
use crate::dims::{ACCELERATION, DRAG, FORCE, LENGTH, MASS, STIFFNESS, TIME, VELOCITY};
use crate::{
    ConstantForce, ForceModel, HookeSpring, LinearDrag, Particle, UniformGravity, World,
    evolve_world_symplectic_euler, net_force, symplectic_euler,
};
use exact::Rational;
use units::Quantity;

fn refused(e: crate::PhysicsError) -> String {
    format!("engine refused a valid input: {e}")
}

/// The net force of four models equals the hand sum, for the models in a random order.
pub fn superposition_of_forces(g: &mut Gen) -> Result<(), String> {
    let m = g.positive(20, 6);
    let x = g.triple(10, 4);
    let v = g.triple(10, 4);
    let grav = g.triple(10, 3);
    let f = g.triple(10, 3);
    let anchor = g.triple(10, 4);
    let k = g.positive(20, 5);
    let b = g.positive(10, 5);
    let time = g.positive(10, 3);
    let p = Particle::new(
        "p",
        &Quantity::new(m.clone(), MASS),
        crate::Vec3::from_components(x.clone(), LENGTH),
        crate::Vec3::from_components(v.clone(), VELOCITY),
    )
    .map_err(refused)?;
    let mut models: Vec<Box<dyn ForceModel>> = vec![
        Box::new(
            UniformGravity::new(crate::Vec3::from_components(grav.clone(), ACCELERATION))
                .map_err(refused)?,
        ),
        Box::new(
            ConstantForce::new(crate::Vec3::from_components(f.clone(), FORCE)).map_err(refused)?,
        ),
        Box::new(
            HookeSpring::new(
                crate::Vec3::from_components(anchor.clone(), LENGTH),
                &Quantity::new(k.clone(), STIFFNESS),
                &Quantity::new(Rational::zero(), LENGTH),
            )
            .map_err(refused)?,
        ),
        Box::new(LinearDrag::new(&Quantity::new(b.clone(), DRAG)).map_err(refused)?),
    ];
    // A random rotation of the order: superposition must not depend on it.
    let turn = g.int(0, 3) as usize;
    models.rotate_left(turn);
    let engine = net_force(&models, &p, &time).map_err(refused)?;
    let hand = sub(
        &add(&scale(&m, &grav), &f),
        &add(&scale(&k, &sub(&x, &anchor)), &scale(&b, &v)),
    );
    expect_eq("net force m g + F − k(x − a) − b v", &bare(&engine), &hand)
}

/// A world under two constant forces and gravity follows the closed form; its momentum grows
/// by `N h Σ F`.
pub fn constant_force_closed_form(g: &mut Gen) -> Result<(), String> {
    let n_particles = g.int(1, 4) as usize;
    let h = g.positive(3, 10);
    let steps = g.int(1, 40) as u64;
    let grav = g.triple(10, 3);
    let f1 = g.triple(10, 3);
    let f2 = g.triple(10, 3);
    let mut particles = Vec::new();
    let mut start: Vec<(Rational, R3, R3)> = Vec::new();
    for i in 0..n_particles {
        let m = g.positive(20, 6);
        let x = g.triple(10, 4);
        let v = g.triple(10, 4);
        particles.push(
            Particle::new(
                format!("p{i}"),
                &Quantity::new(m.clone(), MASS),
                crate::Vec3::from_components(x.clone(), LENGTH),
                crate::Vec3::from_components(v.clone(), VELOCITY),
            )
            .map_err(refused)?,
        );
        start.push((m, x, v));
    }
    let world = World::new(particles).map_err(refused)?;
    let models: Vec<Box<dyn ForceModel>> = vec![
        Box::new(
            ConstantForce::new(crate::Vec3::from_components(f1.clone(), FORCE)).map_err(refused)?,
        ),
        Box::new(
            UniformGravity::new(crate::Vec3::from_components(grav.clone(), ACCELERATION))
                .map_err(refused)?,
        ),
        Box::new(
            ConstantForce::new(crate::Vec3::from_components(f2.clone(), FORCE)).map_err(refused)?,
        ),
    ];
    let out =
        evolve_world_symplectic_euler(&world, &models, &Quantity::new(h.clone(), TIME), steps)
            .map_err(refused)?;
    let n = Rational::from(steps);
    let tri = div(&(&n * (&n + Rational::one())), &Rational::from(2));
    let mut p_start = [Rational::zero(), Rational::zero(), Rational::zero()];
    let mut p_end = p_start.clone();
    let mut total_force = p_start.clone();
    for ((m, x, v), p) in start.iter().zip(out.world.particles()) {
        let force = add(&add(&f1, &f2), &scale(m, &grav));
        let acc = scale(&div(&Rational::one(), m), &force);
        let v_n = add(v, &scale(&(&n * &h), &acc));
        let x_n = add(
            &add(x, &scale(&(&n * &h), v)),
            &scale(&(&h * &h * &tri), &acc),
        );
        expect_eq("velocity v₀ + N h F/m", &bare(p.velocity()), &v_n)?;
        expect_eq(
            "position x₀ + N h v₀ + h² (F/m) N(N+1)/2",
            &bare(p.position()),
            &x_n,
        )?;
        p_start = add(&p_start, &scale(m, v));
        p_end = add(&p_end, &scale(p.mass(), &bare(p.velocity())));
        total_force = add(&total_force, &force);
    }
    expect_eq(
        "world momentum P₀ + N h ΣF",
        &p_end,
        &add(&p_start, &scale(&(&n * &h), &total_force)),
    )
}

/// Drag alone: `v_N = rᴺ v₀`, `x_N = x₀ + h v₀ r(1 − rᴺ)/(1 − r)` with `r = 1 − hb/m`.
pub fn drag_geometric_law(g: &mut Gen) -> Result<(), String> {
    let m = g.positive(20, 6);
    let b = g.positive(10, 6);
    let h = g.positive(3, 10);
    let steps = g.int(1, 30) as u64;
    let x0 = g.triple(10, 4);
    let v0 = g.triple(10, 4);
    let p = Particle::new(
        "p",
        &Quantity::new(m.clone(), MASS),
        crate::Vec3::from_components(x0.clone(), LENGTH),
        crate::Vec3::from_components(v0.clone(), VELOCITY),
    )
    .map_err(refused)?;
    let models: Vec<Box<dyn ForceModel>> = vec![Box::new(
        LinearDrag::new(&Quantity::new(b.clone(), DRAG)).map_err(refused)?,
    )];
    let out =
        symplectic_euler(&p, &models, &Quantity::new(h.clone(), TIME), steps).map_err(refused)?;
    let r = Rational::one() - div(&(&h * &b), &m);
    let r_n = power(&r, steps);
    // b > 0 and h > 0, so r ≠ 1 and the geometric sum has its closed form.
    let sum = div(&(&r * (Rational::one() - &r_n)), &(Rational::one() - &r));
    expect_eq(
        "velocity rᴺ v₀",
        &bare(out.particle.velocity()),
        &scale(&r_n, &v0),
    )?;
    expect_eq(
        "position x₀ + h v₀ r(1 − rᴺ)/(1 − r)",
        &bare(out.particle.position()),
        &add(&x0, &scale(&(&h * &sum), &v0)),
    )
}
