//! Certified continuous contact of two spheres moving at constant velocity over `[0, T]`.
//!
//! With relative position `r`, relative velocity `v` and radius sum `R`, the squared clearance
//! `f(t) = |r + v t|² − R² = a t² + b t + c` (`a = v·v`, `b = 2 r·v`, `c = r·r − R²`) is a convex
//! quadratic, so its exact minimum over the interval decides contact without sampling. Roots
//! are rational exactly when the discriminant is a rational square; otherwise the first contact
//! is kept as an algebraic number with a rational bracket, never rounded.

use crate::dims::TIME;
use crate::{PhysicsError, Sphere};
use exact::Rational;
use units::Quantity;

/// The most bisections one [`AlgebraicTime::refine`] call performs (each halves the bracket).
pub const MAX_BISECTIONS: u32 = 10_000;

/// The verdict of a continuous contact certificate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CertificateStatus {
    /// `f(0) < 0`: the spheres already overlap.
    InitiallyOverlapping,
    /// `f(0) = 0`: the spheres touch at the start of the interval.
    TouchingAtStart,
    /// `f > 0` on the whole interval.
    NoContactInInterval,
    /// The minimum is a repeated root inside the interval: the spheres graze without crossing.
    TangentContact,
    /// `f` reaches zero at a simple root inside the interval (possibly at its end).
    CrossingContact,
}

impl CertificateStatus {
    /// The snake_case name (`initially_overlapping`, `touching_at_start`,
    /// `no_contact_in_interval`, `tangent_contact`, `crossing_contact`).
    pub fn as_str(self) -> &'static str {
        match self {
            CertificateStatus::InitiallyOverlapping => "initially_overlapping",
            CertificateStatus::TouchingAtStart => "touching_at_start",
            CertificateStatus::NoContactInInterval => "no_contact_in_interval",
            CertificateStatus::TangentContact => "tangent_contact",
            CertificateStatus::CrossingContact => "crossing_contact",
        }
    }
}

/// `f(t) = a t² + b t + c` with `a` in m²/s², `b` in m²/s, `c` in m², `t` in s.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ContactPolynomial {
    /// `v·v`.
    pub a: Rational,
    /// `2 r·v`.
    pub b: Rational,
    /// `r·r − R²`.
    pub c: Rational,
}

impl ContactPolynomial {
    /// `f(t)`, exactly.
    pub fn eval(&self, t: &Rational) -> Rational {
        (&self.a * t + &self.b) * t + &self.c
    }

    /// `b² − 4ac`.
    pub fn discriminant(&self) -> Rational {
        &self.b * &self.b - Rational::from(4) * &self.a * &self.c
    }
}

/// A quadratic-irrational first-contact time: the root of `polynomial` inside `bracket`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AlgebraicTime {
    /// The polynomial whose smaller root is the event time.
    pub polynomial: ContactPolynomial,
    /// Its discriminant, positive and not a rational square.
    pub discriminant: Rational,
    /// `(lo, hi)` in s with `f(lo) · f(hi) ≤ 0`; the first root lies in `[lo, hi]` and it is the
    /// only root there.
    pub bracket: (Rational, Rational),
}

impl AlgebraicTime {
    /// A bracket no wider than `width` (s), by exact bisection on the sign of `f`.
    pub fn refine(&self, width: &Rational) -> Result<AlgebraicTime, PhysicsError> {
        if !width.is_positive() {
            return Err(PhysicsError::NonPositiveWidth {
                width: width.clone(),
            });
        }
        let (mut lo, mut hi) = self.bracket.clone();
        // Count first, so an absurd width is refused before any work.
        let needed = bisections_needed(&(&hi - &lo), width)?;
        let two = Rational::from(2);
        let f = &self.polynomial;
        let lo_sign = f.eval(&lo).signum();
        for _ in 0..needed {
            let mid = (&lo + &hi)
                .checked_div(&two)
                .map_err(|_| PhysicsError::DivisionByZero)?;
            let s = f.eval(&mid).signum();
            if s == 0 {
                lo = mid.clone();
                hi = mid;
                break;
            } else if s == lo_sign {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        Ok(AlgebraicTime {
            polynomial: self.polynomial.clone(),
            discriminant: self.discriminant.clone(),
            bracket: (lo, hi),
        })
    }
}

/// The least `k` with `span / 2^k ≤ width`, refused above [`MAX_BISECTIONS`].
fn bisections_needed(span: &Rational, width: &Rational) -> Result<u32, PhysicsError> {
    let too_fine = || PhysicsError::RefinementTooFine {
        width: width.clone(),
        limit: MAX_BISECTIONS,
    };
    let ratio = span
        .checked_div(width)
        .map_err(|_| PhysicsError::DivisionByZero)?;
    if ratio <= Rational::one() {
        return Ok(0);
    }
    // ratio ≥ 2^(nbits − dbits − 1), so the answer is at least that and at most two more.
    let lower = ratio.numerator_bits() as i64 - ratio.denominator_bits() as i64 - 1;
    let mut k = lower.max(0);
    if k > i64::from(MAX_BISECTIONS) {
        return Err(too_fine());
    }
    while Rational::from(2).pow(k).map_err(|_| too_fine())? < ratio {
        k += 1;
    }
    u32::try_from(k)
        .ok()
        .filter(|&k| k <= MAX_BISECTIONS)
        .ok_or_else(too_fine)
}

/// The first contact time: exact rational, or algebraic with a certified bracket.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FirstContact {
    /// An exact rational time (s).
    Rational(Rational),
    /// A quadratic-irrational time.
    Algebraic(Box<AlgebraicTime>),
}

/// The exact certificate for one pair over `[0, duration]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContactCertificate {
    /// Identifier of the first sphere.
    pub first_id: String,
    /// Identifier of the second sphere.
    pub second_id: String,
    /// The verdict.
    pub status: CertificateStatus,
    /// `f(t) = a t² + b t + c`.
    pub polynomial: ContactPolynomial,
    /// `T` (s).
    pub duration: Rational,
    /// The minimiser of `f` on `[0, T]` (s): the vertex `−b/2a` clamped to the interval, or 0
    /// when `f` is constant.
    pub closest_time: Rational,
    /// `f(closest_time)` (m²): the exact minimum squared clearance.
    pub minimum_clearance: Rational,
    /// `b² − 4ac`.
    pub discriminant: Rational,
    /// The first time `f = 0` in the interval: `0` when touching at the start, absent when
    /// overlapping initially or never touching.
    pub first_contact: Option<FirstContact>,
}

