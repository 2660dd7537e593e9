//! Constants of the DAG: exact small rationals where they stay exact, `f64` otherwise.
//!
//! Coefficients produced by differentiation (`2` from `x²`, `½` from a literal `0.5`) stay
//! rational so that `½·2` folds to exactly `1` and like terms cancel to exactly `0`. An
//! operation whose exact result would overflow `i64` falls back to a float; nothing panics.

use std::cmp::Ordering;
use std::hash::{Hash, Hasher};

/// A reduced fraction `num/den` with `den > 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SmallRational {
    num: i64,
    den: i64,
}

impl SmallRational {
    /// `num/den` reduced, or `None` when `den` is zero or the result does not fit `i64`.
    pub fn new(num: i64, den: i64) -> Option<SmallRational> {
        SmallRational::from_i128(i128::from(num), i128::from(den))
    }

    /// An integer.
    pub const fn int(value: i64) -> SmallRational {
        SmallRational { num: value, den: 1 }
    }

    fn from_i128(num: i128, den: i128) -> Option<SmallRational> {
        if den == 0 {
            return None;
        }
        let g = gcd(num.unsigned_abs(), den.unsigned_abs()).max(1) as i128;
        let (mut n, mut d) = (num / g, den / g);
        if d < 0 {
            n = -n;
            d = -d;
        }
        Some(SmallRational {
            num: i64::try_from(n).ok()?,
            den: i64::try_from(d).ok()?,
        })
    }

    /// Numerator (carries the sign).
    pub fn numer(self) -> i64 {
        self.num
    }

    /// Denominator (always positive).
    pub fn denom(self) -> i64 {
        self.den
    }

    /// The nearest `f64`.
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    fn add(self, o: SmallRational) -> Option<SmallRational> {
        let (a, b, c, d) = wide(self, o);
        SmallRational::from_i128(a * d + c * b, b * d)
    }

    fn mul(self, o: SmallRational) -> Option<SmallRational> {
        let (a, b, c, d) = wide(self, o);
        SmallRational::from_i128(a * c, b * d)
    }

    fn recip(self) -> Option<SmallRational> {
        SmallRational::new(self.den, self.num)
    }

    /// `self^e` for an integer `e`, exact, or `None` on overflow or `0^negative`.
    fn powi(self, e: i64) -> Option<SmallRational> {
        let base = if e < 0 { self.recip()? } else { self };
        let mut e = e.unsigned_abs();
        if e > 128 && base.num.unsigned_abs() > 1 {
            return None;
        }
        let (mut acc, mut sq) = (SmallRational::int(1), base);
        while e > 0 {
            if e & 1 == 1 {
                acc = acc.mul(sq)?;
            }
            e >>= 1;
            if e > 0 {
                sq = sq.mul(sq)?;
            }
        }
        Some(acc)
    }
}

