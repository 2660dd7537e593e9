//! Randomised properties: no panics, exact conservation, and agreement with independent
//! integer and all-pairs references.

use centl_physics::dims::{LENGTH, MASS, TIME, VELOCITY};
use centl_physics::{
    CertificateStatus, ContactEvidence, ContactFilter, ContactStatus, EventOutcome, FirstContact,
    InvariantReport, Particle, Resolution, Sphere, SphereWorld, Vec3, analyze_sphere_contacts,
    certify_linear_sphere_contact, classify_all_pairs, classify_broad_phase,
    elastic_collision_3d_at_contact, evolve_linear_sphere_pair_through_contact,
    resolve_isolated_elastic_touching_contacts,
};
use exact::Rational;
use proptest::prelude::*;
use units::Quantity;

fn rat(n: i64, d: i64) -> Rational {
    Rational::new(n, d).unwrap()
}

fn small() -> impl Strategy<Value = Rational> {
    (-20i64..=20, 1i64..=6).prop_map(|(n, d)| rat(n, d))
}

fn positive() -> impl Strategy<Value = Rational> {
    (1i64..=9, 1i64..=4).prop_map(|(n, d)| rat(n, d))
}

fn vec3(dim: units::Dimension) -> impl Strategy<Value = Vec3> {
    [small(), small(), small()].prop_map(move |[x, y, z]| Vec3::new(x, y, z, dim))
}

fn sphere_with(id: String, m: Rational, r: Rational, x: Vec3, v: Vec3) -> Sphere {
    let p = Particle::new(id, &Quantity::new(m, MASS), x, v).unwrap();
    Sphere::new(p, &Quantity::new(r, LENGTH)).unwrap()
}

fn sphere(id: &'static str) -> impl Strategy<Value = Sphere> {
    (positive(), positive(), vec3(LENGTH), vec3(VELOCITY))
        .prop_map(move |(m, r, x, v)| sphere_with(id.to_string(), m, r, x, v))
}

/// Spheres on a coarse grid, so that touching and overlapping pairs are common.
fn grid_world(max: usize) -> impl Strategy<Value = SphereWorld> {
    prop::collection::vec(
        ([-4i64..=4, -4i64..=4, -4i64..=4], 1i64..=2, 1i64..=4),
        0..max,
    )
    .prop_map(|cells| {
        let spheres = cells
            .into_iter()
            .enumerate()
            .map(|(i, ([x, y, z], d, r))| {
                let pos = Vec3::new(rat(x, d), rat(y, d), rat(z, d), LENGTH);
                sphere_with(
                    format!("s{i}"),
                    rat(1, 1),
                    rat(r, 2),
                    pos,
                    Vec3::zero(VELOCITY),
                )
            })
            .collect();
        SphereWorld::new(spheres).unwrap()
    })
}

/// A rational point on the unit sphere: (2s, 2t, s² + t² − 1) / (s² + t² + 1).
fn unit_direction() -> impl Strategy<Value = [Rational; 3]> {
    (small(), small()).prop_map(|(s, t)| {
        let n = &s * &s + &t * &t;
        let den = &n + Rational::one();
        let two = Rational::from(2);
        [
            (&two * &s).checked_div(&den).unwrap(),
            (&two * &t).checked_div(&den).unwrap(),
            (n - Rational::one()).checked_div(&den).unwrap(),
        ]
    })
}

/// Two spheres exactly touching, with random masses, radii and velocities.
fn touching_pair() -> impl Strategy<Value = (Sphere, Sphere)> {
    (
        sphere("a"),
        positive(),
        positive(),
        unit_direction(),
        vec3(VELOCITY),
    )
        .prop_map(|(a, m, r, u, v)| {
            let reach = a.radius() + &r;
            let x = a.particle().position();
            let pos = Vec3::new(
                x.x() + &u[0] * &reach,
                x.y() + &u[1] * &reach,
                x.z() + &u[2] * &reach,
                LENGTH,
            );
            let b = sphere_with("b".into(), m, r, pos, v);
            (a, b)
        })
}

