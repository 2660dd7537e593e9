//! Fixed-step symplectic Euler: `v ← v + a(x, v, t)·dt`, then `x ← x + v·dt` with the new `v`.
//!
//! Every state is exact; the results are those of this discrete integrator, not the
//! continuous-time solution.

use crate::dims::TIME;
use crate::force::net_force;
use crate::{ForceModel, Particle, PhysicsError, Vec3};
use exact::Rational;
use std::ops::ControlFlow;
use units::Quantity;

/// The most steps one call may take; more is refused before the first step.
pub const MAX_STEPS: u64 = 1_000_000;

/// The integrator's name as reported to users.
pub const INTEGRATOR_NAME: &str = "symplectic-euler";

/// A validated step size: positive, in seconds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeStep {
    dt: Rational,
}

impl TimeStep {
    /// Refuses a step that is not a time or not positive.
    pub fn new(dt: &Quantity) -> Result<Self, PhysicsError> {
        PhysicsError::check_dim("time step", dt.dim(), TIME)?;
        if !dt.value().is_positive() {
            return Err(PhysicsError::NonPositiveTimeStep {
                dt: dt.value().clone(),
            });
        }
        Ok(TimeStep {
            dt: dt.value().clone(),
        })
    }

    /// The step in seconds.
    pub fn seconds(&self) -> &Rational {
        &self.dt
    }
}

/// Refuses a step count above [`MAX_STEPS`].
pub fn check_step_count(steps: u64) -> Result<(), PhysicsError> {
    if steps > MAX_STEPS {
        Err(PhysicsError::TooManySteps {
            requested: steps,
            limit: MAX_STEPS,
        })
    } else {
        Ok(())
    }
}

/// One symplectic Euler step of `p` from time `time` (s).
pub fn symplectic_euler_step(
    p: &Particle,
    models: &[Box<dyn ForceModel>],
    time: &Rational,
    dt: &TimeStep,
) -> Result<Particle, PhysicsError> {
    let (x, v) = next_state(p, models, time, dt)?;
    Ok(p.with_state_unchecked(x, v))
}

/// The position and velocity after one step; the caller installs them.
fn next_state(
    p: &Particle,
    models: &[Box<dyn ForceModel>],
    time: &Rational,
    dt: &TimeStep,
) -> Result<(Vec3, Vec3), PhysicsError> {
    // v + (F·dt/m): one scalar dt/m instead of dividing and then scaling each component.
    let force = net_force(models, p, time)?;
    let dt_over_m = dt
        .dt
        .checked_div(p.mass())
        .map_err(|_| PhysicsError::DivisionByZero)?;
    let v = p.velocity().add_scaled_raw(&force, &dt_over_m);
    let x = p.position().add_scaled_raw(&v, &dt.dt);
    Ok((x, v))
}

/// The end of a fixed-step run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EulerRun {
    /// The particle after the last step taken.
    pub particle: Particle,
    /// Steps taken.
    pub steps: u64,
    /// The time reached (s).
    pub time: Rational,
    /// False when the observer stopped the run before every requested step was taken.
    pub completed: bool,
}

/// `steps` symplectic Euler steps of size `dt` starting at time 0.
///
/// When every model is affine in the state ([`ForceModel::affine`]) the run takes the fast
/// exact path of [`crate::affine`]: the same rationals, without a gcd per operation.
pub fn symplectic_euler(
    p: &Particle,
    models: &[Box<dyn ForceModel>],
    dt: &Quantity,
    steps: u64,
) -> Result<EulerRun, PhysicsError> {
    let step = TimeStep::new(dt)?;
    check_step_count(steps)?;
    if let Some(particle) = crate::affine::evolve_affine(p, models, &step, steps) {
        let time = step.seconds() * Rational::from(steps);
        return Ok(EulerRun {
            particle,
            steps,
            time,
            completed: true,
        });
    }
    symplectic_euler_general(p, models, dt, steps)
}

/// [`symplectic_euler`] one reduced rational operation at a time, whatever the models: the
/// reference the fast path is tested against.
pub fn symplectic_euler_general(
    p: &Particle,
    models: &[Box<dyn ForceModel>],
    dt: &Quantity,
    steps: u64,
) -> Result<EulerRun, PhysicsError> {
    symplectic_euler_observed(p, models, dt, steps, &Rational::zero(), |_, _, _| {
        ControlFlow::Continue(())
    })
}

