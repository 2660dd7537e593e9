//! Elastic collisions against the laws that define them, derived by hand.
//!
//! 3-D, with the line of centres `n = x₂ − x₁` and `s = (v₂ − v₁)·n`: when `s < 0` the normal
//! relative velocity reverses (`(v₂' − v₁')·n = −s`), each particle keeps its tangential velocity
//! (`vᵢ' × n = vᵢ × n`), momentum and kinetic energy are unchanged; when `s ≥ 0` nothing
//! changes. 1-D: momentum is kept and the relative velocity reverses, which fixes the answer.

use super::algebra::{R3, add, bare, cross, dot, expect_eq, scale, sub};
use super::rng::Gen;
use crate::dims::{LENGTH, MASS, VELOCITY};
use crate::{
    Particle, ResponseStatus, Vec3, elastic_collision_1d, elastic_collision_3d_at_contact,
};
use exact::Rational;
use units::Quantity;

fn refused(e: crate::PhysicsError) -> String {
    format!("engine refused a valid input: {e}")
}

fn kinetic(m: &Rational, v: &R3) -> Rational {
    m * dot(v, v)
}

/// A random pair with distinct centres: `(m, x, v)` for each.
fn random_pair(g: &mut Gen) -> [(Rational, R3, R3); 2] {
    let a = (g.positive(20, 6), g.triple(10, 4), g.triple(10, 4));
    let mut b = (g.positive(20, 6), g.triple(10, 4), g.triple(10, 4));
    if b.1 == a.1 {
        b.1[0] += Rational::one();
    }
    [a, b]
}

fn particle(id: &str, (m, x, v): &(Rational, R3, R3)) -> Result<Particle, String> {
    Particle::new(
        id,
        &Quantity::new(m.clone(), MASS),
        Vec3::from_components(x.clone(), LENGTH),
        Vec3::from_components(v.clone(), VELOCITY),
    )
    .map_err(refused)
}

/// Normal reversal with tangential velocity kept, momentum and energy conserved.
pub fn normal_reversal_3d(g: &mut Gen) -> Result<(), String> {
    let [a, b] = random_pair(g);
    let out = elastic_collision_3d_at_contact(&particle("a", &a)?, &particle("b", &b)?)
        .map_err(refused)?;
    let n = sub(&b.1, &a.1);
    let s = dot(&sub(&b.2, &a.2), &n);
    let (va, vb) = (bare(out.first.velocity()), bare(out.second.velocity()));
    expect_eq(
        "first position unchanged",
        &bare(out.first.position()),
        &a.1,
    )?;
    expect_eq(
        "second position unchanged",
        &bare(out.second.position()),
        &b.1,
    )?;
    if !s.is_negative() {
        expect_eq(
            "status when not approaching",
            &out.status,
            &ResponseStatus::SeparatingOrStationary,
        )?;
        expect_eq("first velocity unchanged", &va, &a.2)?;
        return expect_eq("second velocity unchanged", &vb, &b.2);
    }
    expect_eq(
        "status when approaching",
        &out.status,
        &ResponseStatus::Resolved,
    )?;
    expect_eq(
        "normal relative velocity reversed",
        &dot(&sub(&vb, &va), &n),
        &-s,
    )?;
    expect_eq(
        "first tangential velocity kept",
        &cross(&va, &n),
        &cross(&a.2, &n),
    )?;
    expect_eq(
        "second tangential velocity kept",
        &cross(&vb, &n),
        &cross(&b.2, &n),
    )?;
    expect_eq(
        "pair momentum",
        &add(&scale(&a.0, &va), &scale(&b.0, &vb)),
        &add(&scale(&a.0, &a.2), &scale(&b.0, &b.2)),
    )?;
    expect_eq(
        "pair kinetic energy (doubled)",
        &(kinetic(&a.0, &va) + kinetic(&b.0, &vb)),
        &(kinetic(&a.0, &a.2) + kinetic(&b.0, &b.2)),
    )
}

/// 1-D: momentum kept and relative velocity reversed.
pub fn reversal_1d(g: &mut Gen) -> Result<(), String> {
    let (m1, m2) = (g.positive(20, 6), g.positive(20, 6));
    let (u1, u2) = (g.rational(10, 4), g.rational(10, 4));
    let q = |v: &Rational, d| Quantity::new(v.clone(), d);
    let out = elastic_collision_1d(
        &q(&m1, MASS),
        &q(&u1, VELOCITY),
        &q(&m2, MASS),
        &q(&u2, VELOCITY),
    )
    .map_err(refused)?;
    let (v1, v2) = (&out.first_velocity, &out.second_velocity);
    expect_eq("momentum", &(&m1 * v1 + &m2 * v2), &(&m1 * &u1 + &m2 * &u2))?;
    expect_eq("relative velocity reversed", &(v2 - v1), &(&u1 - &u2))
}

/// A Galilean boost `u` of both particles boosts both results by `u` and changes nothing else.
pub fn boost_3d_collision(g: &mut Gen) -> Result<(), String> {
    let [a, b] = random_pair(g);
    let u = g.triple(10, 4);
    let boosted = |p: &(Rational, R3, R3)| (p.0.clone(), p.1.clone(), add(&p.2, &u));
    let rest = elastic_collision_3d_at_contact(&particle("a", &a)?, &particle("b", &b)?)
        .map_err(refused)?;
    let moving = elastic_collision_3d_at_contact(
        &particle("a", &boosted(&a))?,
        &particle("b", &boosted(&b))?,
    )
    .map_err(refused)?;
    expect_eq("status under a boost", &moving.status, &rest.status)?;
    expect_eq(
        "first velocity boosted by u",
        &bare(moving.first.velocity()),
        &add(&bare(rest.first.velocity()), &u),
    )?;
    expect_eq(
        "second velocity boosted by u",
        &bare(moving.second.velocity()),
        &add(&bare(rest.second.velocity()), &u),
    )
}
