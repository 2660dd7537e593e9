//! `evolve_sphere_world_events`: a world of spheres advanced event by event to a target time
//! (optionally under one uniform gravity), every event exact, irrational times included; a
//! second radical, a shared simultaneous contact or initial overlap defer with the state
//! reached. Held to the pair, bit and work limits and to cancellation after every event.

use super::irrational_event::FieldSphereOut;
use crate::objects::{self, SPHERE, unit};
use crate::schema::{Field, Kind};
use crate::table::to_json;
use crate::wire::{self, QuadraticQuantityOut, QuadraticVectorOut, qq, qv};
use crate::{Action, Args, ProtocolError};
use centl_physics::dims::{ACCELERATION, LENGTH, TIME};
use centl_physics::{
    EventWorldRun, MAX_WORLD_EVENTS, Partner, Vec3, Wall, WorldDeferral,
    evolve_sphere_world_events_observed,
};
use exact::QuadraticNumber;
use serde::Serialize;
use serde_json::{Value, json};
use std::ops::ControlFlow;

/// The event-driven sphere world.
pub struct WorldEvents;

const ARGS: &[Field] = &[
    Field::req(
        "spheres",
        Kind::List(&Kind::Object(SPHERE)),
        "ordered spheres with unique ids; at most 4,096 unordered pairs",
    ),
    Field::req(
        "duration",
        Kind::Quantity(TIME),
        "the target time, not negative",
    ),
    Field::opt(
        "gravity",
        Kind::Vector(ACCELERATION),
        "one uniform gravitational acceleration for every sphere (default none)",
    ),
    Field::opt(
        "walls",
        Kind::List(&Kind::Object(WALL)),
        "fixed planes x[axis] = position of infinite mass (default none)",
    ),
    Field::opt(
        "max_events",
        Kind::Count { min: 1 },
        "most events to take (default and ceiling 100,000)",
    ),
];

const WALL: &[Field] = &[
    Field::req(
        "axis",
        Kind::Count { min: 0 },
        "0, 1 or 2: the plane is x[axis] = position",
    ),
    Field::req("position", Kind::Quantity(LENGTH), "where the plane is"),
    Field::req(
        "keeps",
        Kind::Text,
        "`above` (spheres stay at x[axis] ≥ position) or `below`",
    ),
];

/// Reads the `walls` argument.
fn walls(args: &Args<'_>) -> Result<Vec<Wall>, ProtocolError> {
    let Some(list) = args.get("walls").and_then(Value::as_array) else {
        return Ok(Vec::new());
    };
    list.iter()
        .enumerate()
        .map(|(i, w)| {
            let path = format!("args.walls[{i}]");
            let axis = w["axis"].as_u64().unwrap_or(u64::MAX);
            let position = wire::quantity(
                &w["position"],
                &format!("{path}.position"),
                LENGTH,
                args.limits,
            )?;
            let keeps_above = match w["keeps"].as_str() {
                Some("above") => true,
                Some("below") => false,
                _ => {
                    return Err(ProtocolError::InvalidValue {
                        path: format!("{path}.keeps"),
                        reason: "`above` or `below`".into(),
                    });
                }
            };
            let axis = usize::try_from(axis).unwrap_or(usize::MAX);
            Wall::new(axis, position, keeps_above)
                .map_err(|e| ProtocolError::physics_at(format!("{path}.axis"), e))
        })
        .collect()
}

const TRUST_BOUNDARY: &[&str] = &[
    "constant_velocity_or_uniform_gravity",
    "exact_sphere_geometry",
    "exact_event_times_in_one_quadratic_field",
    "frictionless_elastic_response",
    "disjoint_simultaneous_contacts_only",
    "no_time_sampling",
];

#[derive(Serialize)]
struct EventOut {
    time: QuadraticQuantityOut,
    first: String,
    second: String,
    response: &'static str,
    kinetic_energy: QuadraticQuantityOut,
    energy: QuadraticQuantityOut,
    momentum: QuadraticVectorOut,
}

#[derive(Serialize)]
struct CheckOut<T> {
    exactly_equal: bool,
    delta: T,
}

#[derive(Serialize)]
struct Outcome {
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<Value>,
    field_radicand: String,
    time: QuadraticQuantityOut,
    events: Vec<EventOut>,
    spheres: Vec<FieldSphereOut>,
    energy: CheckOut<QuadraticQuantityOut>,
    momentum: CheckOut<QuadraticVectorOut>,
    trust_boundary: &'static [&'static str],
}

/// Every exact number of the run, for the bit check of the reply.
fn numbers(run: &EventWorldRun) -> Vec<&QuadraticNumber> {
    let mut all: Vec<&QuadraticNumber> = vec![&run.time];
    for s in &run.spheres {
        all.extend(s.position.iter().chain(&s.velocity));
    }
    for e in &run.events {
        all.extend([&e.time, &e.kinetic_energy, &e.energy]);
        all.extend(&e.momentum);
    }
    all
}

/// A partner's name: a sphere's id, or `wall[k]`.
fn partner(p: &Partner, ids: &[String]) -> String {
    match p {
        Partner::Sphere(j) => ids[*j].clone(),
        Partner::Wall(w) => format!("wall[{w}]"),
    }
}

