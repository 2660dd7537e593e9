//! Exact event stepping of two force-free spheres through their first contact.
//!
//! Certify the interval; if first contact is at a rational time, drift both spheres exactly to
//! it, re-check that they touch, apply the 3D elastic response and drift for the exact
//! remainder. A quadratic-irrational first contact `t* = (−b − √D)/(2a)` runs the same steps
//! in Q(√D) ([`crate::quadratic_event`]), so the states after it are exact elements of that
//! field. Initial overlap defers with both spheres unchanged.

use crate::collision::{ResponseStatus, elastic_collision_3d_at_contact};
use crate::contact::{ContactEvidence, ContactStatus};
use crate::continuous::{
    CertificateStatus, ContactCertificate, FirstContact, certify_linear_sphere_contact,
};
use crate::diagnostics::{InvariantReport, compare_scalar, compare_vector};
use crate::quadratic_event::{QuadraticCompleted, QuadraticOutcome, evolve_quadratic_sphere_pair};
use crate::world::{total_kinetic_energy, total_momentum};
use crate::{PhysicsError, Sphere, Vec3};
use exact::{QuadraticNumber, Rational};
use units::Quantity;

/// Why event stepping declined to advance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventDeferral {
    /// The spheres overlap at the start.
    InitialOverlap,
}

impl EventDeferral {
    /// `initial_overlap`.
    pub fn as_str(self) -> &'static str {
        match self {
            EventDeferral::InitialOverlap => "initial_overlap",
        }
    }
}

/// The contact event inside a completed step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContactEvent {
    /// The exact event time (s from the start of the step).
    pub time: Rational,
    /// The first sphere at the event, before the response.
    pub first: Sphere,
    /// The second sphere at the event, before the response.
    pub second: Sphere,
    /// The exact touching evidence, re-checked at the event state.
    pub evidence: ContactEvidence,
    /// Whether the response applied an impulse.
    pub response: ResponseStatus,
    /// Impulse on the first sphere (kg·m/s).
    pub impulse: Vec3,
}

/// What changed for one sphere over the step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SphereChange {
    /// The final position differs from the initial one.
    pub position_changed: bool,
    /// The final velocity differs from the initial one.
    pub velocity_changed: bool,
}

/// A step that ran to the end of the interval.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompletedEvent {
    /// The certificate for the whole interval.
    pub certificate: ContactCertificate,
    /// The contact, when one occurred.
    pub event: Option<ContactEvent>,
    /// The first sphere at the end of the interval.
    pub first: Sphere,
    /// The second sphere at the end of the interval.
    pub second: Sphere,
    /// Change of the first sphere.
    pub first_change: SphereChange,
    /// Change of the second sphere.
    pub second_change: SphereChange,
    /// Pair momentum at the end minus at the start.
    pub momentum: InvariantReport<Vec3>,
    /// Pair kinetic energy at the end minus at the start.
    pub kinetic_energy: InvariantReport,
}

/// A step that was declined; the spheres are the inputs, unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeferredEvent {
    /// Why.
    pub reason: EventDeferral,
    /// The certificate that led to the deferral.
    pub certificate: ContactCertificate,
    /// The first sphere as given.
    pub first: Sphere,
    /// The second sphere as given.
    pub second: Sphere,
}

/// A step through a quadratic-irrational contact, run exactly in Q(√D).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IrrationalCompletedEvent {
    /// The certificate for the whole interval (its first contact is algebraic).
    pub certificate: ContactCertificate,
    /// The step in Q(√D): the event, the final states and the exact conservation deltas.
    pub step: QuadraticCompleted,
}

/// The outcome of [`evolve_linear_sphere_pair_through_contact`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventOutcome {
    /// The step ran to the end of the interval.
    Completed(Box<CompletedEvent>),
    /// The step ran to the end of the interval through a contact at an irrational time; the
    /// event and the final states are exact elements of Q(√D).
    CompletedIrrational(Box<IrrationalCompletedEvent>),
    /// The step was declined without modifying anything.
    Deferred(Box<DeferredEvent>),
}

