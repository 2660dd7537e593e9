//! [`Rational`]: an arbitrary-precision rational in lowest terms.

use crate::ArithmeticError;
use dashu_int::ops::{BitTest, SquareRootRem, UnsignedAbs};
use dashu_int::{IBig, UBig};
use dashu_ratio::RBig;
use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

/// Largest exponent accepted by [`Rational::pow`]: beyond it the result alone would take
/// megabytes, which no caller of an exact engine wants by accident.
const MAX_POW: u64 = 1 << 20;

/// An exact rational number, always stored in lowest terms with a positive denominator.
///
/// Arithmetic never rounds. Division is [`Rational::checked_div`], which refuses a zero divisor
/// instead of panicking, so there is deliberately no `Div` operator.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Rational(pub(crate) RBig);

impl Rational {
    /// Exact zero.
    pub fn zero() -> Self {
        Rational(RBig::ZERO)
    }

    /// Exact one.
    pub fn one() -> Self {
        Rational(RBig::ONE)
    }

    /// The fraction `num/den`, reduced; refuses a zero denominator.
    pub fn new(num: i64, den: i64) -> Result<Self, ArithmeticError> {
        if den == 0 {
            return Err(ArithmeticError::DivisionByZero);
        }
        Ok(Rational(RBig::from_parts_signed(
            IBig::from(num),
            IBig::from(den),
        )))
    }

    /// Builds a reduced fraction from big integers; refuses a zero denominator.
    pub(crate) fn from_big(num: IBig, den: IBig) -> Result<Self, ArithmeticError> {
        if den == IBig::ZERO {
            return Err(ArithmeticError::DivisionByZero);
        }
        Ok(Rational(RBig::from_parts_signed(num, den)))
    }

    /// True when the value is exactly zero.
    pub fn is_zero(&self) -> bool {
        self.0.is_zero()
    }

    /// True when the value is strictly greater than zero.
    pub fn is_positive(&self) -> bool {
        self.0.numerator() > &IBig::ZERO
    }

    /// True when the value is strictly less than zero.
    pub fn is_negative(&self) -> bool {
        self.0.numerator() < &IBig::ZERO
    }

    /// True when the denominator is one.
    pub fn is_integer(&self) -> bool {
        self.0.is_int()
    }

    /// −1, 0 or 1 as the sign of the value.
    pub fn signum(&self) -> i8 {
        match self.0.numerator().cmp(&IBig::ZERO) {
            Ordering::Less => -1,
            Ordering::Equal => 0,
            Ordering::Greater => 1,
        }
    }

    /// The absolute value.
    pub fn abs(&self) -> Self {
        if self.is_negative() {
            -self.clone()
        } else {
            self.clone()
        }
    }

    /// `self / rhs`, or [`ArithmeticError::DivisionByZero`].
    pub fn checked_div(&self, rhs: &Rational) -> Result<Self, ArithmeticError> {
        if rhs.is_zero() {
            return Err(ArithmeticError::DivisionByZero);
        }
        Ok(Rational(&self.0 / &rhs.0))
    }

    /// `1 / self`, or [`ArithmeticError::DivisionByZero`].
    pub fn recip(&self) -> Result<Self, ArithmeticError> {
        Rational::one().checked_div(self)
    }

    /// `self` raised to an integer power (negative powers invert; `0^-n` is refused).
    pub fn pow(&self, exponent: i64) -> Result<Self, ArithmeticError> {
        let magnitude = exponent.unsigned_abs();
        if magnitude > MAX_POW {
            return Err(ArithmeticError::PowerTooLarge { exponent });
        }
        let e =
            usize::try_from(magnitude).map_err(|_| ArithmeticError::PowerTooLarge { exponent })?;
        let raised = Rational(RBig::from_parts(
            self.0.numerator().pow(e),
            self.0.denominator().pow(e),
        ));
        if exponent < 0 {
            raised.recip()
        } else {
            Ok(raised)
        }
    }

