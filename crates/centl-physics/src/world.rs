//! [`World`]: a bounded, ordered set of particles with unique identifiers.

use crate::dims::{ENERGY, MOMENTUM};
use crate::integrate::{TimeStep, check_step_count, symplectic_euler_step};
use crate::{ForceModel, Particle, PhysicsError, StateBits, Vec3};
use exact::Rational;
use std::collections::HashSet;
use units::Quantity;

/// The most particles (or spheres) a world holds.
pub const MAX_WORLD_PARTICLES: usize = 256;

/// Particles in a fixed order with unique, non-empty identifiers; at most
/// [`MAX_WORLD_PARTICLES`]. The order is the caller's and is kept by every operation, so
/// results are reproducible.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct World {
    particles: Vec<Particle>,
}

/// Refuses too many entries or a repeated identifier (naming the first repeat).
pub(crate) fn check_world_ids<'a>(
    ids: impl ExactSizeIterator<Item = &'a str>,
) -> Result<(), PhysicsError> {
    if ids.len() > MAX_WORLD_PARTICLES {
        return Err(PhysicsError::TooManyParticles {
            count: ids.len(),
            limit: MAX_WORLD_PARTICLES,
        });
    }
    let mut seen = HashSet::new();
    for id in ids {
        if id.is_empty() {
            return Err(PhysicsError::EmptyId);
        }
        if !seen.insert(id) {
            return Err(PhysicsError::DuplicateId { id: id.to_string() });
        }
    }
    Ok(())
}

impl World {
    /// A world of `particles` in the given order.
    pub fn new(particles: Vec<Particle>) -> Result<Self, PhysicsError> {
        check_world_ids(particles.iter().map(Particle::id))?;
        Ok(World { particles })
    }

    /// A world of particles already known to satisfy the invariants (taken from a world).
    pub(crate) fn from_particles_unchecked(particles: Vec<Particle>) -> Self {
        World { particles }
    }

    /// The particles in order.
    pub fn particles(&self) -> &[Particle] {
        &self.particles
    }

    /// The particles, taking ownership.
    pub fn into_particles(self) -> Vec<Particle> {
        self.particles
    }

    /// How many particles.
    pub fn len(&self) -> usize {
        self.particles.len()
    }

    /// True for a world without particles.
    pub fn is_empty(&self) -> bool {
        self.particles.is_empty()
    }

    /// The particle with identifier `id`.
    pub fn get(&self, id: &str) -> Option<&Particle> {
        self.particles.iter().find(|p| p.id() == id)
    }

    /// Whole-world momentum `Σ m v` (kg·m/s).
    pub fn momentum(&self) -> Vec3 {
        total_momentum(&self.particles)
    }

    /// Whole-world kinetic energy `Σ ½ m |v|²` (J).
    pub fn kinetic_energy(&self) -> Quantity {
        total_kinetic_energy(&self.particles)
    }

    /// The largest numerator/denominator sizes in the world's state.
    pub fn state_bits(&self) -> StateBits {
        StateBits::of_all(&self.particles)
    }
}

/// `Σ m v` over particles (kg·m/s).
pub(crate) fn total_momentum<'a>(particles: impl IntoIterator<Item = &'a Particle>) -> Vec3 {
    particles.into_iter().fold(Vec3::zero(MOMENTUM), |acc, p| {
        acc.add_scaled_raw(p.velocity(), p.mass())
    })
}

/// `Σ ½ m |v|²` over particles (J).
pub(crate) fn total_kinetic_energy<'a>(
    particles: impl IntoIterator<Item = &'a Particle>,
) -> Quantity {
    let total = particles
        .into_iter()
        .map(|p| p.kinetic_energy().value().clone())
        .sum::<Rational>();
    Quantity::new(total, ENERGY)
}

/// One symplectic Euler step of every particle, in order, under the same force models, from
/// time `time` (s). Particles do not interact and collisions are not looked for: contacts are
/// a separate, explicit operation.
pub fn step_world_symplectic_euler(
    world: &World,
    models: &[Box<dyn ForceModel>],
    time: &Rational,
    dt: &Quantity,
) -> Result<World, PhysicsError> {
    let dt = TimeStep::new(dt)?;
    step_all(world, models, time, &dt)
}

fn step_all(
    world: &World,
    models: &[Box<dyn ForceModel>],
    time: &Rational,
    dt: &TimeStep,
) -> Result<World, PhysicsError> {
    let particles = world
        .particles
        .iter()
        .map(|p| symplectic_euler_step(p, models, time, dt))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(World { particles })
}

/// The end of a multi-step world run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorldRun {
    /// The world after the last step.
    pub world: World,
    /// Steps taken.
    pub steps: u64,
    /// The time reached (s), starting from 0.
    pub time: Rational,
}

