//! Event stepping through a contact at a quadratic-irrational time (issue 26 item 2).
//!
//! The reference values come from sympy (`tests/sympy/irrational_contact.py`, output committed
//! in `tests/data/irrational_contact_sympy.txt`): its own root solver and the textbook elastic
//! formula, in exact radicals. Python is not needed to run this test.

use crate::common;

use centl_physics::{
    CertificateStatus, EventOutcome, FirstContact, IrrationalCompletedEvent, QuadraticDeferral,
    QuadraticOutcome, QuadraticSphere, ResponseStatus, Sphere,
    evolve_linear_sphere_pair_through_contact, evolve_quadratic_sphere_pair,
};
use common::{q, secs, sphere};
use exact::{QuadraticNumber, Rational};
use std::collections::HashMap;

const REFERENCE: &str = include_str!("data/irrational_contact_sympy.txt");

/// The inputs of the sympy cases, in the same order and spelling as the script.
fn cases() -> Vec<(&'static str, Sphere, Sphere, &'static str)> {
    vec![
        (
            "head_on_sqrt3",
            sphere("a", "1", "1", ["0", "0", "0"], ["0", "0", "0"]),
            sphere("b", "1", "1", ["3", "1", "0"], ["-1", "0", "0"]),
            "2",
        ),
        (
            "oblique_unequal",
            sphere("p", "3/2", "1", ["-2", "1/3", "1/4"], ["3/2", "0", "-1/5"]),
            sphere("q", "5", "4/3", ["1", "-1/2", "1"], ["-1/3", "1/7", "0"]),
            "4",
        ),
        (
            "endpoint_side",
            sphere("u", "2", "1", ["0", "0", "0"], ["1", "1", "0"]),
            sphere("v", "7/3", "1", ["5", "1", "1/2"], ["-1", "0", "1/9"]),
            "3",
        ),
    ]
}

/// `(case, quantity, component) → value` from the committed sympy output.
fn reference() -> HashMap<(String, String, usize), QuadraticNumber> {
    REFERENCE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let value = QuadraticNumber::new(q(f[3]), q(f[4]), &q(f[5])).unwrap();
            ((f[0].into(), f[1].into(), f[2].parse().unwrap()), value)
        })
        .collect()
}

fn irrational(a: &Sphere, b: &Sphere, t: &str) -> IrrationalCompletedEvent {
    match evolve_linear_sphere_pair_through_contact(a, b, &secs(t)).unwrap() {
        EventOutcome::CompletedIrrational(c) => *c,
        other => panic!("expected an irrational completion, got {other:?}"),
    }
}

#[test]
fn irrational_contacts_agree_with_sympy() {
    let reference = reference();
    let want = |case: &str, quantity: &str, i: usize| {
        reference
            .get(&(case.to_string(), quantity.to_string(), i))
            .unwrap_or_else(|| panic!("no reference for {case} {quantity} {i}"))
            .clone()
    };
    for (case, a, b, duration) in cases() {
        let done = irrational(&a, &b, duration);
        assert_eq!(done.certificate.status, CertificateStatus::CrossingContact);
        let event = done.step.event.as_ref().expect("an event");
        assert_eq!(event.time, want(case, "time", 0), "{case} time");
        assert!(!event.time.is_rational(), "{case}: the time is irrational");
        // The certificate's rational bracket holds the exact time.
        let Some(FirstContact::Algebraic(alg)) = &done.certificate.first_contact else {
            panic!("{case}: the certificate keeps an algebraic time");
        };
        let (lo, hi) = &alg.bracket;
        assert!(
            !event
                .time
                .checked_sub(&lo.clone().into())
                .unwrap()
                .is_negative()
        );
        assert!(
            !QuadraticNumber::from(hi.clone())
                .checked_sub(&event.time)
                .unwrap()
                .is_negative()
        );
        assert_eq!(event.response, ResponseStatus::Resolved);
        for i in 0..3 {
            let pairs = [
                ("event_first_position", &event.first.position[i]),
                ("event_second_position", &event.second.position[i]),
                ("final_first_velocity", &done.step.first.velocity[i]),
                ("final_second_velocity", &done.step.second.velocity[i]),
                ("final_first_position", &done.step.first.position[i]),
                ("final_second_position", &done.step.second.position[i]),
            ];
            for (name, got) in pairs {
                assert_eq!(got, &want(case, name, i), "{case} {name}[{i}]");
            }
        }
        assert!(done.step.momentum_conserved(), "{case} momentum");
        assert!(done.step.kinetic_energy_conserved(), "{case} energy");
        assert_eq!(done.step.first.id, a.id());
        assert_eq!(done.step.second.radius, *b.radius());
    }
}

