//! Exact event stepping of two force-free spheres through a rational contact.

use crate::common;

use centl_physics::dims::LENGTH;
use centl_physics::{
    CertificateStatus, CompletedEvent, DeferredEvent, EventOutcome, InvariantReport,
    ResponseStatus, Sphere, Vec3, certify_linear_sphere_contact,
    evolve_linear_sphere_pair_through_contact,
};
use common::{pos, q, secs, sphere, vel};
use exact::Rational;

fn evolve(a: &Sphere, b: &Sphere, t: &str) -> EventOutcome {
    evolve_linear_sphere_pair_through_contact(a, b, &secs(t)).unwrap()
}

fn completed(a: &Sphere, b: &Sphere, t: &str) -> CompletedEvent {
    match evolve(a, b, t) {
        EventOutcome::Completed(c) => *c,
        other => panic!("expected completion, got {other:?}"),
    }
}

fn deferred(a: &Sphere, b: &Sphere, t: &str) -> DeferredEvent {
    match evolve(a, b, t) {
        EventOutcome::Deferred(d) => *d,
        other => panic!("expected deferral, got {other:?}"),
    }
}

/// Identity, mass and radius survive; momentum and energy are exactly conserved.
fn assert_preserved(before: (&Sphere, &Sphere), c: &CompletedEvent) {
    for (x, y) in [(before.0, &c.first), (before.1, &c.second)] {
        assert_eq!(x.id(), y.id());
        assert_eq!(x.radius(), y.radius());
        assert_eq!(x.particle().mass(), y.particle().mass());
    }
    assert_eq!(c.momentum, InvariantReport::ExactlyEqual);
    assert_eq!(c.kinetic_energy, InvariantReport::ExactlyEqual);
}

#[test]
fn no_contact_advances_linearly_for_the_whole_duration() {
    let a = sphere("a", "1", "1", ["0", "0", "0"], ["1", "0", "0"]);
    let b = sphere("b", "2", "1", ["5", "0", "0"], ["-1", "1/3", "0"]);
    let c = completed(&a, &b, "1");
    assert_eq!(c.certificate.status, CertificateStatus::NoContactInInterval);
    assert!(c.event.is_none());
    assert_eq!(c.first.particle().position(), &pos(["1", "0", "0"]));
    assert_eq!(c.second.particle().position(), &pos(["4", "1/3", "0"]));
    assert!(c.first_change.position_changed && !c.first_change.velocity_changed);
    assert_preserved((&a, &b), &c);
}

#[test]
fn head_on_event_then_exact_remainder() {
    // Masses 3 and 1 meet at t = 3/2; 1D closed form: (1, −1) -> (0, 2).
    let a = sphere("a", "3", "1", ["0", "0", "0"], ["1", "0", "0"]);
    let b = sphere("b", "1", "1", ["5", "0", "0"], ["-1", "0", "0"]);
    let c = completed(&a, &b, "4");
    let e = c.event.as_ref().unwrap();
    assert_eq!(e.time, q("3/2"));
    assert_eq!(e.first.particle().position(), &pos(["3/2", "0", "0"]));
    assert_eq!(e.second.particle().position(), &pos(["7/2", "0", "0"]));
    assert_eq!(
        e.evidence.squared_center_distance,
        e.evidence.squared_radius_sum
    );
    assert_eq!(e.response, ResponseStatus::Resolved);
    assert_eq!(c.first.particle().velocity(), &vel(["0", "0", "0"]));
    assert_eq!(c.second.particle().velocity(), &vel(["2", "0", "0"]));
    assert_eq!(c.first.particle().position(), &pos(["3/2", "0", "0"]));
    assert_eq!(c.second.particle().position(), &pos(["17/2", "0", "0"]));
    assert!(c.first_change.velocity_changed && c.second_change.velocity_changed);
    assert_preserved((&a, &b), &c);
}

#[test]
fn event_exactly_at_the_interval_end() {
    let a = sphere("a", "1", "1", ["0", "0", "0"], ["1", "0", "0"]);
    let b = sphere("b", "1", "1", ["5", "0", "0"], ["-1", "0", "0"]);
    let c = completed(&a, &b, "3/2");
    assert_eq!(c.certificate.status, CertificateStatus::CrossingContact);
    assert_eq!(c.event.as_ref().unwrap().time, q("3/2"));
    // The response is applied; no time remains to move.
    assert_eq!(c.first.particle().position(), &pos(["3/2", "0", "0"]));
    assert_eq!(c.first.particle().velocity(), &vel(["-1", "0", "0"]));
    assert_eq!(c.second.particle().velocity(), &vel(["1", "0", "0"]));
    assert_preserved((&a, &b), &c);
}

