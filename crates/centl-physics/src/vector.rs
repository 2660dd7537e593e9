//! [`Vec3`]: a three-component exact vector carrying one physical dimension.

use crate::PhysicsError;
use exact::Rational;
use std::fmt;
use units::{Dimension, Quantity};

/// An exact 3D vector with a dimension shared by its components (values in SI base units).
///
/// Addition and subtraction refuse different dimensions; scaling, dot and cross compose them.
/// There is no norm, only the exact squared norm: a length would need a square root.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Vec3 {
    c: [Rational; 3],
    dim: Dimension,
}

impl Vec3 {
    /// The vector `(x, y, z)` of dimension `dim`.
    pub fn new(x: Rational, y: Rational, z: Rational, dim: Dimension) -> Self {
        Vec3 { c: [x, y, z], dim }
    }

    /// The vector with the given components.
    pub fn from_components(c: [Rational; 3], dim: Dimension) -> Self {
        Vec3 { c, dim }
    }

    /// Small-integer components, for tests and examples.
    pub fn from_ints(x: i64, y: i64, z: i64, dim: Dimension) -> Self {
        Vec3::new(x.into(), y.into(), z.into(), dim)
    }

    /// The zero vector of a dimension.
    pub fn zero(dim: Dimension) -> Self {
        Vec3 {
            c: [Rational::zero(), Rational::zero(), Rational::zero()],
            dim,
        }
    }

    /// First component.
    pub fn x(&self) -> &Rational {
        &self.c[0]
    }

    /// Second component.
    pub fn y(&self) -> &Rational {
        &self.c[1]
    }

    /// Third component.
    pub fn z(&self) -> &Rational {
        &self.c[2]
    }

    /// All three components.
    pub fn components(&self) -> &[Rational; 3] {
        &self.c
    }

    /// The dimension.
    pub fn dim(&self) -> Dimension {
        self.dim
    }

    /// True when every component is exactly zero.
    pub fn is_zero(&self) -> bool {
        self.c.iter().all(Rational::is_zero)
    }

    /// Fails with [`PhysicsError::WrongDimension`] naming `quantity` unless the dimension is
    /// `expected`.
    pub fn expect_dim(
        &self,
        quantity: &'static str,
        expected: Dimension,
    ) -> Result<&Self, PhysicsError> {
        PhysicsError::check_dim(quantity, self.dim, expected)?;
        Ok(self)
    }

    fn same_dim(&self, o: &Vec3, operation: &'static str) -> Result<(), PhysicsError> {
        if self.dim == o.dim {
            Ok(())
        } else {
            Err(PhysicsError::VectorDimensionMismatch {
                operation,
                left: self.dim,
                right: o.dim,
            })
        }
    }

    fn zip(&self, o: &Vec3, f: impl Fn(&Rational, &Rational) -> Rational, dim: Dimension) -> Vec3 {
        Vec3 {
            c: [
                f(&self.c[0], &o.c[0]),
                f(&self.c[1], &o.c[1]),
                f(&self.c[2], &o.c[2]),
            ],
            dim,
        }
    }

    fn map(&self, f: impl Fn(&Rational) -> Rational, dim: Dimension) -> Vec3 {
        Vec3 {
            c: [f(&self.c[0]), f(&self.c[1]), f(&self.c[2])],
            dim,
        }
    }

    /// Exact sum; refuses different dimensions.
    pub fn checked_add(&self, o: &Vec3) -> Result<Vec3, PhysicsError> {
        self.same_dim(o, "add")?;
        Ok(self.zip(o, |a, b| a + b, self.dim))
    }

    /// Exact difference; refuses different dimensions.
    pub fn checked_sub(&self, o: &Vec3) -> Result<Vec3, PhysicsError> {
        self.same_dim(o, "subtract")?;
        Ok(self.zip(o, |a, b| a - b, self.dim))
    }

    /// The vector times a dimensioned scalar; the dimensions compose.
    pub fn scale(&self, s: &Quantity) -> Vec3 {
        self.scale_raw(s.value(), self.dim * s.dim())
    }

    /// The vector times a pure number; the dimension is kept.
    pub fn scale_by(&self, s: &Rational) -> Vec3 {
        self.scale_raw(s, self.dim)
    }

    /// The vector times the value `s` in SI base units, given the resulting dimension.
    pub(crate) fn scale_raw(&self, s: &Rational, dim: Dimension) -> Vec3 {
        self.map(|a| a * s, dim)
    }

    /// The vector divided by a dimensioned scalar; refuses an exact zero.
    pub fn checked_div(&self, s: &Quantity) -> Result<Vec3, PhysicsError> {
        let inv = s
            .value()
            .recip()
            .map_err(|_| PhysicsError::DivisionByZero)?;
        Ok(self.scale_raw(&inv, self.dim / s.dim()))
    }

    /// The negated vector.
    pub fn neg(&self) -> Vec3 {
        self.map(|a| -a, self.dim)
    }

    /// Exact dot product (dimensions multiply).
    pub fn dot(&self, o: &Vec3) -> Quantity {
        Quantity::new(self.dot_raw(o), self.dim * o.dim)
    }

    /// The dot product's value in SI base units.
    pub(crate) fn dot_raw(&self, o: &Vec3) -> Rational {
        &self.c[0] * &o.c[0] + &self.c[1] * &o.c[1] + &self.c[2] * &o.c[2]
    }