/// `steps` steps from `start_time`, calling `observe(step, time, particle)` after each step;
/// returning [`ControlFlow::Break`] stops the run early (for trajectories and cancellation).
/// The step size and count are checked before the first step.
pub fn symplectic_euler_observed(
    p: &Particle,
    models: &[Box<dyn ForceModel>],
    dt: &Quantity,
    steps: u64,
    start_time: &Rational,
    mut observe: impl FnMut(u64, &Rational, &Particle) -> ControlFlow<()>,
) -> Result<EulerRun, PhysicsError> {
    let dt = TimeStep::new(dt)?;
    check_step_count(steps)?;
    let mut particle = p.clone();
    let mut time = start_time.clone();
    for step in 1..=steps {
        // In place: the identifier and mass are not copied on every step.
        let (x, v) = next_state(&particle, models, &time, &dt)?;
        particle.set_state_unchecked(x, v);
        time += &dt.dt;
        if observe(step, &time, &particle).is_break() {
            return Ok(EulerRun {
                particle,
                steps: step,
                time,
                completed: step == steps,
            });
        }
    }
    Ok(EulerRun {
        particle,
        steps,
        time,
        completed: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::UniformGravity;
    use crate::dims::{ACCELERATION, LENGTH, MASS, VELOCITY};

    fn q(s: &str) -> Rational {
        s.parse().unwrap()
    }

    fn gravity() -> Vec<Box<dyn ForceModel>> {
        vec![Box::new(
            UniformGravity::new(Vec3::from_ints(0, 0, -10, ACCELERATION)).unwrap(),
        )]
    }

    fn dropped() -> Particle {
        Particle::new(
            "ball",
            &Quantity::new(2.into(), MASS),
            Vec3::from_ints(0, 0, 10, LENGTH),
            Vec3::from_ints(1, 0, 0, VELOCITY),
        )
        .unwrap()
    }

    #[test]
    fn ten_step_gravity_trajectory_is_the_discrete_closed_form() {
        let run =
            symplectic_euler(&dropped(), &gravity(), &Quantity::new(q("1/10"), TIME), 10).unwrap();
        assert_eq!(run.steps, 10);
        assert_eq!(run.time, Rational::one());
        assert_eq!(run.particle.position().to_string(), "1,0,9/2 m");
        assert_eq!(run.particle.velocity().to_string(), "1,0,-10 m/s");
        // Closed form of the discrete map: v_n = v0 + n g dt, x_n = x0 + n v0 dt + g dt² n(n+1)/2.
        let mut particle = dropped();
        let dt = TimeStep::new(&Quantity::new(q("1/10"), TIME)).unwrap();
        for n in 1..=25i64 {
            particle =
                symplectic_euler_step(&particle, &gravity(), &Rational::zero(), &dt).unwrap();
            let z = q("10") + q("-10") * q("1/100") * Rational::from(n * (n + 1) / 2);
            assert_eq!(particle.position().z(), &z);
            assert_eq!(particle.position().x(), &(Rational::from(n) * q("1/10")));
            assert_eq!(particle.velocity().z(), &(Rational::from(-n)));
        }
    }

    #[test]
    fn step_size_and_count_are_checked_first() {
        let p = dropped();
        assert_eq!(
            symplectic_euler(&p, &gravity(), &Quantity::new(q("0"), TIME), 1),
            Err(PhysicsError::NonPositiveTimeStep { dt: q("0") })
        );
        assert!(matches!(
            symplectic_euler(&p, &gravity(), &Quantity::new(q("-1/10"), TIME), 1),
            Err(PhysicsError::NonPositiveTimeStep { .. })
        ));
        assert!(matches!(
            symplectic_euler(&p, &gravity(), &Quantity::new(q("1/10"), LENGTH), 1),
            Err(PhysicsError::WrongDimension {
                quantity: "time step",
                ..
            })
        ));
        // The edge: one more than the limit is refused before any step is taken (a force model
        // that counts calls proves no work was done).
        #[derive(Debug, Default)]
        struct Counting(std::sync::atomic::AtomicU64);
        impl ForceModel for Counting {
            fn force(&self, _: &Particle, _: &Rational) -> Result<Vec3, PhysicsError> {
                self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                Ok(Vec3::zero(crate::dims::FORCE))
            }
        }
        let counting: Vec<Box<dyn ForceModel>> = vec![Box::new(Counting::default())];
        assert_eq!(
            symplectic_euler(
                &p,
                &counting,
                &Quantity::new(q("1/10"), TIME),
                MAX_STEPS + 1
            ),
            Err(PhysicsError::TooManySteps {
                requested: 1_000_001,
                limit: 1_000_000
            })
        );
        assert_eq!(format!("{:?}", counting[0]), "Counting(0)");
        assert_eq!(check_step_count(MAX_STEPS), Ok(()));
        // Zero steps is a valid, empty run.
        let run = symplectic_euler(&p, &gravity(), &Quantity::new(q("1/10"), TIME), 0).unwrap();
        assert_eq!(run.particle, p);
    }

    #[test]
    fn observer_can_stop_early() {
        let mut seen = Vec::new();
        let run = symplectic_euler_observed(
            &dropped(),
            &gravity(),
            &Quantity::new(q("1/10"), TIME),
            10,
            &q("5"),
            |step, t, _| {
                seen.push(t.clone());
                if step == 3 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        )
        .unwrap();
        assert_eq!(run.steps, 3);
        assert!(!run.completed);
        assert_eq!(seen, vec![q("51/10"), q("26/5"), q("53/10")]);
    }

    /// 10⁶ steps at the limit itself: about a second in release, much longer in debug.
    #[test]
    #[ignore = "runs the full 1,000,000-step limit; use --release --ignored"]
    fn a_million_gravity_steps_are_accepted() {
        let run = symplectic_euler(
            &dropped(),
            &gravity(),
            &Quantity::new(q("1/10"), TIME),
            MAX_STEPS,
        )
        .unwrap();
        assert_eq!(run.steps, MAX_STEPS);
        let n = Rational::from(MAX_STEPS);
        assert_eq!(run.particle.velocity().z(), &-n.clone());
        let z = q("10") - q("1/10") * &n * (n.clone() + Rational::one()) * q("1/2");
        assert_eq!(run.particle.position().z(), &z);
    }
}