/// Certifies contact or non-contact of two spheres moving at constant velocity for
/// `duration` (a non-negative time). Neither sphere is modified.
pub fn certify_linear_sphere_contact(
    first: &Sphere,
    second: &Sphere,
    duration: &Quantity,
) -> Result<ContactCertificate, PhysicsError> {
    if first.id() == second.id() {
        return Err(PhysicsError::SameParticle {
            id: first.id().to_string(),
        });
    }
    PhysicsError::check_dim("duration", duration.dim(), TIME)?;
    let t_end = duration.value().clone();
    if t_end.is_negative() {
        return Err(PhysicsError::NegativeDuration { duration: t_end });
    }
    let (a, b) = (first.particle(), second.particle());
    let minus_one = -Rational::one();
    let r = b.position().add_scaled_raw(a.position(), &minus_one);
    let v = b.velocity().add_scaled_raw(a.velocity(), &minus_one);
    let radius_sum = first.radius() + second.radius();
    let f = ContactPolynomial {
        a: v.dot_raw(&v),
        b: Rational::from(2) * r.dot_raw(&v),
        c: r.dot_raw(&r) - &radius_sum * &radius_sum,
    };
    let discriminant = f.discriminant();
    let closest_time = if f.a.is_zero() {
        Rational::zero()
    } else {
        let vertex = (-&f.b)
            .checked_div(&(Rational::from(2) * &f.a))
            .map_err(|_| PhysicsError::DivisionByZero)?;
        vertex.max(Rational::zero()).min(t_end.clone())
    };
    let minimum_clearance = f.eval(&closest_time);
    let (status, first_contact) = match f.c.signum() {
        -1 => (CertificateStatus::InitiallyOverlapping, None),
        0 => (
            CertificateStatus::TouchingAtStart,
            Some(FirstContact::Rational(Rational::zero())),
        ),
        _ => match minimum_clearance.signum() {
            1 => (CertificateStatus::NoContactInInterval, None),
            // A zero minimum is tangency only for a repeated root; at the interval's end with a
            // positive discriminant it is a crossing that the interval cuts short.
            0 if discriminant.is_zero() => (
                CertificateStatus::TangentContact,
                Some(FirstContact::Rational(closest_time.clone())),
            ),
            _ => (
                CertificateStatus::CrossingContact,
                Some(first_root(&f, &discriminant, &closest_time)?),
            ),
        },
    };
    Ok(ContactCertificate {
        first_id: first.id().to_string(),
        second_id: second.id().to_string(),
        status,
        polynomial: f,
        duration: t_end,
        closest_time,
        minimum_clearance,
        discriminant,
        first_contact,
    })
}

/// The smaller root of `f` when `f(0) > 0 ≥ f(t*)`, so `a > 0` and the root lies in `(0, t*]`.
fn first_root(
    f: &ContactPolynomial,
    discriminant: &Rational,
    closest: &Rational,
) -> Result<FirstContact, PhysicsError> {
    Ok(match discriminant.sqrt_exact() {
        Some(root) => FirstContact::Rational(
            (-&f.b - root)
                .checked_div(&(Rational::from(2) * &f.a))
                .map_err(|_| PhysicsError::DivisionByZero)?,
        ),
        // f(0) = c > 0 and f(t*) < 0: [0, t*] holds exactly one root, the first.
        None => FirstContact::Algebraic(Box::new(AlgebraicTime {
            polynomial: f.clone(),
            discriminant: discriminant.clone(),
            bracket: (Rational::zero(), closest.clone()),
        })),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bisection_count_is_exact_at_the_limit() {
        let two = Rational::from(2);
        let q = |s: &str| s.parse::<Rational>().unwrap();
        assert_eq!(bisections_needed(&q("1"), &q("1")), Ok(0));
        assert_eq!(bisections_needed(&q("1"), &q("3")), Ok(0));
        assert_eq!(bisections_needed(&q("1"), &q("1/2")), Ok(1));
        assert_eq!(bisections_needed(&q("1"), &q("1/3")), Ok(2));
        assert_eq!(bisections_needed(&q("1"), &q("1/4")), Ok(2));
        assert_eq!(bisections_needed(&q("3"), &q("1/5")), Ok(4));
        let limit = i64::from(MAX_BISECTIONS);
        let at = two.pow(-limit).unwrap();
        assert_eq!(bisections_needed(&q("1"), &at), Ok(MAX_BISECTIONS));
        let past = two.pow(-limit - 1).unwrap();
        assert!(matches!(
            bisections_needed(&q("1"), &past),
            Err(PhysicsError::RefinementTooFine { .. })
        ));
    }
}
