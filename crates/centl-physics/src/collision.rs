//! Ideal elastic collision responses: exact 1D, and exact frictionless 3D at a given contact.

use crate::diagnostics::{InvariantReport, compare_scalar, compare_vector};
use crate::dims::{ENERGY, MASS, MOMENTUM, VELOCITY};
use crate::particle::half;
use crate::world::{total_kinetic_energy, total_momentum};
use crate::{Particle, PhysicsError, Vec3};
use exact::Rational;
use units::Quantity;

/// The result of an ideal 1D elastic collision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collision1d {
    /// The first body's velocity after the collision (m/s).
    pub first_velocity: Rational,
    /// The second body's velocity after the collision (m/s).
    pub second_velocity: Rational,
    /// Total momentum after minus before.
    pub momentum: InvariantReport,
    /// Total kinetic energy after minus before.
    pub kinetic_energy: InvariantReport,
}

/// The ideal elastic collision of two positive masses (kg) moving along one line with
/// velocities `u1`, `u2` (m/s).
pub fn elastic_collision_1d(
    m1: &Quantity,
    u1: &Quantity,
    m2: &Quantity,
    u2: &Quantity,
) -> Result<Collision1d, PhysicsError> {
    for (mass, id) in [(m1, "first"), (m2, "second")] {
        PhysicsError::check_dim("mass", mass.dim(), MASS)?;
        if !mass.value().is_positive() {
            return Err(PhysicsError::NonPositiveMass {
                id: id.to_string(),
                mass: mass.value().clone(),
            });
        }
    }
    PhysicsError::check_dim("velocity", u1.dim(), VELOCITY)?;
    PhysicsError::check_dim("velocity", u2.dim(), VELOCITY)?;
    let (m1, u1, m2, u2) = (m1.value(), u1.value(), m2.value(), u2.value());
    let total = m1 + m2;
    let div = |x: Rational| {
        x.checked_div(&total)
            .map_err(|_| PhysicsError::DivisionByZero)
    };
    let two = Rational::from(2);
    let v1 = div((m1 - m2) * u1 + &two * m2 * u2)?;
    let v2 = div((m2 - m1) * u2 + &two * m1 * u1)?;
    let p = |a: &Rational, b: &Rational| Quantity::new(m1 * a + m2 * b, MOMENTUM);
    let k = |a: &Rational, b: &Rational| Quantity::new(half() * (m1 * a * a + m2 * b * b), ENERGY);
    Ok(Collision1d {
        momentum: compare_scalar(&p(u1, u2), &p(&v1, &v2))?,
        kinetic_energy: compare_scalar(&k(u1, u2), &k(&v1, &v2))?,
        first_velocity: v1,
        second_velocity: v2,
    })
}

/// Whether a contact response changed the velocities.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResponseStatus {
    /// The bodies were approaching along the normal; the elastic impulse was applied.
    Resolved,
    /// The bodies were separating or at rest along the normal; nothing was applied.
    SeparatingOrStationary,
}

impl ResponseStatus {
    /// `resolved` or `separating_or_stationary`.
    pub fn as_str(self) -> &'static str {
        match self {
            ResponseStatus::Resolved => "resolved",
            ResponseStatus::SeparatingOrStationary => "separating_or_stationary",
        }
    }
}

/// What the 3D response takes on trust from its caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TrustBoundary {
    /// The caller asserts that the two particles are at an instantaneous contact; the response
    /// checks only that their centres are distinct.
    CallerSuppliedContactWithDistinctCenters,
}

impl TrustBoundary {
    /// `caller_supplied_contact_with_distinct_centers`.
    pub fn as_str(self) -> &'static str {
        match self {
            TrustBoundary::CallerSuppliedContactWithDistinctCenters => {
                "caller_supplied_contact_with_distinct_centers"
            }
        }
    }
}

