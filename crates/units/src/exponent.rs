//! [`Exponent`]: a small rational power of a base dimension.

use std::fmt;
use std::ops::{Add, Mul, Neg, Sub};

/// A reduced fraction `num/den` (den > 0) used as a dimension exponent, so that noise
/// intensities such as `Time^-1/2` are representable. Exponents in physics stay tiny; values
/// are kept in `i32` and operations saturate into an error at the [`crate::Dimension`] level.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Exponent {
    num: i32,
    den: i32,
}

const fn gcd(mut a: i64, mut b: i64) -> i64 {
    if a < 0 {
        a = -a;
    }
    if b < 0 {
        b = -b;
    }
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

impl Exponent {
    /// Zero: the base dimension is absent.
    pub const ZERO: Exponent = Exponent { num: 0, den: 1 };
    /// One.
    pub const ONE: Exponent = Exponent { num: 1, den: 1 };

    /// The integer exponent `n`.
    pub const fn int(n: i32) -> Self {
        Exponent { num: n, den: 1 }
    }

    /// The fraction `num/den` reduced; `None` for a zero denominator or when it does not fit.
    pub fn new(num: i64, den: i64) -> Option<Self> {
        if den == 0 {
            return None;
        }
        let g = gcd(num, den).max(1);
        let (mut n, mut d) = (num / g, den / g);
        if d < 0 {
            n = -n;
            d = -d;
        }
        Some(Exponent {
            num: i32::try_from(n).ok()?,
            den: i32::try_from(d).ok()?,
        })
    }

    /// Numerator in lowest terms.
    pub const fn numer(self) -> i32 {
        self.num
    }

    /// Denominator in lowest terms (always positive).
    pub const fn denom(self) -> i32 {
        self.den
    }

    /// True for zero.
    pub const fn is_zero(self) -> bool {
        self.num == 0
    }

    /// True when the exponent is a whole number.
    pub const fn is_integer(self) -> bool {
        self.den == 1
    }

    /// Checked sum.
    pub fn checked_add(self, o: Exponent) -> Option<Exponent> {
        Exponent::new(
            i64::from(self.num) * i64::from(o.den) + i64::from(o.num) * i64::from(self.den),
            i64::from(self.den) * i64::from(o.den),
        )
    }

    /// Checked product.
    pub fn checked_mul(self, o: Exponent) -> Option<Exponent> {
        Exponent::new(
            i64::from(self.num) * i64::from(o.num),
            i64::from(self.den) * i64::from(o.den),
        )
    }

    /// The value as a float (for display and the floating-point half only).
    pub fn to_f64(self) -> f64 {
        f64::from(self.num) / f64::from(self.den)
    }
}

impl Add for Exponent {
    type Output = Option<Exponent>;
    fn add(self, o: Exponent) -> Option<Exponent> {
        self.checked_add(o)
    }
}

impl Sub for Exponent {
    type Output = Option<Exponent>;
    fn sub(self, o: Exponent) -> Option<Exponent> {
        self.checked_add(-o)
    }
}

impl Mul for Exponent {
    type Output = Option<Exponent>;
    fn mul(self, o: Exponent) -> Option<Exponent> {
        self.checked_mul(o)
    }
}

impl Neg for Exponent {
    type Output = Exponent;
    fn neg(self) -> Exponent {
        // i32::MIN never occurs: construction goes through `new`, which reduces an i64.
        Exponent {
            num: self.num.saturating_neg(),
            den: self.den,
        }
    }
}

impl From<i32> for Exponent {
    fn from(n: i32) -> Self {
        Exponent::int(n)
    }
}

impl fmt::Display for Exponent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

impl fmt::Debug for Exponent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}