fn detail(d: &WorldDeferral, ids: &[String]) -> Value {
    match d {
        WorldDeferral::InitialOverlap { first, second } => {
            json!({"first": ids[*first], "second": partner(second, ids)})
        }
        WorldDeferral::RestingContact { sphere, wall } => {
            json!({"sphere": ids[*sphere], "wall": wall})
        }
        WorldDeferral::AmbiguousSimultaneousContacts { sphere } => json!({"sphere": ids[*sphere]}),
        WorldDeferral::NestedRadicalEventTime {
            first,
            second,
            state_radicand,
            event_discriminant,
        } => json!({
            "first": ids[*first],
            "second": partner(second, ids),
            "state_radicand": state_radicand.to_string(),
            "event_discriminant": event_discriminant.to_string(),
        }),
        WorldDeferral::EventLimit { limit } => json!({"limit": limit}),
        WorldDeferral::Stopped => Value::Null,
    }
}

impl Action for WorldEvents {
    fn name(&self) -> &'static str {
        "evolve_sphere_world_events"
    }

    fn summary(&self) -> &'static str {
        "Advance a world of spheres (constant velocity, optional uniform gravity) event by event to a target time with exact elastic contacts, irrational event times included; defer with the state reached on a second radical, a shared simultaneous contact or initial overlap."
    }

    fn args(&self) -> &'static [Field] {
        ARGS
    }

    fn run(&self, args: &Args<'_>) -> Result<Value, ProtocolError> {
        let l = args.limits;
        let spheres = args.get("spheres").unwrap_or(&Value::Null);
        // The pairs are examined, never listed, so the particle limit bounds the world.
        let world = objects::sphere_world_unlisted(spheres, "args.spheres", l)?;
        crate::budget::pair_work(&world, l)?;
        let duration = objects::time(
            args.get("duration").unwrap_or(&Value::Null),
            "args.duration",
            l,
        )?;
        let gravity = match args.get("gravity") {
            Some(_) => Some(Vec3::from_components(
                args.vector("gravity", ACCELERATION)?,
                ACCELERATION,
            )),
            None => None,
        };
        let max_events = args
            .count("max_events")
            .map_or(MAX_WORLD_EVENTS, |n| {
                usize::try_from(n).unwrap_or(MAX_WORLD_EVENTS)
            })
            .min(MAX_WORLD_EVENTS);
        let pairs = world.pair_count() as u64;
        let mut work: u64 = 0;
        let mut stop: Option<ProtocolError> = None;
        let observe = |spheres: &[centl_physics::QuadraticSphere], events: usize| {
            let step = events as u64;
            let mut check = || -> Result<(), ProtocolError> {
                args.cancel.check(step)?;
                let bits = spheres
                    .iter()
                    .flat_map(|s| s.position.iter().chain(&s.velocity))
                    .map(QuadraticNumber::bits)
                    .max()
                    .unwrap_or(0);
                if bits > l.max_rational_bits {
                    return Err(ProtocolError::RationalTooLarge {
                        bits,
                        step,
                        limit: l.max_rational_bits,
                        path: None,
                    });
                }
                work = work.saturating_add(
                    pairs.saturating_mul((bits as u64).max(crate::limits::MIN_STEP_BITS)),
                );
                if work > l.max_work_bit_steps {
                    return Err(ProtocolError::WorkLimitExceeded {
                        work,
                        step,
                        limit: l.max_work_bit_steps,
                    });
                }
                Ok(())
            };
            match check() {
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => {
                    stop = Some(e);
                    ControlFlow::Break(())
                }
            }
        };
        let walls = walls(args)?;
        let run = evolve_sphere_world_events_observed(
            &world,
            gravity.as_ref(),
            &walls,
            &duration,
            max_events,
            observe,
        )
        .map_err(|e| ProtocolError::physics_at("args", e))?;
        if let Some(e) = stop {
            return Err(e);
        }
        wire::check_quadratic_bits(numbers(&run), l)?;
        let ids: Vec<String> = world.spheres().iter().map(|s| s.id().to_string()).collect();
        let (_, _, energy_end, momentum_end) = totals(&run, gravity.as_ref())?;
        let energy_delta = energy_end
            .checked_sub(&run.initial_energy)
            .map_err(physics)?;
        let momentum_delta = sub3(&momentum_end, &run.initial_momentum)?;
        let field_radicand = numbers(&run)
            .into_iter()
            .find(|x| !x.is_rational())
            .map_or_else(|| "1".to_string(), |x| x.radicand().to_string());
        Ok(to_json(Outcome {
            status: if run.deferred.is_some() {
                "deferred"
            } else {
                "completed"
            },
            reason: run.deferred.as_ref().map(WorldDeferral::as_str),
            detail: run.deferred.as_ref().map(|d| detail(d, &ids)),
            field_radicand,
            time: qq(&run.time, unit::S),
            events: run
                .events
                .iter()
                .map(|e| EventOut {
                    time: qq(&e.time, unit::S),
                    first: ids[e.first].clone(),
                    second: partner(&e.second, &ids),
                    response: e.response.as_str(),
                    kinetic_energy: qq(&e.kinetic_energy, unit::J),
                    energy: qq(&e.energy, unit::J),
                    momentum: qv(&e.momentum, unit::MOMENTUM),
                })
                .collect(),
            spheres: run.spheres.iter().map(FieldSphereOut::from).collect(),
            energy: CheckOut {
                exactly_equal: energy_delta.is_zero(),
                delta: qq(&energy_delta, unit::J),
            },
            momentum: CheckOut {
                exactly_equal: momentum_delta.iter().all(QuadraticNumber::is_zero),
                delta: qv(&momentum_delta, unit::MOMENTUM),
            },
            trust_boundary: TRUST_BOUNDARY,
        }))
    }
}

