//! The wire form of an event step through a quadratic-irrational contact: the same shape as a
//! rational completion, with every state component and the event time written as an element
//! of Q(√D) (`{"rational", "sqrt_coefficient", "radicand"}` plus its printed `text`).

use super::certify_linear_sphere_contact::{CertificateOut, check_certificate_bits};
use crate::objects::unit;
use crate::table::to_json;
use crate::wire::{self, QuadraticQuantityOut, QuadraticVectorOut, QuantityOut, q, qq, qv};
use crate::{Limits, ProtocolError};
use centl_physics::{IrrationalCompletedEvent, QuadraticSphere, Sphere};
use exact::QuadraticNumber;
use serde::Serialize;
use serde_json::Value;

/// A sphere whose state lies in Q(√D).
#[derive(Serialize)]
pub(super) struct FieldSphereOut {
    id: String,
    mass: QuantityOut,
    position: QuadraticVectorOut,
    velocity: QuadraticVectorOut,
    radius: QuantityOut,
}

impl From<&QuadraticSphere> for FieldSphereOut {
    fn from(s: &QuadraticSphere) -> Self {
        FieldSphereOut {
            id: s.id.clone(),
            mass: q(&s.mass, unit::KG),
            position: qv(&s.position, unit::M),
            velocity: qv(&s.velocity, unit::M_PER_S),
            radius: q(&s.radius, unit::M),
        }
    }
}

#[derive(Serialize)]
struct FieldEventOut {
    time: QuadraticQuantityOut,
    first: FieldSphereOut,
    second: FieldSphereOut,
    squared_center_distance: QuadraticQuantityOut,
    squared_radius_sum: QuantityOut,
    response: &'static str,
    impulse: QuadraticVectorOut,
}

#[derive(Serialize)]
struct FieldCheckOut<T> {
    exactly_equal: bool,
    delta: T,
}

#[derive(Serialize)]
struct FieldConservationOut {
    momentum: FieldCheckOut<QuadraticVectorOut>,
    kinetic_energy: FieldCheckOut<QuadraticQuantityOut>,
}

#[derive(Serialize)]
struct ChangeOut {
    position_changed: bool,
    velocity_changed: bool,
}

#[derive(Serialize)]
struct IrrationalCompleted {
    status: &'static str,
    event_time_kind: &'static str,
    field_radicand: String,
    certificate: CertificateOut,
    event: Option<FieldEventOut>,
    first: FieldSphereOut,
    second: FieldSphereOut,
    first_change: ChangeOut,
    second_change: ChangeOut,
    conservation: FieldConservationOut,
    trust_boundary: &'static [&'static str],
}

fn change(before: &Sphere, after: &QuadraticSphere) -> ChangeOut {
    let lifted = QuadraticSphere::from(before);
    ChangeOut {
        position_changed: lifted.position != after.position,
        velocity_changed: lifted.velocity != after.velocity,
    }
}

/// The reply for a completed step through an irrational contact, held to the bit limit.
pub(super) fn reply(
    c: &IrrationalCompletedEvent,
    inputs: (&Sphere, &Sphere),
    trust_boundary: &'static [&'static str],
    limits: &Limits,
) -> Result<Value, ProtocolError> {
    check_certificate_bits(&c.certificate, limits)?;
    let step = &c.step;
    let mut all: Vec<&QuadraticNumber> = Vec::new();
    for s in [&step.first, &step.second] {
        all.extend(s.position.iter().chain(&s.velocity));
    }
    if let Some(event) = &step.event {
        all.extend([&event.time, &event.squared_center_distance]);
        for s in [&event.first, &event.second] {
            all.extend(s.position.iter().chain(&s.velocity));
        }
        all.extend(&event.impulse);
    }
    all.extend(&step.momentum_delta);
    all.push(&step.kinetic_energy_delta);
    wire::check_quadratic_bits(all, limits)?;
    let radius_sum = &step.first.radius + &step.second.radius;
    let field_radicand = step
        .event
        .as_ref()
        .map_or_else(|| "1".to_string(), |e| e.time.radicand().to_string());
    Ok(to_json(IrrationalCompleted {
        status: "completed",
        event_time_kind: "quadratic_irrational",
        field_radicand,
        certificate: CertificateOut::from(&c.certificate),
        event: step.event.as_ref().map(|event| FieldEventOut {
            time: qq(&event.time, unit::S),
            first: (&event.first).into(),
            second: (&event.second).into(),
            squared_center_distance: qq(&event.squared_center_distance, unit::M2),
            squared_radius_sum: q(&(&radius_sum * &radius_sum), unit::M2),
            response: event.response.as_str(),
            impulse: qv(&event.impulse, unit::MOMENTUM),
        }),
        first: (&step.first).into(),
        second: (&step.second).into(),
        first_change: change(inputs.0, &step.first),
        second_change: change(inputs.1, &step.second),
        conservation: FieldConservationOut {
            momentum: FieldCheckOut {
                exactly_equal: step.momentum_conserved(),
                delta: qv(&step.momentum_delta, unit::MOMENTUM),
            },
            kinetic_energy: FieldCheckOut {
                exactly_equal: step.kinetic_energy_conserved(),
                delta: qq(&step.kinetic_energy_delta, unit::J),
            },
        },
        trust_boundary,
    }))
}