#[test]
fn the_documented_sqrt3_case_prints_exactly() {
    let (_, a, b, t) = cases().swap_remove(0);
    let done = irrational(&a, &b, t);
    let event = done.step.event.unwrap();
    assert_eq!(event.time.to_string(), "3 - √3");
    assert_eq!(done.step.second.position[0].to_string(), "1/4 + 3/4·√3");
}

fn n(a: &str, b: &str, d: &str) -> QuadraticNumber {
    QuadraticNumber::new(q(a), q(b), &q(d)).unwrap()
}

fn qs(id: &str, x: [QuadraticNumber; 3], v: [QuadraticNumber; 3]) -> QuadraticSphere {
    QuadraticSphere {
        id: id.into(),
        mass: Rational::one(),
        radius: Rational::one(),
        position: x,
        velocity: v,
    }
}

#[test]
fn a_state_in_q_sqrt3_steps_again_when_its_time_stays_in_the_field() {
    // Touching at the origin and (2, 0, 0), approaching; run back by τ = 1 + √3 and forward
    // by τ + 1: the contact must be found at exactly τ.
    let tau = n("1", "1", "3");
    let (xa, va) = (
        [n("0", "0", "1"), n("0", "0", "1"), n("0", "0", "1")],
        [n("1", "0", "1"), n("0", "0", "1"), n("0", "0", "1")],
    );
    let (xb, vb) = (
        [n("2", "0", "1"), n("0", "0", "1"), n("0", "0", "1")],
        [n("0", "-1", "3"), n("1", "0", "1"), n("0", "0", "1")],
    );
    let back = |x: &[QuadraticNumber; 3], v: &[QuadraticNumber; 3]| {
        [0, 1, 2].map(|i| x[i].checked_sub(&v[i].checked_mul(&tau).unwrap()).unwrap())
    };
    let a = qs("a", back(&xa, &va), va.clone());
    let b = qs("b", back(&xb, &vb), vb.clone());
    let out = evolve_quadratic_sphere_pair(&a, &b, &tau.add_rational(&Rational::one())).unwrap();
    let QuadraticOutcome::Completed(done) = out else {
        panic!("expected completion, got {out:?}");
    };
    let event = done.event.as_ref().unwrap();
    assert_eq!(event.time, tau);
    assert_eq!(event.first.position, xa);
    assert_eq!(event.second.position, xb);
    assert!(done.momentum_conserved() && done.kinetic_energy_conserved());
}

#[test]
fn a_second_radical_defers_naming_both_fields() {
    // The first sphere after the √3 contact, against a resting rational sphere in its path.
    let (_, a, b, t) = cases().swap_remove(0);
    let done = irrational(&a, &b, t);
    let moving = done.step.first.clone();
    let target = QuadraticSphere::from(&sphere("c", "1", "1", ["-3", "-2", "0"], ["0", "0", "0"]));
    let out =
        evolve_quadratic_sphere_pair(&moving, &target, &QuadraticNumber::from(q("10"))).unwrap();
    let QuadraticOutcome::Deferred(reason) = out else {
        panic!("expected a deferral, got {out:?}");
    };
    assert_eq!(reason.as_str(), "nested_radical_event_time");
    let QuadraticDeferral::NestedRadicalEventTime {
        state_radicand,
        event_discriminant,
    } = reason
    else {
        unreachable!()
    };
    assert_eq!(state_radicand, q("3"));
    assert!(!event_discriminant.is_rational());
    assert_eq!(event_discriminant.radicand(), q("3"));
    assert!(event_discriminant.is_positive());
    assert!(event_discriminant.sqrt_in_field(&q("3")).is_none());
}

#[test]
fn mixed_fields_and_overlap_are_refused_or_deferred() {
    let a = qs(
        "a",
        [n("0", "1", "2"), n("0", "0", "1"), n("0", "0", "1")],
        [n("0", "0", "1"), n("0", "0", "1"), n("0", "0", "1")],
    );
    let b = qs(
        "b",
        [n("5", "1", "3"), n("0", "0", "1"), n("0", "0", "1")],
        [n("-1", "0", "1"), n("0", "0", "1"), n("0", "0", "1")],
    );
    let err = evolve_quadratic_sphere_pair(&a, &b, &QuadraticNumber::one()).unwrap_err();
    assert_eq!(err.code(), "quadratic_arithmetic");
    let over = qs(
        "b",
        [n("1", "0", "1"), n("0", "0", "1"), n("0", "0", "1")],
        [n("0", "0", "1"), n("0", "0", "1"), n("0", "0", "1")],
    );
    let out = evolve_quadratic_sphere_pair(&a, &over, &QuadraticNumber::one()).unwrap();
    assert_eq!(
        out,
        QuadraticOutcome::Deferred(QuadraticDeferral::InitialOverlap)
    );
}
