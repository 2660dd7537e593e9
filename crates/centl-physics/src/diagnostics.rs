//! Exact diagnostics: momentum, energies, invariant comparison and rational bit sizes.

use crate::dims::{ENERGY, LENGTH};
use crate::particle::half;
use crate::{HookeSpring, Particle, PhysicsError, UniformGravity, Vec3};
use exact::Rational;
use units::Quantity;

/// Whether an invariant kept its exact value, and if not, by how much it moved (`after −
/// before`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InvariantReport<T = Rational> {
    /// Before and after are exactly equal.
    ExactlyEqual,
    /// The nonzero change `after − before`.
    Delta(T),
}

impl<T> InvariantReport<T> {
    /// True for [`InvariantReport::ExactlyEqual`].
    pub fn is_exactly_equal(&self) -> bool {
        matches!(self, InvariantReport::ExactlyEqual)
    }
}

/// Compares two values of a scalar invariant; the dimensions must agree.
pub fn compare_scalar(
    before: &Quantity,
    after: &Quantity,
) -> Result<InvariantReport, PhysicsError> {
    PhysicsError::check_dim("invariant", after.dim(), before.dim())?;
    let delta = after.value() - before.value();
    Ok(if delta.is_zero() {
        InvariantReport::ExactlyEqual
    } else {
        InvariantReport::Delta(delta)
    })
}

/// Compares two values of a vector invariant (such as momentum); the dimensions must agree.
pub fn compare_vector(before: &Vec3, after: &Vec3) -> Result<InvariantReport<Vec3>, PhysicsError> {
    let delta = after.checked_sub(before)?;
    Ok(if delta.is_zero() {
        InvariantReport::ExactlyEqual
    } else {
        InvariantReport::Delta(delta)
    })
}

/// Linear momentum `m v` of a particle (kg·m/s).
pub fn momentum(p: &Particle) -> Vec3 {
    p.momentum()
}

/// Kinetic energy `½ m |v|²` of a particle (J).
pub fn kinetic_energy(p: &Particle) -> Quantity {
    p.kinetic_energy()
}

/// Potential energy in uniform gravity relative to `reference` (m): `−m g·(x − reference)`,
/// which is `m |g| h` for a height `h` above the reference against `g`.
pub fn gravity_potential_energy(
    p: &Particle,
    gravity: &UniformGravity,
    reference: &Vec3,
) -> Result<Quantity, PhysicsError> {
    reference.expect_dim("reference position", LENGTH)?;
    let h = p.position().checked_sub(reference)?;
    let value = -(p.mass() * gravity.acceleration().dot_raw(&h));
    Ok(Quantity::new(value, ENERGY))
}

/// Spring potential energy `½ k (|x − anchor| − L)²` (J).
///
/// With rest length 0 this is `½ k |d|²` and always exact. A nonzero rest length needs `|d|`,
/// which is refused with [`PhysicsError::IrrationalSpringLength`] unless `|d|²` is the square of
/// a rational.
pub fn spring_potential_energy(
    p: &Particle,
    spring: &HookeSpring,
) -> Result<Quantity, PhysicsError> {
    let d = spring.displacement(p);
    let stretch_squared = if spring.rest_length().is_zero() {
        d.dot_raw(&d)
    } else {
        let stretch = spring.exact_length(&d)? - spring.rest_length();
        &stretch * &stretch
    };
    Ok(Quantity::new(
        half() * spring.stiffness() * stretch_squared,
        ENERGY,
    ))
}

/// The size of exact state: the largest numerator or denominator, in bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct StateBits {
    /// Largest size among position components.
    pub position_bits: usize,
    /// Largest size among velocity components.
    pub velocity_bits: usize,
}

impl StateBits {
    /// The sizes for one particle.
    pub fn of(p: &Particle) -> Self {
        StateBits {
            position_bits: p.position().max_bits(),
            velocity_bits: p.velocity().max_bits(),
        }
    }