/// Advances two force-free spheres over `duration` (a non-negative time) through at most one
/// exact contact event, rational or quadratic-irrational. After an admitted event the response
/// leaves the pair non-approaching, so the constant-velocity remainder holds no second contact
/// of the same pair.
pub fn evolve_linear_sphere_pair_through_contact(
    first: &Sphere,
    second: &Sphere,
    duration: &Quantity,
) -> Result<EventOutcome, PhysicsError> {
    let certificate = certify_linear_sphere_contact(first, second, duration)?;
    let deferred = |reason, certificate| {
        Ok(EventOutcome::Deferred(Box::new(DeferredEvent {
            reason,
            certificate,
            first: first.clone(),
            second: second.clone(),
        })))
    };
    let event_time = match (&certificate.status, &certificate.first_contact) {
        (CertificateStatus::InitiallyOverlapping, _) => {
            return deferred(EventDeferral::InitialOverlap, certificate);
        }
        (_, Some(FirstContact::Algebraic(_))) => {
            return irrational(first, second, certificate);
        }
        (_, Some(FirstContact::Rational(t))) => Some(t.clone()),
        (_, None) => None,
    };
    let duration = certificate.duration.clone();
    let (event, end_first, end_second) = match event_time {
        None => (None, drift(first, &duration), drift(second, &duration)),
        Some(t) => {
            let at_first = drift(first, &t);
            let at_second = drift(second, &t);
            let evidence = ContactEvidence::between(&at_first, &at_second);
            if evidence.status() != ContactStatus::Touching {
                return Err(PhysicsError::EventRecheckFailed {
                    squared_center_distance: evidence.squared_center_distance,
                    squared_radius_sum: evidence.squared_radius_sum,
                });
            }
            let response =
                elastic_collision_3d_at_contact(at_first.particle(), at_second.particle())?;
            let remainder = &duration - &t;
            let end_first = drift(&at_first.with_particle(response.first), &remainder);
            let end_second = drift(&at_second.with_particle(response.second), &remainder);
            let event = ContactEvent {
                time: t,
                first: at_first,
                second: at_second,
                evidence,
                response: response.status,
                impulse: response.impulse,
            };
            (Some(event), end_first, end_second)
        }
    };
    let pair = |a: &Sphere, b: &Sphere| [a.particle().clone(), b.particle().clone()];
    let (before, after) = (pair(first, second), pair(&end_first, &end_second));
    Ok(EventOutcome::Completed(Box::new(CompletedEvent {
        momentum: compare_vector(&total_momentum(&before), &total_momentum(&after))?,
        kinetic_energy: compare_scalar(
            &total_kinetic_energy(&before),
            &total_kinetic_energy(&after),
        )?,
        first_change: change(first, &end_first),
        second_change: change(second, &end_second),
        certificate,
        event,
        first: end_first,
        second: end_second,
    })))
}

/// The step through an irrational first contact, in Q(√D).
fn irrational(
    first: &Sphere,
    second: &Sphere,
    certificate: ContactCertificate,
) -> Result<EventOutcome, PhysicsError> {
    let duration = QuadraticNumber::from_rational(certificate.duration.clone());
    let outcome = evolve_quadratic_sphere_pair(&first.into(), &second.into(), &duration)?;
    match outcome {
        QuadraticOutcome::Completed(step) => Ok(EventOutcome::CompletedIrrational(Box::new(
            IrrationalCompletedEvent {
                certificate,
                step: *step,
            },
        ))),
        // Rational states never need a second radical and the certificate ruled out overlap;
        // a disagreement with it is a defect, reported with the start geometry.
        QuadraticOutcome::Deferred(_) => {
            let sum = first.radius() + second.radius();
            let squared_radius_sum = &sum * &sum;
            Err(PhysicsError::EventRecheckFailed {
                squared_center_distance: &certificate.polynomial.c + &squared_radius_sum,
                squared_radius_sum,
            })
        }
    }
}

fn drift(s: &Sphere, t: &Rational) -> Sphere {
    s.with_particle(s.particle().drifted(t))
}

fn change(before: &Sphere, after: &Sphere) -> SphereChange {
    SphereChange {
        position_changed: before.particle().position() != after.particle().position(),
        velocity_changed: before.particle().velocity() != after.particle().velocity(),
    }
}
