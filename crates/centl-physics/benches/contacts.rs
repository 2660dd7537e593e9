//! Sphere contact classification at the world limit (256 spheres, 32,640 pairs): the exact
//! sweep-and-prune broad phase against the all-pairs reference.

use centl_physics::dims::{LENGTH, MASS, VELOCITY};
use centl_physics::{
    ContactFilter, MAX_WORLD_PARTICLES, Particle, Sphere, SphereWorld, Vec3, classify_all_pairs,
    classify_broad_phase,
};
use criterion::{Criterion, criterion_group, criterion_main};
use exact::Rational;
use std::hint::black_box;
use units::Quantity;

/// A deterministic scatter of spheres with fractional coordinates in a 40 m cube (a simple
/// linear congruential sequence, so the bench needs no random-number crate).
fn world() -> SphereWorld {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |modulus: i64| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        i64::try_from((state >> 33) % u64::try_from(modulus).expect("positive")).expect("small")
    };
    let spheres = (0..MAX_WORLD_PARTICLES)
        .map(|i| {
            let mut coord = || Rational::new(next(4000), 100).expect("nonzero denominator");
            let position = Vec3::new(coord(), coord(), coord(), LENGTH);
            let particle = Particle::new(
                format!("s{i}"),
                &Quantity::new(Rational::one(), MASS),
                position,
                Vec3::zero(VELOCITY),
            )
            .expect("valid particle");
            let radius = Rational::new(next(90) + 10, 100).expect("nonzero denominator");
            Sphere::new(particle, &Quantity::new(radius, LENGTH)).expect("valid sphere")
        })
        .collect();
    SphereWorld::new(spheres).expect("valid world")
}

fn contacts(c: &mut Criterion) {
    let w = world();
    assert_eq!(
        classify_broad_phase(&w, ContactFilter::NonSeparated),
        classify_all_pairs(&w, ContactFilter::NonSeparated)
    );
    let mut group = c.benchmark_group("contacts_256");
    group.bench_function("all_pairs", |b| {
        b.iter(|| classify_all_pairs(black_box(&w), ContactFilter::NonSeparated))
    });
    group.bench_function("broad_phase", |b| {
        b.iter(|| classify_broad_phase(black_box(&w), ContactFilter::NonSeparated))
    });
    group.finish();
}

criterion_group!(benches, contacts);
criterion_main!(benches);