    /// The largest sizes over many particles.
    pub fn of_all<'a>(particles: impl IntoIterator<Item = &'a Particle>) -> Self {
        particles.into_iter().fold(StateBits::default(), |acc, p| {
            let s = StateBits::of(p);
            StateBits {
                position_bits: acc.position_bits.max(s.position_bits),
                velocity_bits: acc.velocity_bits.max(s.velocity_bits),
            }
        })
    }

    /// The larger of the two sizes.
    pub fn max_bits(&self) -> usize {
        self.position_bits.max(self.velocity_bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dims::{ACCELERATION, MASS, MOMENTUM, STIFFNESS, VELOCITY};

    fn q(s: &str) -> Rational {
        s.parse().unwrap()
    }

    fn particle(x: Vec3, v: Vec3, m: &str) -> Particle {
        Particle::new("p", &Quantity::new(q(m), MASS), x, v).unwrap()
    }

    fn spring(l: &str) -> HookeSpring {
        HookeSpring::new(
            Vec3::zero(LENGTH),
            &Quantity::new(q("4"), STIFFNESS),
            &Quantity::new(q(l), LENGTH),
        )
        .unwrap()
    }

    #[test]
    fn spring_potential_energy_closed_forms() {
        let p = particle(
            Vec3::new(q("1/2"), q("1"), q("-1"), LENGTH),
            Vec3::zero(VELOCITY),
            "1",
        );
        // ½·4·(1/4 + 1 + 1) = 9/2
        assert_eq!(
            spring_potential_energy(&p, &spring("0")).unwrap(),
            Quantity::new(q("9/2"), ENERGY)
        );
        // |d| = 3/2 exactly; ½·4·(3/2 − 1/2)² = 2
        assert_eq!(
            spring_potential_energy(&p, &spring("1/2")).unwrap(),
            Quantity::new(q("2"), ENERGY)
        );
        let irrational = particle(Vec3::from_ints(1, 1, 0, LENGTH), Vec3::zero(VELOCITY), "1");
        assert_eq!(
            spring_potential_energy(&irrational, &spring("1")),
            Err(PhysicsError::IrrationalSpringLength {
                squared_length: q("2")
            })
        );
        assert_eq!(
            spring_potential_energy(&irrational, &spring("0"))
                .unwrap()
                .value(),
            &q("4")
        );
    }

    #[test]
    fn gravity_potential_is_m_g_h() {
        let g = UniformGravity::new(Vec3::from_ints(0, 0, -10, ACCELERATION)).unwrap();
        let p = particle(
            Vec3::new(q("3"), q("0"), q("9/2"), LENGTH),
            Vec3::zero(VELOCITY),
            "2",
        );
        let e = gravity_potential_energy(&p, &g, &Vec3::from_ints(0, 0, 1, LENGTH)).unwrap();
        assert_eq!(e, Quantity::new(q("70"), ENERGY));
        assert!(gravity_potential_energy(&p, &g, &Vec3::zero(VELOCITY)).is_err());
    }

    #[test]
    fn invariant_reports() {
        let a = Quantity::new(q("1/3"), ENERGY);
        let b = Quantity::new(q("1/2"), ENERGY);
        assert_eq!(
            compare_scalar(&a, &a.clone()).unwrap(),
            InvariantReport::ExactlyEqual
        );
        assert_eq!(
            compare_scalar(&a, &b).unwrap(),
            InvariantReport::Delta(q("1/6"))
        );
        assert!(compare_scalar(&a, &Quantity::new(q("1"), MASS)).is_err());
        let p = Vec3::from_ints(1, 2, 3, MOMENTUM);
        assert!(compare_vector(&p, &p.clone()).unwrap().is_exactly_equal());
        assert_eq!(
            compare_vector(&p, &Vec3::from_ints(1, 2, 4, MOMENTUM)).unwrap(),
            InvariantReport::Delta(Vec3::from_ints(0, 0, 1, MOMENTUM))
        );
    }

    #[test]
    fn bit_sizes() {
        let p = particle(
            Vec3::new(q("255/256"), q("0"), q("1"), LENGTH),
            Vec3::new(q("1/3"), q("0"), q("0"), VELOCITY),
            "1",
        );
        let bits = StateBits::of(&p);
        assert_eq!(
            bits,
            StateBits {
                position_bits: 9,
                velocity_bits: 2
            }
        );
        assert_eq!(bits.max_bits(), 9);
    }
}
