//! [`Dimension`]: exponents of the seven SI base dimensions.

use crate::Exponent;
use std::fmt;
use std::ops::{Div, Mul};

/// The seven SI base dimensions, in the conventional order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Base {
    /// Length (L), metre.
    Length,
    /// Mass (M), kilogram.
    Mass,
    /// Time (T), second.
    Time,
    /// Electric current (I), ampere.
    Current,
    /// Thermodynamic temperature (Θ), kelvin.
    Temperature,
    /// Amount of substance (N), mole.
    Amount,
    /// Luminous intensity (J), candela.
    Luminosity,
}

impl Base {
    /// All bases in order.
    pub const ALL: [Base; 7] = [
        Base::Length,
        Base::Mass,
        Base::Time,
        Base::Current,
        Base::Temperature,
        Base::Amount,
        Base::Luminosity,
    ];

    /// The dimension symbol (`L`, `M`, `T`, `I`, `Θ`, `N`, `J`).
    pub const fn symbol(self) -> &'static str {
        ["L", "M", "T", "I", "Θ", "N", "J"][self as usize]
    }

    /// The SI base unit symbol (`m`, `kg`, `s`, `A`, `K`, `mol`, `cd`).
    pub const fn unit_symbol(self) -> &'static str {
        ["m", "kg", "s", "A", "K", "mol", "cd"][self as usize]
    }
}

/// A physical dimension: one rational exponent per SI base dimension.
///
/// Multiplication and division add and subtract exponents. Exponents are tiny in practice;
/// the operators saturate on the absurd overflow of `i32`, and the `checked_*` methods report it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Dimension {
    exps: [Exponent; 7],
}

impl Dimension {
    /// The dimension of pure numbers (and of angles).
    pub const NONE: Dimension = Dimension {
        exps: [Exponent::ZERO; 7],
    };

    /// A dimension from integer exponents in the order L, M, T, I, Θ, N, J.
    pub const fn from_ints(e: [i32; 7]) -> Self {
        Dimension {
            exps: [
                Exponent::int(e[0]),
                Exponent::int(e[1]),
                Exponent::int(e[2]),
                Exponent::int(e[3]),
                Exponent::int(e[4]),
                Exponent::int(e[5]),
                Exponent::int(e[6]),
            ],
        }
    }

    /// A dimension from rational exponents in the order L, M, T, I, Θ, N, J.
    pub const fn from_exponents(exps: [Exponent; 7]) -> Self {
        Dimension { exps }
    }

    /// The base dimension `b` to the first power.
    pub const fn base(b: Base) -> Self {
        let mut e = [0; 7];
        e[b as usize] = 1;
        Dimension::from_ints(e)
    }

    /// The exponent of one base.
    pub const fn exponent(&self, b: Base) -> Exponent {
        self.exps[b as usize]
    }

    /// All seven exponents.
    pub const fn exponents(&self) -> [Exponent; 7] {
        self.exps
    }

    /// True for pure numbers.
    pub fn is_dimensionless(&self) -> bool {
        self.exps.iter().all(|e| e.is_zero())
    }

    fn zip(self, o: Dimension, f: impl Fn(Exponent, Exponent) -> Option<Exponent>) -> Option<Self> {
        let mut exps = [Exponent::ZERO; 7];
        for ((slot, a), b) in exps.iter_mut().zip(self.exps).zip(o.exps) {
            *slot = f(a, b)?;
        }
        Some(Dimension { exps })
    }

    /// Product, or `None` if an exponent overflows.
    pub fn checked_mul(self, o: Dimension) -> Option<Self> {
        self.zip(o, |a, b| a + b)
    }

    /// Quotient, or `None` if an exponent overflows.
    pub fn checked_div(self, o: Dimension) -> Option<Self> {
        self.zip(o, |a, b| a - b)
    }

    /// Rational power, or `None` if an exponent overflows.
    pub fn checked_pow(self, p: Exponent) -> Option<Self> {
        self.zip(Dimension::NONE, |a, _| a * p)
    }

    /// Rational power (saturating; see the type docs).
    pub fn pow(self, p: Exponent) -> Self {
        self.checked_pow(p).unwrap_or_else(Dimension::saturated)
    }

    /// Integer power.
    pub fn powi(self, n: i32) -> Self {
        self.pow(Exponent::int(n))
    }

    /// The `n`-th root (`n` ≠ 0); `sqrt` is `root(2)`.
    pub fn root(self, n: i32) -> Self {
        match Exponent::new(1, i64::from(n)) {
            Some(p) => self.pow(p),
            None => Dimension::saturated(),
        }
    }

    /// The reciprocal dimension.
    pub fn recip(self) -> Self {
        Dimension::NONE / self
    }

    fn saturated() -> Self {
        Dimension {
            exps: [Exponent::int(i32::MAX); 7],
        }
    }

