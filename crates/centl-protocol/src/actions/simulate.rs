//! `simulate`: fixed-step symplectic Euler of one particle or a world under built-in forces.
//!
//! Every cost known up front (steps, samples, particles) is checked before the first step; the
//! size of the exact state is checked after every step, so a run whose rationals outgrow the
//! limit stops with `rational_too_large` at the same step on every machine. The work done
//! (particles × (forces + 1) × state bits, summed over steps) is held to a budget the same way,
//! refused up front when even 64-bit states would exceed it (`work_limit_exceeded`). The
//! trajectory is measured as it is recorded: refused up front when its samples × particles at
//! their smallest would pass the reply limit, stopped at the sample that does
//! (`reply_too_large`).

use crate::objects::{self, FORCE_KIND, PARTICLE, ParticleOut, unit};
use crate::reply::json_bytes;
use crate::schema::{Field, Kind};
use crate::wire::{QuantityOut, q};
use crate::{Action, Args, CancelFlag, Limits, ProtocolError};
use centl_physics::dims::TIME;
use centl_physics::{
    AffineWorldStepper, ForceModel, INTEGRATOR_NAME, PhysicsError, StateBits, World,
    step_world_symplectic_euler,
};
use exact::Rational;
use serde::Serialize;
use serde_json::Value;
use units::Quantity;

/// Runs symplectic Euler with an optional sampled trajectory.
pub struct Simulate;

const ARGS: &[Field] = &[
    Field::opt(
        "particle",
        Kind::Object(PARTICLE),
        "one particle (give exactly one of particle or world)",
    ),
    Field::opt(
        "world",
        Kind::List(&Kind::Object(PARTICLE)),
        "ordered particles with unique ids; each moves under the same forces",
    ),
    Field::opt(
        "forces",
        Kind::List(&FORCE_KIND),
        "force models, summed exactly; default none",
    ),
    Field::req("dt", Kind::Quantity(TIME), "positive time step"),
    Field::req("steps", Kind::Count { min: 0 }, "number of steps"),
    Field::opt(
        "stride",
        Kind::Count { min: 1 },
        "record a trajectory sample every `stride` steps (and at step 0); default no trajectory",
    ),
];

#[derive(Serialize)]
struct Sample {
    step: u64,
    time: QuantityOut,
    particles: Vec<ParticleOut>,
}

#[derive(Serialize)]
struct Outcome {
    integrator: &'static str,
    steps: u64,
    time: QuantityOut,
    #[serde(skip_serializing_if = "Option::is_none")]
    particle: Option<ParticleOut>,
    #[serde(skip_serializing_if = "Option::is_none")]
    world: Option<Vec<ParticleOut>>,
    max_state_bits: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    trajectory: Option<Vec<Sample>>,
}

fn sample(step: u64, time: &Rational, w: &World) -> Sample {
    Sample {
        step,
        time: q(time, unit::S),
        particles: w.particles().iter().map(ParticleOut::from).collect(),
    }
}

/// The world being advanced: on the fast affine path, or one reduced step at a time.
enum Stepping {
    Fast(Box<AffineWorldStepper>),
    Stepwise(World),
}

/// The checked parameters of one run.
struct Run<'a> {
    start: &'a World,
    forces: &'a [Box<dyn ForceModel>],
    dt: &'a Quantity,
    steps: u64,
    stride: Option<u64>,
    per_step: u64,
    limits: &'a Limits,
    cancel: &'a CancelFlag,
}

type Evolved = (World, Rational, Option<Vec<Sample>>);

