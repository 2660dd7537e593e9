//! [`QuadraticNumber`]: exact numbers `a + b·√d` of a real quadratic field Q(√d).
//!
//! A contact whose time is the root of a quadratic with a non-square discriminant `D` lives in
//! Q(√D); so do the positions and velocities that follow from it. Every element is held as two
//! rationals over one radicand, and every operation (sign, comparison, the four operations, the
//! square root when it exists in the field) is exact: no root is ever approximated.
//!
//! The radicand is a positive integer that is not a perfect square. A rational radicand `p/q`
//! is rewritten as `p·q / q²`, and square factors `k²` with `k` below [`SQUARE_FREE_BOUND`]
//! are moved into the coefficient, so small radicands print square-free (`√28` becomes
//! `2·√7`). A large radicand may keep a large square factor; that changes only how it prints,
//! because two radicands name the same field exactly when their product is a perfect square,
//! and that is what every operation checks. A number whose coefficient is zero is rational and
//! has radicand 1.

use crate::{ArithmeticError, Rational};
use dashu_int::ops::SquareRootRem;
use dashu_int::{IBig, UBig};
use dashu_ratio::RBig;
use std::cmp::Ordering;
use std::fmt;

/// Square factors `k²` with `2 ≤ k < SQUARE_FREE_BOUND` are pulled out of every radicand.
pub const SQUARE_FREE_BOUND: u32 = 1000;

/// An exact element `rational + sqrt_coefficient·√radicand` of a real quadratic field.
#[derive(Clone)]
pub struct QuadraticNumber {
    rational: Rational,
    sqrt_coefficient: Rational,
    /// 1 exactly when `sqrt_coefficient` is zero; otherwise a positive non-square integer.
    radicand: UBig,
}

impl QuadraticNumber {
    /// The rational number `r` (coefficient zero, radicand 1).
    pub fn from_rational(r: Rational) -> Self {
        QuadraticNumber {
            rational: r,
            sqrt_coefficient: Rational::zero(),
            radicand: UBig::ONE,
        }
    }

    /// Exact zero.
    pub fn zero() -> Self {
        Self::from_rational(Rational::zero())
    }

    /// Exact one.
    pub fn one() -> Self {
        Self::from_rational(Rational::one())
    }

    /// `rational + sqrt_coefficient·√radicand`, normalised (see the module notes). Refuses a
    /// negative radicand, whose root is not real.
    pub fn new(
        rational: Rational,
        sqrt_coefficient: Rational,
        radicand: &Rational,
    ) -> Result<Self, ArithmeticError> {
        if radicand.is_negative() {
            return Err(ArithmeticError::NegativeRadicand {
                radicand: radicand.clone(),
            });
        }
        if radicand.is_zero() || sqrt_coefficient.is_zero() {
            return Ok(Self::from_rational(rational));
        }
        // p/q = p·q / q², so √(p/q) = √(p·q) / q.
        let (p, q) = radicand.as_parts();
        let q = q.clone();
        let pq = p.unsigned_abs_ref() * &q;
        let (root, scaled) = pull_squares(pq);
        let factor = Rational::from_big(IBig::from(root), IBig::from(q))?;
        let coefficient = sqrt_coefficient * factor;
        let (s, rem) = scaled.sqrt_rem();
        if rem == UBig::ZERO {
            // A perfect square after all: the number is rational.
            let s = Rational::from_big(IBig::from(s), IBig::ONE)?;
            return Ok(Self::from_rational(rational + coefficient * s));
        }
        Ok(QuadraticNumber {
            rational,
            sqrt_coefficient: coefficient,
            radicand: scaled,
        })
    }

    /// `√r` for a non-negative rational `r`: rational when `r` is a square, else `1·√r`.
    pub fn sqrt_of(r: &Rational) -> Result<Self, ArithmeticError> {
        Self::new(Rational::zero(), Rational::one(), r)
    }

    /// The rational part `a` of `a + b·√d`.
    pub fn rational(&self) -> &Rational {
        &self.rational
    }