/// The result of the exact 3D contact response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collision3d {
    /// Whether an impulse was applied.
    pub status: ResponseStatus,
    /// The first particle after the response (position, mass and id unchanged).
    pub first: Particle,
    /// The second particle after the response.
    pub second: Particle,
    /// The unnormalised line of centres `x₂ − x₁` (m).
    pub normal: Vec3,
    /// `(v₂ − v₁)·(x₂ − x₁)` before the response (m²/s); negative means approaching.
    pub normal_relative_velocity: Rational,
    /// The impulse applied to the first particle (kg·m/s); the second receives its negative.
    pub impulse: Vec3,
    /// Pair momentum after minus before.
    pub momentum: InvariantReport<Vec3>,
    /// Pair kinetic energy after minus before.
    pub kinetic_energy: InvariantReport,
    /// What was taken on trust.
    pub trust_boundary: TrustBoundary,
}

/// The ideal frictionless elastic response of two particles the caller knows to be in contact.
///
/// The relative velocity is projected onto the unnormalised line of centres `n = x₂ − x₁`, so
/// everything stays rational: with `s = (v₂ − v₁)·n < 0` (approaching) the first particle gets
/// the impulse `2 m₁m₂/(m₁+m₂) · s/(n·n) · n` and the second its negative. With `s ≥ 0` nothing
/// changes. Coincident centres are refused: there is no line of centres.
pub fn elastic_collision_3d_at_contact(
    a: &Particle,
    b: &Particle,
) -> Result<Collision3d, PhysicsError> {
    // A pair is two distinct particles, as for every other pair operation.
    if a.id() == b.id() {
        return Err(PhysicsError::SameParticle {
            id: a.id().to_string(),
        });
    }
    let n = b.position().add_scaled_raw(a.position(), &-Rational::one());
    let nn = n.dot_raw(&n);
    if nn.is_zero() {
        return Err(PhysicsError::CoincidentCenters {
            first: a.id().to_string(),
            second: b.id().to_string(),
        });
    }
    let w = b.velocity().add_scaled_raw(a.velocity(), &-Rational::one());
    let s = w.dot_raw(&n);
    let (status, impulse) = if s.is_negative() {
        let (m1, m2) = (a.mass(), b.mass());
        let reduced_twice = (Rational::from(2) * m1 * m2)
            .checked_div(&(m1 + m2))
            .map_err(|_| PhysicsError::DivisionByZero)?;
        let along = s
            .checked_div(&nn)
            .map_err(|_| PhysicsError::DivisionByZero)?;
        (
            ResponseStatus::Resolved,
            n.scale_raw(&(reduced_twice * along), MOMENTUM),
        )
    } else {
        (ResponseStatus::SeparatingOrStationary, Vec3::zero(MOMENTUM))
    };
    let kick = |p: &Particle, sign: Rational| -> Result<Particle, PhysicsError> {
        let dv = sign
            .checked_div(p.mass())
            .map_err(|_| PhysicsError::DivisionByZero)?;
        Ok(p.with_state_unchecked(
            p.position().clone(),
            p.velocity().add_scaled_raw(&impulse, &dv),
        ))
    };
    let first = kick(a, Rational::one())?;
    let second = kick(b, -Rational::one())?;
    let momentum = compare_vector(&total_momentum([a, b]), &total_momentum([&first, &second]))?;
    let kinetic_energy = compare_scalar(
        &total_kinetic_energy([a, b]),
        &total_kinetic_energy([&first, &second]),
    )?;
    Ok(Collision3d {
        status,
        first,
        second,
        normal: n,
        normal_relative_velocity: s,
        impulse,
        momentum,
        kinetic_energy,
        trust_boundary: TrustBoundary::CallerSuppliedContactWithDistinctCenters,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dims::LENGTH;

    fn q(s: &str) -> Rational {
        s.parse().unwrap()
    }

    fn p(id: &str, m: &str, x: [&str; 3], v: [&str; 3]) -> Particle {
        Particle::new(
            id,
            &Quantity::new(q(m), MASS),
            Vec3::new(q(x[0]), q(x[1]), q(x[2]), LENGTH),
            Vec3::new(q(v[0]), q(v[1]), q(v[2]), VELOCITY),
        )
        .unwrap()
    }

    #[test]
    fn one_dimensional_closed_forms() {
        let m = |s: &str| Quantity::new(q(s), MASS);
        let u = |s: &str| Quantity::new(q(s), VELOCITY);
        // Equal masses exchange velocities.
        let c = elastic_collision_1d(&m("1"), &u("3"), &m("1"), &u("-1")).unwrap();
        assert_eq!(
            (c.first_velocity.clone(), c.second_velocity.clone()),
            (q("-1"), q("3"))
        );
        // m1 = 3, m2 = 1, u = (2, 0): v1 = 1, v2 = 3.
        let c = elastic_collision_1d(&m("3"), &u("2"), &m("1"), &u("0")).unwrap();
        assert_eq!(
            (c.first_velocity.clone(), c.second_velocity.clone()),
            (q("1"), q("3"))
        );
        assert!(c.momentum.is_exactly_equal() && c.kinetic_energy.is_exactly_equal());
        let c = elastic_collision_1d(&m("2/7"), &u("5/3"), &m("11/3"), &u("-1/9")).unwrap();
        assert!(c.momentum.is_exactly_equal() && c.kinetic_energy.is_exactly_equal());
        assert!(matches!(
            elastic_collision_1d(&m("0"), &u("1"), &m("1"), &u("0")),
            Err(PhysicsError::NonPositiveMass { .. })
        ));
        assert!(matches!(
            elastic_collision_1d(&m("1"), &m("1"), &m("1"), &u("0")),
            Err(PhysicsError::WrongDimension {
                quantity: "velocity",
                ..
            })
        ));
    }

    #[test]
    fn head_on_3d_matches_1d() {
        let a = p("a", "3", ["0", "0", "0"], ["2", "0", "0"]);
        let b = p("b", "1", ["2", "0", "0"], ["0", "0", "0"]);
        let c = elastic_collision_3d_at_contact(&a, &b).unwrap();
        assert_eq!(c.status, ResponseStatus::Resolved);
        assert_eq!(c.first.velocity(), &Vec3::from_ints(1, 0, 0, VELOCITY));
        assert_eq!(c.second.velocity(), &Vec3::from_ints(3, 0, 0, VELOCITY));
        assert_eq!(c.impulse, Vec3::from_ints(-3, 0, 0, MOMENTUM));
        assert!(c.momentum.is_exactly_equal() && c.kinetic_energy.is_exactly_equal());
        assert_eq!(
            c.trust_boundary.as_str(),
            "caller_supplied_contact_with_distinct_centers"
        );
        assert_eq!(c.first.position(), a.position());
    }

    #[test]
    fn oblique_3d_exchanges_the_normal_component_only() {
        // Equal masses, normal along (1,1,0) (unnormalised): the normal components of the
        // velocities swap, the tangential ones stay.
        let a = p("a", "1", ["0", "0", "0"], ["1", "0", "1/2"]);
        let b = p("b", "1", ["1", "1", "0"], ["0", "0", "0"]);
        let c = elastic_collision_3d_at_contact(&a, &b).unwrap();
        assert_eq!(
            c.first.velocity(),
            &Vec3::new(q("1/2"), q("-1/2"), q("1/2"), VELOCITY)
        );
        assert_eq!(
            c.second.velocity(),
            &Vec3::new(q("1/2"), q("1/2"), q("0"), VELOCITY)
        );
        assert_eq!(c.normal_relative_velocity, q("-1"));
        assert!(c.momentum.is_exactly_equal() && c.kinetic_energy.is_exactly_equal());
    }

    #[test]
    fn separating_and_coincident() {
        let a = p("a", "1", ["0", "0", "0"], ["-1", "5", "0"]);
        let b = p("b", "2", ["2", "0", "0"], ["0", "0", "0"]);
        let c = elastic_collision_3d_at_contact(&a, &b).unwrap();
        assert_eq!(c.status.as_str(), "separating_or_stationary");
        assert_eq!((&c.first, &c.second), (&a, &b));
        assert!(c.impulse.is_zero());
        let still = p("a", "1", ["0", "0", "0"], ["0", "0", "0"]);
        assert_eq!(
            elastic_collision_3d_at_contact(&still, &b).unwrap().status,
            ResponseStatus::SeparatingOrStationary
        );
        let twin = p("t", "1", ["0", "0", "0"], ["1", "0", "0"]);
        assert_eq!(
            elastic_collision_3d_at_contact(&a, &twin),
            Err(PhysicsError::CoincidentCenters {
                first: "a".into(),
                second: "t".into()
            })
        );
    }
}