impl Run<'_> {
    /// Runs every step under the limits. On the fast path the work is summed over a size bound
    /// (an upper bound on the exact state bits, no gcd needed); if that passes the budget the
    /// run starts again stepwise, so a refusal comes at exactly the step the exact sizes give.
    fn evolve(&self, mut stepping: Stepping) -> Result<Evolved, ProtocolError> {
        let l = self.limits;
        let reply_limit = l.max_reply_bytes as u64;
        let mut work: u64 = 0;
        let mut time = Rational::zero();
        let mut reply_bytes: u64 = 0;
        let mut trajectory = self.stride.map(|_| Vec::new());
        let mut record = |t: &mut Vec<Sample>, step: u64, time: &Rational, w: &World| {
            let s = sample(step, time, w);
            reply_bytes = reply_bytes.saturating_add(json_bytes(&s));
            if reply_bytes > reply_limit {
                return Err(ProtocolError::ReplyTooLarge {
                    bytes: reply_bytes,
                    step,
                    limit: l.max_reply_bytes,
                });
            }
            t.push(s);
            Ok(())
        };
        let current = |stepping: &Stepping| match stepping {
            Stepping::Fast(f) => f.world(),
            Stepping::Stepwise(w) => w.clone(),
        };
        if let Some(t) = trajectory.as_mut() {
            record(t, 0, &time, &current(&stepping))?;
        }
        for step in 1..=self.steps {
            let bits = match &mut stepping {
                Stepping::Stepwise(w) => {
                    *w = step_world_symplectic_euler(w, self.forces, &time, self.dt)?;
                    StateBits::of_all(w.particles()).max_bits()
                }
                Stepping::Fast(f) => {
                    f.step();
                    let bound = f.bits_bound();
                    // Below the limit the bound settles the check; above it, the exact size.
                    if bound.max(time.bits()) > l.max_rational_bits {
                        f.max_bits()
                    } else {
                        bound
                    }
                }
            };
            self.cancel.check(step)?;
            time += self.dt.value();
            let bits = bits.max(time.bits());
            if bits > l.max_rational_bits {
                return Err(ProtocolError::RationalTooLarge {
                    bits,
                    step,
                    limit: l.max_rational_bits,
                    path: None,
                });
            }
            work = work.saturating_add(
                self.per_step
                    .saturating_mul((bits as u64).max(crate::limits::MIN_STEP_BITS)),
            );
            if work > l.max_work_bit_steps {
                if let Stepping::Fast(_) = stepping {
                    return self.evolve(Stepping::Stepwise(self.start.clone()));
                }
                return Err(ProtocolError::WorkLimitExceeded {
                    work,
                    step,
                    limit: l.max_work_bit_steps,
                });
            }
            if let (Some(t), Some(s)) = (trajectory.as_mut(), self.stride)
                && step % s == 0
            {
                record(t, step, &time, &current(&stepping))?;
            }
        }
        Ok((current(&stepping), time, trajectory))
    }
}

impl Action for Simulate {
    fn name(&self) -> &'static str {
        "simulate"
    }

    fn summary(&self) -> &'static str {
        "Advance one particle or a world by fixed-step symplectic Euler under constant, gravity, spring and drag forces, exactly."
    }

    fn args(&self) -> &'static [Field] {
        ARGS
    }

    fn run(&self, args: &Args<'_>) -> Result<Value, ProtocolError> {
        let l = args.limits;
        let steps = args.count("steps").unwrap_or(0);
        if steps > l.max_steps {
            return Err(ProtocolError::physics_at(
                "args.steps",
                PhysicsError::TooManySteps {
                    requested: steps,
                    limit: l.max_steps,
                },
            ));
        }
        let stride = args.count("stride");
        if let Some(stride) = stride {
            let samples = steps / stride + 1;
            if samples > l.max_trajectory_samples {
                return Err(ProtocolError::TooManySamples {
                    samples,
                    limit: l.max_trajectory_samples,
                });
            }
        }
        let single = match (args.get("particle"), args.get("world")) {
            (Some(_), None) => true,
            (None, Some(_)) => false,
            _ => {
                return Err(ProtocolError::InvalidValue {
                    path: "args".into(),
                    reason: "give exactly one of `particle` or `world`".into(),
                });
            }
        };
        let world = match (args.get("particle"), args.get("world")) {
            (Some(p), _) => World::new(vec![objects::particle(p, "args.particle", l)?])
                .map_err(|e| ProtocolError::physics_at("args.particle", e))?,
            (_, Some(w)) => objects::world(w, "args.world", l)?,
            _ => World::new(Vec::new())?,
        };
        let forces = match args.get("forces") {
            Some(f) => objects::forces(f, "args.forces", l)?,
            None => Vec::new(),
        };
        let dt = objects::time(args.get("dt").unwrap_or(&Value::Null), "args.dt", l)?;
        if !dt.value().is_positive() {
            return Err(ProtocolError::physics_at(
                "args.dt",
                PhysicsError::NonPositiveTimeStep {
                    dt: dt.value().clone(),
                },
            ));
        }
        let particles = world.particles().len() as u64;
        // Every force is evaluated for every particle at every step: a request's cost grows
        // with the force list as much as with the particles.
        let per_step = particles.saturating_mul(forces.len() as u64 + 1);
        let least = per_step
            .saturating_mul(steps)
            .saturating_mul(crate::limits::MIN_STEP_BITS);
        if least > l.max_work_bit_steps {
            return Err(ProtocolError::WorkLimitExceeded {
                work: least,
                step: 0,
                limit: l.max_work_bit_steps,
            });
        }
        let reply_limit = l.max_reply_bytes as u64;
        if let Some(stride) = stride {
            let least = (steps / stride + 1)
                .saturating_mul(particles)
                .saturating_mul(crate::limits::MIN_PARTICLE_SAMPLE_BYTES);
            if least > reply_limit {
                return Err(ProtocolError::ReplyTooLarge {
                    bytes: least,
                    step: 0,
                    limit: l.max_reply_bytes,
                });
            }
        }
        let run = Run {
            start: &world,
            forces: &forces,
            dt: &dt,
            steps,
            stride,
            per_step,
            limits: l,
            cancel: args.cancel,
        };
        // The fast exact path when every force is affine (the same rationals as stepping).
        let stepping = match AffineWorldStepper::new(&world, &forces, &dt)? {
            Some(stepper) => Stepping::Fast(Box::new(stepper)),
            None => Stepping::Stepwise(world.clone()),
        };
        let (world, time, trajectory) = run.evolve(stepping)?;
        let max_state_bits = StateBits::of_all(world.particles()).max_bits();
        let mut particles: Vec<ParticleOut> =
            world.particles().iter().map(ParticleOut::from).collect();
        let (particle, world_out) = if single {
            (particles.pop(), None)
        } else {
            (None, Some(particles))
        };
        let out = Outcome {
            integrator: INTEGRATOR_NAME,
            steps,
            time: q(&time, unit::S),
            particle,
            world: world_out,
            max_state_bits,
            trajectory,
        };
        Ok(crate::table::to_json(out))
    }
}