#[test]
fn oblique_fractional_event() {
    // Built backwards from a contact at t = 2/3 along n = (1/2, 2/3, 0), |n| = 5/6 = r_a + r_b.
    let (va, vb) = (vel(["1/3", "1/4", "-1/5"]), vel(["-1/2", "0", "1/3"]));
    let te = q("2/3");
    let xa_e = pos(["1/5", "0", "1/7"]);
    let xb_e = pos(["7/10", "2/3", "1/7"]);
    let back = |x: &Vec3, v: &Vec3| {
        let dx = Vec3::new(v.x() * &te, v.y() * &te, v.z() * &te, LENGTH);
        x.checked_sub(&dx).unwrap()
    };
    let a = common::particle("a", "2/3", ["0", "0", "0"], ["0", "0", "0"])
        .with_state(back(&xa_e, &va), va.clone())
        .unwrap();
    let b = common::particle("b", "7/4", ["0", "0", "0"], ["0", "0", "0"])
        .with_state(back(&xb_e, &vb), vb.clone())
        .unwrap();
    let a = Sphere::new(a, &units::Quantity::new(q("1/2"), LENGTH)).unwrap();
    let b = Sphere::new(b, &units::Quantity::new(q("1/3"), LENGTH)).unwrap();
    let c = completed(&a, &b, "1");
    let e = c.event.as_ref().unwrap();
    assert_eq!(e.time, te);
    assert_eq!(e.first.particle().position(), &xa_e);
    assert_eq!(e.second.particle().position(), &xb_e);
    assert_eq!(e.response, ResponseStatus::Resolved);
    // Independent characterisation of the elastic response: the velocity changes are parallel
    // to n, the normal relative speed reverses, the tangential relative velocity is kept.
    let n = xb_e.checked_sub(&xa_e).unwrap();
    let (va2, vb2) = (
        c.first.particle().velocity(),
        c.second.particle().velocity(),
    );
    assert!(va2.checked_sub(&va).unwrap().cross(&n).is_zero());
    assert!(vb2.checked_sub(&vb).unwrap().cross(&n).is_zero());
    let (w, w2) = (vb.checked_sub(&va).unwrap(), vb2.checked_sub(va2).unwrap());
    assert_eq!(w2.dot(&n).value(), &-w.dot(&n).value().clone());
    assert_eq!(w2.cross(&n), w.cross(&n));
    // Final positions: the exact remainder 1/3 s at the new velocities.
    let third = q("1/3");
    let fwd = |x: &Vec3, v: &Vec3| {
        Vec3::new(
            x.x() + v.x() * &third,
            x.y() + v.y() * &third,
            x.z() + v.z() * &third,
            LENGTH,
        )
    };
    assert_eq!(c.first.particle().position(), &fwd(&xa_e, va2));
    assert_eq!(c.second.particle().position(), &fwd(&xb_e, vb2));
    assert_preserved((&a, &b), &c);
    // After the response the remaining segment holds no second contact: the certificate from
    // the post-response state touches only at its start and then separates.
    let rest = certify_linear_sphere_contact(
        &e.first.clone().with_velocity_for_test(va2),
        &e.second.clone().with_velocity_for_test(vb2),
        &secs("1/3"),
    )
    .unwrap();
    assert_eq!(rest.status, CertificateStatus::TouchingAtStart);
    assert!(rest.polynomial.b.is_positive());
}

trait WithVelocity {
    fn with_velocity_for_test(self, v: &Vec3) -> Sphere;
}

impl WithVelocity for Sphere {
    fn with_velocity_for_test(self, v: &Vec3) -> Sphere {
        let r = units::Quantity::new(self.radius().clone(), LENGTH);
        Sphere::new(self.particle().with_velocity(v.clone()).unwrap(), &r).unwrap()
    }
}