    /// Exact cross product (dimensions multiply).
    pub fn cross(&self, o: &Vec3) -> Vec3 {
        let [a1, a2, a3] = &self.c;
        let [b1, b2, b3] = &o.c;
        Vec3 {
            c: [a2 * b3 - a3 * b2, a3 * b1 - a1 * b3, a1 * b2 - a2 * b1],
            dim: self.dim * o.dim,
        }
    }

    /// Exact squared norm `v·v` (dimension squared).
    pub fn norm_squared(&self) -> Quantity {
        self.dot(self)
    }

    /// The largest numerator or denominator size among the components, in bits.
    pub fn max_bits(&self) -> usize {
        self.c.iter().map(Rational::bits).max().unwrap_or(0)
    }

    /// `self + o·s` without a dimension check, for the integrator's inner loop where the
    /// dimensions were checked once up front.
    pub(crate) fn add_scaled_raw(&self, o: &Vec3, s: &Rational) -> Vec3 {
        let one = *s == Rational::one();
        self.zip(o, |a, b| mul_add(a, b, s, one), self.dim)
    }
}

/// `a + b·s`, skipping the operations with a zero or a one: every exact operation pays a gcd,
/// and in the integrator's inner loop (anchors at the origin, forces summed from zero) these
/// trivial cases are common.
fn mul_add(a: &Rational, b: &Rational, s: &Rational, s_is_one: bool) -> Rational {
    if b.is_zero() || s.is_zero() {
        return a.clone();
    }
    let t = if s_is_one { b.clone() } else { b * s };
    if a.is_zero() { t } else { a + t }
}

impl fmt::Display for Vec3 {
    /// `1,0,9/2 m`: comma-separated exact components, then the SI unit (none when
    /// dimensionless).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{},{}", self.c[0], self.c[1], self.c[2])?;
        if !self.dim.is_dimensionless() {
            write!(f, " {}", self.dim.si_unit())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Vec3 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Vec3({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dims::{ENERGY, FORCE, LENGTH, VELOCITY};

    fn q(s: &str) -> Rational {
        s.parse().unwrap()
    }

    #[test]
    fn algebra_is_exact_and_dimensioned() {
        let a = Vec3::new(q("1/2"), q("-1"), q("3"), LENGTH);
        let b = Vec3::new(q("1/3"), q("2"), q("0"), LENGTH);
        assert_eq!(
            a.checked_add(&b).unwrap(),
            Vec3::new(q("5/6"), q("1"), q("3"), LENGTH)
        );
        assert_eq!(
            a.checked_sub(&b).unwrap(),
            Vec3::new(q("1/6"), q("-3"), q("3"), LENGTH)
        );
        let area = LENGTH * LENGTH;
        assert_eq!(a.dot(&b), Quantity::new(q("1/6") - q("2"), area));
        // (1/2,-1,3) × (1/3,2,0) = (-6, 1, 4/3)
        assert_eq!(a.cross(&b), Vec3::new(q("-6"), q("1"), q("4/3"), area));
        // The cross product is orthogonal to both factors, exactly.
        assert!(a.cross(&b).dot(&a).value().is_zero());
        assert!(a.cross(&b).dot(&b).value().is_zero());
        assert_eq!(a.norm_squared(), Quantity::new(q("41/4"), area));
        let force = Vec3::from_ints(2, 0, -4, FORCE);
        let work = force.dot(&a);
        assert_eq!(work, Quantity::new(q("-11"), ENERGY));
    }

    #[test]
    fn scaling_composes_dimensions() {
        let v = Vec3::from_ints(1, 2, 3, VELOCITY);
        let t = Quantity::new(q("1/10"), crate::dims::TIME);
        assert_eq!(
            v.scale(&t),
            Vec3::new(q("1/10"), q("1/5"), q("3/10"), LENGTH)
        );
        assert_eq!(v.scale_by(&q("-2")), Vec3::from_ints(-2, -4, -6, VELOCITY));
        assert_eq!(v.scale(&t).checked_div(&t).unwrap(), v);
        assert_eq!(
            v.checked_div(&Quantity::dimensionless(Rational::zero())),
            Err(PhysicsError::DivisionByZero)
        );
        assert_eq!(v.to_string(), "1,2,3 m/s");
        assert_eq!(v.neg().to_string(), "-1,-2,-3 m/s");
    }

    #[test]
    fn adding_different_dimensions_is_refused() {
        let x = Vec3::from_ints(1, 0, 0, LENGTH);
        let v = Vec3::from_ints(1, 0, 0, VELOCITY);
        assert_eq!(
            x.checked_add(&v),
            Err(PhysicsError::VectorDimensionMismatch {
                operation: "add",
                left: LENGTH,
                right: VELOCITY
            })
        );
        assert!(matches!(
            x.checked_sub(&v),
            Err(PhysicsError::VectorDimensionMismatch {
                operation: "subtract",
                ..
            })
        ));
        let e = x.expect_dim("velocity", VELOCITY).unwrap_err();
        assert_eq!(e.code(), "wrong_dimension");
        assert!(e.to_string().contains("velocity must be Velocity"), "{e}");
    }
}