    /// The coefficient `b` of `a + b·√d`.
    pub fn sqrt_coefficient(&self) -> &Rational {
        &self.sqrt_coefficient
    }

    /// The radicand `d` (1 for a rational number).
    pub fn radicand(&self) -> Rational {
        Rational(RBig::from(self.radicand.clone()))
    }

    /// True when the number is rational (its coefficient is zero).
    pub fn is_rational(&self) -> bool {
        self.sqrt_coefficient.is_zero()
    }

    /// The rational value, when the number is rational.
    pub fn to_rational(&self) -> Option<Rational> {
        self.is_rational().then(|| self.rational.clone())
    }

    /// True when the number is exactly zero.
    pub fn is_zero(&self) -> bool {
        self.is_rational() && self.rational.is_zero()
    }

    /// The larger of the bit sizes of its two rationals (see [`Rational::bits`]).
    pub fn bits(&self) -> usize {
        self.rational.bits().max(self.sqrt_coefficient.bits())
    }

    /// −1, 0 or 1: the exact sign, decided by comparing `a²` with `b²·d` when the two terms
    /// have opposite signs.
    pub fn signum(&self) -> i8 {
        let (sa, sb) = (self.rational.signum(), self.sqrt_coefficient.signum());
        if sb == 0 || sa == sb {
            return if sa == 0 { sb } else { sa };
        }
        if sa == 0 {
            return sb;
        }
        let a2 = &self.rational * &self.rational;
        let b2d = &self.sqrt_coefficient * &self.sqrt_coefficient * self.radicand();
        match a2.cmp(&b2d) {
            Ordering::Greater => sa,
            Ordering::Less => sb,
            // a² = b²d with b ≠ 0 would make d a square; the radicand never is.
            Ordering::Equal => 0,
        }
    }

    /// True when the number is strictly positive.
    pub fn is_positive(&self) -> bool {
        self.signum() > 0
    }

    /// True when the number is strictly negative.
    pub fn is_negative(&self) -> bool {
        self.signum() < 0
    }

    /// The negation.
    pub fn neg(&self) -> Self {
        QuadraticNumber {
            rational: -&self.rational,
            sqrt_coefficient: -&self.sqrt_coefficient,
            radicand: self.radicand.clone(),
        }
    }

    /// `(a, b, a', b', d)`: both numbers written over one radicand, or
    /// [`ArithmeticError::MixedRadicands`] when they lie in different quadratic fields.
    fn common(&self, rhs: &Self) -> Result<Aligned, ArithmeticError> {
        if rhs.is_rational() || self.radicand == rhs.radicand {
            return Ok(Aligned {
                coefficient: rhs.sqrt_coefficient.clone(),
                radicand: self.radicand.clone(),
            });
        }
        if self.is_rational() {
            return Ok(Aligned {
                coefficient: rhs.sqrt_coefficient.clone(),
                radicand: rhs.radicand.clone(),
            });
        }
        // √d₂ = (√(d₁d₂)/d₁)·√d₁ when d₁d₂ is a perfect square.
        let product = &self.radicand * &rhs.radicand;
        let (root, rem) = product.sqrt_rem();
        if rem != UBig::ZERO {
            return Err(ArithmeticError::MixedRadicands {
                left: self.radicand(),
                right: rhs.radicand(),
            });
        }
        let ratio = Rational::from_big(IBig::from(root), IBig::from(self.radicand.clone()))?;
        Ok(Aligned {
            coefficient: &rhs.sqrt_coefficient * ratio,
            radicand: self.radicand.clone(),
        })
    }

    fn built(rational: Rational, sqrt_coefficient: Rational, radicand: UBig) -> Self {
        if sqrt_coefficient.is_zero() {
            Self::from_rational(rational)
        } else {
            QuadraticNumber {
                rational,
                sqrt_coefficient,
                radicand,
            }
        }
    }

    /// `self + rhs`.
    pub fn checked_add(&self, rhs: &Self) -> Result<Self, ArithmeticError> {
        let al = self.common(rhs)?;
        Ok(Self::built(
            &self.rational + &rhs.rational,
            &self.sqrt_coefficient + al.coefficient,
            al.radicand,
        ))
    }

