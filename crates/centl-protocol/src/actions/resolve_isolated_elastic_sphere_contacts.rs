//! `resolve_isolated_elastic_sphere_contacts`: exact elastic responses for disjoint touching
//! pairs, or a deferred verdict (a success) with the world unchanged.

use crate::objects::{self, ConservationOut, PairOut, SPHERE, SphereOut, spheres_out, unit};
use crate::schema::{Field, Kind};
use crate::table::to_json;
use crate::wire::{VectorOut, vq};
use crate::{Action, Args, ProtocolError};
use centl_physics::{Resolution, resolve_isolated_elastic_touching_contacts};
use serde::Serialize;
use serde_json::Value;

/// The isolated-contact resolver.
pub struct ResolveContacts;

const ARGS: &[Field] = &[Field::req(
    "spheres",
    Kind::List(&Kind::Object(SPHERE)),
    "ordered spheres with unique ids; at most 4,096 unordered pairs",
)];

#[derive(Serialize)]
struct Response {
    pair: PairOut,
    status: &'static str,
    impulse: VectorOut,
}

#[derive(Serialize)]
struct Completed {
    status: &'static str,
    spheres: Vec<SphereOut>,
    responses: Vec<Response>,
    conservation: ConservationOut,
}

#[derive(Serialize)]
struct Deferred {
    status: &'static str,
    reason: &'static str,
    world_unchanged: bool,
    spheres: Vec<SphereOut>,
    pairs: Vec<PairOut>,
    shared_ids: Vec<String>,
}

impl Action for ResolveContacts {
    fn name(&self) -> &'static str {
        "resolve_isolated_elastic_sphere_contacts"
    }

    fn summary(&self) -> &'static str {
        "Apply the exact 3D elastic response to every disjoint touching pair; defer (successfully, world unchanged) on overlap or shared simultaneous contacts."
    }

    fn args(&self) -> &'static [Field] {
        ARGS
    }

    fn run(&self, args: &Args<'_>) -> Result<Value, ProtocolError> {
        let spheres = args.get("spheres").unwrap_or(&Value::Null);
        let world = objects::sphere_world(spheres, "args.spheres", args.limits)?;
        crate::budget::pair_bounds(&world, args.limits)?;
        Ok(match resolve_isolated_elastic_touching_contacts(&world)? {
            Resolution::Completed(c) => to_json(Completed {
                status: "completed",
                spheres: spheres_out(&c.world),
                responses: c
                    .responses
                    .iter()
                    .map(|r| Response {
                        pair: PairOut::from(&r.contact),
                        status: r.status.as_str(),
                        impulse: vq(r.impulse.components(), unit::MOMENTUM),
                    })
                    .collect(),
                conservation: ConservationOut::new(&c.momentum, &c.kinetic_energy),
            }),
            Resolution::Deferred(d) => to_json(Deferred {
                status: "deferred",
                reason: d.reason.as_str(),
                world_unchanged: d.world == world,
                spheres: spheres_out(&d.world),
                pairs: d.pairs.iter().map(PairOut::from).collect(),
                shared_ids: d.shared_ids,
            }),
        })
    }
}
