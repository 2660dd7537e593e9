//! [`Particle`]: identifier, positive mass, position and velocity, checked at construction.

use crate::dims::{LENGTH, MASS, VELOCITY};
use crate::{PhysicsError, Vec3};
use exact::Rational;
use units::Quantity;

/// A point particle. Every constructor checks that the identifier is non-empty, the mass is a
/// positive mass, the position a length and the velocity a velocity, so a value of this type is
/// always valid.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Particle {
    id: String,
    mass: Rational,
    position: Vec3,
    velocity: Vec3,
}

impl Particle {
    /// A particle with `mass` (kg), `position` (m) and `velocity` (m/s), all dimension-checked.
    pub fn new(
        id: impl Into<String>,
        mass: &Quantity,
        position: Vec3,
        velocity: Vec3,
    ) -> Result<Self, PhysicsError> {
        let id = id.into();
        if id.is_empty() {
            return Err(PhysicsError::EmptyId);
        }
        let mass = mass_value(mass, &id)?;
        position.expect_dim("position", LENGTH)?;
        velocity.expect_dim("velocity", VELOCITY)?;
        Ok(Particle {
            id,
            mass,
            position,
            velocity,
        })
    }

    /// The stable identifier.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The mass in kg.
    pub fn mass(&self) -> &Rational {
        &self.mass
    }

    /// The mass as a quantity.
    pub fn mass_quantity(&self) -> Quantity {
        Quantity::new(self.mass.clone(), MASS)
    }

    /// The position (m).
    pub fn position(&self) -> &Vec3 {
        &self.position
    }

    /// The velocity (m/s).
    pub fn velocity(&self) -> &Vec3 {
        &self.velocity
    }

    /// The same particle with a new position and velocity, dimension-checked.
    pub fn with_state(&self, position: Vec3, velocity: Vec3) -> Result<Self, PhysicsError> {
        position.expect_dim("position", LENGTH)?;
        velocity.expect_dim("velocity", VELOCITY)?;
        Ok(self.with_state_unchecked(position, velocity))
    }

    /// The same particle with a new velocity, dimension-checked.
    pub fn with_velocity(&self, velocity: Vec3) -> Result<Self, PhysicsError> {
        self.with_state(self.position.clone(), velocity)
    }

    /// For transitions whose arithmetic preserves the dimensions by construction.
    pub(crate) fn with_state_unchecked(&self, position: Vec3, velocity: Vec3) -> Self {
        Particle {
            id: self.id.clone(),
            mass: self.mass.clone(),
            position,
            velocity,
        }
    }

    /// Replaces the state in place, for transitions that preserve dimensions by construction.
    pub(crate) fn set_state_unchecked(&mut self, position: Vec3, velocity: Vec3) {
        self.position = position;
        self.velocity = velocity;
    }

    /// Linear momentum `m v` (kg·m/s).
    pub fn momentum(&self) -> Vec3 {
        self.velocity.scale(&self.mass_quantity())
    }

    /// Kinetic energy `½ m v·v` (J).
    pub fn kinetic_energy(&self) -> Quantity {
        let v2 = self.velocity.norm_squared();
        let half_m = Quantity::new(&self.mass * half(), MASS);
        half_m.mul(&v2)
    }

    /// The position after moving for `t` seconds at constant velocity: `x + v t`.
    pub(crate) fn drifted(&self, t: &Rational) -> Particle {
        let position = self.position.add_scaled_raw(&self.velocity, t);
        self.with_state_unchecked(position, self.velocity.clone())
    }
}

/// Exactly one half.
pub(crate) fn half() -> Rational {
    Rational::new(1, 2).unwrap_or_else(|_| Rational::one())
}

fn mass_value(mass: &Quantity, id: &str) -> Result<Rational, PhysicsError> {
    PhysicsError::check_dim("mass", mass.dim(), MASS)?;
    if !mass.value().is_positive() {
        return Err(PhysicsError::NonPositiveMass {
            id: id.to_string(),
            mass: mass.value().clone(),
        });
    }
    Ok(mass.value().clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dims::{ENERGY, MOMENTUM};

    fn kg(n: i64) -> Quantity {
        Quantity::new(n.into(), MASS)
    }

    #[test]
    fn construction_checks_every_part() {
        let x = Vec3::from_ints(0, 0, 10, LENGTH);
        let v = Vec3::from_ints(1, 0, 0, VELOCITY);
        assert!(Particle::new("p", &kg(2), x.clone(), v.clone()).is_ok());
        assert_eq!(
            Particle::new("", &kg(2), x.clone(), v.clone()),
            Err(PhysicsError::EmptyId)
        );
        assert!(matches!(
            Particle::new("p", &kg(0), x.clone(), v.clone()),
            Err(PhysicsError::NonPositiveMass { .. })
        ));
        assert!(matches!(
            Particle::new("p", &kg(-1), x.clone(), v.clone()),
            Err(PhysicsError::NonPositiveMass { .. })
        ));
        assert_eq!(
            Particle::new("p", &Quantity::new(2.into(), LENGTH), x.clone(), v.clone()),
            Err(PhysicsError::WrongDimension {
                quantity: "mass",
                found: LENGTH,
                expected: MASS
            })
        );
        // A velocity given in metres is refused.
        assert_eq!(
            Particle::new("p", &kg(2), x.clone(), x.clone()),
            Err(PhysicsError::WrongDimension {
                quantity: "velocity",
                found: LENGTH,
                expected: VELOCITY
            })
        );
        assert!(matches!(
            Particle::new("p", &kg(2), v.clone(), v.clone()),
            Err(PhysicsError::WrongDimension {
                quantity: "position",
                ..
            })
        ));
    }

    #[test]
    fn kinetic_energy_and_momentum_are_exact() {
        let v = Vec3::new("1/2".parse().unwrap(), (-1).into(), 2.into(), VELOCITY);
        let p = Particle::new(
            "p",
            &Quantity::new("3/5".parse().unwrap(), MASS),
            Vec3::zero(LENGTH),
            v,
        )
        .unwrap();
        // ½ · 3/5 · (1/4 + 1 + 4) = 63/40
        assert_eq!(
            p.kinetic_energy(),
            Quantity::new("63/40".parse().unwrap(), ENERGY)
        );
        assert_eq!(
            p.momentum(),
            Vec3::new(
                "3/10".parse().unwrap(),
                "-3/5".parse().unwrap(),
                "6/5".parse().unwrap(),
                MOMENTUM
            )
        );
    }
}
