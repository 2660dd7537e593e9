//! `elastic_collision_3d_at_contact`: the exact frictionless response of two particles the
//! caller asserts are in contact.

use crate::objects::{self, ConservationOut, PARTICLE, ParticleOut, unit};
use crate::schema::{Field, Kind};
use crate::table::to_json;
use crate::wire::{QuantityOut, VectorOut, q, vq};
use crate::{Action, Args, ProtocolError};
use centl_physics::{PhysicsError, elastic_collision_3d_at_contact};
use serde::Serialize;
use serde_json::Value;

/// Exact 3D elastic contact response.
pub struct ElasticCollision3d;

const ARGS: &[Field] = &[
    Field::req(
        "first",
        Kind::Object(PARTICLE),
        "first particle, at contact",
    ),
    Field::req(
        "second",
        Kind::Object(PARTICLE),
        "second particle, at contact",
    ),
];

#[derive(Serialize)]
struct Outcome {
    status: &'static str,
    first: ParticleOut,
    second: ParticleOut,
    normal: VectorOut,
    normal_relative_velocity: QuantityOut,
    impulse: VectorOut,
    conservation: ConservationOut,
    trust_boundary: &'static str,
}

impl Action for ElasticCollision3d {
    fn name(&self) -> &'static str {
        "elastic_collision_3d_at_contact"
    }

    fn summary(&self) -> &'static str {
        "Exact frictionless elastic response of two particles at a caller-supplied contact; no impulse when separating or stationary."
    }

    fn args(&self) -> &'static [Field] {
        ARGS
    }

    fn run(&self, args: &Args<'_>) -> Result<Value, ProtocolError> {
        let l = args.limits;
        let a = objects::particle(args.get("first").unwrap_or(&Value::Null), "args.first", l)?;
        let b = objects::particle(args.get("second").unwrap_or(&Value::Null), "args.second", l)?;
        let c = elastic_collision_3d_at_contact(&a, &b).map_err(|e| {
            let path = match e {
                PhysicsError::SameParticle { .. } => "args.second.id",
                _ => "args.second.position",
            };
            ProtocolError::physics_at(path, e)
        })?;
        Ok(to_json(Outcome {
            status: c.status.as_str(),
            first: ParticleOut::from(&c.first),
            second: ParticleOut::from(&c.second),
            normal: vq(c.normal.components(), unit::M),
            normal_relative_velocity: q(&c.normal_relative_velocity, unit::M2_PER_S),
            impulse: vq(c.impulse.components(), unit::MOMENTUM),
            conservation: ConservationOut::new(&c.momentum, &c.kinetic_energy),
            trust_boundary: c.trust_boundary.as_str(),
        }))
    }
}
