//! Certified continuous contact of two constant-velocity spheres.

use crate::common;

use centl_physics::dims::LENGTH;
use centl_physics::{
    CertificateStatus, ContactCertificate, FirstContact, PhysicsError, Sphere,
    certify_linear_sphere_contact,
};
use common::{q, secs, sphere};
use exact::Rational;
use units::Quantity;

fn certify(a: &Sphere, b: &Sphere, t: &str) -> ContactCertificate {
    certify_linear_sphere_contact(a, b, &secs(t)).unwrap()
}

/// Two unit spheres 5 m apart closing at 2 m/s: f = 4t² − 20t + 21, roots 3/2 and 7/2.
fn head_on() -> (Sphere, Sphere) {
    (
        sphere("a", "1", "1", ["0", "0", "0"], ["1", "0", "0"]),
        sphere("b", "1", "1", ["5", "0", "0"], ["-1", "0", "0"]),
    )
}

#[test]
fn rational_first_contact_time() {
    let (a, b) = head_on();
    let c = certify(&a, &b, "4");
    assert_eq!(c.status, CertificateStatus::CrossingContact);
    assert_eq!(c.status.as_str(), "crossing_contact");
    assert_eq!(
        (
            c.polynomial.a.clone(),
            c.polynomial.b.clone(),
            c.polynomial.c.clone()
        ),
        (q("4"), q("-20"), q("21"))
    );
    assert_eq!(c.discriminant, q("64"));
    assert_eq!(c.closest_time, q("5/2"));
    assert_eq!(c.minimum_clearance, q("-4"));
    assert_eq!(c.first_contact, Some(FirstContact::Rational(q("3/2"))));
    assert_eq!((c.first_id.as_str(), c.second_id.as_str()), ("a", "b"));
}

#[test]
fn first_contact_at_the_interval_endpoint_is_a_crossing() {
    let (a, b) = head_on();
    let c = certify(&a, &b, "3/2");
    assert_eq!(c.closest_time, q("3/2"));
    assert_eq!(c.minimum_clearance, Rational::zero());
    assert!(c.discriminant.is_positive());
    assert_eq!(c.status, CertificateStatus::CrossingContact);
    assert_eq!(c.first_contact, Some(FirstContact::Rational(q("3/2"))));
}

#[test]
fn exact_tangent_contact() {
    // f = (t − 5)²: the spheres graze at t = 5.
    let a = sphere("a", "1", "1", ["0", "0", "0"], ["0", "0", "0"]);
    let b = sphere("b", "1", "1", ["-5", "2", "0"], ["1", "0", "0"]);
    for t in ["10", "5"] {
        let c = certify(&a, &b, t);
        assert_eq!(c.status, CertificateStatus::TangentContact, "T = {t}");
        assert_eq!(c.status.as_str(), "tangent_contact");
        assert_eq!(c.discriminant, Rational::zero());
        assert_eq!(c.first_contact, Some(FirstContact::Rational(q("5"))));
    }
    assert_eq!(
        certify(&a, &b, "49/10").status,
        CertificateStatus::NoContactInInterval
    );
}

#[test]
fn quadratic_irrational_first_contact_has_a_certified_bracket() {
    // r = (3,1,0), v = (−1,0,0), R = 2: f = t² − 6t + 6, first root 3 − √3.
    let a = sphere("a", "1", "1", ["0", "0", "0"], ["0", "0", "0"]);
    let b = sphere("b", "1", "1", ["3", "1", "0"], ["-1", "0", "0"]);
    let c = certify(&a, &b, "2");
    assert_eq!(c.status, CertificateStatus::CrossingContact);
    assert_eq!(c.discriminant, q("12"));
    let Some(FirstContact::Algebraic(alg)) = &c.first_contact else {
        panic!("expected an algebraic time, got {:?}", c.first_contact);
    };
    assert_eq!(alg.discriminant, q("12"));
    assert_eq!(alg.polynomial, c.polynomial);
    // lo < 3 − √3 < hi  ⟺  (3 − lo)² > 3 > (3 − hi)² for lo, hi < 3: an independent check.
    let contains_root = |lo: &Rational, hi: &Rational| {
        let three = q("3");
        let (dl, dh) = (&three - lo, &three - hi);
        lo < hi && &dl * &dl > three && &dh * &dh < three
    };
    assert!(contains_root(&alg.bracket.0, &alg.bracket.1));
    for width in ["1/10", "1/1000", "1e-30"] {
        let r = alg.refine(&q(width)).unwrap();
        let (lo, hi) = &r.bracket;
        assert!(hi - lo <= q(width));
        assert!(contains_root(lo, hi), "{width}: {lo} {hi}");
        assert!(c.polynomial.eval(lo).is_positive() && c.polynomial.eval(hi).is_negative());
    }
    assert!(matches!(
        alg.refine(&q("0")),
        Err(PhysicsError::NonPositiveWidth { .. })
    ));
    let too_fine = Rational::from(2)
        .pow(-i64::from(centl_physics::MAX_BISECTIONS))
        .unwrap();
    assert!(matches!(
        alg.refine(&too_fine),
        Err(PhysicsError::RefinementTooFine { .. })
    ));
}

