//! The fast exact path for forces that are affine in the state.
//!
//! Every built-in force is `F = α·x + β·v + c` with scalar `α`, `β` (the same on every axis)
//! and a constant vector `c`, except a spring with a nonzero rest length. For such forces a
//! symplectic Euler step is one fixed affine map of `(x, v)`, which [`exact::AffineMap`]
//! iterates on integers over a shared denominator instead of reducing every intermediate
//! fraction. The results are the same rationals as step-by-step stepping, which the tests check;
//! only the cost differs (see `docs/performance.md`).

use crate::integrate::TimeStep;
use crate::{ForceModel, Particle, PhysicsError, Vec3, World};
use exact::{AffineMap, Rational, SharedDenominator};
use units::Quantity;

/// A force of the form `F = position·x + velocity·v + constant` (SI units: N/m, kg/s, N).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AffineForce {
    /// Coefficient of the position (N/m); `−k` for a spring.
    pub position: Rational,
    /// Coefficient of the velocity (kg/s); `−b` for drag.
    pub velocity: Rational,
    /// The constant part (N), per axis.
    pub constant: [Rational; 3],
}

impl AffineForce {
    /// The zero force.
    pub fn zero() -> Self {
        AffineForce {
            position: Rational::zero(),
            velocity: Rational::zero(),
            constant: [Rational::zero(), Rational::zero(), Rational::zero()],
        }
    }

    fn add(mut self, o: AffineForce) -> Self {
        self.position += o.position;
        self.velocity += o.velocity;
        for (a, b) in self.constant.iter_mut().zip(o.constant) {
            *a += b;
        }
        self
    }
}

/// The summed affine form of every model on `p`, or `None` if any model is not affine.
pub(crate) fn affine_net(models: &[Box<dyn ForceModel>], p: &Particle) -> Option<AffineForce> {
    models
        .iter()
        .try_fold(AffineForce::zero(), |acc, m| Some(acc.add(m.affine(p)?)))
}

/// The one-step map of `p` under `models` when every force is affine; `None` otherwise.
fn particle_map(p: &Particle, models: &[Box<dyn ForceModel>], dt: &TimeStep) -> Option<AffineMap> {
    let f = affine_net(models, p)?;
    let h = dt.seconds();
    let m = p.mass();
    // Accelerations per unit state: a = ax·x + av·v + ac. The mass is positive by construction.
    let ax = f.position.checked_div(m).ok()?;
    let av = f.velocity.checked_div(m).ok()?;
    // v' = h·ax·x + (1 + h·av)·v + h·ac;  x' = x + h·v'.
    let vx = h * &ax;
    let vv = Rational::one() + h * &av;
    let xx = Rational::one() + h * &vx;
    let xv = h * &vv;
    let mut matrix = vec![vec![Rational::zero(); 6]; 6];
    let mut offset = vec![Rational::zero(); 6];
    for axis in 0..3 {
        let vc = h * &f.constant[axis].checked_div(m).ok()?;
        matrix[axis][axis] = xx.clone();
        matrix[axis][axis + 3] = xv.clone();
        matrix[axis + 3][axis] = vx.clone();
        matrix[axis + 3][axis + 3] = vv.clone();
        offset[axis] = h * &vc;
        offset[axis + 3] = vc;
    }
    AffineMap::new(&matrix, &offset)
}

fn shared_state(p: &Particle) -> SharedDenominator {
    let start: Vec<Rational> = p
        .position()
        .components()
        .iter()
        .chain(p.velocity().components())
        .cloned()
        .collect();
    SharedDenominator::new(&start)
}

/// `p` with the state held in `state` (six values: position, then velocity, as built by
/// [`shared_state`]).
fn particle_at(p: &Particle, state: &SharedDenominator) -> Particle {
    let mut values = state.to_rationals().into_iter();
    let mut next = || values.next().unwrap_or_else(Rational::zero);
    let x = Vec3::new(next(), next(), next(), p.position().dim());
    let v = Vec3::new(next(), next(), next(), p.velocity().dim());
    p.with_state_unchecked(x, v)
}

/// `steps` symplectic Euler steps of `p` when every force is affine; `None` otherwise.
pub(crate) fn evolve_affine(
    p: &Particle,
    models: &[Box<dyn ForceModel>],
    dt: &TimeStep,
    steps: u64,
) -> Option<Particle> {
    let map = particle_map(p, models, dt)?;
    let mut state = shared_state(p);
    for _ in 0..steps {
        map.apply(&mut state);
    }
    Some(particle_at(p, &state))
}

/// A world stepped one symplectic Euler step at a time on the fast exact path, for callers
/// that watch every step (limits, sampled trajectories). Each particle keeps its state as
/// integers over one shared denominator; [`AffineWorldStepper::world`] gives the same
/// rationals as [`crate::step_world_symplectic_euler`] repeated.
#[derive(Clone, Debug)]
pub struct AffineWorldStepper {
    start: Vec<Particle>,
    maps: Vec<AffineMap>,
    states: Vec<SharedDenominator>,
}

impl AffineWorldStepper {
    /// The stepper for `world` under `models` with step `dt` (positive, a time), or `None`
    /// when some force is not affine in the state (a spring with a rest length).
    pub fn new(
        world: &World,
        models: &[Box<dyn ForceModel>],
        dt: &Quantity,
    ) -> Result<Option<Self>, PhysicsError> {
        let dt = TimeStep::new(dt)?;
        let maps: Option<Vec<AffineMap>> = world
            .particles()
            .iter()
            .map(|p| particle_map(p, models, &dt))
            .collect();
        Ok(maps.map(|maps| AffineWorldStepper {
            start: world.particles().to_vec(),
            states: world.particles().iter().map(shared_state).collect(),
            maps,
        }))
    }

    /// One step of every particle.
    pub fn step(&mut self) {
        for (map, state) in self.maps.iter().zip(&mut self.states) {
            map.apply(state);
        }
    }

    /// An upper bound on [`crate::StateBits::max_bits`] of the current world, without any gcd.
    pub fn bits_bound(&self) -> usize {
        self.states
            .iter()
            .map(SharedDenominator::bits_bound)
            .max()
            .unwrap_or(0)
    }

    /// The exact [`crate::StateBits::max_bits`] of the current world (reduces every component).
    pub fn max_bits(&mut self) -> usize {
        for s in &mut self.states {
            s.reduce();
        }
        self.states
            .iter()
            .flat_map(SharedDenominator::to_rationals)
            .map(|r| r.bits())
            .max()
            .unwrap_or(0)
    }

    /// The current world, in lowest terms.
    pub fn world(&self) -> World {
        let particles = self
            .start
            .iter()
            .zip(&self.states)
            .map(|(p, s)| particle_at(p, s))
            .collect();
        World::from_particles_unchecked(particles)
    }
}
