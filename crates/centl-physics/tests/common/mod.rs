//! Builders shared by the integration tests.
#![allow(dead_code)]

use centl_physics::dims::{LENGTH, MASS, TIME, VELOCITY};
use centl_physics::{Particle, Sphere, Vec3};
use exact::Rational;
use units::Quantity;

/// An exact number from text.
pub fn q(s: &str) -> Rational {
    s.parse().unwrap()
}

/// A vector from three texts.
pub fn v3(c: [&str; 3], dim: units::Dimension) -> Vec3 {
    Vec3::new(q(c[0]), q(c[1]), q(c[2]), dim)
}

/// A particle from texts.
pub fn particle(id: &str, m: &str, x: [&str; 3], v: [&str; 3]) -> Particle {
    Particle::new(
        id,
        &Quantity::new(q(m), MASS),
        v3(x, LENGTH),
        v3(v, VELOCITY),
    )
    .unwrap()
}

/// A sphere from texts.
pub fn sphere(id: &str, m: &str, r: &str, x: [&str; 3], v: [&str; 3]) -> Sphere {
    Sphere::new(particle(id, m, x, v), &Quantity::new(q(r), LENGTH)).unwrap()
}

/// A duration in seconds.
pub fn secs(s: &str) -> Quantity {
    Quantity::new(q(s), TIME)
}

/// A position vector.
pub fn pos(c: [&str; 3]) -> Vec3 {
    v3(c, LENGTH)
}

/// A velocity vector.
pub fn vel(c: [&str; 3]) -> Vec3 {
    v3(c, VELOCITY)
}