/// `steps` world steps of size `dt` from time 0; the step size and count (at most
/// [`crate::MAX_STEPS`]) are checked before the first step.
pub fn evolve_world_symplectic_euler(
    world: &World,
    models: &[Box<dyn ForceModel>],
    dt: &Quantity,
    steps: u64,
) -> Result<WorldRun, PhysicsError> {
    let dt = TimeStep::new(dt)?;
    check_step_count(steps)?;
    // Particles do not interact, so each one can take the fast exact path on its own.
    let fast: Option<Vec<Particle>> = world
        .particles
        .iter()
        .map(|p| crate::affine::evolve_affine(p, models, &dt, steps))
        .collect();
    if let Some(particles) = fast {
        let time = dt.seconds() * Rational::from(steps);
        return Ok(WorldRun {
            world: World { particles },
            steps,
            time,
        });
    }
    let mut current = world.clone();
    let mut time = Rational::zero();
    for _ in 0..steps {
        current = step_all(&current, models, &time, &dt)?;
        time += dt.seconds();
    }
    Ok(WorldRun {
        world: current,
        steps,
        time,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dims::{ACCELERATION, LENGTH, MASS, TIME, VELOCITY};
    use crate::{UniformGravity, symplectic_euler};

    fn q(s: &str) -> Rational {
        s.parse().unwrap()
    }

    fn p(id: &str, m: &str, x: [i64; 3], v: [&str; 3]) -> Particle {
        Particle::new(
            id,
            &Quantity::new(q(m), MASS),
            Vec3::from_ints(x[0], x[1], x[2], LENGTH),
            Vec3::new(q(v[0]), q(v[1]), q(v[2]), VELOCITY),
        )
        .unwrap()
    }

    #[test]
    fn whole_world_momentum_and_kinetic_energy() {
        let w = World::new(vec![
            p("a", "2", [0, 0, 0], ["1", "0", "0"]),
            p("b", "1/2", [5, 0, 0], ["-2", "1/3", "0"]),
            p("c", "3", [0, 5, 0], ["0", "0", "-1/3"]),
        ])
        .unwrap();
        assert_eq!(w.momentum(), Vec3::new(q("1"), q("1/6"), q("-1"), MOMENTUM));
        // 1 + ¼(4 + 1/9) + (3/2)(1/9) = 1 + 37/36 + 1/6 = 79/36
        assert_eq!(w.kinetic_energy(), Quantity::new(q("79/36"), ENERGY));
        assert_eq!(w.len(), 3);
        assert_eq!(w.get("b").unwrap().mass(), &q("1/2"));
        assert!(World::new(vec![]).unwrap().momentum().is_zero());
    }

    #[test]
    fn duplicate_and_excess_particles_are_refused() {
        let e = World::new(vec![
            p("a", "1", [0, 0, 0], ["0", "0", "0"]),
            p("b", "1", [0, 0, 0], ["0", "0", "0"]),
            p("a", "1", [1, 0, 0], ["0", "0", "0"]),
        ])
        .unwrap_err();
        assert_eq!(e, PhysicsError::DuplicateId { id: "a".into() });
        assert!(e.to_string().contains("`a`"));
        let many: Vec<_> = (0..=MAX_WORLD_PARTICLES)
            .map(|i| p(&format!("p{i}"), "1", [0, 0, 0], ["0", "0", "0"]))
            .collect();
        assert_eq!(
            World::new(many[..MAX_WORLD_PARTICLES].to_vec()).map(|w| w.len()),
            Ok(MAX_WORLD_PARTICLES)
        );
        assert_eq!(
            World::new(many),
            Err(PhysicsError::TooManyParticles {
                count: 257,
                limit: 256
            })
        );
    }

    #[test]
    fn world_steps_keep_order_and_match_single_particle_steps() {
        let models: Vec<Box<dyn ForceModel>> = vec![Box::new(
            UniformGravity::new(Vec3::from_ints(0, 0, -10, ACCELERATION)).unwrap(),
        )];
        let particles = vec![
            p("z", "2", [0, 0, 10], ["1", "0", "0"]),
            p("a", "1/3", [1, 2, 3], ["0", "1/2", "0"]),
        ];
        let w = World::new(particles.clone()).unwrap();
        let dt = Quantity::new(q("1/10"), TIME);
        let run = evolve_world_symplectic_euler(&w, &models, &dt, 10).unwrap();
        let ids: Vec<_> = run.world.particles().iter().map(Particle::id).collect();
        assert_eq!(ids, ["z", "a"]);
        for (after, before) in run.world.particles().iter().zip(&particles) {
            assert_eq!(
                after,
                &symplectic_euler(before, &models, &dt, 10).unwrap().particle
            );
        }
        assert_eq!(run.world.particles()[0].position().to_string(), "1,0,9/2 m");
        let one = step_world_symplectic_euler(&w, &models, &Rational::zero(), &dt).unwrap();
        assert_eq!(
            one.particles()[1].velocity(),
            &Vec3::new(q("0"), q("1/2"), q("-1"), VELOCITY)
        );
        assert!(matches!(
            evolve_world_symplectic_euler(&w, &models, &dt, crate::MAX_STEPS + 1),
            Err(PhysicsError::TooManySteps { .. })
        ));
        assert!(
            step_world_symplectic_euler(
                &w,
                &models,
                &Rational::zero(),
                &Quantity::new(q("1"), LENGTH)
            )
            .is_err()
        );
    }
}