    /// The exact square root when `self` is the square of a rational, else `None`.
    ///
    /// Negative values have no rational square root. Used to decide whether a discriminant
    /// yields a rational event time without ever computing an approximate root.
    pub fn sqrt_exact(&self) -> Option<Self> {
        if self.is_negative() {
            return None;
        }
        let num = self.0.numerator().unsigned_abs();
        let den = self.0.denominator();
        let (n_root, n_rem) = num.sqrt_rem();
        let (d_root, d_rem) = den.sqrt_rem();
        // Lowest terms with coprime parts: the fraction is a square iff both parts are.
        (n_rem.is_zero() && d_rem.is_zero())
            .then(|| Rational(RBig::from_parts(IBig::from(n_root), d_root)))
    }

    /// The largest integer not greater than `self`.
    pub fn floor(&self) -> Self {
        Rational(RBig::from(self.0.floor()))
    }

    /// The smallest integer not less than `self`.
    pub fn ceil(&self) -> Self {
        Rational(RBig::from(self.0.ceil()))
    }

    /// Bits in the magnitude of the numerator (0 for zero).
    pub fn numerator_bits(&self) -> usize {
        self.0.numerator().unsigned_abs().bit_len()
    }

    /// Bits in the denominator.
    pub fn denominator_bits(&self) -> usize {
        self.0.denominator().bit_len()
    }

    /// The larger of [`Self::numerator_bits`] and [`Self::denominator_bits`]: the size that
    /// drives the cost of exact arithmetic.
    pub fn bits(&self) -> usize {
        self.numerator_bits().max(self.denominator_bits())
    }

    /// Decimal digits of the numerator and of the denominator as printed (sign excluded).
    pub fn decimal_digits(&self) -> (usize, usize) {
        let n = self.0.numerator().unsigned_abs().to_string().len();
        let d = self.0.denominator().to_string().len();
        (n, d)
    }

    /// The numerator in lowest terms, as decimal text.
    pub fn numerator_string(&self) -> String {
        self.0.numerator().to_string()
    }

    /// The denominator in lowest terms, as decimal text.
    pub fn denominator_string(&self) -> String {
        self.0.denominator().to_string()
    }

    /// The nearest-ish `f64`, for display and plotting only: this is the single deliberate exit
    /// from the exact world and it rounds. Huge or tiny values saturate to infinity or zero.
    pub fn to_f64_lossy(&self) -> f64 {
        let num = self.0.numerator().unsigned_abs();
        let den = self.0.denominator().clone();
        if num.is_zero() {
            return 0.0;
        }
        // Scale so the integer quotient carries about 62 significant bits.
        let shift = den.bit_len() as i64 - num.bit_len() as i64 + 62;
        let quotient = if shift >= 0 {
            (num << shift as usize) / den
        } else {
            num / (den << (-shift) as usize)
        };
        let q = u64::try_from(&quotient).map_or(u64::MAX as f64, |q| q as f64);
        let mut value = q;
        let mut e = -shift;
        // Apply 2^e in chunks so an intermediate never overflows when the result would not.
        while e > 1000 {
            value *= 2f64.powi(1000);
            e -= 1000;
        }
        while e < -1000 {
            value *= 2f64.powi(-1000);
            e += 1000;
        }
        value *= 2f64.powi(e as i32);
        if self.is_negative() { -value } else { value }
    }

    /// Access to the backend value, for crates that need big-integer operations directly.
    pub fn as_parts(&self) -> (&IBig, &UBig) {
        (self.0.numerator(), self.0.denominator())
    }
}

impl From<i64> for Rational {
    fn from(v: i64) -> Self {
        Rational(RBig::from(v))
    }
}

impl From<i32> for Rational {
    fn from(v: i32) -> Self {
        Rational(RBig::from(v))
    }
}

impl From<u64> for Rational {
    fn from(v: u64) -> Self {
        Rational(RBig::from(v))
    }
}

impl From<usize> for Rational {
    fn from(v: usize) -> Self {
        Rational(RBig::from(v))
    }
}

impl fmt::Display for Rational {
    /// Lowest terms: `9/2`, `-3`, `1/10`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_int() {
            write!(f, "{}", self.0.numerator())
        } else {
            write!(f, "{}/{}", self.0.numerator(), self.0.denominator())
        }
    }
}

impl fmt::Debug for Rational {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Rational({self})")
    }
}