fn wide(x: SmallRational, y: SmallRational) -> (i128, i128, i128, i128) {
    (
        i128::from(x.num),
        i128::from(x.den),
        i128::from(y.num),
        i128::from(y.den),
    )
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The exact integer `k`-th root of `n >= 0`, if there is one.
fn exact_root(n: i64, k: u32) -> Option<i64> {
    if n < 0 || k == 0 {
        return None;
    }
    let guess = (n as f64).powf(1.0 / f64::from(k)).round() as i64;
    (guess.saturating_sub(1)..=guess.saturating_add(1))
        .filter(|r| *r >= 0)
        .find(|r| i128::from(*r).checked_pow(k) == Some(i128::from(n)))
}

/// A constant: exact when it can be, a finite or non-finite `f64` otherwise.
///
/// Floats that are small dyadic fractions (`2.0`, `0.5`, `-0.75`) are stored as rationals, so a
/// literal `0.5` and the coefficient `1/2` are one constant and hash equal.
#[derive(Clone, Copy, Debug)]
pub enum Number {
    /// An exact fraction.
    SmallRational(SmallRational),
    /// A float that is not a small dyadic fraction.
    Float(f64),
}

impl PartialEq for Number {
    fn eq(&self, other: &Number) -> bool {
        match (self, other) {
            (Number::SmallRational(a), Number::SmallRational(b)) => a == b,
            (Number::Float(a), Number::Float(b)) => a.to_bits() == b.to_bits(),
            _ => false,
        }
    }
}

impl Eq for Number {}

impl Hash for Number {
    fn hash<H: Hasher>(&self, state: &mut H) {
        match self {
            Number::SmallRational(r) => {
                0u8.hash(state);
                r.hash(state);
            }
            Number::Float(f) => {
                1u8.hash(state);
                f.to_bits().hash(state);
            }
        }
    }
}

impl Number {
    /// Zero.
    pub const ZERO: Number = Number::SmallRational(SmallRational::int(0));
    /// One.
    pub const ONE: Number = Number::SmallRational(SmallRational::int(1));
    /// Minus one.
    pub const MINUS_ONE: Number = Number::SmallRational(SmallRational::int(-1));

    /// An integer constant.
    pub fn int(value: i64) -> Number {
        Number::SmallRational(SmallRational::int(value))
    }

    /// A float, stored exactly when it is a dyadic fraction with a small denominator.
    pub fn from_f64(value: f64) -> Number {
        if value == 0.0 {
            return Number::ZERO;
        }
        if value.is_finite() && value.abs() < 9.0e15 {
            // Scaling by a power of two is exact, so `scaled` is an integer iff value·2^20 is.
            let scaled = value * 1_048_576.0;
            if scaled.fract() == 0.0
                && scaled.abs() < 9.0e18
                && let Some(r) = SmallRational::new(scaled as i64, 1 << 20)
            {
                return Number::SmallRational(r);
            }
        }
        Number::Float(value)
    }

    /// The nearest `f64`.
    pub fn to_f64(self) -> f64 {
        match self {
            Number::SmallRational(r) => r.to_f64(),
            Number::Float(f) => f,
        }
    }

    /// Whether this is exactly zero.
    pub fn is_zero(self) -> bool {
        self == Number::ZERO
    }

    /// Whether this is exactly one.
    pub fn is_one(self) -> bool {
        self == Number::ONE
    }

    /// The value as an integer, when it is one.
    pub fn as_integer(self) -> Option<i64> {
        match self {
            Number::SmallRational(r) if r.den == 1 => Some(r.num),
            _ => None,
        }
    }

    /// The exact fraction, when it is one.
    pub fn as_rational(self) -> Option<SmallRational> {
        match self {
            Number::SmallRational(r) => Some(r),
            Number::Float(_) => None,
        }
    }

    /// Sign: -1, 0 or 1 (0 for NaN).
    pub fn signum(self) -> Ordering {
        self.to_f64().partial_cmp(&0.0).unwrap_or(Ordering::Equal)
    }

    /// Whether the value is below zero.
    pub fn is_negative(self) -> bool {
        self.signum() == Ordering::Less
    }

    /// Absolute value.
    pub fn abs(self) -> Number {
        if self.is_negative() { -self } else { self }
    }

    /// `self^e` when the result is a finite constant worth folding: exact for rational bases
    /// with integer exponents or perfect roots, a float when either side is a float and the
    /// result is finite. `None` means "keep the power symbolic" (`2^(1/2)`, `0^-1`).
    pub fn pow(self, e: Number) -> Option<Number> {
        if let (Number::SmallRational(b), Number::SmallRational(x)) = (self, e) {
            if x.den == 1 {
                return b.powi(x.num).map(Number::SmallRational);
            }
            let k = u32::try_from(x.den).ok()?;
            let n = exact_root(b.num, k)?;
            let d = exact_root(b.den, k)?;
            return SmallRational::new(n, d)?
                .powi(x.num)
                .map(Number::SmallRational);
        }
        let (b, x) = (self.to_f64(), e.to_f64());
        if b < 0.0 && x.fract() != 0.0 {
            return None;
        }
        let r = b.powf(x);
        r.is_finite().then(|| Number::from_f64(r))
    }
}

impl std::ops::Add for Number {
    type Output = Number;

    /// Exact sum when both are exact and it fits, else the float sum.
    fn add(self, o: Number) -> Number {
        match (self, o) {
            (Number::SmallRational(a), Number::SmallRational(b)) => a
                .add(b)
                .map(Number::SmallRational)
                .unwrap_or_else(|| Number::from_f64(a.to_f64() + b.to_f64())),
            _ => Number::from_f64(self.to_f64() + o.to_f64()),
        }
    }
}

impl std::ops::Mul for Number {
    type Output = Number;

    /// Exact product when both are exact and it fits, else the float product.
    fn mul(self, o: Number) -> Number {
        match (self, o) {
            (Number::SmallRational(a), Number::SmallRational(b)) => a
                .mul(b)
                .map(Number::SmallRational)
                .unwrap_or_else(|| Number::from_f64(a.to_f64() * b.to_f64())),
            _ => Number::from_f64(self.to_f64() * o.to_f64()),
        }
    }
}

impl std::ops::Neg for Number {
    type Output = Number;

    fn neg(self) -> Number {
        self * Number::MINUS_ONE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Number {
        Number::SmallRational(SmallRational::new(n, d).unwrap())
    }

    #[test]
    fn dyadic_floats_become_exact() {
        assert_eq!(Number::from_f64(0.5), q(1, 2));
        assert_eq!(Number::from_f64(-3.0), Number::int(-3));
        assert!(matches!(Number::from_f64(0.1), Number::Float(_)));
        assert_eq!(Number::from_f64(-0.0), Number::ZERO);
    }

    #[test]
    fn arithmetic_is_exact_and_overflow_falls_back() {
        assert_eq!(q(1, 2) * Number::int(2), Number::ONE);
        assert_eq!(q(1, 3) + q(2, 3), Number::ONE);
        let big = Number::int(i64::MAX);
        assert!(matches!(big * big, Number::Float(_)));
        assert_eq!((big * big).to_f64(), (i64::MAX as f64).powi(2));
    }

    #[test]
    fn powers_fold_only_when_exact_or_float() {
        assert_eq!(q(4, 9).pow(q(1, 2)), Some(q(2, 3)));
        assert_eq!(q(4, 9).pow(q(-3, 2)), Some(q(27, 8)));
        assert_eq!(Number::int(2).pow(q(1, 2)), None);
        assert_eq!(Number::ZERO.pow(Number::int(-1)), None);
        assert_eq!(Number::int(2).pow(Number::int(10)), Some(Number::int(1024)));
        assert_eq!(Number::int(3).pow(Number::int(200)), None);
        assert_eq!(
            Number::from_f64(0.1).pow(Number::int(2)),
            Some(Number::Float(0.1f64.powf(2.0)))
        );
    }
}