fn physics(e: exact::ArithmeticError) -> ProtocolError {
    ProtocolError::physics_at("args", e.into())
}

fn sub3(
    a: &[QuadraticNumber; 3],
    b: &[QuadraticNumber; 3],
) -> Result<[QuadraticNumber; 3], ProtocolError> {
    Ok([
        a[0].checked_sub(&b[0]).map_err(physics)?,
        a[1].checked_sub(&b[1]).map_err(physics)?,
        a[2].checked_sub(&b[2]).map_err(physics)?,
    ])
}

/// Kinetic energy, potential `−Σ m g·x`, mechanical energy and momentum of the end state.
#[allow(clippy::type_complexity)]
fn totals(
    run: &EventWorldRun,
    gravity: Option<&Vec3>,
) -> Result<
    (
        QuadraticNumber,
        QuadraticNumber,
        QuadraticNumber,
        [QuadraticNumber; 3],
    ),
    ProtocolError,
> {
    let g = gravity.map_or_else(
        || {
            [
                QuadraticNumber::zero(),
                QuadraticNumber::zero(),
                QuadraticNumber::zero(),
            ]
        },
        |g| g.components().clone().map(QuadraticNumber::from_rational),
    );
    let mut kinetic = QuadraticNumber::zero();
    let mut potential = QuadraticNumber::zero();
    let mut momentum = [
        QuadraticNumber::zero(),
        QuadraticNumber::zero(),
        QuadraticNumber::zero(),
    ];
    for s in &run.spheres {
        kinetic = kinetic
            .checked_add(
                &s.kinetic_energy()
                    .map_err(|e| ProtocolError::physics_at("args", e))?,
            )
            .map_err(physics)?;
        let mut gx = QuadraticNumber::zero();
        for (gc, xc) in g.iter().zip(&s.position) {
            gx = gx
                .checked_add(&gc.checked_mul(xc).map_err(physics)?)
                .map_err(physics)?;
        }
        potential = potential.checked_sub(&gx.scale(&s.mass)).map_err(physics)?;
        for (k, v) in s.velocity.iter().enumerate() {
            momentum[k] = momentum[k]
                .checked_add(&v.scale(&s.mass))
                .map_err(physics)?;
        }
    }
    let energy = kinetic.checked_add(&potential).map_err(physics)?;
    Ok((kinetic, potential, energy, momentum))
}

#[cfg(test)]
mod tests {
    use crate::{CancelFlag, Limits, ProtocolError, dispatch_cancellable};
    use serde_json::{Value, json};

    fn ball(id: &str, x: &str, v: &str) -> Value {
        json!({"id": id, "mass": {"value": "1", "unit": "kg"},
               "position": {"value": [x, "0", "0"], "unit": "m"},
               "velocity": {"value": [v, "0", "0"], "unit": "m/s"},
               "radius": {"value": "1/2", "unit": "m"}})
    }

    /// Four balls, six pairs, three events at t = 1, 2, 3.
    fn cradle() -> Value {
        json!({"spheres": [ball("a", "0", "1"), ball("b", "2", "0"), ball("c", "4", "0"), ball("d", "6", "0")],
               "duration": {"value": "5", "unit": "s"}})
    }

    fn run(limits: &Limits, cancel: &CancelFlag) -> Result<Value, ProtocolError> {
        dispatch_cancellable(
            "evolve_sphere_world_events",
            Some(&cradle()),
            limits,
            cancel,
        )
    }

    #[test]
    fn the_work_budget_is_charged_per_event() {
        // Six pairs × 64 bits = 384 per event (and 384 up front for the inputs).
        let limits = |budget| Limits {
            max_work_bit_steps: budget,
            ..Limits::default()
        };
        assert!(run(&limits(3 * 384), &CancelFlag::new()).is_ok());
        let e = run(&limits(2 * 384), &CancelFlag::new()).unwrap_err();
        assert_eq!(
            e,
            ProtocolError::WorkLimitExceeded {
                work: 3 * 384,
                step: 3,
                limit: 2 * 384
            }
        );
    }

    #[test]
    fn a_cancelled_run_stops() {
        let cancel = CancelFlag::new();
        cancel.cancel();
        assert_eq!(
            run(&Limits::default(), &cancel).unwrap_err(),
            ProtocolError::Cancelled { step: 0 }
        );
    }
}
