//! `diagnostics`: exact momentum, kinetic and potential energies, and invariant comparison of
//! two states.

use crate::objects::{
    self, CheckOut, PARTICLE, POTENTIAL_KIND, force_kind, momentum_out, scalar_check, unit,
    vector_check,
};
use crate::schema::{Field, Kind};
use crate::table::to_json;
use crate::wire::{QuantityOut, VectorOut, q};
use crate::{Action, Args, Limits, ProtocolError};
use centl_physics::dims::{ENERGY, LENGTH};
use centl_physics::{
    Particle, Vec3, World, compare_scalar, compare_vector, gravity_potential_energy,
    spring_potential_energy,
};
use exact::Rational;
use serde::Serialize;
use serde_json::Value;
use units::Quantity;

/// Exact diagnostics of one state, optionally compared with a second.
pub struct Diagnostics;

const ARGS: &[Field] = &[
    Field::opt(
        "particle",
        Kind::Object(PARTICLE),
        "one particle (or give `world`)",
    ),
    Field::opt(
        "world",
        Kind::List(&Kind::Object(PARTICLE)),
        "ordered particles",
    ),
    Field::opt(
        "potentials",
        Kind::List(&POTENTIAL_KIND),
        "conservative force models whose potential energy to include (gravity, spring)",
    ),
    Field::opt(
        "reference",
        Kind::Vector(LENGTH),
        "zero of the gravity potential; default the origin",
    ),
    Field::opt(
        "after",
        Kind::List(&Kind::Object(PARTICLE)),
        "a later state of the same particles, to compare invariants against",
    ),
];

#[derive(Serialize)]
struct Potential {
    kind: String,
    energy: QuantityOut,
}

#[derive(Serialize)]
struct State {
    momentum: VectorOut,
    kinetic_energy: QuantityOut,
    potentials: Vec<Potential>,
    mechanical_energy: QuantityOut,
}

#[derive(Serialize)]
struct Comparison {
    momentum: CheckOut<VectorOut>,
    kinetic_energy: CheckOut<QuantityOut>,
    mechanical_energy: CheckOut<QuantityOut>,
}

#[derive(Serialize)]
struct Outcome {
    particles: usize,
    before: State,
    #[serde(skip_serializing_if = "Option::is_none")]
    after: Option<State>,
    #[serde(skip_serializing_if = "Option::is_none")]
    comparison: Option<Comparison>,
}

struct Measured {
    momentum: Vec3,
    kinetic: Quantity,
    potentials: Vec<(String, Rational)>,
    mechanical: Quantity,
}

fn measure(
    particles: &[Particle],
    potentials: Option<&Value>,
    reference: &Vec3,
    l: &Limits,
) -> Result<Measured, ProtocolError> {
    let w = World::new(particles.to_vec())?;
    let mut list = Vec::new();
    let mut total = w.kinetic_energy().value().clone();
    for (i, f) in potentials
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let path = format!("args.potentials[{i}]");
        let kind = force_kind(f);
        let mut energy = Rational::zero();
        for p in particles {
            let e = if kind == "gravity" {
                gravity_potential_energy(p, &objects::gravity(f, &path, l)?, reference)
            } else {
                spring_potential_energy(p, &objects::spring(f, &path, l)?)
            }
            .map_err(|e| ProtocolError::physics_at(path.clone(), e))?;
            energy += e.value();
        }
        total += &energy;
        list.push((kind.to_string(), energy));
    }
    Ok(Measured {
        momentum: w.momentum(),
        kinetic: w.kinetic_energy(),
        potentials: list,
        mechanical: Quantity::new(total, ENERGY),
    })
}

fn state(m: &Measured) -> State {
    State {
        momentum: momentum_out(&m.momentum),
        kinetic_energy: q(m.kinetic.value(), unit::J),
        potentials: m
            .potentials
            .iter()
            .map(|(kind, e)| Potential {
                kind: kind.clone(),
                energy: q(e, unit::J),
            })
            .collect(),
        mechanical_energy: q(m.mechanical.value(), unit::J),
    }
}

impl Action for Diagnostics {
    fn name(&self) -> &'static str {
        "diagnostics"
    }

    fn summary(&self) -> &'static str {
        "Exact momentum, kinetic energy, gravity and spring potential energy, and exact invariant comparison with a later state."
    }

    fn args(&self) -> &'static [Field] {
        ARGS
    }

    fn run(&self, args: &Args<'_>) -> Result<Value, ProtocolError> {
        let l = args.limits;
        let before: Vec<Particle> = match (args.get("particle"), args.get("world")) {
            (Some(p), None) => vec![objects::particle(p, "args.particle", l)?],
            (None, Some(w)) => objects::world(w, "args.world", l)?.into_particles(),
            _ => {
                return Err(ProtocolError::InvalidValue {
                    path: "args".into(),
                    reason: "give exactly one of `particle` or `world`".into(),
                });
            }
        };
        let reference = match args.get("reference") {
            Some(_) => Vec3::from_components(args.vector("reference", LENGTH)?, LENGTH),
            None => Vec3::zero(LENGTH),
        };
        let potentials = args.get("potentials");
        let m_before = measure(&before, potentials, &reference, l)?;
        let (after, comparison) = match args.get("after") {
            None => (None, None),
            Some(a) => {
                let after = objects::world(a, "args.after", l)?.into_particles();
                if after.len() != before.len()
                    || after.iter().zip(&before).any(|(x, y)| x.id() != y.id())
                {
                    return Err(ProtocolError::InvalidValue {
                        path: "args.after".into(),
                        reason: "must list the same particle ids in the same order".into(),
                    });
                }
                let m_after = measure(&after, potentials, &reference, l)?;
                let cmp = Comparison {
                    momentum: vector_check(
                        &compare_vector(&m_before.momentum, &m_after.momentum)?,
                        unit::MOMENTUM,
                    ),
                    kinetic_energy: scalar_check(
                        &compare_scalar(&m_before.kinetic, &m_after.kinetic)?,
                        unit::J,
                    ),
                    mechanical_energy: scalar_check(
                        &compare_scalar(&m_before.mechanical, &m_after.mechanical)?,
                        unit::J,
                    ),
                };
                (Some(state(&m_after)), Some(cmp))
            }
        };
        Ok(to_json(Outcome {
            particles: before.len(),
            before: state(&m_before),
            after,
            comparison,
        }))
    }
}
