//! The event-driven world under a Galilean boost and under uniform gravity, against laws
//! derived by hand: every pair's relative motion is the same in all three runs, so the events
//! (times, pairs, responses) and any deferral are identical; a boost `u` adds `u` to every
//! velocity and `u t` to every position at the time `t` reached, gravity `g` adds `g t` and
//! `g t²/2`. Without gravity the kinetic energy after every event equals the initial one.

use super::algebra::expect_eq;
use super::rng::Gen;
use crate::dims::{ACCELERATION, LENGTH, MASS, TIME, VELOCITY};
use crate::quadratic_event::QuadraticSphere;
use crate::{EventWorldRun, Particle, Sphere, SphereWorld, Vec3, evolve_sphere_world_events};
use exact::{QuadraticNumber as Q, Rational};
use units::Quantity;

fn refused(e: crate::PhysicsError) -> String {
    format!("engine refused a valid input: {e}")
}

/// The spheres of `seed` (one per cell of a 3 m grid, radius at most 1/2, so no overlap), with
/// velocities shifted by `shift`.
fn world(
    shift: &[Rational; 3],
    seed: &[(Rational, [Rational; 3], [Rational; 3], Rational)],
) -> Result<SphereWorld, String> {
    let spheres = seed
        .iter()
        .enumerate()
        .map(|(i, (m, x, v, r))| {
            let v = [&v[0] + &shift[0], &v[1] + &shift[1], &v[2] + &shift[2]];
            let p = Particle::new(
                format!("s{i}"),
                &Quantity::new(m.clone(), MASS),
                Vec3::from_components(x.clone(), LENGTH),
                Vec3::from_components(v, VELOCITY),
            )
            .map_err(refused)?;
            Sphere::new(p, &Quantity::new(r.clone(), LENGTH)).map_err(refused)
        })
        .collect::<Result<Vec<_>, String>>()?;
    SphereWorld::new(spheres).map_err(refused)
}

fn shifted(s: &QuadraticSphere, dx: &[Q; 3], dv: &[Q; 3]) -> Result<QuadraticSphere, String> {
    let add = |a: &Q, b: &Q| a.checked_add(b).map_err(|e| e.to_string());
    Ok(QuadraticSphere {
        position: [
            add(&s.position[0], &dx[0])?,
            add(&s.position[1], &dx[1])?,
            add(&s.position[2], &dx[2])?,
        ],
        velocity: [
            add(&s.velocity[0], &dv[0])?,
            add(&s.velocity[1], &dv[1])?,
            add(&s.velocity[2], &dv[2])?,
        ],
        ..s.clone()
    })
}

fn events(run: &EventWorldRun) -> Vec<String> {
    run.events
        .iter()
        .map(|e| format!("{} {} {:?} {:?}", e.time, e.first, e.second, e.response))
        .collect()
}

/// Boost and gravity leave the events alone and shift the state by the hand formulas.
pub fn boost_and_gravity(g: &mut Gen) -> Result<(), String> {
    let n = g.int(2, 5) as usize;
    let mut seed = Vec::new();
    for i in 0..n {
        let cell = [i as i64 % 3, i as i64 / 3, 0].map(|c| Rational::from(3 * c));
        let x = [
            &cell[0] + Rational::new(g.int(-4, 4), 8).map_err(|e| e.to_string())?,
            &cell[1] + Rational::new(g.int(-4, 4), 8).map_err(|e| e.to_string())?,
            &cell[2] + Rational::new(g.int(-4, 4), 8).map_err(|e| e.to_string())?,
        ];
        let r = Rational::new(g.int(1, 4), 8).map_err(|e| e.to_string())?;
        // Aimed near the grid's centre (3, 3/2, 0), so spheres meet.
        let pull = g.positive(3, 2);
        let noise = g.triple(1, 4);
        let centre = [
            Rational::from(3),
            Rational::new(3, 2).map_err(|e| e.to_string())?,
            Rational::zero(),
        ];
        let v = [0, 1, 2].map(|k| &pull * (&centre[k] - &x[k]) + &noise[k]);
        seed.push((g.positive(5, 3), x, v, r));
    }
    let zero = [Rational::zero(), Rational::zero(), Rational::zero()];
    let u = g.triple(6, 4);
    let grav = g.triple(10, 2);
    let duration = g.positive(6, 2);
    let t = Quantity::new(duration.clone(), TIME);
    let rest =
        evolve_sphere_world_events(&world(&zero, &seed)?, None, &[], &t, 20).map_err(refused)?;
    let moving =
        evolve_sphere_world_events(&world(&u, &seed)?, None, &[], &t, 20).map_err(refused)?;
    let gv = Vec3::from_components(grav.clone(), ACCELERATION);
    let falling = evolve_sphere_world_events(&world(&zero, &seed)?, Some(&gv), &[], &t, 20)
        .map_err(refused)?;
    expect_eq("events under a boost", &events(&moving), &events(&rest))?;
    expect_eq("events under gravity", &events(&falling), &events(&rest))?;
    expect_eq("deferral under a boost", &moving.deferred, &rest.deferred)?;
    expect_eq("deferral under gravity", &falling.deferred, &rest.deferred)?;
    expect_eq("time reached under a boost", &moving.time, &rest.time)?;
    let t = &rest.time;
    let lift = |c: &[Rational; 3]| c.clone().map(Q::from_rational);
    let times = |c: &[Q; 3], s: &Q| -> Result<[Q; 3], String> {
        let m = |a: &Q| a.checked_mul(s).map_err(|e| e.to_string());
        Ok([m(&c[0])?, m(&c[1])?, m(&c[2])?])
    };
    let (uq, gq) = (lift(&u), lift(&grav));
    let half_t2 = t
        .checked_mul(t)
        .map_err(|e| e.to_string())?
        .scale(&Rational::new(1, 2).map_err(|e| e.to_string())?);
    for (k, s) in rest.spheres.iter().enumerate() {
        let boosted = shifted(s, &times(&uq, t)?, &uq)?;
        expect_eq(
            &format!("sphere {k} under a boost"),
            &moving.spheres[k],
            &boosted,
        )?;
        let fallen = shifted(s, &times(&gq, &half_t2)?, &times(&gq, t)?)?;
        expect_eq(
            &format!("sphere {k} under gravity"),
            &falling.spheres[k],
            &fallen,
        )?;
    }
    let kinetic = |spheres: &[QuadraticSphere]| -> Result<Q, String> {
        let mut total = Q::zero();
        for s in spheres {
            total = total
                .checked_add(&s.kinetic_energy().map_err(refused)?)
                .map_err(|e| e.to_string())?;
        }
        Ok(total)
    };
    let initial = kinetic(
        &world(&zero, &seed)?
            .spheres()
            .iter()
            .map(QuadraticSphere::from)
            .collect::<Vec<_>>(),
    )?;
    for e in &rest.events {
        expect_eq(
            &format!("kinetic energy after the event at {}", e.time),
            &e.kinetic_energy,
            &initial,
        )?;
    }
    expect_eq(
        "kinetic energy at the end",
        &kinetic(&rest.spheres)?,
        &initial,
    )
}