    /// `self − rhs`.
    pub fn checked_sub(&self, rhs: &Self) -> Result<Self, ArithmeticError> {
        self.checked_add(&rhs.neg())
    }

    /// `self · rhs`.
    pub fn checked_mul(&self, rhs: &Self) -> Result<Self, ArithmeticError> {
        let al = self.common(rhs)?;
        let d = Rational(RBig::from(al.radicand.clone()));
        let (a, b, c, e) = (
            &self.rational,
            &self.sqrt_coefficient,
            &rhs.rational,
            &al.coefficient,
        );
        Ok(Self::built(a * c + b * e * d, a * e + b * c, al.radicand))
    }

    /// `self · r` for a rational `r` (never fails).
    pub fn scale(&self, r: &Rational) -> Self {
        Self::built(
            &self.rational * r,
            &self.sqrt_coefficient * r,
            self.radicand.clone(),
        )
    }

    /// `self + r` for a rational `r` (never fails).
    pub fn add_rational(&self, r: &Rational) -> Self {
        Self::built(
            &self.rational + r,
            self.sqrt_coefficient.clone(),
            self.radicand.clone(),
        )
    }

    /// The conjugate `a − b·√d`.
    pub fn conjugate(&self) -> Self {
        Self::built(
            self.rational.clone(),
            -&self.sqrt_coefficient,
            self.radicand.clone(),
        )
    }

    /// The field norm `a² − b²·d` (rational; zero only for zero).
    pub fn norm(&self) -> Rational {
        &self.rational * &self.rational
            - &self.sqrt_coefficient * &self.sqrt_coefficient * self.radicand()
    }

    /// `1 / self`, by the conjugate; refuses zero.
    pub fn recip(&self) -> Result<Self, ArithmeticError> {
        let n = self.norm().recip()?;
        Ok(self.conjugate().scale(&n))
    }

    /// `self / rhs`; refuses a zero divisor.
    pub fn checked_div(&self, rhs: &Self) -> Result<Self, ArithmeticError> {
        // Align first so that a mixed field is reported as such, not as a failed inverse.
        self.common(rhs)?;
        self.checked_mul(&rhs.recip()?)
    }

    /// The exact order of `self` and `rhs` (the sign of their difference).
    pub fn checked_cmp(&self, rhs: &Self) -> Result<Ordering, ArithmeticError> {
        Ok(self.checked_sub(rhs)?.signum().cmp(&0))
    }

    /// The square root inside the number's own field, when there is one: `x + y·√d` with
    /// `x ≥ 0`-sign convention making the result non-negative. `None` when `self` is negative
    /// or its root is not of the form `x + y·√d` with rational `x`, `y` (then the root needs a
    /// new radical). A rational `r` also has a root in Q(√d) when `r/d` is a square: pass the
    /// field with [`QuadraticNumber::sqrt_in_field`] for that case.
    pub fn sqrt_exact(&self) -> Option<Self> {
        self.sqrt_in_field(&self.radicand())
    }

    /// The non-negative square root of `self` as an element of Q(√`radicand`), when it is one.
    /// `radicand` names the field (1 for the rationals) and must agree with `self`'s own.
    pub fn sqrt_in_field(&self, radicand: &Rational) -> Option<Self> {
        if self.is_negative() {
            return None;
        }
        if let Some(p) = self.to_rational() {
            if let Some(r) = p.sqrt_exact() {
                return Some(Self::from_rational(r));
            }
            // (y√d)² = y²d = p when p/d is a square.
            let field = Self::sqrt_of(radicand).ok()?;
            if field.is_rational() {
                return None;
            }
            let y = p.checked_div(&field.radicand()).ok()?.sqrt_exact()?;
            let root = field.scale(&y.checked_div(field.sqrt_coefficient()).ok()?);
            return Some(root);
        }
        // (x + y√d)² = p + q√d ⇔ x² + d y² = p, 2xy = q; with N = p² − d q² a square n,
        // x² = (p ± n)/2 for one of the signs.
        let (p, q, d) = (&self.rational, &self.sqrt_coefficient, self.radicand());
        let n = self.norm().sqrt_exact()?;
        let two = Rational::from(2);
        for candidate in [p + &n, p - &n] {
            let x2 = candidate.checked_div(&two).ok()?;
            let Some(x) = x2.sqrt_exact() else { continue };
            if x.is_zero() {
                continue;
            }
            let y = q.checked_div(&(&two * &x)).ok()?;
            if &x * &x + &d * &y * &y != *p {
                continue;
            }
            let root = Self::built(x, y, self.radicand.clone());
            return Some(if root.is_negative() { root.neg() } else { root });
        }
        None
    }

