//! Our exact engine on E1 and E2, through its public API, timed like the raw candidates.
//!
//! `engine` is `centl_physics::symplectic_euler` (which takes the fast affine path for these
//! forces); `engine-stepwise` is `symplectic_euler_general`, the reference path that reduces
//! every intermediate rational. Both must reach the same final state as every raw candidate.

use crate::problems::{Outcome, Problem, V0, X0, thread_cpu_time};
use centl_physics::dims::{ACCELERATION, DRAG, LENGTH, MASS, STIFFNESS, TIME, VELOCITY};
use centl_physics::{
    EulerRun, ForceModel, HookeSpring, LinearDrag, Particle, PhysicsError, UniformGravity, Vec3,
    symplectic_euler, symplectic_euler_general,
};
use exact::Rational;
use std::time::Instant;
use units::Quantity;

type Runner =
    fn(&Particle, &[Box<dyn ForceModel>], &Quantity, u64) -> Result<EulerRun, PhysicsError>;

fn r(p: i64, q: u64) -> Rational {
    Rational::new(p, i64::try_from(q).unwrap_or(1)).unwrap_or_else(|_| Rational::zero())
}

fn setup(problem: Problem) -> (Particle, Vec<Box<dyn ForceModel>>, Quantity) {
    let vec = |c: [(i64, u64); 3], dim| {
        Vec3::new(r(c[0].0, c[0].1), r(c[1].0, c[1].1), r(c[2].0, c[2].1), dim)
    };
    let mass = match problem {
        Problem::E1 => 7,
        Problem::E2 => 1,
    };
    let particle = Particle::new(
        "p",
        &Quantity::new(mass.into(), MASS),
        vec(X0, LENGTH),
        vec(V0, VELOCITY),
    )
    .expect("valid particle");
    let (models, dt): (Vec<Box<dyn ForceModel>>, Rational) = match problem {
        Problem::E1 => (
            vec![
                Box::new(
                    HookeSpring::new(
                        Vec3::zero(LENGTH),
                        &Quantity::new(3.into(), STIFFNESS),
                        &Quantity::new(Rational::zero(), LENGTH),
                    )
                    .expect("valid spring"),
                ),
                Box::new(LinearDrag::new(&Quantity::new(r(1, 5), DRAG)).expect("valid drag")),
            ],
            r(1, 100),
        ),
        Problem::E2 => (
            vec![Box::new(
                UniformGravity::new(Vec3::new(
                    Rational::zero(),
                    Rational::zero(),
                    r(-981, 100),
                    ACCELERATION,
                ))
                .expect("valid gravity"),
            )],
            r(1, 10),
        ),
    };
    (particle, models, Quantity::new(dt, TIME))
}

fn timed(problem: Problem, steps: u64, runner: Runner) -> Outcome {
    let (particle, models, dt) = setup(problem);
    let (start, cpu_start) = (Instant::now(), thread_cpu_time());
    let run = runner(&particle, &models, &dt, steps).expect("run completes");
    let elapsed = start.elapsed();
    let cpu = thread_cpu_time().and_then(|end| Some(end.saturating_sub(cpu_start?)));
    let p = run.particle;
    let all: Vec<&Rational> = p
        .position()
        .components()
        .iter()
        .chain(p.velocity().components())
        .collect();
    let pq = |q: &Rational| format!("{}/{}", q.numerator_string(), q.denominator_string());
    let state = [
        pq(all[0]),
        pq(all[1]),
        pq(all[2]),
        pq(all[3]),
        pq(all[4]),
        pq(all[5]),
    ];
    Outcome {
        elapsed,
        cpu,
        state,
        max_numer_bits: all
            .iter()
            .map(|q| q.numerator_bits() as u64)
            .max()
            .unwrap_or(0),
        max_denom_bits: all
            .iter()
            .map(|q| q.denominator_bits() as u64)
            .max()
            .unwrap_or(0),
    }
}

/// The engine's default path (fast for affine forces).
pub fn run_fast(problem: Problem, steps: u64) -> Outcome {
    timed(problem, steps, symplectic_euler)
}

/// The engine's step-by-step reference path.
pub fn run_stepwise(problem: Problem, steps: u64) -> Outcome {
    timed(problem, steps, symplectic_euler_general)
}
