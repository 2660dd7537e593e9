//! Force models: one trait, four built-in models, and the exact net force.

use crate::affine::AffineForce;
use crate::dims::{ACCELERATION, DRAG, FORCE, LENGTH, STIFFNESS};
use crate::{Particle, PhysicsError, Vec3};
use exact::Rational;
use std::fmt::Debug;
use units::Quantity;

/// A state-dependent force: the force (N) on `particle` at time `time` (s).
///
/// Implement it to add a model of your own; the integrator sums every model's force exactly and
/// refuses a result that is not of dimension Force.
pub trait ForceModel: Debug + Send + Sync {
    /// The force on `particle` at `time` seconds.
    fn force(&self, particle: &Particle, time: &Rational) -> Result<Vec3, PhysicsError>;

    /// The force as `α·x + β·v + c`, when it is exactly that for every state of a particle of
    /// this mass at every time; `None` (the default) otherwise. Models that answer `Some` let
    /// the integrator take its fast exact path; the answer must agree with [`Self::force`].
    fn affine(&self, particle: &Particle) -> Option<AffineForce> {
        let _ = particle;
        None
    }
}

/// A force that is the same everywhere and always.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConstantForce {
    force: Vec3,
}

impl ConstantForce {
    /// A constant force; refuses a vector that is not a force.
    pub fn new(force: Vec3) -> Result<Self, PhysicsError> {
        force.expect_dim("constant force", FORCE)?;
        Ok(ConstantForce { force })
    }
}

impl ForceModel for ConstantForce {
    fn force(&self, _: &Particle, _: &Rational) -> Result<Vec3, PhysicsError> {
        Ok(self.force.clone())
    }

    fn affine(&self, _: &Particle) -> Option<AffineForce> {
        Some(AffineForce {
            constant: self.force.components().clone(),
            ..AffineForce::zero()
        })
    }
}

/// Uniform gravity: the force `m g` for a fixed acceleration `g`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UniformGravity {
    acceleration: Vec3,
}

impl UniformGravity {
    /// Gravity with acceleration `g` (m/s²); refuses any other dimension.
    pub fn new(acceleration: Vec3) -> Result<Self, PhysicsError> {
        acceleration.expect_dim("gravitational acceleration", ACCELERATION)?;
        Ok(UniformGravity { acceleration })
    }

    /// The acceleration `g`.
    pub fn acceleration(&self) -> &Vec3 {
        &self.acceleration
    }
}

impl ForceModel for UniformGravity {
    fn force(&self, p: &Particle, _: &Rational) -> Result<Vec3, PhysicsError> {
        Ok(self.acceleration.scale_raw(p.mass(), FORCE))
    }

    fn affine(&self, p: &Particle) -> Option<AffineForce> {
        let f = self.acceleration.scale_raw(p.mass(), FORCE);
        Some(AffineForce {
            constant: f.components().clone(),
            ..AffineForce::zero()
        })
    }
}

/// A Hooke-law spring between the particle and a fixed anchor:
/// `F = −k (|d| − L) d/|d|` with `d = x − anchor`, which is `−k d` when the rest length `L` is 0.
///
/// A nonzero rest length needs `|d|`; it is supported exactly when `|d|²` is the square of a
/// rational, and refused with [`PhysicsError::IrrationalSpringLength`] otherwise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HookeSpring {
    anchor: Vec3,
    stiffness: Rational,
    rest_length: Rational,
}

impl HookeSpring {
    /// A spring of stiffness `stiffness` (N/m) and rest length `rest_length` (m) about `anchor`
    /// (m). Stiffness and rest length must not be negative.
    pub fn new(
        anchor: Vec3,
        stiffness: &Quantity,
        rest_length: &Quantity,
    ) -> Result<Self, PhysicsError> {
        anchor.expect_dim("spring anchor", LENGTH)?;
        PhysicsError::check_dim("spring stiffness", stiffness.dim(), STIFFNESS)?;
        PhysicsError::check_dim("spring rest length", rest_length.dim(), LENGTH)?;
        non_negative("spring stiffness", stiffness.value())?;
        non_negative("spring rest length", rest_length.value())?;
        Ok(HookeSpring {
            anchor,
            stiffness: stiffness.value().clone(),
            rest_length: rest_length.value().clone(),
        })
    }

    /// The anchor (m).
    pub fn anchor(&self) -> &Vec3 {
        &self.anchor
    }

    /// The stiffness `k` (N/m).
    pub fn stiffness(&self) -> &Rational {
        &self.stiffness
    }

    /// The rest length `L` (m).
    pub fn rest_length(&self) -> &Rational {
        &self.rest_length
    }

    /// `d = x − anchor` for the particle.
    pub(crate) fn displacement(&self, p: &Particle) -> Vec3 {
        p.position().add_scaled_raw(&self.anchor, &-Rational::one())
    }