#[test]
fn touching_at_start_approaching_and_separating() {
    let a = sphere("a", "1", "1", ["0", "0", "0"], ["1", "0", "0"]);
    let b = sphere("b", "1", "1", ["2", "0", "0"], ["0", "0", "0"]);
    let c = completed(&a, &b, "1");
    assert_eq!(c.certificate.status, CertificateStatus::TouchingAtStart);
    let e = c.event.as_ref().unwrap();
    assert_eq!(
        (e.time.clone(), e.response),
        (Rational::zero(), ResponseStatus::Resolved)
    );
    assert_eq!(c.first.particle().position(), &pos(["0", "0", "0"]));
    assert_eq!(c.second.particle().position(), &pos(["3", "0", "0"]));
    assert_preserved((&a, &b), &c);

    let leaving = sphere("a", "1", "1", ["0", "0", "0"], ["-1", "0", "0"]);
    let c = completed(&leaving, &b, "1");
    let e = c.event.as_ref().unwrap();
    assert_eq!(e.response, ResponseStatus::SeparatingOrStationary);
    assert!(e.impulse.is_zero());
    assert_eq!(c.first.particle().position(), &pos(["-1", "0", "0"]));
    assert_eq!(c.second.particle(), b.particle());
    assert!(!c.first_change.velocity_changed && !c.second_change.velocity_changed);
}

#[test]
fn tangent_event_applies_no_impulse() {
    let a = sphere("a", "1", "1", ["0", "0", "0"], ["0", "0", "0"]);
    let b = sphere("b", "1", "1", ["-5", "2", "0"], ["1", "0", "0"]);
    let c = completed(&a, &b, "10");
    assert_eq!(c.certificate.status, CertificateStatus::TangentContact);
    let e = c.event.as_ref().unwrap();
    assert_eq!(e.time, q("5"));
    assert_eq!(e.second.particle().position(), &pos(["0", "2", "0"]));
    assert_eq!(e.response, ResponseStatus::SeparatingOrStationary);
    assert_eq!(c.second.particle().position(), &pos(["5", "2", "0"]));
    assert_eq!(c.second.particle().velocity(), b.particle().velocity());
}

#[test]
fn irrational_time_completes_and_initial_overlap_defers_unchanged() {
    let a = sphere("a", "1", "1", ["0", "0", "0"], ["0", "0", "0"]);
    let b = sphere("b", "1", "1", ["3", "1", "0"], ["-1", "0", "0"]);
    // t* = 3 − √3 (tests/irrational_event.rs checks the values against sympy).
    assert!(matches!(
        evolve(&a, &b, "2"),
        EventOutcome::CompletedIrrational(_)
    ));
    let over = sphere("b", "1", "1", ["1", "0", "0"], ["-1", "0", "0"]);
    let d = deferred(&a, &over, "2");
    assert_eq!(d.reason.as_str(), "initial_overlap");
    assert_eq!(
        d.certificate.status,
        CertificateStatus::InitiallyOverlapping
    );
    assert_eq!((&d.first, &d.second), (&a, &over));
    // Over a shorter interval the irrational root is outside: completes linearly.
    assert!(matches!(evolve(&a, &b, "1"), EventOutcome::Completed(_)));
}

#[test]
fn zero_duration() {
    let a = sphere("a", "1", "1", ["0", "0", "0"], ["1", "0", "0"]);
    let far = sphere("b", "1", "1", ["5", "0", "0"], ["-1", "0", "0"]);
    let c = completed(&a, &far, "0");
    assert!(c.event.is_none());
    assert_eq!((&c.first, &c.second), (&a, &far));
    assert!(!c.first_change.position_changed && !c.first_change.velocity_changed);
    // Touching and approaching at a zero-length interval: the response still happens at t = 0.
    let touching = sphere("b", "1", "1", ["2", "0", "0"], ["0", "0", "0"]);
    let c = completed(&a, &touching, "0");
    assert_eq!(c.event.as_ref().unwrap().response, ResponseStatus::Resolved);
    assert_eq!(c.first.particle().position(), a.particle().position());
    assert_eq!(c.second.particle().velocity(), &vel(["1", "0", "0"]));
    assert!(matches!(
        evolve_linear_sphere_pair_through_contact(&a, &far, &secs("-1")),
        Err(centl_physics::PhysicsError::NegativeDuration { .. })
    ));
}