fn drifted(s: &Sphere, t: &Rational) -> Vec3 {
    let (x, v) = (s.particle().position(), s.particle().velocity());
    Vec3::new(
        x.x() + v.x() * t,
        x.y() + v.y() * t,
        x.z() + v.z() * t,
        LENGTH,
    )
}

/// f(t) computed independently from drifted positions.
fn clearance(a: &Sphere, b: &Sphere, t: &Rational) -> Rational {
    let (xa, xb) = (drifted(a, t), drifted(b, t));
    let d = [xb.x() - xa.x(), xb.y() - xa.y(), xb.z() - xa.z()];
    let r = a.radius() + b.radius();
    d.iter().map(|c| c * c).sum::<Rational>() - &r * &r
}

fn sum_momentum(ps: &[&Particle]) -> [Rational; 3] {
    let mut total = [Rational::zero(), Rational::zero(), Rational::zero()];
    for p in ps {
        for (t, v) in total.iter_mut().zip(p.velocity().components()) {
            *t += p.mass() * v;
        }
    }
    total
}

fn sum_energy(ps: &[&Particle]) -> Rational {
    ps.iter()
        .map(|p| {
            p.mass()
                * p.velocity()
                    .components()
                    .iter()
                    .map(|c| c * c)
                    .sum::<Rational>()
        })
        .sum::<Rational>()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn random_configurations_never_panic(
        spheres in prop::collection::vec((small(), small(), vec3(LENGTH), vec3(VELOCITY)), 0..8),
        duration in small(),
    ) {
        let mut valid = Vec::new();
        for (i, (m, r, x, v)) in spheres.into_iter().enumerate() {
            // Invalid masses and radii are refused, never a panic.
            if let Ok(p) = Particle::new(format!("p{i}"), &Quantity::new(m, MASS), x, v)
                && let Ok(s) = Sphere::new(p, &Quantity::new(r, LENGTH))
            {
                valid.push(s);
            }
        }
        let world = SphereWorld::new(valid.clone()).unwrap();
        let _ = analyze_sphere_contacts(&world, ContactFilter::All);
        let _ = resolve_isolated_elastic_touching_contacts(&world).unwrap();
        let t = Quantity::new(duration, TIME);
        for a in &valid {
            for b in &valid {
                let _ = certify_linear_sphere_contact(a, b, &t);
                let _ = evolve_linear_sphere_pair_through_contact(a, b, &t);
                let _ = elastic_collision_3d_at_contact(a.particle(), b.particle());
            }
        }
    }

    #[test]
    fn broad_phase_equals_all_pairs(world in grid_world(40)) {
        for filter in [ContactFilter::NonSeparated, ContactFilter::TouchingOnly] {
            prop_assert_eq!(classify_broad_phase(&world, filter), classify_all_pairs(&world, filter));
        }
        let all = classify_all_pairs(&world, ContactFilter::All);
        let report = analyze_sphere_contacts(&world, ContactFilter::NonSeparated);
        let count = |s| all.iter().filter(|p| p.status == s).count();
        prop_assert_eq!(report.separated, count(ContactStatus::Separated));
        prop_assert_eq!(report.touching, count(ContactStatus::Touching));
        prop_assert_eq!(report.overlapping, count(ContactStatus::Overlapping));
    }

    #[test]
    fn classifier_agrees_with_integer_arithmetic(
        coords in prop::array::uniform6((-40i64..=40, 1i64..=12)),
        radii in prop::array::uniform2((1i64..=40, 1i64..=12)),
    ) {
        // Scale every value by the product of all denominators and compare in i128.
        let scale: i128 = coords.iter().chain(&radii).map(|(_, d)| i128::from(*d)).product();
        let int = |(n, d): (i64, i64)| i128::from(n) * (scale / i128::from(d));
        let mut dist2: i128 = 0;
        for k in 0..3 {
            let delta = int(coords[k + 3]) - int(coords[k]);
            dist2 += delta * delta;
        }
        let rsum = int(radii[0]) + int(radii[1]);
        let expected = match dist2.cmp(&(rsum * rsum)) {
            std::cmp::Ordering::Greater => ContactStatus::Separated,
            std::cmp::Ordering::Equal => ContactStatus::Touching,
            std::cmp::Ordering::Less => ContactStatus::Overlapping,
        };
        let v = |i: usize| Vec3::new(rat(coords[i].0, coords[i].1), rat(coords[i + 1].0, coords[i + 1].1), rat(coords[i + 2].0, coords[i + 2].1), LENGTH);
        let a = sphere_with("a".into(), rat(1, 1), rat(radii[0].0, radii[0].1), v(0), Vec3::zero(VELOCITY));
        let b = sphere_with("b".into(), rat(1, 1), rat(radii[1].0, radii[1].1), v(3), Vec3::zero(VELOCITY));
        prop_assert_eq!(ContactEvidence::between(&a, &b).status(), expected);
    }

    #[test]
    fn integer_grid_classification_agrees(world in grid_world(10)) {
        // The grid uses denominators 1 and 2 and radii r/2: scale by 2 and compare integers.
        for p in classify_all_pairs(&world, ContactFilter::All) {
            let s = world.spheres();
            let two = Rational::from(2);
            let as_int = |q: &Rational| -> i128 { (q * &two).to_string().parse().unwrap() };
            let (a, b) = (&s[p.first], &s[p.second]);
            let d2: i128 = a.particle().position().components().iter().zip(b.particle().position().components())
                .map(|(x, y)| { let d = as_int(y) - as_int(x); d * d }).sum();
            let r = as_int(a.radius()) + as_int(b.radius());
            let expected = match d2.cmp(&(r * r)) {
                std::cmp::Ordering::Greater => ContactStatus::Separated,
                std::cmp::Ordering::Equal => ContactStatus::Touching,
                std::cmp::Ordering::Less => ContactStatus::Overlapping,
            };
            prop_assert_eq!(p.status, expected);
        }
    }

    #[test]
    fn resolved_contacts_conserve_momentum_and_energy((a, b) in touching_pair()) {
        prop_assert_eq!(ContactEvidence::between(&a, &b).status(), ContactStatus::Touching);
        let c = elastic_collision_3d_at_contact(a.particle(), b.particle()).unwrap();
        prop_assert_eq!(&c.momentum, &InvariantReport::ExactlyEqual);
        prop_assert_eq!(&c.kinetic_energy, &InvariantReport::ExactlyEqual);
        // Independently summed totals.
        prop_assert_eq!(sum_momentum(&[a.particle(), b.particle()]), sum_momentum(&[&c.first, &c.second]));
        prop_assert_eq!(sum_energy(&[a.particle(), b.particle()]), sum_energy(&[&c.first, &c.second]));
        // After the response the pair is never approaching along the normal.
        let n = b.particle().position().checked_sub(a.particle().position()).unwrap();
        let w = c.second.velocity().checked_sub(c.first.velocity()).unwrap();
        prop_assert!(!w.dot(&n).value().is_negative());
        let world = SphereWorld::new(vec![a, b]).unwrap();
        match resolve_isolated_elastic_touching_contacts(&world).unwrap() {
            Resolution::Completed(done) => {
                prop_assert!(done.momentum.is_exactly_equal() && done.kinetic_energy.is_exactly_equal());
                prop_assert_eq!(done.responses.len(), 1);
            }
            Resolution::Deferred(d) => prop_assert!(false, "deferred: {:?}", d.reason),
        }
    }

    #[test]
    fn certificates_are_sound(a in sphere("a"), b in sphere("b"), t in (0i64..=20, 1i64..=4)) {
        let duration = rat(t.0, t.1);
        let cert = certify_linear_sphere_contact(&a, &b, &Quantity::new(duration.clone(), TIME)).unwrap();
        let f = |t: &Rational| clearance(&a, &b, t);
        prop_assert_eq!(cert.polynomial.eval(&duration), f(&duration));
        prop_assert!(cert.closest_time >= Rational::zero() && cert.closest_time <= duration);
        prop_assert!(cert.minimum_clearance <= f(&Rational::zero()) && cert.minimum_clearance <= f(&duration));
        let f0 = f(&Rational::zero());
        match cert.status {
            CertificateStatus::InitiallyOverlapping => prop_assert!(f0.is_negative()),
            CertificateStatus::TouchingAtStart => prop_assert!(f0.is_zero()),
            CertificateStatus::NoContactInInterval => {
                prop_assert!(cert.minimum_clearance.is_positive());
                for k in 0..=8i64 {
                    prop_assert!(f(&(&duration * rat(k, 8))).is_positive());
                }
            }
            CertificateStatus::TangentContact | CertificateStatus::CrossingContact => {
                prop_assert!(f0.is_positive());
                prop_assert_eq!(cert.status == CertificateStatus::TangentContact, cert.discriminant.is_zero());
            }
        }
        match &cert.first_contact {
            Some(FirstContact::Rational(t)) => {
                prop_assert!(t >= &Rational::zero() && t <= &duration);
                prop_assert!(f(t).is_zero());
                // First: nothing earlier on a fine grid touches.
                for k in 0..8i64 {
                    prop_assert!(!f(&(t * rat(k, 8))).is_negative());
                }
            }
            Some(FirstContact::Algebraic(alg)) => {
                let check = |(lo, hi): &(Rational, Rational)| {
                    lo >= &Rational::zero() && lo <= hi && hi <= &duration
                        && f(lo).is_positive() && f(hi).is_negative()
                };
                prop_assert!(check(&alg.bracket));
                prop_assert!(alg.discriminant.sqrt_exact().is_none());
                let fine = alg.refine(&rat(1, 1_000_000)).unwrap();
                prop_assert!(check(&fine.bracket));
                prop_assert!(&fine.bracket.1 - &fine.bracket.0 <= rat(1, 1_000_000));
            }
            None => prop_assert!(matches!(cert.status, CertificateStatus::InitiallyOverlapping | CertificateStatus::NoContactInInterval)),
        }
    }

    #[test]
    fn rational_events_complete_and_conserve(
        (a_at, b_at) in touching_pair(),
        te in (0i64..=8, 1i64..=4),
        extra in (0i64..=8, 1i64..=4),
    ) {
        // Run a touching configuration backwards by te, so the first contact is at te exactly.
        let w = b_at.particle().velocity().checked_sub(a_at.particle().velocity()).unwrap();
        let n = b_at.particle().position().checked_sub(a_at.particle().position()).unwrap();
        prop_assume!(w.dot(&n).value().is_negative());
        let te = rat(te.0, te.1);
        let back = |s: &Sphere| {
            let p = s.particle().with_state(drifted(s, &-te.clone()), s.particle().velocity().clone()).unwrap();
            Sphere::new(p, &Quantity::new(s.radius().clone(), LENGTH)).unwrap()
        };
        let (a, b) = (back(&a_at), back(&b_at));
        let duration = &te + rat(extra.0, extra.1);
        let out = evolve_linear_sphere_pair_through_contact(&a, &b, &Quantity::new(duration.clone(), TIME)).unwrap();
        let EventOutcome::Completed(done) = out else {
            return Err(TestCaseError::fail("a rational event must complete"));
        };
        let event = done.event.as_ref().unwrap();
        prop_assert_eq!(&event.time, &te);
        prop_assert_eq!(event.first.particle().position(), a_at.particle().position());
        prop_assert!(done.momentum.is_exactly_equal() && done.kinetic_energy.is_exactly_equal());
        prop_assert_eq!(sum_energy(&[a.particle(), b.particle()]), sum_energy(&[done.first.particle(), done.second.particle()]));
        // No second contact after the response: the final clearance is not negative.
        let end = ContactEvidence::between(&done.first, &done.second);
        prop_assert!(end.status() != ContactStatus::Overlapping);
    }
}
