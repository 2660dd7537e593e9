//! `analyze_sphere_contacts`: exact classification of every unordered sphere pair, without
//! mutation. Every pair is counted; only non-separated pairs are listed.

use crate::objects::{self, PairOut, SPHERE};
use crate::schema::{Field, Kind};
use crate::table::to_json;
use crate::{Action, Args, ProtocolError};
use centl_physics::{ContactFilter, analyze_sphere_contacts};
use serde::Serialize;
use serde_json::Value;

/// Exact sphere contact analysis of a world.
pub struct AnalyzeSphereContacts;

const ARGS: &[Field] = &[
    Field::req(
        "spheres",
        Kind::List(&Kind::Object(SPHERE)),
        "ordered spheres with unique ids; at most 4,096 unordered pairs",
    ),
    Field::opt(
        "touching_only",
        Kind::Flag,
        "list only exactly touching pairs (default false: touching and overlapping)",
    ),
];

#[derive(Serialize)]
struct Summary {
    spheres: usize,
    pairs: usize,
    separated: usize,
    touching: usize,
    overlapping: usize,
}

#[derive(Serialize)]
struct Outcome {
    summary: Summary,
    listed: &'static str,
    pairs: Vec<PairOut>,
}

impl Action for AnalyzeSphereContacts {
    fn name(&self) -> &'static str {
        "analyze_sphere_contacts"
    }

    fn summary(&self) -> &'static str {
        "Classify every unordered sphere pair as separated, touching or overlapping with exact squared-distance evidence; nothing is moved."
    }

    fn args(&self) -> &'static [Field] {
        ARGS
    }

    fn run(&self, args: &Args<'_>) -> Result<Value, ProtocolError> {
        let spheres = args.get("spheres").unwrap_or(&Value::Null);
        let world = objects::sphere_world(spheres, "args.spheres", args.limits)?;
        crate::budget::pair_bounds(&world, args.limits)?;
        let (filter, listed) = if args.flag("touching_only", false) {
            (ContactFilter::TouchingOnly, "touching")
        } else {
            (ContactFilter::NonSeparated, "non_separated")
        };
        let r = analyze_sphere_contacts(&world, filter);
        Ok(to_json(Outcome {
            summary: Summary {
                spheres: world.len(),
                pairs: r.pair_count,
                separated: r.separated,
                touching: r.touching,
                overlapping: r.overlapping,
            },
            listed,
            pairs: r.pairs.iter().map(PairOut::from).collect(),
        }))
    }
}