    /// The exact length `|d|`, needed only when the rest length is nonzero.
    pub(crate) fn exact_length(&self, d: &Vec3) -> Result<Rational, PhysicsError> {
        let squared = d.dot_raw(d);
        squared
            .sqrt_exact()
            .ok_or(PhysicsError::IrrationalSpringLength {
                squared_length: squared,
            })
    }
}

impl ForceModel for HookeSpring {
    fn force(&self, p: &Particle, _: &Rational) -> Result<Vec3, PhysicsError> {
        let d = self.displacement(p);
        if self.rest_length.is_zero() {
            return Ok(d.scale_raw(&-&self.stiffness, FORCE));
        }
        let length = self.exact_length(&d)?;
        if length.is_zero() {
            return Err(PhysicsError::SpringAtAnchor {
                id: p.id().to_string(),
                rest_length: self.rest_length.clone(),
            });
        }
        // −k (1 − L/|d|) d
        let ratio = self
            .rest_length
            .checked_div(&length)
            .map_err(|_| PhysicsError::DivisionByZero)?;
        let factor = -&self.stiffness * (Rational::one() - ratio);
        Ok(d.scale_raw(&factor, FORCE))
    }

    fn affine(&self, _: &Particle) -> Option<AffineForce> {
        // −k (x − a) = −k·x + k·a, only without a rest length (else |d| enters).
        self.rest_length.is_zero().then(|| {
            let [a0, a1, a2] = self.anchor.components();
            AffineForce {
                position: -&self.stiffness,
                velocity: Rational::zero(),
                constant: [
                    &self.stiffness * a0,
                    &self.stiffness * a1,
                    &self.stiffness * a2,
                ],
            }
        })
    }
}

/// Linear velocity drag `F = −b v`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinearDrag {
    coefficient: Rational,
}

impl LinearDrag {
    /// Drag with coefficient `b` (kg/s), which must not be negative.
    pub fn new(coefficient: &Quantity) -> Result<Self, PhysicsError> {
        PhysicsError::check_dim("drag coefficient", coefficient.dim(), DRAG)?;
        non_negative("drag coefficient", coefficient.value())?;
        Ok(LinearDrag {
            coefficient: coefficient.value().clone(),
        })
    }

    /// The coefficient `b` (kg/s).
    pub fn coefficient(&self) -> &Rational {
        &self.coefficient
    }
}

impl ForceModel for LinearDrag {
    fn force(&self, p: &Particle, _: &Rational) -> Result<Vec3, PhysicsError> {
        Ok(p.velocity().scale_raw(&-&self.coefficient, FORCE))
    }

    fn affine(&self, _: &Particle) -> Option<AffineForce> {
        Some(AffineForce {
            velocity: -&self.coefficient,
            ..AffineForce::zero()
        })
    }
}

fn non_negative(parameter: &'static str, value: &Rational) -> Result<(), PhysicsError> {
    if value.is_negative() {
        Err(PhysicsError::NegativeParameter {
            parameter,
            value: value.clone(),
        })
    } else {
        Ok(())
    }
}

/// The exact sum of every model's force on `p` at `time` (zero newtons for no models).
/// A model returning something other than a force is refused.
pub fn net_force(
    models: &[Box<dyn ForceModel>],
    p: &Particle,
    time: &Rational,
) -> Result<Vec3, PhysicsError> {
    let mut total: Option<Vec3> = None;
    for model in models {
        let f = model.force(p, time)?;
        f.expect_dim("force", FORCE)?;
        total = Some(match total {
            None => f,
            Some(sum) => sum.add_scaled_raw(&f, &Rational::one()),
        });
    }
    Ok(total.unwrap_or_else(|| Vec3::zero(FORCE)))
}