    /// `⌊self · 10^digits⌋` as an integer, computed with an integer square root: a decimal
    /// reading of the exact value with `digits` correct places, for display and checks.
    pub fn floor_scaled(&self, digits: u32) -> IBig {
        let scale = UBig::from(10u8).pow(digits as usize);
        let (an, ad) = self.rational.as_parts();
        let (bn, bd) = self.sqrt_coefficient.as_parts();
        // Work over the common denominator D = ad·bd: value·D·10^k = A + sign(b)·√(B²d).
        let den = ad * bd;
        let a_term = an * IBig::from(bd * &scale);
        let b_abs = bn.unsigned_abs_ref() * ad * &scale;
        let under = &b_abs * &b_abs * &self.radicand;
        let (root, rem) = under.sqrt_rem();
        let b_term = if bn < &IBig::ZERO {
            // −√x has floor −⌈√x⌉.
            let ceil = if rem == UBig::ZERO { root } else { root + 1u8 };
            -IBig::from(ceil)
        } else {
            IBig::from(root)
        };
        // ⌊(A + ⌊B⌋)/D⌋ = ⌊(A + B)/D⌋ for integer A and D > 0.
        floor_div(&(a_term + b_term), &IBig::from(den))
    }
}

fn floor_div(n: &IBig, d: &IBig) -> IBig {
    let q = n / d;
    if (n % d) != IBig::ZERO && (n < &IBig::ZERO) != (d < &IBig::ZERO) {
        q - 1
    } else {
        q
    }
}

/// `rhs`'s coefficient rewritten over the common radicand.
struct Aligned {
    coefficient: Rational,
    radicand: UBig,
}

/// `(k, m)` with `n = k²·m`, pulling out every `p²` for primes `p < SQUARE_FREE_BOUND`.
fn pull_squares(mut n: UBig) -> (UBig, UBig) {
    let mut k = UBig::ONE;
    if n == UBig::ZERO {
        return (k, n);
    }
    for p in small_primes() {
        let p2 = UBig::from(p * p);
        loop {
            let (quotient, rem) = (&n / &p2, &n % &p2);
            if rem != UBig::ZERO {
                break;
            }
            n = quotient;
            k *= UBig::from(p);
        }
    }
    (k, n)
}

fn small_primes() -> impl Iterator<Item = u32> {
    (2..SQUARE_FREE_BOUND).filter(|&n| (2..n).take_while(|m| m * m <= n).all(|m| n % m != 0))
}

trait UnsignedAbsRef {
    fn unsigned_abs_ref(&self) -> UBig;
}

impl UnsignedAbsRef for IBig {
    fn unsigned_abs_ref(&self) -> UBig {
        use dashu_int::ops::UnsignedAbs;
        self.clone().unsigned_abs()
    }
}

impl PartialEq for QuadraticNumber {
    fn eq(&self, other: &Self) -> bool {
        self.checked_sub(other).is_ok_and(|d| d.is_zero())
    }
}

impl Eq for QuadraticNumber {}

impl From<Rational> for QuadraticNumber {
    fn from(r: Rational) -> Self {
        Self::from_rational(r)
    }
}