    /// The name of the quantity kind with this dimension, when the catalog has one
    /// (`Velocity` for `L·T⁻¹`). Dimensionless quantities are `Dimensionless`, not `Angle`.
    pub fn kind_name(&self) -> Option<&'static str> {
        crate::kind::kind_of(self)
    }

    /// The dimension in base-unit form, ASCII and parseable: `kg*m^2/s^2`, `1/mol`, `s^(-1/2)`.
    pub fn si_unit(&self) -> String {
        let mut num = Vec::new();
        let mut den = Vec::new();
        for b in Base::ALL {
            let e = self.exponent(b);
            if e.is_zero() {
                continue;
            }
            if !e.is_integer() {
                num.push(format!("{}^({})", b.unit_symbol(), e));
            } else if e.numer() > 0 {
                num.push(power_ascii(b.unit_symbol(), e.numer()));
            } else {
                den.push(power_ascii(b.unit_symbol(), -e.numer()));
            }
        }
        let top = if num.is_empty() {
            "1".to_string()
        } else {
            num.join("*")
        };
        match den.len() {
            0 => top,
            1 => format!("{top}/{}", den[0]),
            _ => format!("{top}/({})", den.join("*")),
        }
    }
}

fn power_ascii(sym: &str, n: i32) -> String {
    if n == 1 {
        sym.to_string()
    } else {
        format!("{sym}^{n}")
    }
}

/// Unicode superscript spelling of an integer (`-2` → `⁻²`).
pub(crate) fn superscript(n: i32) -> String {
    const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let mut s = String::new();
    if n < 0 {
        s.push('⁻');
    }
    for c in n.unsigned_abs().to_string().chars() {
        s.push(DIGITS[c as usize - '0' as usize]);
    }
    s
}

impl Mul for Dimension {
    type Output = Dimension;
    fn mul(self, o: Dimension) -> Dimension {
        self.checked_mul(o).unwrap_or_else(Dimension::saturated)
    }
}

impl Div for Dimension {
    type Output = Dimension;
    fn div(self, o: Dimension) -> Dimension {
        self.checked_div(o).unwrap_or_else(Dimension::saturated)
    }
}

impl fmt::Display for Dimension {
    /// Symbolic form `L·T⁻²`, `M·L²·T⁻²`, `T^(-1/2)`, or `1` for pure numbers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_dimensionless() {
            return write!(f, "1");
        }
        let mut first = true;
        for b in Base::ALL {
            let e = self.exponent(b);
            if e.is_zero() {
                continue;
            }
            if !first {
                write!(f, "·")?;
            }
            first = false;
            if e == Exponent::ONE {
                write!(f, "{}", b.symbol())?;
            } else if e.is_integer() {
                write!(f, "{}{}", b.symbol(), superscript(e.numer()))?;
            } else {
                write!(f, "{}^({})", b.symbol(), e)?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Dimension {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Dimension({self})")
    }
}

/// A readable name for error messages: the kind name where one fits, with the symbolic form
/// (`Velocity (L·T⁻¹)`), else the symbolic form alone.
pub fn describe(d: &Dimension) -> String {
    match d.kind_name() {
        Some(k) if d.is_dimensionless() => k.to_string(),
        Some(k) => format!("{k} ({d})"),
        None => d.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn arb_dim() -> impl Strategy<Value = Dimension> {
        proptest::array::uniform7((-6i64..=6, 1i64..=3)).prop_map(|e| {
            let mut exps = [Exponent::ZERO; 7];
            for (slot, (n, d)) in exps.iter_mut().zip(e) {
                *slot = Exponent::new(n, d).unwrap();
            }
            Dimension::from_exponents(exps)
        })
    }

    #[test]
    fn displays_readably() {
        let accel = Dimension::from_ints([1, 0, -2, 0, 0, 0, 0]);
        assert_eq!(accel.to_string(), "L·T⁻²");
        assert_eq!(accel.si_unit(), "m/s^2");
        let energy = Dimension::from_ints([2, 1, -2, 0, 0, 0, 0]);
        assert_eq!(energy.to_string(), "L²·M·T⁻²");
        assert_eq!(energy.si_unit(), "m^2*kg/s^2");
        let noise = Dimension::base(Base::Time).pow(Exponent::new(-1, 2).unwrap());
        assert_eq!(noise.to_string(), "T^(-1/2)");
        assert_eq!(noise.si_unit(), "s^(-1/2)");
        assert_eq!(Dimension::NONE.to_string(), "1");
        assert_eq!(
            Dimension::from_ints([0, 0, 0, 0, 0, -1, 0]).si_unit(),
            "1/mol"
        );
        assert_eq!(describe(&accel), "Acceleration (L·T⁻²)");
    }

    proptest! {
        #[test]
        fn group_laws(a in arb_dim(), b in arb_dim(), c in arb_dim()) {
            prop_assert_eq!((a * b) * c, a * (b * c));
            prop_assert_eq!(a * b, b * a);
            prop_assert_eq!(a * Dimension::NONE, a);
            prop_assert_eq!(a * a.recip(), Dimension::NONE);
            prop_assert_eq!((a * b) / b, a);
            prop_assert_eq!(a.powi(2), a * a);
            prop_assert_eq!(a.powi(2).root(2), a);
            prop_assert_eq!((a * b).powi(3), a.powi(3) * b.powi(3));
        }
    }
}
