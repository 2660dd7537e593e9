//! `evolve_linear_sphere_pair_through_contact`: advance two force-free spheres through at most
//! one exact contact event, at a rational time or at a quadratic-irrational one (then the
//! states are written as elements of Q(√D), see `irrational_event.rs`). Initial overlap is a
//! successful deferred verdict with both spheres unchanged.

use super::certify_linear_sphere_contact::{
    CertificateOut, PAIR_ARGS, check_certificate_bits, pair_error, read_pair,
};
use crate::objects::{ConservationOut, EvidenceOut, SphereOut, unit};
use crate::schema::Field;
use crate::table::to_json;
use crate::wire::{self, QuantityOut, VectorOut, q, vq};
use crate::{Action, Args, ProtocolError};
use centl_physics::{EventOutcome, SphereChange, evolve_linear_sphere_pair_through_contact};
use serde::Serialize;
use serde_json::Value;

/// Exact event stepping of a sphere pair.
pub struct EvolveContact;

/// What the event step does and does not claim.
const TRUST_BOUNDARY: &[&str] = &[
    "two_spheres_only",
    "force_free_constant_velocity",
    "rational_or_quadratic_irrational_event_time",
    "event_state_rechecked_exactly_touching",
    "at_most_one_event",
    "no_force_integration",
    "no_simultaneous_contact_solving",
];

#[derive(Serialize)]
struct EventOut {
    time: QuantityOut,
    first: SphereOut,
    second: SphereOut,
    evidence: EvidenceOut,
    response: &'static str,
    impulse: VectorOut,
}

#[derive(Serialize)]
struct ChangeOut {
    position_changed: bool,
    velocity_changed: bool,
}

impl From<SphereChange> for ChangeOut {
    fn from(c: SphereChange) -> Self {
        ChangeOut {
            position_changed: c.position_changed,
            velocity_changed: c.velocity_changed,
        }
    }
}

#[derive(Serialize)]
struct Completed {
    status: &'static str,
    certificate: CertificateOut,
    event: Option<EventOut>,
    first: SphereOut,
    second: SphereOut,
    first_change: ChangeOut,
    second_change: ChangeOut,
    conservation: ConservationOut,
    trust_boundary: &'static [&'static str],
}

#[derive(Serialize)]
struct Deferred {
    status: &'static str,
    reason: &'static str,
    spheres_unchanged: bool,
    certificate: CertificateOut,
    first: SphereOut,
    second: SphereOut,
    trust_boundary: &'static [&'static str],
}

impl Action for EvolveContact {
    fn name(&self) -> &'static str {
        "evolve_linear_sphere_pair_through_contact"
    }

    fn summary(&self) -> &'static str {
        "Advance two force-free spheres over [0, duration] through at most one exact contact event with the elastic response; an irrational event time runs exactly in Q(sqrt D); defer (successfully, unchanged) on initial overlap."
    }

    fn args(&self) -> &'static [Field] {
        PAIR_ARGS
    }

    fn run(&self, args: &Args<'_>) -> Result<Value, ProtocolError> {
        let (a, b, t) = read_pair(args)?;
        let outcome = evolve_linear_sphere_pair_through_contact(&a, &b, &t).map_err(pair_error)?;
        Ok(match outcome {
            EventOutcome::Completed(c) => {
                check_certificate_bits(&c.certificate, args.limits)?;
                let mut all = Vec::new();
                for s in [&c.first, &c.second] {
                    let p = s.particle();
                    all.extend(p.position().components().iter());
                    all.extend(p.velocity().components().iter());
                }
                wire::check_bits(all, 0, args.limits)?;
                to_json(Completed {
                    status: "completed",
                    certificate: CertificateOut::from(&c.certificate),
                    event: c.event.as_ref().map(|e| EventOut {
                        time: q(&e.time, unit::S),
                        first: SphereOut::from(&e.first),
                        second: SphereOut::from(&e.second),
                        evidence: EvidenceOut::from(&e.evidence),
                        response: e.response.as_str(),
                        impulse: vq(e.impulse.components(), unit::MOMENTUM),
                    }),
                    first: SphereOut::from(&c.first),
                    second: SphereOut::from(&c.second),
                    first_change: c.first_change.into(),
                    second_change: c.second_change.into(),
                    conservation: ConservationOut::new(&c.momentum, &c.kinetic_energy),
                    trust_boundary: TRUST_BOUNDARY,
                })
            }
            EventOutcome::CompletedIrrational(c) => {
                super::irrational_event::reply(&c, (&a, &b), TRUST_BOUNDARY, args.limits)?
            }
            EventOutcome::Deferred(d) => {
                check_certificate_bits(&d.certificate, args.limits)?;
                to_json(Deferred {
                    status: "deferred",
                    reason: d.reason.as_str(),
                    spheres_unchanged: d.first == a && d.second == b,
                    certificate: CertificateOut::from(&d.certificate),
                    first: SphereOut::from(&d.first),
                    second: SphereOut::from(&d.second),
                    trust_boundary: TRUST_BOUNDARY,
                })
            }
        })
    }
}