macro_rules! binop {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait<&Rational> for &Rational {
            type Output = Rational;
            fn $method(self, rhs: &Rational) -> Rational {
                Rational(&self.0 $op &rhs.0)
            }
        }
        impl $trait<Rational> for Rational {
            type Output = Rational;
            fn $method(self, rhs: Rational) -> Rational {
                Rational(self.0 $op rhs.0)
            }
        }
        impl $trait<&Rational> for Rational {
            type Output = Rational;
            fn $method(self, rhs: &Rational) -> Rational {
                Rational(self.0 $op &rhs.0)
            }
        }
        impl $trait<Rational> for &Rational {
            type Output = Rational;
            fn $method(self, rhs: Rational) -> Rational {
                Rational(&self.0 $op rhs.0)
            }
        }
        impl $assign_trait<&Rational> for Rational {
            fn $assign_method(&mut self, rhs: &Rational) {
                self.0 = &self.0 $op &rhs.0;
            }
        }
        impl $assign_trait<Rational> for Rational {
            fn $assign_method(&mut self, rhs: Rational) {
                self.0 = &self.0 $op rhs.0;
            }
        }
    };
}

binop!(Add, add, AddAssign, add_assign, +);
binop!(Sub, sub, SubAssign, sub_assign, -);
binop!(Mul, mul, MulAssign, mul_assign, *);

impl Neg for Rational {
    type Output = Rational;
    fn neg(self) -> Rational {
        Rational(-self.0)
    }
}

impl Neg for &Rational {
    type Output = Rational;
    fn neg(self) -> Rational {
        Rational(-self.0.clone())
    }
}

impl std::iter::Sum for Rational {
    fn sum<I: Iterator<Item = Rational>>(iter: I) -> Rational {
        iter.fold(Rational::zero(), |a, b| a + b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> Rational {
        s.parse().unwrap()
    }

    #[test]
    fn prints_lowest_terms() {
        assert_eq!(Rational::new(18, 4).unwrap().to_string(), "9/2");
        assert_eq!(Rational::new(6, -2).unwrap().to_string(), "-3");
        assert_eq!(Rational::new(0, -5).unwrap().to_string(), "0");
        assert_eq!(Rational::new(1, 0), Err(ArithmeticError::DivisionByZero));
    }

    #[test]
    fn arithmetic_is_exact() {
        let third = q("1/3");
        assert_eq!(&third + &third + &third, Rational::one());
        assert_eq!(q("0.1") + q("0.2"), q("3/10"));
        assert_eq!(q("-3/4") * q("4/3"), q("-1"));
        assert_eq!(q("1/2").checked_div(&q("1/4")).unwrap(), q("2"));
        assert_eq!(
            q("1").checked_div(&Rational::zero()),
            Err(ArithmeticError::DivisionByZero)
        );
    }

    #[test]
    fn powers_and_roots() {
        assert_eq!(q("2/3").pow(3).unwrap(), q("8/27"));
        assert_eq!(q("2/3").pow(-2).unwrap(), q("9/4"));
        assert_eq!(
            Rational::zero().pow(-1),
            Err(ArithmeticError::DivisionByZero)
        );
        assert!(matches!(
            q("2").pow(1 << 40),
            Err(ArithmeticError::PowerTooLarge { .. })
        ));
        assert_eq!(q("9/4").sqrt_exact(), Some(q("3/2")));
        assert_eq!(q("2").sqrt_exact(), None);
        assert_eq!(q("-4").sqrt_exact(), None);
        assert_eq!(Rational::zero().sqrt_exact(), Some(Rational::zero()));
    }

    #[test]
    fn floor_ceil_sign_bits() {
        assert_eq!(q("-7/2").floor(), q("-4"));
        assert_eq!(q("-7/2").ceil(), q("-3"));
        assert_eq!(q("-7/2").signum(), -1);
        assert_eq!(q("255/256").numerator_bits(), 8);
        assert_eq!(q("255/256").denominator_bits(), 9);
        assert_eq!(q("255/256").bits(), 9);
    }

    #[test]
    fn lossy_float_is_close() {
        assert_eq!(q("1/10").to_f64_lossy(), 0.1);
        assert_eq!(q("-9/2").to_f64_lossy(), -4.5);
        assert_eq!(q("1e300").to_f64_lossy(), 1e300);
        assert_eq!(q("1e-300").to_f64_lossy(), 1e-300);
        assert_eq!(Rational::zero().to_f64_lossy(), 0.0);
    }
}