impl fmt::Display for QuadraticNumber {
    /// `3/2 + 1/4·√7`, `3/2 - 1/4·√7`, `-√7`, `1/4·√7`, or the rational alone (`9/2`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_rational() {
            return write!(f, "{}", self.rational);
        }
        let b = &self.sqrt_coefficient;
        let magnitude = b.abs();
        let term = if magnitude == Rational::one() {
            format!("√{}", self.radicand)
        } else {
            format!("{magnitude}·√{}", self.radicand)
        };
        match (self.rational.is_zero(), b.is_negative()) {
            (true, false) => write!(f, "{term}"),
            (true, true) => write!(f, "-{term}"),
            (false, false) => write!(f, "{} + {term}", self.rational),
            (false, true) => write!(f, "{} - {term}", self.rational),
        }
    }
}

impl fmt::Debug for QuadraticNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "QuadraticNumber({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> Rational {
        s.parse().unwrap()
    }

    fn n(a: &str, b: &str, d: &str) -> QuadraticNumber {
        QuadraticNumber::new(q(a), q(b), &q(d)).unwrap()
    }

    #[test]
    fn prints_the_documented_forms() {
        assert_eq!(n("3/2", "1/4", "7").to_string(), "3/2 + 1/4·√7");
        assert_eq!(n("3/2", "-1/4", "7").to_string(), "3/2 - 1/4·√7");
        assert_eq!(n("0", "-1", "7").to_string(), "-√7");
        assert_eq!(n("0", "1", "28").to_string(), "2·√7");
        assert_eq!(n("1", "1", "9").to_string(), "4");
        assert_eq!(n("0", "1", "1/2").to_string(), "1/2·√2");
        assert_eq!(n("5", "0", "7").radicand(), Rational::one());
    }

    #[test]
    fn refuses_negative_radicands_and_mixed_fields() {
        assert!(matches!(
            QuadraticNumber::new(q("1"), q("1"), &q("-2")),
            Err(ArithmeticError::NegativeRadicand { .. })
        ));
        assert!(matches!(
            n("0", "1", "2").checked_add(&n("0", "1", "3")),
            Err(ArithmeticError::MixedRadicands { .. })
        ));
        assert_eq!(
            n("0", "1", "2").checked_div(&QuadraticNumber::zero()),
            Err(ArithmeticError::DivisionByZero)
        );
    }

    #[test]
    fn field_arithmetic() {
        let x = n("1", "1", "2");
        // (1 + √2)(1 − √2) = −1
        assert_eq!(x.checked_mul(&x.conjugate()).unwrap(), n("-1", "0", "1"));
        assert_eq!(
            x.checked_mul(&x.recip().unwrap()).unwrap(),
            QuadraticNumber::one()
        );
        // (1 + √2)² = 3 + 2√2 and back.
        let sq = x.checked_mul(&x).unwrap();
        assert_eq!(sq, n("3", "2", "2"));
        assert_eq!(sq.sqrt_exact().unwrap(), x);
        assert_eq!(
            n("8", "0", "1").sqrt_in_field(&q("2")).unwrap(),
            n("0", "2", "2")
        );
        assert!(n("3", "0", "1").sqrt_in_field(&q("2")).is_none());
        assert!(n("1", "1", "2").sqrt_exact().is_none());
        // A large square factor beyond the trial bound still names the same field.
        let big = Rational::from(1009i64 * 1009 * 7);
        let y = QuadraticNumber::new(q("0"), q("1"), &big).unwrap();
        let z = n("0", "1009", "7");
        assert_eq!(y, z);
        assert_eq!(y.checked_sub(&z).unwrap(), QuadraticNumber::zero());
    }

    #[test]
    fn signs_and_decimals() {
        assert_eq!(n("3", "-2", "2").signum(), 1); // 3 − 2.83
        assert_eq!(n("2", "-2", "2").signum(), -1);
        assert_eq!(n("-3", "2", "2").signum(), -1);
        assert_eq!(n("0", "1", "7").floor_scaled(5), IBig::from(264575));
        assert_eq!(n("0", "-1", "7").floor_scaled(5), IBig::from(-264576));
        assert_eq!(n("3/2", "1/4", "7").floor_scaled(4), IBig::from(21614));
    }
}