/// The acceleration `F / m` from the exact net force.
pub fn acceleration(
    models: &[Box<dyn ForceModel>],
    p: &Particle,
    time: &Rational,
) -> Result<Vec3, PhysicsError> {
    let inv_mass = p.mass().recip().map_err(|_| PhysicsError::DivisionByZero)?;
    Ok(net_force(models, p, time)?.scale_raw(&inv_mass, ACCELERATION))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dims::{MASS, VELOCITY};

    fn q(s: &str) -> Rational {
        s.parse().unwrap()
    }

    fn particle(x: [&str; 3], v: [&str; 3], m: &str) -> Particle {
        Particle::new(
            "p",
            &Quantity::new(q(m), MASS),
            Vec3::new(q(x[0]), q(x[1]), q(x[2]), LENGTH),
            Vec3::new(q(v[0]), q(v[1]), q(v[2]), VELOCITY),
        )
        .unwrap()
    }

    fn spring(k: &str, l: &str) -> HookeSpring {
        HookeSpring::new(
            Vec3::from_ints(1, 1, 1, LENGTH),
            &Quantity::new(q(k), STIFFNESS),
            &Quantity::new(q(l), LENGTH),
        )
        .unwrap()
    }

    #[test]
    fn spring_force_is_hookes_law() {
        let p = particle(["2", "1/2", "1"], ["0", "0", "0"], "1");
        // d = (1, -1/2, 0); F = -3 d
        let f = spring("3", "0").force(&p, &Rational::zero()).unwrap();
        assert_eq!(f, Vec3::new(q("-3"), q("3/2"), q("0"), FORCE));
        // Rest length with a rational length: d = (3, 4, 0) from the anchor, |d| = 5, L = 2:
        // F = -k (1 - 2/5) d = -(3/5) k d.
        let p = particle(["4", "5", "1"], ["0", "0", "0"], "1");
        let f = spring("10", "2").force(&p, &Rational::zero()).unwrap();
        assert_eq!(f, Vec3::from_ints(-18, -24, 0, FORCE));
        // At the rest length the force vanishes exactly.
        assert!(
            spring("10", "5")
                .force(&p, &Rational::zero())
                .unwrap()
                .is_zero()
        );
    }

    #[test]
    fn spring_refusals() {
        let p = particle(["2", "2", "1"], ["0", "0", "0"], "1");
        assert_eq!(
            spring("1", "1").force(&p, &Rational::zero()),
            Err(PhysicsError::IrrationalSpringLength {
                squared_length: q("2")
            })
        );
        let at_anchor = particle(["1", "1", "1"], ["0", "0", "0"], "1");
        assert!(matches!(
            spring("1", "1").force(&at_anchor, &Rational::zero()),
            Err(PhysicsError::SpringAtAnchor { .. })
        ));
        assert!(
            spring("1", "0")
                .force(&at_anchor, &Rational::zero())
                .unwrap()
                .is_zero()
        );
        let anchor = Vec3::zero(LENGTH);
        assert!(matches!(
            HookeSpring::new(
                anchor.clone(),
                &Quantity::new(q("-1"), STIFFNESS),
                &Quantity::new(q("0"), LENGTH)
            ),
            Err(PhysicsError::NegativeParameter {
                parameter: "spring stiffness",
                ..
            })
        ));
        assert!(matches!(
            HookeSpring::new(
                anchor.clone(),
                &Quantity::new(q("1"), FORCE),
                &Quantity::new(q("0"), LENGTH)
            ),
            Err(PhysicsError::WrongDimension {
                quantity: "spring stiffness",
                ..
            })
        ));
        assert!(matches!(
            HookeSpring::new(
                anchor,
                &Quantity::new(q("1"), STIFFNESS),
                &Quantity::new(q("-1/2"), LENGTH)
            ),
            Err(PhysicsError::NegativeParameter {
                parameter: "spring rest length",
                ..
            })
        ));
    }

    #[derive(Debug)]
    struct Wrong;
    impl ForceModel for Wrong {
        fn force(&self, p: &Particle, _: &Rational) -> Result<Vec3, PhysicsError> {
            Ok(p.velocity().clone())
        }
    }

    /// A user model: a force growing linearly in time along x.
    #[derive(Debug)]
    struct Ramp;
    impl ForceModel for Ramp {
        fn force(&self, _: &Particle, t: &Rational) -> Result<Vec3, PhysicsError> {
            Ok(Vec3::new(
                t.clone(),
                Rational::zero(),
                Rational::zero(),
                FORCE,
            ))
        }
    }

    #[test]
    fn net_force_sums_every_model_exactly() {
        let p = particle(["0", "0", "0"], ["1", "-2", "1/3"], "2");
        let models: Vec<Box<dyn ForceModel>> = vec![
            Box::new(UniformGravity::new(Vec3::from_ints(0, 0, -10, ACCELERATION)).unwrap()),
            Box::new(LinearDrag::new(&Quantity::new(q("3/2"), DRAG)).unwrap()),
            Box::new(ConstantForce::new(Vec3::from_ints(1, 1, 1, FORCE)).unwrap()),
            Box::new(Ramp),
        ];
        let f = net_force(&models, &p, &q("1/7")).unwrap();
        // gravity (0,0,-20) + drag (-3/2, 3, -1/2) + (1,1,1) + (1/7,0,0)
        assert_eq!(f, Vec3::new(q("-5/14"), q("4"), q("-39/2"), FORCE));
        let a = acceleration(&models, &p, &q("1/7")).unwrap();
        assert_eq!(a, Vec3::new(q("-5/28"), q("2"), q("-39/4"), ACCELERATION));
        assert_eq!(
            net_force(&[], &p, &Rational::zero()).unwrap(),
            Vec3::zero(FORCE)
        );
        let bad: Vec<Box<dyn ForceModel>> = vec![Box::new(Wrong)];
        assert!(matches!(
            net_force(&bad, &p, &Rational::zero()),
            Err(PhysicsError::WrongDimension {
                quantity: "force",
                ..
            })
        ));
        assert!(UniformGravity::new(Vec3::zero(VELOCITY)).is_err());
        assert!(ConstantForce::new(Vec3::zero(ACCELERATION)).is_err());
        assert!(LinearDrag::new(&Quantity::new(q("-1"), DRAG)).is_err());
    }
}