#[test]
fn short_interval_no_contact() {
    let (a, b) = head_on();
    let c = certify(&a, &b, "1");
    assert_eq!(c.status, CertificateStatus::NoContactInInterval);
    assert_eq!(c.status.as_str(), "no_contact_in_interval");
    assert_eq!(c.closest_time, q("1"));
    assert_eq!(c.minimum_clearance, q("5"));
    assert_eq!(c.first_contact, None);
}

#[test]
fn parallel_and_stationary_misses() {
    let a = sphere("a", "1", "1", ["0", "0", "0"], ["1", "0", "0"]);
    let parallel = sphere("b", "1", "1", ["0", "5", "0"], ["1", "0", "0"]);
    let c = certify(&a, &parallel, "1000");
    assert_eq!(c.status, CertificateStatus::NoContactInInterval);
    assert_eq!(c.polynomial.a, Rational::zero());
    assert_eq!(c.closest_time, Rational::zero());
    assert_eq!(c.minimum_clearance, q("21"));
    let still_a = sphere("a", "1", "1", ["0", "0", "0"], ["0", "0", "0"]);
    let still_b = sphere("b", "1", "1", ["3", "0", "0"], ["0", "0", "0"]);
    assert_eq!(
        certify(&still_a, &still_b, "1000").status,
        CertificateStatus::NoContactInInterval
    );
    // Moving apart along a line: the vertex is before 0, so the minimum is at 0.
    let away = sphere("b", "1", "1", ["3", "0", "0"], ["2", "0", "0"]);
    let c = certify(&a, &away, "1000");
    assert_eq!(
        (c.status, c.closest_time.clone()),
        (CertificateStatus::NoContactInInterval, Rational::zero())
    );
}

#[test]
fn contact_at_time_zero_and_initial_overlap() {
    let a = sphere("a", "1", "1", ["0", "0", "0"], ["0", "0", "0"]);
    let touching = sphere("b", "1", "1", ["2", "0", "0"], ["1", "0", "0"]);
    let c = certify(&a, &touching, "1");
    assert_eq!(c.status.as_str(), "touching_at_start");
    assert_eq!(
        c.first_contact,
        Some(FirstContact::Rational(Rational::zero()))
    );
    let over = sphere("b", "1", "1", ["1", "0", "0"], ["1", "0", "0"]);
    let c = certify(&a, &over, "1");
    assert_eq!(c.status.as_str(), "initially_overlapping");
    assert_eq!(c.first_contact, None);
    // Zero duration: the verdict is the static one.
    let (a, b) = head_on();
    assert_eq!(
        certify(&a, &b, "0").status,
        CertificateStatus::NoContactInInterval
    );
    assert_eq!(
        certify(&a, &touching, "0").status,
        CertificateStatus::TouchingAtStart
    );
}

#[test]
fn distinct_ids_and_a_non_negative_time_duration_are_enforced() {
    let (a, b) = head_on();
    let twin = sphere("a", "1", "1", ["9", "0", "0"], ["0", "0", "0"]);
    assert_eq!(
        certify_linear_sphere_contact(&a, &twin, &secs("1")),
        Err(PhysicsError::SameParticle { id: "a".into() })
    );
    assert!(matches!(
        certify_linear_sphere_contact(&a, &b, &Quantity::new(q("1"), LENGTH)),
        Err(PhysicsError::WrongDimension {
            quantity: "duration",
            ..
        })
    ));
    assert_eq!(
        certify_linear_sphere_contact(&a, &b, &secs("-1/2")),
        Err(PhysicsError::NegativeDuration {
            duration: q("-1/2")
        })
    );
}