#[cfg(test)]
mod tests {
    //! The fast affine path against reduced stepping: the same rationals in every sample and
    //! at the end, and the same refusal at the same step, for random affine forces and limits.
    use super::*;
    use centl_physics::dims::{ACCELERATION, DRAG, FORCE, LENGTH, MASS, STIFFNESS, VELOCITY};
    use centl_physics::{ConstantForce, HookeSpring, LinearDrag, Particle, UniformGravity, Vec3};
    use proptest::prelude::*;

    fn r(p: (i64, i64)) -> Rational {
        Rational::new(p.0, p.1).unwrap()
    }

    fn part() -> impl Strategy<Value = (i64, i64)> {
        (-30i64..30, 1i64..12)
    }

    fn vec3(v: [(i64, i64); 3], dim: units::Dimension) -> Vec3 {
        Vec3::new(r(v[0]), r(v[1]), r(v[2]), dim)
    }

    fn outcome(run: &Run<'_>, stepping: Stepping) -> String {
        match run.evolve(stepping) {
            Ok((w, t, traj)) => {
                let ps: Vec<ParticleOut> = w.particles().iter().map(ParticleOut::from).collect();
                serde_json::json!({
                    "world": crate::table::to_json(ps),
                    "time": t.to_string(),
                    "trajectory": crate::table::to_json(traj),
                })
                .to_string()
            }
            Err(e) => e.to_json().to_string(),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn fast_path_gives_the_stepwise_rationals_and_refusals(
            states in proptest::collection::vec(((1i64..9, 1i64..5), [part(), part(), part()], [part(), part(), part()]), 1..4),
            k in (0i64..6, 1i64..4), b in (0i64..4, 1i64..6), g in [part(), part(), part()], c in [part(), part(), part()],
            which in 0u8..16, dt in (1i64..3, 1i64..20), steps in 0u64..40,
            stride in proptest::option::of(1u64..7),
            bits in 64usize..1500, work in 1_000u64..200_000,
        ) {
            let particles: Vec<Particle> = states
                .iter()
                .enumerate()
                .map(|(i, (m, x, v))| {
                    let mass = Quantity::new(r(*m), MASS);
                    Particle::new(format!("p{i}"), &mass, vec3(*x, LENGTH), vec3(*v, VELOCITY)).unwrap()
                })
                .collect();
            let world = World::new(particles).unwrap();
            let mut forces: Vec<Box<dyn ForceModel>> = Vec::new();
            if which & 1 != 0 {
                let zero = Quantity::new(Rational::zero(), LENGTH);
                let spring = HookeSpring::new(vec3([(0, 1); 3], LENGTH), &Quantity::new(r(k), STIFFNESS), &zero);
                forces.push(Box::new(spring.unwrap()));
            }
            if which & 2 != 0 {
                forces.push(Box::new(LinearDrag::new(&Quantity::new(r(b), DRAG)).unwrap()));
            }
            if which & 4 != 0 {
                forces.push(Box::new(UniformGravity::new(vec3(g, ACCELERATION)).unwrap()));
            }
            if which & 8 != 0 {
                forces.push(Box::new(ConstantForce::new(vec3(c, FORCE)).unwrap()));
            }
            let dt = Quantity::new(r(dt), TIME);
            let limits = Limits { max_rational_bits: bits, max_work_bit_steps: work, ..Limits::default() };
            let run = Run {
                start: &world,
                forces: &forces,
                dt: &dt,
                steps,
                stride,
                per_step: world.len() as u64 * (forces.len() as u64 + 1),
                limits: &limits,
                cancel: &CancelFlag::new(),
            };
            let fast = AffineWorldStepper::new(&world, &forces, &dt).unwrap().unwrap();
            let exact = outcome(&run, Stepping::Stepwise(world.clone()));
            prop_assert_eq!(outcome(&run, Stepping::Fast(Box::new(fast))), exact);
        }
    }
}
