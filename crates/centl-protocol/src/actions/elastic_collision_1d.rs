//! `elastic_collision_1d`: the ideal elastic collision of two bodies on a line.

use crate::objects::{CheckOut, scalar_check, unit};
use crate::schema::{Field, Kind};
use crate::table::to_json;
use crate::wire::{QuantityOut, q};
use crate::{Action, Args, ProtocolError};
use centl_physics::dims::{MASS, VELOCITY};
use centl_physics::{PhysicsError, elastic_collision_1d};
use serde::Serialize;
use serde_json::Value;
use units::{Dimension, Quantity};

/// Exact final velocities of a 1D elastic collision.
pub struct ElasticCollision1d;

const ARGS: &[Field] = &[
    Field::req("m1", Kind::Quantity(MASS), "first mass, positive"),
    Field::req("u1", Kind::Quantity(VELOCITY), "first velocity before"),
    Field::req("m2", Kind::Quantity(MASS), "second mass, positive"),
    Field::req("u2", Kind::Quantity(VELOCITY), "second velocity before"),
];

#[derive(Serialize)]
struct Outcome {
    first_velocity: QuantityOut,
    second_velocity: QuantityOut,
    conservation: Conservation1d,
}

#[derive(Serialize)]
struct Conservation1d {
    momentum: CheckOut<QuantityOut>,
    kinetic_energy: CheckOut<QuantityOut>,
}

impl Action for ElasticCollision1d {
    fn name(&self) -> &'static str {
        "elastic_collision_1d"
    }

    fn summary(&self) -> &'static str {
        "Ideal perfectly elastic collision of two positive masses on one line, exactly."
    }

    fn args(&self) -> &'static [Field] {
        ARGS
    }

    fn run(&self, args: &Args<'_>) -> Result<Value, ProtocolError> {
        let read = |name: &str, dim: Dimension| -> Result<Quantity, ProtocolError> {
            Ok(Quantity::new(args.quantity(name, dim)?, dim))
        };
        let (m1, u1) = (read("m1", MASS)?, read("u1", VELOCITY)?);
        let (m2, u2) = (read("m2", MASS)?, read("u2", VELOCITY)?);
        let c = elastic_collision_1d(&m1, &u1, &m2, &u2).map_err(|e| {
            let path = match &e {
                PhysicsError::NonPositiveMass { id, .. } if id == "second" => "args.m2",
                PhysicsError::NonPositiveMass { .. } => "args.m1",
                _ => "args",
            };
            ProtocolError::physics_at(path, e)
        })?;
        Ok(to_json(Outcome {
            first_velocity: q(&c.first_velocity, unit::M_PER_S),
            second_velocity: q(&c.second_velocity, unit::M_PER_S),
            conservation: Conservation1d {
                momentum: scalar_check(&c.momentum, unit::MOMENTUM),
                kinetic_energy: scalar_check(&c.kinetic_energy, unit::J),
            },
        }))
    }
}
