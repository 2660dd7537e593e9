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

use crate::model::{self, FORCE_KIND, PARTICLE, ParticleOut, unit};
use crate::reply::json_bytes;
use crate::schema::{Field, Kind};
use crate::wire::{QuantityOut, q};
use crate::{Action, Args, ProtocolError};
use centl_physics::dims::TIME;
use centl_physics::{INTEGRATOR_NAME, PhysicsError, StateBits, World, step_world_symplectic_euler};
use exact::Rational;
use serde::Serialize;
use serde_json::Value;

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
        let mut world = match (args.get("particle"), args.get("world")) {
            (Some(p), _) => World::new(vec![model::particle(p, "args.particle", l)?])
                .map_err(|e| ProtocolError::physics_at("args.particle", e))?,
            (_, Some(w)) => model::world(w, "args.world", l)?,
            _ => World::new(Vec::new())?,
        };
        let forces = match args.get("forces") {
            Some(f) => model::forces(f, "args.forces", l)?,
            None => Vec::new(),
        };
        let dt = model::time(args.get("dt").unwrap_or(&Value::Null), "args.dt", l)?;
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
        let mut work: u64 = 0;
        let mut time = Rational::zero();
        let mut reply_bytes: u64 = 0;
        let mut trajectory = stride.map(|_| Vec::new());
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
        if let Some(t) = trajectory.as_mut() {
            record(t, 0, &time, &world)?;
        }
        for step in 1..=steps {
            world = step_world_symplectic_euler(&world, &forces, &time, &dt)?;
            time += dt.value();
            let bits = StateBits::of_all(world.particles())
                .max_bits()
                .max(time.bits());
            if bits > l.max_rational_bits {
                return Err(ProtocolError::RationalTooLarge {
                    bits,
                    step,
                    limit: l.max_rational_bits,
                    path: None,
                });
            }
            work = work.saturating_add(
                per_step.saturating_mul((bits as u64).max(crate::limits::MIN_STEP_BITS)),
            );
            if work > l.max_work_bit_steps {
                return Err(ProtocolError::WorkLimitExceeded {
                    work,
                    step,
                    limit: l.max_work_bit_steps,
                });
            }
            if let (Some(t), Some(s)) = (trajectory.as_mut(), stride)
                && step % s == 0
            {
                record(t, step, &time, &world)?;
            }
        }
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
